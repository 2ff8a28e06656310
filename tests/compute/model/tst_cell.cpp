// Real and reciprocal cell vectors from cell parameters, a misset, and a MOSFLM matrix,
// against hand calculation and against what the reference printed for the golden cases.

#include "compute/model/Resolve.h"
#include "compute/model/Units.h"

#include <QTest>
#include <sstream>

using bv::units::radiansFromDegrees;

namespace {
bv::Crystal cellCrystal(double a, double b, double c, double al, double be, double ga) {
    bv::Crystal crystal;
    crystal.cell = bv::UnitCell{a, b, c, radiansFromDegrees(al), radiansFromDegrees(be), radiansFromDegrees(ga)};
    return crystal;
}
void compareVec(const glm::dvec3& got, const glm::dvec3& want, double tol) {
    for (int i = 0; i < 3; ++i)
        QVERIFY2(std::fabs(got[i] - want[i]) <= tol,
                 qPrintable(QString("component %1: %2 vs %3").arg(i).arg(got[i], 0, 'g', 12).arg(want[i], 0, 'g', 12)));
}
} // namespace

class TestCell : public QObject {
    Q_OBJECT
private slots:
    void cubicCellIsAxisAligned() {
        // a cubic 100 A cell in the default orientation: a along x, reciprocal 1/100 A^-1
        std::ostringstream log;
        const bv::CellVectors v = bv::resolveCell(cellCrystal(100, 100, 100, 90, 90, 90), 1e-10, {}, false, log);
        compareVec(v.a, {100, 0, 0}, 1e-9);
        compareVec(v.b, {0, 100, 0}, 1e-9);
        compareVec(v.c, {0, 0, 100}, 1e-9);
        compareVec(v.aStar, {0.01, 0, 0}, 1e-15);
        QVERIFY(qFuzzyCompare(v.volume, 1e6));
        QVERIFY(log.str().empty());
    }

    void triclinicMatchesReference() {
        // tests/data/golden/triclinic_512/stdout.txt printed these (11.8f format)
        std::ostringstream log;
        const bv::CellVectors v = bv::resolveCell(cellCrystal(70, 80, 90, 75, 85, 95), 6.2e-10, {}, false, log);
        compareVec(v.a, {69.28031109, -7.95101471, 6.08439479}, 1e-8);
        compareVec(v.b, {0.0, 77.28816322, 20.65284063}, 1e-8);
        compareVec(v.c, {0.0, 0.0, 90.0}, 1e-8);
        compareVec(v.aStar, {0.01443705, 0.0, 0.0}, 1e-8);
        compareVec(v.bStar, {0.00148521, 0.01294122, 0.0}, 1e-8);
        compareVec(v.cStar, {-0.00131683, -0.00296970, 0.01111337}, 1e-8);
        // "volume = 481811 A^3", "Unit Cell: 70 80 90 75.0391 85.0136 95.0081" (the printed
        // angles differ from the input ones: the reference's default orientation is built
        // from the reciprocal angles, and that is what it reports)
        QVERIFY(std::fabs(v.volume - 481811) < 1);
        QVERIFY(std::fabs(bv::units::degreesFromRadians(v.cell.alpha) - 75.0391) < 1e-4);
        QVERIFY(std::fabs(bv::units::degreesFromRadians(v.cell.gamma) - 95.0081) < 1e-4);
    }

    void missetRotatesTheReciprocalAxes() {
        // a misset of 90 degrees about z turns a* (along x) onto y
        std::ostringstream log;
        const bv::CellVectors v = bv::resolveCell(cellCrystal(100, 100, 100, 90, 90, 90), 1e-10,
                                                  {0, 0, radiansFromDegrees(90)}, true, log);
        compareVec(v.aStar, {0, 0.01, 0}, 1e-15);
        compareVec(v.a, {0, 100, 0}, 1e-9);
    }

    void matrixIsDividedByTheWavelength() {
        // A = UB * lambda: at lambda 2 A, entries of 0.02 mean a* of 0.01 A^-1 (a = 100 A)
        bv::Crystal crystal;
        crystal.mosflmMatrix = glm::dmat3(glm::dvec3(0, 0, 0.02), glm::dvec3(0, 0.02, 0), glm::dvec3(0.02, 0, 0));
        std::ostringstream log;
        const bv::CellVectors v = bv::resolveCell(crystal, 2e-10, {}, false, log);
        compareVec(v.aStar, {0, 0, 0.01}, 1e-15);
        compareVec(v.cStar, {0.01, 0, 0}, 1e-15);
        QVERIFY(std::fabs(glm::length(v.a) - 100) < 1e-9);
        QVERIFY(std::fabs(std::fabs(v.volume) - 1e6) < 1e-3);
    }
};

QTEST_APPLESS_MAIN(TestCell)
#include "tst_cell.moc"
