// The viewer's run scheduling (app/RunScheduler.h) driven through sequences of values, run
// starts and completions, with no window and no GPU: what SimulationController does when a
// slider moves, as plain decisions. Times are made up: a rate of 1e6 steps per ms is set by a
// first complete run, and settings are then "fast" (10 ms, within the 60 ms budget) or
// "slow" (1 s: a preview while values move, a cancel on a new value).
#include "app/RunScheduler.h"

#include <QTest>

using bv::app::RunScheduler;
using Action = RunScheduler::Action;
namespace plan = bv::plan;

namespace {

constexpr double kBudget = 60.0; // ms
constexpr std::uint64_t kPixels = 1000000;

// 10 steps per pixel: 1e7 steps, 10 ms at the rate below
plan::SamplingCounts fastCounts() {
    plan::SamplingCounts c;
    c.domains = 10;
    return c;
}
// 2 x 2 sub-pixels x 25 domains x 10 phi steps: 1000 steps per pixel (1 s)
plan::SamplingCounts slowCounts() {
    plan::SamplingCounts c;
    c.oversample = 2;
    c.domains = 25;
    c.phiSteps = 10;
    return c;
}
plan::RunCost costOf(const plan::SamplingCounts& counts) {
    return {kPixels, counts.stepsPerPixel()};
}

// A run from start to image: begin, choose (the counts it chose are returned), submit, end.
plan::SamplingCounts runOnce(RunScheduler& s, const plan::SamplingCounts& exact,
                             double gpuMilliseconds) {
    s.beginRun();
    const plan::SamplingCounts chosen = s.chooseSampling(exact, costOf(exact));
    if (chosen != exact)
        s.previewChosen(costOf(chosen), plan::describePreview(exact, chosen));
    s.runSubmitted();
    s.runEnded();
    s.imageComplete(gpuMilliseconds);
    return chosen;
}

// A scheduler that has shown one exact image and knows the device's rate: 1e6 steps/ms.
void warmUp(RunScheduler& s) {
    s.setBudget(kBudget);
    QCOMPARE(s.valueChanged(std::nullopt, true), Action::Start);
    runOnce(s, fastCounts(), 10.0);
    QCOMPARE(s.afterImage(true), Action::Wait);
    QVERIFY(s.showsExact());
    QCOMPARE(*s.rate().stepsPerMillisecond(), 1e6);
}

} // namespace

class RunSchedulerTest : public QObject {
    Q_OBJECT

  private slots:
    void firstValueRunsExactAtOnce() {
        RunScheduler s;
        QVERIFY(s.isDirty()); // nothing shown yet
        QCOMPARE(s.valueChanged(std::nullopt, true), Action::Start);
        s.beginRun();
        QVERIFY(!s.isDirty());
        // no rate yet: nothing to preview against, the exact setting runs
        QCOMPARE(s.chooseSampling(slowCounts(), costOf(slowCounts())), slowCounts());
        s.runSubmitted();
        QVERIFY(s.isInFlight());
        QVERIFY(!s.showsExact());
        s.runEnded();
        s.imageComplete(1000.0);
        QCOMPARE(s.afterImage(true), Action::Wait);
        QVERIFY(s.showsExact());
        QCOMPARE(s.completedRuns(), 1);
        QCOMPARE(s.previewRuns(), 0);
    }

    void noEngineNoRun() {
        RunScheduler s;
        QCOMPARE(s.valueChanged(std::nullopt, false), Action::Wait);
        QVERIFY(s.isDirty()); // kept for the engine: stateNeeded() once it is there
        QCOMPARE(s.stateNeeded(true), Action::Start);
    }

    // Values that arrive during a fast run are not computed, the newest runs after it.
    void valuesDuringAFastRunCoalesce() {
        RunScheduler s;
        warmUp(s);
        QCOMPARE(s.valueChanged(5000.0, true), Action::Start);
        s.beginRun();
        QCOMPARE(s.chooseSampling(fastCounts(), costOf(fastCounts())), fastCounts());
        s.runSubmitted();
        QCOMPARE(*s.expectedMilliseconds(), 10.0);
        // within the budget: not cancelled, the values wait
        for (int i = 0; i < 3; ++i)
            QCOMPARE(s.valueChanged(16.0, true), Action::Wait);
        QVERIFY(s.isMoving());
        QCOMPARE(s.skippedStates(), 2); // the first waits, the next two replace it in turn
        s.runEnded();
        s.imageComplete(10.0);
        // the newest value, once the frame of this image is on its way
        QCOMPARE(s.afterImage(true), Action::StartAfterFrame);
        QCOMPARE(s.valueChanged(16.0, true), Action::Wait); // no start before that frame
        QCOMPARE(s.frameShown(true), Action::Start);
        QCOMPARE(s.frameShown(true), Action::Wait); // once
        QCOMPARE(s.interruptedRuns(), 0);
    }

    // A slow exact run is cancelled by a new value; what follows while values move is a
    // preview, which is never cancelled; when they rest, the exact setting follows at once.
    void slowRunCancelledThenPreviewThenExact() {
        RunScheduler s;
        warmUp(s);
        const plan::SamplingCounts exact = slowCounts();
        // a single change, long after the last: exact at once, even though slow
        QCOMPARE(s.valueChanged(5000.0, true), Action::Start);
        QVERIFY(!s.isMoving());
        s.beginRun();
        QCOMPARE(s.chooseSampling(exact, costOf(exact)), exact);
        s.runSubmitted();
        QCOMPARE(*s.expectedMilliseconds(), 1000.0);

        QCOMPARE(s.valueChanged(16.0, true), Action::Cancel);
        QVERIFY(s.isCancelling());
        QCOMPARE(s.valueChanged(16.0, true), Action::Wait); // cancel asked once
        QCOMPARE(s.runCancelled(), Action::Start);
        QVERIFY(!s.isCancelling());
        QCOMPARE(s.interruptedRuns(), 1);

        // the value came while a run was in flight: a movement, so a preview within budget
        s.beginRun();
        const plan::SamplingCounts light = s.chooseSampling(exact, costOf(exact));
        QVERIFY(light != exact);
        QVERIFY(double(kPixels * light.stepsPerPixel()) / 1e6 <= kBudget);
        QCOMPARE(light.oversample, 1); // the ladder: sub-pixels go first
        s.previewChosen(costOf(light), plan::describePreview(exact, light));
        s.runSubmitted();
        QVERIFY(s.isPreviewRunning());
        QCOMPARE(s.valueChanged(16.0, true), Action::Wait); // a preview runs to its end
        s.runEnded();
        // the run right after a cancel does not count for the rate (its GPU time is an
        // outlier, SimulationController.h)
        s.imageComplete(0.03);
        QCOMPARE(*s.rate().stepsPerMillisecond(), 1e6);
        QVERIFY(s.isPreviewShown());
        QVERIFY(!s.previewDescription().empty());
        QCOMPARE(s.afterImage(true), Action::StartAfterFrame); // the value that waited
        QCOMPARE(s.frameShown(true), Action::Start);

        s.beginRun();
        QCOMPARE(s.chooseSampling(exact, costOf(exact)), light); // still moving
        s.previewChosen(costOf(light), plan::describePreview(exact, light));
        s.runSubmitted();
        s.runEnded();
        s.imageComplete(40.0);
        QCOMPARE(s.previewRuns(), 2);
        // no value waits: the exact setting follows, as the refinement of this preview
        QCOMPARE(s.afterImage(true), Action::StartAfterFrame);
        QCOMPARE(s.frameShown(true), Action::Start);
        s.beginRun();
        QCOMPARE(s.chooseSampling(exact, costOf(exact)), exact);
        s.runSubmitted();
        QVERIFY(!s.isPreviewRunning());
        s.runEnded();
        s.imageComplete(1000.0);
        QCOMPARE(s.afterImage(true), Action::Wait);
        QVERIFY(s.showsExact());
        QVERIFY(!s.isPreviewShown());
    }

    // A value is part of a movement when it comes within kMovingMilliseconds of the last,
    // or while a run is in flight or a preview is shown.
    void movement_data() {
        QTest::addColumn<double>("sinceLast");
        QTest::addColumn<bool>("moving");
        QTest::newRow("16 ms") << 16.0 << true;
        QTest::newRow("just under") << double(RunScheduler::kMovingMilliseconds - 1) << true;
        QTest::newRow("at the limit") << double(RunScheduler::kMovingMilliseconds) << false;
        QTest::newRow("a second") << 1000.0 << false;
    }
    void movement() {
        QFETCH(double, sinceLast);
        QFETCH(bool, moving);
        RunScheduler s;
        warmUp(s);
        QCOMPARE(s.valueChanged(sinceLast, true), Action::Start);
        QCOMPARE(s.isMoving(), moving);
        s.beginRun();
        const plan::SamplingCounts chosen = s.chooseSampling(slowCounts(), costOf(slowCounts()));
        QCOMPARE(chosen != slowCounts(), moving);
    }

    // Budget 0: no previews (braggview-bench-viewer --no-preview), and every run cancellable.
    void noBudgetNoPreview() {
        RunScheduler s;
        warmUp(s);
        s.setBudget(0.0);
        QCOMPARE(s.budget(), 0.0);
        QCOMPARE(s.valueChanged(16.0, true), Action::Start);
        QVERIFY(s.isMoving());
        s.beginRun();
        QCOMPARE(s.chooseSampling(slowCounts(), costOf(slowCounts())), slowCounts());
        s.runSubmitted();
        QCOMPARE(s.valueChanged(16.0, true), Action::Cancel);
    }

    void deviceBudgetUnlessSet() {
        RunScheduler s;
        QCOMPARE(s.budget(), plan::previewBudgetMilliseconds(true));
        s.setDeviceBudget(plan::previewBudgetMilliseconds(false));
        QCOMPARE(s.budget(), plan::previewBudgetMilliseconds(false));
        s.setBudget(5.0);
        QCOMPARE(s.budget(), 5.0);
    }

    // A stopped engine drops the run in flight and the start that waited for a frame.
    void engineStopDropsWhatWaited() {
        RunScheduler s;
        warmUp(s);
        QCOMPARE(s.valueChanged(5000.0, true), Action::Start);
        s.beginRun();
        s.chooseSampling(fastCounts(), costOf(fastCounts()));
        s.runSubmitted();
        QCOMPARE(s.valueChanged(16.0, true), Action::Wait);
        s.runEnded();
        s.imageComplete(10.0);
        QCOMPARE(s.afterImage(true), Action::StartAfterFrame);
        s.engineStopped();
        QVERIFY(!s.isInFlight());
        QCOMPARE(s.frameShown(false), Action::Wait);
        QVERIFY(s.isDirty()); // the value still waits for a restarted engine
        s.resetRate();        // a new device: a new rate
        QVERIFY(!s.rate().stepsPerMillisecond());
        QCOMPARE(s.stateNeeded(true), Action::Start);
    }
};

QTEST_APPLESS_MAIN(RunSchedulerTest)
#include "tst_runscheduler.moc"
