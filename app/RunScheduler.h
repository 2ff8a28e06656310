#pragma once
// RunScheduler: what the viewer runs next, and when, as plain state without Qt, a window or a
// GPU (app/SimulationController.h carries it out: resolve, plan, the Simulator, the window's
// frames, timers and signals). Driven by events, it answers with the action to take:
//
//     RunScheduler s;
//     s.valueChanged(std::nullopt, true);       // Action::Start: a first value, nothing runs
//     s.beginRun();
//     const plan::SamplingCounts counts = s.chooseSampling(exact, exactCost); // exact or preview
//     s.runSubmitted();
//     s.valueChanged(16.0, true);               // Wait (coalesced) or Cancel (a long run)
//     s.runEnded(); s.imageComplete(gpuMs);
//     s.afterImage(true);                       // StartAfterFrame: the newest value next
//
// The decisions, each a few lines below:
//  - coalescing: values that arrive while a run is in flight are not computed; the newest
//    runs when the run ends (skippedStates() counts the others);
//  - movement: a value is part of a movement when it comes while a run is in flight, while a
//    preview is shown, or less than kMovingMilliseconds after the value before it;
//  - preview or exact: while values move and the exact setting would take longer than the
//    budget at the measured rate, a lighter sampling that fits it (plan::chooseRun, the
//    preview ladder of plan::previewCounts); when a preview is done and no newer value
//    waits, the exact run follows at once;
//  - cancel: a new value stops a run expected to take longer than the budget (or whose time
//    is not known yet); a preview, or a run within the budget, runs to its end (a movement's
//    values, 16 ms apart, would otherwise stop every one before its image);
//  - the budget: setBudget() (the tests, braggview-bench-viewer --no-preview: 0), else the
//    device's (plan::previewBudgetMilliseconds), which setDeviceBudget() gives;
//  - the rate: steps per ms from complete runs, except the run right after a cancelled one.
//
// Why in app/ and not compute/plan: plan answers "what sampling fits this budget at this
// rate" (chooseRun) for any front end, and braggview-bench-preview asks it too; this class is
// the viewer's interaction around it (values that move, runs in flight, frames, cancels),
// which nothing but the viewer has. It uses plan's types only, so it stays Qt-free and is
// tested without a window (tests/app/tst_runscheduler.cpp).

#include "compute/plan/Preview.h"
#include "compute/plan/RunCost.h"

#include <optional>
#include <string>

namespace bv::app {

class RunScheduler {
  public:
    enum class Action {
        Wait,            // nothing to do now
        Start,           // start a run of the current value (beginRun() ... runSubmitted())
        Cancel,          // cancel the run in flight; runCancelled() once its slice stopped
        StartAfterFrame, // start the newest value once the frame of this image is on its way
    };

    // a change this soon after the one before is part of a movement
    static constexpr int kMovingMilliseconds = 250;

    // Events. `canRun`: an engine is there to run (a Simulator, not stopped).
    // A new value of the document, `sinceLastMilliseconds` after the one before (nullopt:
    // the first). Start, Cancel or Wait.
    Action valueChanged(std::optional<double> sinceLastMilliseconds, bool canRun);
    // The current value needs a run (a new engine, a new setting of the engine): Start,
    // Cancel or Wait, as for a new value that is not part of a movement by itself.
    Action stateNeeded(bool canRun);
    // The current value must be run again (a new device or Simulator), without an action now.
    void markDirty() { m_dirty = true; }

    // A run: beginRun() takes the current value (a run that fails to start leaves nothing to
    // do until the next value), chooseSampling() decides the sampling of its plan,
    // previewChosen() records the lighter plan's cost when it is not exact, runSubmitted()
    // once the Simulator took it.
    void beginRun() { m_dirty = false; }
    plan::SamplingCounts chooseSampling(const plan::SamplingCounts& exact,
                                        const plan::RunCost& exactCost);
    void previewChosen(const plan::RunCost& previewCost, std::string description);
    void runSubmitted() { m_inFlight = true; }

    // The run in flight ended (its image complete or not); imageComplete() then records a
    // complete image and the GPU time it took, and afterImage() says what comes next:
    // StartAfterFrame when a newer value waits or a preview is to be refined, else Wait.
    void runEnded() { m_inFlight = false; }
    void imageComplete(double gpuMilliseconds);
    Action afterImage(bool complete);
    // The slice of a cancelled run stopped: Start (the newest value, at once).
    Action runCancelled();
    // The frame of the last image is on its way (or the wait for it is over): Start when a
    // run is due, else Wait.
    Action frameShown(bool canRun);
    // The engine went (its runs with it) or stopped after a failure.
    void engineGone();
    void engineStopped();
    // another device or precision: another rate
    void resetRate() { m_rate = {}; }

    // The budget a preview may take (ms): setBudget()'s, else the device's.
    void setBudget(double milliseconds) { m_budgetOverride = milliseconds; }
    void setDeviceBudget(double milliseconds) { m_deviceBudget = milliseconds; }
    double budget() const { return m_budgetOverride.value_or(m_deviceBudget); }

    // State.
    bool isDirty() const { return m_dirty; }        // a value waits to be run
    bool isInFlight() const { return m_inFlight; }  // a run is on the GPU
    bool isCancelling() const { return m_interruptPending; } // Cancel given, not yet ended
    bool isPreviewRunning() const { return m_inFlight && m_runningPreview; }
    bool isPreviewShown() const { return m_previewShown; } // the last image is a preview
    const std::string& previewDescription() const { return m_previewText; }
    bool isMoving() const { return m_moving; }
    // the image shown is the current value's, exact (nothing waits, nothing runs)
    bool showsExact() const { return !m_inFlight && !m_dirty && !m_previewShown; }

    const plan::RateEstimate& rate() const { return m_rate; }
    const plan::RunCost& currentCost() const { return m_currentCost; } // the exact setting's
    const plan::RunCost& runCost() const { return m_runCost; } // the run in flight's (a preview's)
    std::optional<double> expectedMilliseconds() const { return m_rate.milliseconds(m_currentCost); }

    int previewRuns() const { return m_previewRuns; }
    int completedRuns() const { return m_completedRuns; }
    int skippedStates() const { return m_skippedStates; } // values superseded while in flight
    int interruptedRuns() const { return m_interruptedRuns; }

  private:
    Action schedule(bool canRun);
    // whether a new value cancels the run in flight
    bool interruptible() const;

    bool m_dirty = true;
    bool m_inFlight = false;
    bool m_interruptPending = false; // cancel requested: the run ends when its slice stops
    bool m_startAfterFrame = false;  // the next run waits for the frame of the last image
    bool m_moving = false;           // the last change was part of a movement
    bool m_refineNext = false;       // a preview is shown and no value waits: the exact run next
    bool m_runningPreview = false;   // the run in flight is a preview
    std::string m_runningPreviewText;
    bool m_previewShown = false; // the last complete image is a preview
    std::string m_previewText;
    bool m_afterCancel = false; // the run in flight started right after a cancelled one

    plan::RateEstimate m_rate;   // the device's steps per ms, from complete runs
    plan::RunCost m_currentCost; // the exact setting's work of the run in flight (or last)
    plan::RunCost m_runCost;     // the work of the run in flight: a preview's is less
    std::optional<double> m_budgetOverride;
    double m_deviceBudget = plan::previewBudgetMilliseconds(true); // no device yet: a CPU's

    int m_previewRuns = 0;
    int m_completedRuns = 0;
    int m_skippedStates = 0;
    int m_interruptedRuns = 0;
};

} // namespace bv::app
