// The phi carry-over (compute/engine/SerialOrder.h): where phi is exactly 0 the reference
// keeps the previous step's crystal axes, so its loop meets a different orientation table
// than the Plan's, except in the first unit each OpenMP thread runs. Pure: no GPU.

#include "compute/engine/SerialOrder.h"
#include "compute/model/Units.h"
#include "compute/random/ReferenceRandom.h"

#include <QTest>

#include <sstream>

using bv::engine::OrderedOrientations;
using bv::units::radiansFromDegrees;

namespace {

bv::Experiment rotation(double phi0Degrees, double oscDegrees, int steps, int domains) {
    bv::Experiment e;
    e.crystal.cell = bv::UnitCell{100, 100, 100, 0, 0, 0};
    e.detector.setPixels(8, 8);
    e.structureFactors.defaultF = 100;
    e.crystal.phi0 = radiansFromDegrees(phi0Degrees);
    e.crystal.phi = {radiansFromDegrees(oscDegrees), {}, steps};
    if (domains > 1) {
        e.crystal.mosaicSpread = radiansFromDegrees(0.5);
        e.crystal.mosaicDomains = domains;
    }
    return e;
}

struct Planned {
    bv::ResolvedExperiment resolved;
    bv::plan::Plan plan;
};

Planned planFor(const bv::Experiment& e) {
    bv::random::ReferenceRandom rng;
    std::ostringstream log;
    Planned p{bv::resolve(e, rng, log), {}};
    p.plan = bv::plan::makePlan(p.resolved, e.mask);
    return p;
}

bool same(const bv::plan::Orientation& x, const bv::plan::Orientation& y) {
    return x.a == y.a && x.b == y.b && x.c == y.c;
}

} // namespace

class TestSerialOrder : public QObject {
    Q_OBJECT
  private slots:
    void staticScheduleSplitsRowsLikeLibgomp_data() {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("threads");
        QTest::addColumn<QList<int>>("firstRows");
        QTest::newRow("256 rows, 2 threads") << 256 << 2 << QList<int>{0, 128};
        // 5 = 3*1 + 2: the first two threads take one row more
        QTest::newRow("5 rows, 3 threads") << 5 << 3 << QList<int>{0, 2, 4};
        QTest::newRow("more threads than rows") << 2 << 4 << QList<int>{0, 1};
        QTest::newRow("serial") << 7 << 1 << QList<int>{0};
    }
    void staticScheduleSplitsRowsLikeLibgomp() {
        QFETCH(int, rows);
        QFETCH(int, threads);
        QFETCH(QList<int>, firstRows);
        const auto blocks = bv::engine::staticRowBlocks(rows, threads);
        QCOMPARE(int(blocks.size()), int(firstRows.size()));
        int expectedFirst = 0;
        for (std::size_t i = 0; i < blocks.size(); ++i) {
            QCOMPARE(blocks[i].first, firstRows[int(i)]);
            QCOMPARE(blocks[i].first, expectedFirst);
            expectedFirst = blocks[i].second;
        }
        QCOMPARE(expectedFirst, rows);
    }

    void phiAnglesAreTheReferenceSum() {
        const Planned p = planFor(rotation(0, 90, 9, 1));
        const std::vector<double> phi = bv::engine::phiAngles(p.resolved);
        QCOMPARE(int(phi.size()), 9);
        QCOMPARE(phi[0], 0.0);
        QCOMPARE(phi[8], p.resolved.phi0 + p.resolved.phi.step * 8);
    }

    void zeroPhiStepSeesTheLastStepsAxes() {
        // phi 0, 30, 60 with two mosaic domains: step 0 (phi exactly 0) sees step 2's axes
        const Planned p = planFor(rotation(0, 90, 3, 2));
        const OrderedOrientations o =
            bv::engine::orderOrientations(p.plan, bv::engine::phiAngles(p.resolved));
        QCOMPARE(o.rows.size(), std::size_t(6));
        QVERIFY(same(o.rows[0], p.plan.orientations[4]));
        QVERIFY(same(o.rows[1], p.plan.orientations[5]));
        for (std::size_t r = 2; r < 6; ++r)
            QVERIFY(same(o.rows[r], p.plan.orientations[r]));
        // ... except in the first unit, which starts from the unrotated crystal
        QCOMPARE(o.freshSteps, 1);
        QCOMPARE(o.freshRows.size(), std::size_t(2));
        QVERIFY(same(o.freshRows[0], p.plan.orientations[0]));
        QCOMPARE(int(o.freshUnits.size()), 1);
        QCOMPARE(o.freshUnits[0].pixel, 0LL);
        QCOMPARE(o.freshUnits[0].unit, 0LL);
    }

    void eachThreadStartsFresh() {
        const Planned p = planFor(rotation(0, 90, 3, 1));
        const OrderedOrientations o =
            bv::engine::orderOrientations(p.plan, bv::engine::phiAngles(p.resolved), 2);
        QCOMPARE(int(o.freshUnits.size()), 2);
        QCOMPARE(o.freshUnits[1].pixel, 4LL * 8); // row 4 of 8, first pixel
    }

    void noCarryOverWithoutAZeroStep() {
        const Planned p = planFor(rotation(10, 20, 4, 1));
        const OrderedOrientations o =
            bv::engine::orderOrientations(p.plan, bv::engine::phiAngles(p.resolved));
        QCOMPARE(o.freshSteps, 0);
        QVERIFY(o.freshUnits.empty());
        for (std::size_t r = 0; r < o.rows.size(); ++r)
            QVERIFY(same(o.rows[r], p.plan.orientations[r]));
    }

    void stillShotIsUnchanged() {
        const Planned p = planFor(rotation(0, 0, 1, 3));
        const OrderedOrientations o =
            bv::engine::orderOrientations(p.plan, bv::engine::phiAngles(p.resolved));
        QCOMPARE(o.freshSteps, 0);
        for (std::size_t r = 0; r < o.rows.size(); ++r)
            QVERIFY(same(o.rows[r], p.plan.orientations[r]));
    }

    void zeroStepInTheMiddleRepeatsTheStepBefore() {
        // phi -10, 0, 10: the middle step keeps -10's axes; no unit differs (step 0 rotates)
        const Planned p = planFor(rotation(-10, 30, 3, 1));
        const std::vector<double> phi = bv::engine::phiAngles(p.resolved);
        QCOMPARE(phi[1], 0.0);
        const OrderedOrientations o = bv::engine::orderOrientations(p.plan, phi);
        QVERIFY(same(o.rows[1], p.plan.orientations[0]));
        QCOMPARE(o.freshSteps, 0);
    }

    void roiAndMaskMoveTheFirstUnit() {
        bv::Experiment e = rotation(0, 90, 3, 1);
        e.sampling.roi = bv::Roi{2, 7, 3, 7};
        e.mask.assign(64, 1);
        e.mask[3 * 8 + 2] = 0; // the ROI's first pixel is masked
        const Planned p = planFor(e);
        const OrderedOrientations o =
            bv::engine::orderOrientations(p.plan, bv::engine::phiAngles(p.resolved));
        QCOMPARE(int(o.freshUnits.size()), 1);
        QCOMPARE(o.freshUnits[0].pixel, 3LL * 8 + 3);
    }

    void noPhiAnglesMeansThePlansTable() {
        const Planned p = planFor(rotation(0, 90, 3, 1));
        const OrderedOrientations o = bv::engine::orderOrientations(p.plan, {});
        QCOMPARE(o.freshSteps, 0);
        QVERIFY(same(o.rows[0], p.plan.orientations[0]));
    }
};

QTEST_APPLESS_MAIN(TestSerialOrder)
#include "tst_serialorder.moc"
