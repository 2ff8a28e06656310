// StolSpline (nonBragg's polint over the padded table) and the built-in materials: values
// worked by hand, not taken from the code under test.

#include "compute/amorphous/Materials.h"
#include "compute/amorphous/StolSpline.h"
#include "compute/core/Error.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

namespace {

bv::io::StolTable table(std::vector<double> stol, std::vector<double> F) {
    return {std::move(stol), std::move(F)};
}

} // namespace

class TestStolSpline : public QObject {
    Q_OBJECT
  private slots:
    // Between four real points the cubic through them reproduces any cubic exactly:
    // F = 1 + 2 s - s^2 + 0.5 s^3 at s = 0.25 is 1 + 0.5 - 0.0625 + 0.0078125 = 1.4453125.
    void reproducesACubicBetweenRealPoints() {
        auto f = [](double s) { return 1 + 2 * s - s * s + 0.5 * s * s * s; };
        const std::vector<double> s{0.0, 0.1, 0.2, 0.3, 0.4, 0.5};
        std::vector<double> F;
        for (double x : s)
            F.push_back(f(x));
        const bv::amorphous::StolSpline spline(table(s, F), 1.0);
        QVERIFY(std::fabs(spline(0.25) - 1.4453125) < 1e-12);
        QVERIFY(std::fabs(spline(0.15) - f(0.15)) < 1e-12);
        QCOMPARE(spline.points(), std::size_t(10)); // six points and four pads
    }

    // A window that holds a padding point (+-1e98, +-1e99) is, in double, the polynomial
    // through its real points alone: the pad's own term vanishes and (s - pad) / (x - pad)
    // rounds to 1.
    void theEndIntervalsAreLines() {
        const bv::amorphous::StolSpline spline(table({0.0, 1.0, 2.0}, {3.0, 5.0, 11.0}), 1.0);
        // first interval [0, 1): window -1e98, 0, 1, 2 -> the quadratic through (0,3), (1,5),
        // (2,11): second difference 4, so 3 + 2 s^2; at 0.5: 3.5
        QVERIFY(std::fabs(spline(0.5) - 3.5) < 1e-9);
        // beyond the last point: window 1, 2, +1e98, +1e99 -> the line through (1,5), (2,11)
        QVERIFY(std::fabs(spline(2.5) - 14.0) < 1e-9);
    }

    // The multiplier turns the file's unit into 1/m: -stol (1e10), -4stol (1e10/4).
    void multiplierScalesTheArgument() {
        const bv::amorphous::StolSpline spline(table({0.0, 0.4, 0.8, 1.2}, {0.0, 4.0, 8.0, 12.0}),
                                               1e10 / 4);
        // F = 10 x (4 stol) = 10 x 4 x (x / 1e10) at x = 0.05e10 (stol 0.05 / A): 2
        QVERIFY(std::fabs(spline(0.05e10) - 2.0) < 1e-9);
    }

    void builtInMaterials() {
        const std::vector<std::string> names = bv::amorphous::materialNames();
        QCOMPARE(names, (std::vector<std::string>{"water", "air", "ice", "nanoice", "unity"}));
        // resources/stol/water.stol: 10000 points, the first "0 2.56999"
        const bv::io::StolTable water = bv::amorphous::stolTable("water");
        QCOMPARE(water.stol.size(), std::size_t(10000));
        QCOMPARE(water.F.front(), 2.56999);
        QCOMPARE(bv::amorphous::stolTable("water.stol").stol.size(), std::size_t(10000));
        // unity.stol: F = 1 at 0, 0.5, 1, 2
        QCOMPARE(bv::amorphous::stolTable("unity").F, (std::vector<double>{1, 1, 1, 1}));
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::amorphous::stolTable("plutonium"));
    }

    void aFileOfTheSameNameWins() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("water").toStdString();
        std::ofstream(path) << "0 7\n1 7\n";
        QCOMPARE(bv::amorphous::stolTable(path).F, (std::vector<double>{7, 7}));
    }
};

QTEST_APPLESS_MAIN(TestStolSpline)
#include "tst_stolspline.moc"
