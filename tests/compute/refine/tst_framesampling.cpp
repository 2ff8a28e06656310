// The oversampling of a fit that lets it follow the crystal (refine::fitFindingSampling): a
// frame made by nanoBragg's automatic rule was sampled as its own crystal's size says, so a
// fit that moves the size across one of the rule's steps fits again with the fitted crystal's
// oversampling; a stated -oversample, or a size held, is left alone. The fits here are
// stand-ins that report a crystal of 20 cells (no GPU): what is tested is which fits are asked
// for, and with what.

#include "compute/refine/FrameSampling.h"

#include <QTest>

namespace {

// a small crystal on the default detector: nanoBragg's rule gives it few sub-pixels
bv::Experiment stated(double cells) {
    bv::Experiment e;
    e.crystal.cell = bv::UnitCell{50.0, 60.0, 70.0, 0.0, 0.0, 0.0};
    e.crystal.cells = glm::dvec3(cells);
    e.beam.wavelength = 1e-10;
    return e;
}

struct Calls {
    std::vector<int> oversamples;    // of each fit's start
    std::vector<double> startCells;  // likewise
};

// a fit that finds 20 cells whatever it starts from
bv::refine::FitFrom fitFinding20(Calls& calls) {
    return [&calls](const bv::Experiment& start, const std::vector<std::string>&, bool) {
        calls.oversamples.push_back(start.sampling.oversample.value_or(-1));
        calls.startCells.push_back(start.crystal.cells.x);
        bv::refine::FitReport report;
        report.refined = start;
        report.refined.crystal.cells = glm::dvec3(20.0);
        report.renders = 1;
        return report;
    };
}

const bv::refine::ForwardModel noImage = [](const bv::Experiment&) { return std::vector<float>(); };

} // namespace

class TestFrameSampling : public QObject {
    Q_OBJECT
  private slots:
    void theRuleGrowsWithTheCrystal() {
        const int small = bv::refine::automaticOversampling(stated(3.0));
        const int large = bv::refine::automaticOversampling(stated(20.0));
        qInfo("nanoBragg's automatic oversampling: 3 cells %d, 20 cells %d", small, large);
        QVERIFY(small >= 1);
        QVERIFY(large > small);
        // a stated -oversample is set aside: the rule's own answer
        bv::Experiment told = stated(20.0);
        told.sampling.oversample = 1;
        QCOMPARE(bv::refine::automaticOversampling(told), large);
    }

    void followsTheFittedSizeWhereTheRuleDecides() {
        bv::Experiment start = stated(3.0);
        start.sampling.oversample = bv::refine::automaticOversampling(start); // canonicalStart's
        const std::vector<std::string> groups = {"ncells"};
        QVERIFY(bv::refine::followsCrystalOversampling(stated(3.0), groups));
        Calls calls;
        const bv::refine::SampledFit f = bv::refine::fitFindingSampling(
            stated(3.0), start, groups, {}, fitFinding20(calls), noImage);
        const int fitted = bv::refine::automaticOversampling(stated(20.0));
        // the user's fit, then the same from the same start with the fitted crystal's
        QCOMPARE(calls.oversamples, (std::vector<int>{*start.sampling.oversample, fitted}));
        QCOMPARE(calls.startCells, (std::vector<double>{3.0, 3.0}));
        QVERIFY(f.oversampling);
        QCOMPARE(f.oversampling->first, *start.sampling.oversample);
        QCOMPARE(f.oversampling->second, fitted);
        QCOMPARE(*f.report.refined.sampling.oversample, fitted);
        QCOMPARE(f.report.renders, 2); // both fits' renderings counted
    }

    void statedOversamplingOrHeldSizeIsKept() {
        Calls told;
        bv::Experiment withOversample = stated(3.0);
        withOversample.sampling.oversample = 2;
        QVERIFY(!bv::refine::followsCrystalOversampling(withOversample, {"ncells"}));
        const bv::refine::SampledFit a = bv::refine::fitFindingSampling(
            withOversample, withOversample, {"ncells"}, {}, fitFinding20(told), noImage);
        QCOMPARE(told.oversamples, std::vector<int>{2});
        QVERIFY(!a.oversampling);

        Calls held;
        bv::Experiment start = stated(3.0);
        start.sampling.oversample = bv::refine::automaticOversampling(start);
        QVERIFY(!bv::refine::followsCrystalOversampling(stated(3.0), {"distance"}));
        const bv::refine::SampledFit b = bv::refine::fitFindingSampling(
            stated(3.0), start, {"distance"}, {}, fitFinding20(held), noImage);
        QCOMPARE(held.oversamples.size(), std::size_t(1));
        QVERIFY(!b.oversampling);
    }
};

QTEST_APPLESS_MAIN(TestFrameSampling)
#include "tst_framesampling.moc"
