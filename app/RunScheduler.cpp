#include "app/RunScheduler.h"

#include <utility>

namespace bv::app {

RunScheduler::Action RunScheduler::valueChanged(std::optional<double> sinceLastMilliseconds,
                                                bool canRun) {
    // part of a movement: the viewer has not caught up with the values before it, or they
    // come quickly one after the other
    const bool quick = sinceLastMilliseconds && *sinceLastMilliseconds < kMovingMilliseconds;
    m_moving = m_inFlight || m_previewShown || quick;
    m_refineNext = false; // a preview of the new value first, when it needs one
    return schedule(canRun);
}

RunScheduler::Action RunScheduler::stateNeeded(bool canRun) {
    return schedule(canRun);
}

RunScheduler::Action RunScheduler::schedule(bool canRun) {
    if (m_inFlight && m_dirty)
        ++m_skippedStates; // the value waiting for the run to end is superseded
    m_dirty = true;
    if (!canRun)
        return Action::Wait;
    if (m_inFlight) {
        if (interruptible() && !m_interruptPending) {
            m_interruptPending = true;
            return Action::Cancel;
        }
        return Action::Wait;
    }
    return m_startAfterFrame ? Action::Wait : Action::Start;
}

bool RunScheduler::interruptible() const {
    // not a preview, nor a run expected within the preview budget: their images are what a
    // movement shows (cancelled by every next value, a drag would show nothing)
    const std::optional<double> ms = m_rate.milliseconds(m_runCost);
    const double limit = budget();
    return !m_runningPreview && (!ms || limit <= 0.0 || *ms > limit);
}

plan::SamplingCounts RunScheduler::chooseSampling(const plan::SamplingCounts& exact,
                                                  const plan::RunCost& exactCost) {
    m_currentCost = exactCost;
    m_runCost = exactCost;
    m_runningPreview = false;
    m_runningPreviewText.clear();
    // the decision itself is plan::chooseRun (braggview-bench-preview runs the same)
    plan::RunSituation situation;
    situation.exact = exact;
    situation.pixels = exactCost.pixels;
    situation.stepsPerMillisecond = m_rate.stepsPerMillisecond();
    situation.moving = m_moving && !m_refineNext;
    situation.budgetMilliseconds = budget();
    return plan::chooseRun(situation);
}

void RunScheduler::previewChosen(const plan::RunCost& previewCost, std::string description) {
    m_runCost = previewCost;
    m_runningPreview = true;
    m_runningPreviewText = std::move(description);
}

void RunScheduler::imageComplete(double gpuMilliseconds) {
    // A complete run: the device's rate. Not the run right after a cancelled one: on lavapipe
    // its GPU time came out at 0.03 ms for a run of 43 ms wall (a preview after an
    // interrupted exact run; the Simulator's timestamps after cancel() are not understood
    // yet): an outlier a thousand times fast.
    if (!m_afterCancel)
        m_rate.add(m_runCost, gpuMilliseconds);
    m_afterCancel = false;
    m_previewShown = m_runningPreview;
    m_previewText = m_runningPreviewText;
    if (m_runningPreview)
        ++m_previewRuns;
    ++m_completedRuns;
}

RunScheduler::Action RunScheduler::afterImage(bool complete) {
    if (complete && m_previewShown && !m_dirty) {
        // no newer value came while the preview ran: the exact image follows at once
        m_refineNext = true;
        m_dirty = true;
    }
    if (!m_dirty)
        return Action::Wait;
    // the newest state next, once the frame showing this image is on its way (a frame
    // submitted after the next run would have to wait for it)
    m_startAfterFrame = true;
    return Action::StartAfterFrame;
}

RunScheduler::Action RunScheduler::runCancelled() {
    m_interruptPending = false;
    m_inFlight = false;
    ++m_interruptedRuns;
    m_afterCancel = true;
    return Action::Start; // the value that cancelled it, at once
}

RunScheduler::Action RunScheduler::frameShown(bool canRun) {
    if (!m_startAfterFrame)
        return Action::Wait;
    m_startAfterFrame = false;
    return m_dirty && !m_inFlight && canRun ? Action::Start : Action::Wait;
}

void RunScheduler::engineGone() {
    m_inFlight = false;
    m_interruptPending = false;
}

void RunScheduler::engineStopped() {
    m_inFlight = false;
    m_interruptPending = false;
    m_startAfterFrame = false;
}

} // namespace bv::app
