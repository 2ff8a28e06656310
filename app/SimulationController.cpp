#include "app/SimulationController.h"

#include "app/PanelViews.h"
#include "app/SkippedPixels.h"

#include "compute/core/Error.h"
#include "compute/plan/Plan.h"
#include "compute/plan/Preview.h"
#include "compute/random/ReferenceRandom.h"
#include "compute/vk/Device.h"
#include "render/ImageWindow.h"

#include <QCoreApplication>
#include <QVulkanInstance>

#include <algorithm>
#include <new>
#include <sstream>

namespace bv::app {

namespace {
constexpr int kPollMilliseconds = 5;
// the longest a finished image (or a partial one) waits for its frame before the next run
// (or slice) is submitted anyway
constexpr int kFrameWaitMilliseconds = 100;

} // namespace

SimulationController::SimulationController(ExperimentDocument& document,
                                           render::ImageWindow& window, QObject* parent)
    : QObject(parent), m_document(document), m_window(window) {
    m_poll.setInterval(kPollMilliseconds);
    connect(&m_poll, &QTimer::timeout, this, &SimulationController::poll);
    connect(&m_document, &ExperimentDocument::changed, this,
            &SimulationController::onDocumentChanged);
    connect(&m_document, &ExperimentDocument::precisionChanged, this,
            &SimulationController::onPrecisionChanged);
    connect(&m_window, &render::ImageWindow::deviceReady, this,
            &SimulationController::onDeviceReady);
    connect(&m_window, &render::ImageWindow::deviceReleasing, this,
            &SimulationController::onDeviceReleasing);
    connect(&m_window, &render::ImageWindow::frameRendered, this,
            &SimulationController::onFrameRendered);
}

SimulationController::~SimulationController() {
    destroySimulator();
}

QString SimulationController::deviceDescription() const {
    return m_device ? QString::fromStdString(m_device->description()) : QString();
}

double SimulationController::previewBudget() const {
    if (m_budgetOverride)
        return *m_budgetOverride;
    return plan::previewBudgetMilliseconds(!m_device ||
                                           m_device->info().type == VK_PHYSICAL_DEVICE_TYPE_CPU);
}

bool SimulationController::isComplete() const {
    return m_simulator && !m_inFlight && !m_dirty && !m_failedState && !m_engineStopped &&
           !m_previewShown && m_resolved.has_value();
}

bool SimulationController::waitForComplete(int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (!isComplete()) {
        if (m_engineStopped || (m_failedState && !m_inFlight && !m_dirty))
            return false;
        if (clock.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    }
    return true;
}

std::optional<float> SimulationController::valueAt(int fast, int slow) const {
    if (fast < 0 || slow < 0 || fast >= m_fast || slow >= m_slow)
        return std::nullopt;
    return m_image[static_cast<std::size_t>(slow) * static_cast<std::size_t>(m_fast) +
                   static_cast<std::size_t>(fast)];
}

void SimulationController::setWorkPerSlice(std::uint64_t pixelSteps) {
    m_workPerSlice = pixelSteps;
    if (!m_device || m_engineStopped)
        return; // the next Simulator gets it
    buildSimulator();
    schedule();
}

void SimulationController::restartEngine() {
    m_engineStopped = false;
    m_simulateLoss = false;
    m_failedState = false;
    m_lastError.clear();
    destroySimulator();
    m_device.reset();
    m_dirty = true;
    // deviceReleasing(), then deviceReady() on the new device: a new Simulator, a new run
    m_window.recreateDevice();
}

void SimulationController::onDeviceReady() {
    if (m_engineStopped)
        return;
    buildSimulator();
    schedule();
}

void SimulationController::onDeviceReleasing() {
    destroySimulator();
    m_device.reset();
    m_dirty = true; // a new device gets the current state
}

void SimulationController::onPrecisionChanged() {
    if (!m_device || m_engineStopped)
        return;
    buildSimulator();
}

void SimulationController::buildSimulator() {
    destroySimulator();
    m_rate = {}; // another precision or device: another rate
    try {
        if (!m_device) {
            vk::BorrowedDevice borrowed;
            borrowed.instance = m_window.vulkanInstance()->vkInstance();
            borrowed.physicalDevice = m_window.physicalDevice();
            borrowed.device = m_window.device();
            borrowed.queueFamily = m_window.graphicsQueueFamilyIndex();
            borrowed.queue = m_window.graphicsQueue();
            borrowed.float64Enabled = m_window.float64Enabled();
            m_device = std::make_unique<vk::Device>(borrowed);
        }
        engine::SimulatorOptions options;
        options.precision = m_document.precision();
        options.workPerSlice = m_workPerSlice;
        options.specialisation = engine::interactiveSpecialisation(*m_device);
        m_simulator = std::make_unique<engine::Simulator>(*m_device, options);
    } catch (const std::exception& e) {
        m_simulator.reset();
        fail(QString::fromStdString(e.what()));
    }
    if (m_simulator) {
        try {
            m_histogramCounter = std::make_unique<render::GpuHistogram>(*m_device);
        } catch (const std::exception& e) {
            // auto-contrast falls back to the host copy of the image
            qWarning("braggview: no GPU histogram: %s", e.what());
        }
    }
    m_dirty = true;
    emit simulatorChanged();
}

void SimulationController::destroySimulator() {
    if (m_simulator) {
        try {
            m_simulator->cancel(); // the slice on the GPU ends; nothing more is submitted
        } catch (const Error&) {
            // a lost device: the destructor below still releases what it can
        }
        // frames in flight may still read the image buffer
        try {
            if (m_device)
                m_device->waitIdle();
        } catch (const Error&) {
        }
    }
    const bool had = m_simulator != nullptr;
    m_histogramCounter.reset();
    m_simulator.reset();
    m_inFlight = false;
    m_interruptPending = false;
    m_waitingForFrame = false;
    m_poll.stop();
    m_window.setImageSource({});
    m_window.setRenderHeld(false);
    if (had)
        emit simulatorChanged();
}

void SimulationController::onDocumentChanged() {
    // part of a movement: the viewer has not caught up with the values before it, or they
    // come quickly one after the other
    const bool quick = m_changeClock.isValid() && m_changeClock.elapsed() < kMovingMilliseconds;
    m_moving = m_inFlight || m_previewShown || quick;
    m_changeClock.restart();
    m_refineNext = false; // a preview of the new value first, when it needs one
    schedule();
}

void SimulationController::schedule() {
    if (m_inFlight && m_dirty)
        ++m_skippedStates; // the value waiting for the run to end is superseded
    m_dirty = true;
    if (m_engineStopped || !m_simulator)
        return;
    if (m_inFlight) {
        if (interruptible() && !m_interruptPending) {
            // the shader stops within a unit of each pixel's loop, also inside a long slice
            // (Simulator::requestCancel); poll() sees the slice end and starts the newest state
            m_lastInterruption = {
                std::min(m_simulator->lastSubmissionCount(), m_simulator->sliceCount()),
                m_simulator->sliceCount()};
            m_simulator->requestCancel();
            m_interruptPending = true;
        }
        return;
    }
    if (!m_startAfterFrame)
        startRun();
}

bool SimulationController::interruptible() const {
    // not a preview, nor a run expected within the preview budget: their images are what a
    // movement shows (cancelled by every next value, a drag would show nothing)
    const std::optional<double> ms = m_rate.milliseconds(m_runCost);
    const double budget = previewBudget();
    return !m_runningPreview && (!ms || budget <= 0.0 || *ms > budget);
}

void SimulationController::fail(const QString& message) {
    m_failedState = true;
    m_lastError = message;
    emit failed(message);
}

void SimulationController::stopEngine(const QString& message) {
    m_poll.stop();
    m_inFlight = false;
    m_interruptPending = false;
    m_waitingForFrame = false;
    m_startAfterFrame = false;
    m_engineStopped = true;
    m_running.reset();
    // no more frames of a buffer that no run will complete (nor, after a lost device, hold
    // anything): the last frame stays on screen until restartEngine()
    m_window.setRenderHeld(true);
    fail(tr("the GPU engine stopped: %1").arg(message));
    emit engineStopped(message);
}

void SimulationController::startRun() {
    m_dirty = false;
    m_failedState = false;
    const Experiment& experiment = m_document.experiment();
    std::ostringstream log;
    try {
        random::ReferenceRandom rng;
        run::PreparedRun exact = run::prepare(experiment, rng, log);
        const std::optional<run::PreparedRun> preview = choosePreview(exact, experiment);
        const plan::Plan& plan = preview ? preview->plan : exact.plan;
        const bool resized = plan.fastPixels != m_simulator->fastPixels() ||
                             plan.slowPixels != m_simulator->slowPixels();
        if (resized) {
            // the old image buffer goes: no frame may still read it
            m_device->waitIdle();
            m_window.setImageSource({});
        }
        // the reference's serial loop, as the headless mode runs it (same numbers)
        run::setPlan(*m_simulator, preview ? *preview : exact);
        m_runningSkipped =
            skippedPixels(exact.resolved, experiment.mask, plan.fastPixels, plan.slowPixels);
        m_running = std::move(exact.resolved);
        m_runningGenerator = {rng, experiment.seed};
        m_runningLog = log.str();
    } catch (const cli::UsageError& e) {
        fail(QString::fromStdString(e.reason()));
        return;
    } catch (const Error& e) {
        fail(QString::fromStdString(e.what()));
        return;
    } catch (const std::bad_alloc&) {
        fail(tr("out of memory"));
        return;
    } catch (const std::exception& e) {
        fail(QString::fromStdString(e.what()));
        return;
    }
    try {
        m_window.setRenderHeld(true);
        m_runClock.start();
        m_shownSlices = 0;
        m_partialClock.start();
        m_reportedSlices = -1;
        m_simulator->start();
        m_inFlight = true;
        m_poll.start();
        emit runStarted();
    } catch (const std::exception& e) {
        stopEngine(QString::fromStdString(e.what()));
    }
}

std::optional<run::PreparedRun> SimulationController::choosePreview(const run::PreparedRun& exact,
                                                                    const Experiment& experiment) {
    m_currentCost = plan::runCost(exact.plan);
    m_runCost = m_currentCost;
    m_runningPreview = false;
    m_runningPreviewText.clear();
    // the decision itself is plan::chooseRun (braggview-bench-preview runs the same)
    plan::RunSituation situation;
    situation.exact = plan::samplingCounts(exact.resolved);
    situation.pixels = m_currentCost.pixels;
    situation.stepsPerMillisecond = m_rate.stepsPerMillisecond();
    situation.moving = m_moving && !m_refineNext;
    situation.budgetMilliseconds = previewBudget();
    const plan::SamplingCounts& all = situation.exact;
    const plan::SamplingCounts light = plan::chooseRun(situation);
    if (light == all)
        return std::nullopt;
    run::PreparedRun preview = run::preparePreview(experiment, exact, light);
    m_runCost = plan::runCost(preview.plan);
    m_runningPreview = true;
    m_runningPreviewText = QString::fromStdString(plan::describePreview(all, light));
    return preview;
}

void SimulationController::poll() {
    if (!m_simulator || !m_inFlight) {
        m_poll.stop();
        return;
    }
    try {
        if (m_simulateLoss) {
            m_simulateLoss = false;
            throw Error("VK_ERROR_DEVICE_LOST: the Vulkan device was lost (simulated)");
        }
        const int total = m_simulator->sliceCount();
        const int submitted = std::min(m_simulator->lastSubmissionCount(), total);
        // slices done, from the submissions' fences (never waits)
        const int done = std::min(m_simulator->finishedSlices(), submitted);
        if (m_waitingForFrame) {
            if (m_frameClock.elapsed() < kFrameWaitMilliseconds && !m_interruptPending)
                return;
            m_waitingForFrame = false; // no frame came (a hidden window): go on without it
            m_window.setRenderHeld(true);
        }
        if (m_interruptPending) {
            // at the end of the slice on the GPU
            if (done >= submitted)
                interrupt();
            return;
        }
        if (total > 1) {
            if (done != m_reportedSlices) {
                m_reportedSlices = done;
                emit progress(done, total);
            }
            // a partial image after the first slice, then at most every
            // kPartialFrameMilliseconds (each frame holds the next slice back; CPU devices
            // render on the cores that compute)
            const bool frameDue = m_shownSlices == 0 ||
                                  m_partialClock.elapsed() >= kPartialFrameMilliseconds;
            if (done > m_shownSlices && done < total && frameDue) {
                m_shownSlices = done;
                m_partialClock.start();
                showPartialImage();
                return;
            }
        }
        if (!m_simulator->isFinished())
            return;
    } catch (const std::exception& e) { // bv::Error: a lost device, ...
        stopEngine(QString::fromStdString(e.what()));
        return;
    }
    m_reportedSlices = -1;
    const bool finished = finishRun();
    if (m_engineStopped)
        return;
    if (finished && m_previewShown && !m_dirty) {
        // no newer value came while the preview ran: the exact image follows at once
        m_refineNext = true;
        m_dirty = true;
    }
    if (m_dirty) {
        // the newest state next, once the frame showing this image is on its way (a frame
        // submitted after the next run would have to wait for it)
        m_startAfterFrame = true;
        QTimer::singleShot(kFrameWaitMilliseconds, this, &SimulationController::startPending);
    }
    // last: a slot may wait for the exact image (an export), which the lines above start
    if (finished)
        emit imageReady();
}

void SimulationController::showPartialImage() {
    // the next slice waits until this frame is submitted: the frame reads the partial sum of
    // the slices done, ordered after their writes and before the next slice's
    const engine::Simulator& s = *m_simulator;
    const render::ImageWindow::ImageSource& shown = m_window.imageSource();
    if (shown.buffer != s.imageBuffer() || shown.fast != s.fastPixels() ||
        shown.slow != s.slowPixels())
        m_window.setImageSource(imageSourceOf(s.imageBuffer(), s.fastPixels(), s.slowPixels(),
                                              m_running ? &*m_running : nullptr));
    m_window.setSkipped(m_runningSkipped);
    m_waitingForFrame = true;
    m_frameClock.start();
    m_window.setRenderHeld(false);
    m_window.scheduleRender();
}

void SimulationController::onFrameRendered() {
    if (m_waitingForFrame) {
        m_waitingForFrame = false;
        ++m_partialFrames;
        if (m_inFlight)
            m_window.setRenderHeld(true);
    }
    startPending();
}

void SimulationController::interrupt() {
    m_interruptPending = false;
    m_simulator->cancel(); // the slice on the GPU is done (it stopped early); no more
    m_inFlight = false;
    m_poll.stop();
    m_running.reset();
    m_reportedSlices = -1;
    ++m_interruptedRuns;
    startRun(); // m_dirty: the newest state, at once
    m_afterCancel = true;
}

void SimulationController::startPending() {
    if (!m_startAfterFrame)
        return;
    m_startAfterFrame = false;
    if (m_dirty && !m_inFlight && m_simulator && !m_engineStopped)
        startRun();
}

bool SimulationController::finishRun() {
    m_poll.stop();
    m_inFlight = false;
    try {
        m_simulator->finish();
        m_image = m_simulator->image();
        // the histogram for auto-contrast, counted where the image is
        m_histogram = m_histogramCounter
                          ? m_histogramCounter->compute(m_simulator->imageBuffer(), m_image.size(),
                                                        m_runningSkipped)
                          : render::ImageHistogram{};
    } catch (const Error& e) { // a lost device
        stopEngine(QString::fromStdString(e.what()));
        return false;
    } catch (const std::exception& e) { // bad_alloc
        m_window.setRenderHeld(false);
        fail(QString::fromStdString(e.what()));
        return false;
    }
    m_wallMilliseconds = static_cast<double>(m_runClock.nsecsElapsed()) / 1e6;
    m_gpuMilliseconds = m_simulator->gpuMilliseconds();
    // A complete run: the device's rate. Not the run right after a cancelled one: on lavapipe
    // its GPU time came out at 0.03 ms for a run of 43 ms wall (a preview after an
    // interrupted exact run; the Simulator's timestamps after cancel() are not understood
    // yet): an outlier a thousand times fast.
    if (!m_afterCancel)
        m_rate.add(m_runCost, m_gpuMilliseconds);
    m_afterCancel = false;
    m_previewShown = m_runningPreview;
    m_previewText = m_runningPreviewText;
    if (m_runningPreview)
        ++m_previewRuns;
    m_fast = m_simulator->fastPixels();
    m_slow = m_simulator->slowPixels();
    m_resolved = std::move(m_running);
    m_running.reset();
    m_generator = m_runningGenerator;
    m_resolveLog = m_runningLog;
    ++m_completedRuns;
    m_skipped = m_runningSkipped;
    m_window.setSkipped(m_runningSkipped);
    m_window.setImageSource(imageSourceOf(m_simulator->imageBuffer(), m_fast, m_slow, resolved()));
    m_window.setRenderHeld(false);
    m_window.scheduleRender();
    return true;
}

} // namespace bv::app
