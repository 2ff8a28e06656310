#include "app/SimulationController.h"

#include "app/PanelViews.h"

#include "compute/core/Error.h"
#include "compute/model/RenderedArea.h"
#include "compute/plan/Plan.h"
#include "compute/plan/Preview.h"
#include "compute/random/ReferenceRandom.h"
#include "compute/run/RunNotices.h"
#include "compute/vk/Device.h"
#include "render/ImageWindow.h"
#include "render/WindowDevice.h"

#include <QCoreApplication>

#include <algorithm>
#include <new>
#include <sstream>

namespace bv::app {

namespace {
constexpr int kRunPollMilliseconds = 5;
// the longest a finished image (or a partial one) waits for its frame before the next run
// (or slice) is submitted anyway
constexpr int kFrameWaitMilliseconds = 100;

} // namespace

SimulationController::SimulationController(ExperimentDocument& document,
                                           render::ImageWindow& window, QObject* parent)
    : QObject(parent), m_document(document), m_window(window) {
    m_poll.setInterval(kRunPollMilliseconds);
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

bool SimulationController::isComplete() const {
    return m_simulator && m_scheduler.showsExact() && !m_failedState && !m_engineStopped &&
           m_resolved.has_value();
}

bool SimulationController::waitForComplete(int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (!isComplete()) {
        if (m_engineStopped ||
            (m_failedState && !m_scheduler.isInFlight() && !m_scheduler.isDirty()))
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
    m_scheduler.setDeviceBudget(plan::previewBudgetMilliseconds(true));
    m_scheduler.markDirty();
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
    m_scheduler.setDeviceBudget(plan::previewBudgetMilliseconds(true));
    m_scheduler.markDirty(); // a new device gets the current state
}

void SimulationController::onPrecisionChanged() {
    if (!m_device || m_engineStopped)
        return;
    buildSimulator();
}

void SimulationController::buildSimulator() {
    destroySimulator();
    m_scheduler.resetRate(); // another precision or device: another rate
    try {
        if (!m_device) {
            vk::BorrowedDevice borrowed = render::borrowedDevice(m_window);
            borrowed.float64Enabled = m_window.float64Enabled();
            m_device = std::make_unique<vk::Device>(borrowed);
            m_scheduler.setDeviceBudget(plan::previewBudgetMilliseconds(
                m_device->info().type == VK_PHYSICAL_DEVICE_TYPE_CPU));
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
        m_signal = std::make_unique<DetectorSignal>(*m_device);
        try {
            m_histogramCounter = std::make_unique<render::GpuHistogram>(*m_device);
        } catch (const std::exception& e) {
            // auto-contrast falls back to the host copy of the image
            qWarning("braggview: no GPU histogram: %s", e.what());
        }
    }
    m_scheduler.markDirty();
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
    m_signal.reset(); // after the wait above: no frame reads its buffer any more
    m_signalShown = false;
    m_simulator.reset();
    m_scheduler.engineGone();
    m_waitingForFrame = false;
    m_poll.stop();
    m_window.setImageSource({});
    m_window.setRenderHeld(false);
    if (had)
        emit simulatorChanged();
}

void SimulationController::onDocumentChanged() {
    std::optional<double> sinceLast;
    if (m_changeClock.isValid())
        sinceLast = static_cast<double>(m_changeClock.elapsed());
    m_changeClock.restart();
    act(m_scheduler.valueChanged(sinceLast, canRun()));
}

void SimulationController::setShownExperiment(std::optional<Experiment> experiment) {
    m_shown = std::move(experiment);
    onDocumentChanged();
}

void SimulationController::schedule() {
    act(m_scheduler.stateNeeded(canRun()));
}

void SimulationController::act(RunScheduler::Action action) {
    switch (action) {
    case RunScheduler::Action::Start:
        startRun();
        break;
    case RunScheduler::Action::Cancel:
        // the shader stops within a unit of each pixel's loop, also inside a long slice
        // (Simulator::requestCancel); poll() sees the slice end and starts the newest state
        m_lastInterruption = {
            std::min(m_simulator->lastSubmissionCount(), m_simulator->sliceCount()),
            m_simulator->sliceCount()};
        m_simulator->requestCancel();
        break;
    case RunScheduler::Action::StartAfterFrame:
        QTimer::singleShot(kFrameWaitMilliseconds, this, &SimulationController::startPending);
        break;
    case RunScheduler::Action::Wait:
        break;
    }
}

void SimulationController::fail(const QString& message) {
    m_failedState = true;
    m_lastError = message;
    emit failed(message);
}

void SimulationController::stopEngine(const QString& message) {
    m_poll.stop();
    m_scheduler.engineStopped();
    m_waitingForFrame = false;
    m_engineStopped = true;
    m_running.reset();
    // no more frames of a buffer that no run will complete (nor, after a lost device, hold
    // anything): the last frame stays on screen until restartEngine()
    m_window.setRenderHeld(true);
    fail(tr("the GPU engine stopped: %1").arg(message));
    emit engineStopped(message);
}

void SimulationController::startRun() {
    m_scheduler.beginRun();
    m_failedState = false;
    const Experiment& experiment = m_shown ? *m_shown : m_document.experiment();
    std::ostringstream log;
    try {
        random::ReferenceRandom rng;
        run::PreparedRun exact = run::prepare(experiment, rng, log);
        m_warnings = run::experimentWarnings(exact.resolved, m_simulator->precision());
        m_assumedCost = run::costNotice(
            exact.resolved, exact.plan,
            run::assumedStepsPerMillisecond(m_device->info(), m_simulator->precision()),
            m_device->description());
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
            skippedPixels({experiment.mask, exact.resolved.roi}, plan.fastPixels, plan.slowPixels);
        m_running = std::move(exact.resolved);
        m_runningGenerator = {rng, experiment.seed};
        m_runningSignal.background = experiment.background;
        m_runningSignal.response = experiment.response;
        m_runningLog = log.str();
    } catch (const request::UsageError& e) {
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
        m_scheduler.runSubmitted();
        m_poll.start();
        emit runStarted();
    } catch (const std::exception& e) {
        stopEngine(QString::fromStdString(e.what()));
    }
}

std::optional<run::PreparedRun> SimulationController::choosePreview(const run::PreparedRun& exact,
                                                                    const Experiment& experiment) {
    const plan::SamplingCounts all = plan::samplingCounts(exact.resolved);
    const plan::SamplingCounts light = m_scheduler.chooseSampling(all, plan::runCost(exact.plan));
    if (light == all)
        return std::nullopt;
    run::PreparedRun preview = run::preparePreview(experiment, exact, light);
    m_scheduler.previewChosen(plan::runCost(preview.plan), plan::describePreview(all, light));
    return preview;
}

void SimulationController::poll() {
    if (!m_simulator || !m_scheduler.isInFlight()) {
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
            if (m_frameClock.elapsed() < kFrameWaitMilliseconds && !m_scheduler.isCancelling())
                return;
            m_waitingForFrame = false; // no frame came (a hidden window): go on without it
            m_window.setRenderHeld(true);
        }
        if (m_scheduler.isCancelling()) {
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
    // the exact image after a preview, or the newest value, once the frame showing this
    // image is on its way
    act(m_scheduler.afterImage(finished));
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
        m_window.setImageSource(filtered(imageSourceOf(s.imageBuffer(), s.fastPixels(),
                                                    s.slowPixels(), m_running ? &*m_running : nullptr)));
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
        if (m_scheduler.isInFlight())
            m_window.setRenderHeld(true);
    }
    startPending();
}

void SimulationController::interrupt() {
    m_simulator->cancel(); // the slice on the GPU is done (it stopped early); no more
    m_poll.stop();
    m_running.reset();
    m_reportedSlices = -1;
    act(m_scheduler.runCancelled()); // the newest state, at once
}

void SimulationController::startPending() {
    act(m_scheduler.frameShown(canRun()));
}

bool SimulationController::finishRun() {
    m_poll.stop();
    m_scheduler.runEnded();
    try {
        m_simulator->finish();
        std::vector<float> image = m_simulator->image();
        // the background and the response's PSF (DetectorSignal.h): a problem of theirs (a
        // bad .stol file, a PSF wider than the image) is the value's, not the engine's, and
        // the last good image stays
        std::optional<DetectorSignal::Images> signal;
        if (DetectorSignal::changesImage(m_runningSignal)) {
            try {
                signal = m_signal->make(std::move(image), *m_running, m_simulator->fastPixels(),
                                        m_simulator->slowPixels(), m_runningSignal,
                                        m_simulator->precision() == engine::Precision::Fast);
            } catch (const Error& e) {
                m_running.reset();
                m_window.setRenderHeld(false);
                fail(QString::fromStdString(e.what()));
                return false;
            }
            m_device->waitIdle(); // no frame still reads the buffer written below
            m_signal->upload(signal->shown);
            m_image = std::move(signal->shown);
            m_floatImage = signal->photons == m_image ? std::vector<float>{}
                                                      : std::move(signal->photons);
        } else {
            m_image = std::move(image);
            m_floatImage.clear();
        }
        m_signalShown = signal.has_value();
        // the histogram for auto-contrast, counted where the image is
        m_histogram = m_histogramCounter
                          ? m_histogramCounter->compute(shownBuffer(), m_image.size(),
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
    m_scheduler.imageComplete(m_gpuMilliseconds);
    m_fast = m_simulator->fastPixels();
    m_slow = m_simulator->slowPixels();
    m_resolved = std::move(m_running);
    m_running.reset();
    m_generator = m_runningGenerator;
    m_resolveLog = m_runningLog;
    m_skipped = m_runningSkipped;
    m_window.setSkipped(m_runningSkipped);
    m_window.setImageSource(filtered(imageSourceOf(shownBuffer(), m_fast, m_slow, resolved())));
    m_window.setRenderHeld(false);
    m_window.scheduleRender();
    return true;
}

render::ImageWindow::ImageSource
SimulationController::filtered(const render::ImageWindow::ImageSource& source) const {
    return m_sourceFilter ? m_sourceFilter(source) : source;
}

void SimulationController::showSource() {
    if (!m_simulator || m_image.empty())
        return;
    m_window.setImageSource(filtered(imageSourceOf(shownBuffer(), m_fast, m_slow, resolved())));
    m_window.scheduleRender();
}

VkBuffer SimulationController::shownBuffer() const {
    return m_signalShown && m_signal ? m_signal->buffer() : m_simulator->imageBuffer();
}

} // namespace bv::app
