// The reference's rules for completing a sweep the user half-specified, case by case.
// Expected values worked out by hand from the rules as nanoBragg documents them in its usage
// ("number of steps", "range", "step size") and from its printed summaries.

#include "compute/model/Sweep.h"
#include "compute/model/Units.h"

#include <QTest>

using bv::Sweep;
using bv::SweepRequest;

Q_DECLARE_METATYPE(SweepRequest)

class TestSweep : public QObject {
    Q_OBJECT
private slots:
    void divergence_data() {
        QTest::addColumn<SweepRequest>("request");
        QTest::addColumn<double>("range");
        QTest::addColumn<double>("step");
        QTest::addColumn<int>("steps");
        // nothing asked: one source, no spread
        QTest::newRow("nothing") << SweepRequest{} << 0.0 << 0.0 << 1;
        // range and count: samples from -range/2 to +range/2 inclusive (dispersion_div case:
        // 0.4 mrad in 3 steps -> deviations -0.2, 0, +0.2 mrad)
        QTest::newRow("range+steps") << SweepRequest{0.4e-3, {}, 3} << 0.4e-3 << 0.2e-3 << 3;
        // range alone: two samples at the ends
        QTest::newRow("range only") << SweepRequest{0.4e-3, {}, {}} << 0.4e-3 << 0.4e-3 << 2;
        // range and step: as many steps as fit, rounded up
        QTest::newRow("range+step") << SweepRequest{1.0e-3, 0.3e-3, {}} << 1.0e-3 << 0.3e-3 << 4;
        // step alone: the range is one step, two samples
        QTest::newRow("step only") << SweepRequest{{}, 0.1e-3, {}} << 0.1e-3 << 0.1e-3 << 2;
        // a count alone spreads over 1 (radian!) - the reference's default
        QTest::newRow("steps only") << SweepRequest{{}, {}, 4} << 1.0 << 0.25 << 4;
        // one step over a range is widened to two
        QTest::newRow("range, 1 step") << SweepRequest{0.4e-3, {}, 1} << 0.4e-3 << 0.4e-3 << 2;
        // a zero range collapses to one sample
        QTest::newRow("zero range") << SweepRequest{0.0, {}, 5} << 0.0 << 0.0 << 1;
    }
    void divergence() {
        QFETCH(SweepRequest, request);
        QFETCH(double, range);
        QFETCH(double, step);
        QFETCH(int, steps);
        const Sweep s = bv::resolveSpreadSweep(request);
        QCOMPARE(s.steps, steps);
        QVERIFY(qFuzzyCompare(1.0 + s.range, 1.0 + range));
        QVERIFY(qFuzzyCompare(1.0 + s.step, 1.0 + step));
    }

    void thickness() {
        // comprehensive case: 450 um in 5 layers -> layers at 0, 112.5, ..., 450 um
        Sweep s = bv::resolveThicknessSweep({450e-6, {}, 5});
        QCOMPARE(s.steps, 5);
        QVERIFY(qFuzzyCompare(s.step, 112.5e-6));
        // thickness alone: two layers of half the thickness (unlike divergence)
        s = bv::resolveThicknessSweep({100e-6, {}, {}});
        QCOMPARE(s.steps, 2);
        QVERIFY(qFuzzyCompare(s.step, 50e-6));
        // the reference's default (thickness 0): a single layer
        s = bv::resolveThicknessSweep({0.0, {}, {}});
        QCOMPARE(s.steps, 1);
        QCOMPARE(s.step, 0.0);
    }

    void phi() {
        using bv::units::radiansFromDegrees;
        // phi_osc case: 20 degrees in 5 steps -> 4 degree steps (phi 10, 14, ..., 26)
        Sweep s = bv::resolvePhiSweep({radiansFromDegrees(20), {}, 5});
        QCOMPARE(s.steps, 5);
        QVERIFY(qFuzzyCompare(s.step, radiansFromDegrees(4)));
        // nothing: a still
        s = bv::resolvePhiSweep({});
        QCOMPARE(s.steps, 1);
        QCOMPARE(s.range, 0.0);
        // an oscillation alone: two steps of half of it
        s = bv::resolvePhiSweep({radiansFromDegrees(1), {}, {}});
        QCOMPARE(s.steps, 2);
        QVERIFY(qFuzzyCompare(s.step, radiansFromDegrees(0.5)));
        // a count alone: one degree
        s = bv::resolvePhiSweep({{}, {}, 10});
        QVERIFY(qFuzzyCompare(s.range, radiansFromDegrees(1)));
        QVERIFY(qFuzzyCompare(s.step, radiansFromDegrees(0.1)));
        // zero steps means one
        s = bv::resolvePhiSweep({radiansFromDegrees(1), {}, 0});
        QCOMPARE(s.steps, 1);
        // range and step: rounded up
        s = bv::resolvePhiSweep({radiansFromDegrees(1), radiansFromDegrees(0.3), {}});
        QCOMPARE(s.steps, 4);
    }
};

QTEST_APPLESS_MAIN(TestSweep)
#include "tst_sweep.moc"
