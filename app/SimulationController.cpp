#include "app/SimulationController.h"

#include "compute/engine/SerialOrder.h"
#include "compute/model/Error.h"
#include "compute/plan/Plan.h"
#include "compute/random/ReferenceRandom.h"
#include "compute/vk/Device.h"
#include "render/ImageWindow.h"

#include <QCoreApplication>
#include <QVulkanInstance>

#include <new>
#include <sstream>

namespace bv::app {

namespace {
constexpr int kPollMilliseconds = 5;
// the longest a finished image waits for its frame before the next run starts anyway
constexpr int kFrameWaitMilliseconds = 100;
}

SimulationController::SimulationController(ExperimentDocument& document,
                                           render::ImageWindow& window, QObject* parent)
    : QObject(parent), m_document(document), m_window(window) {
    m_poll.setInterval(kPollMilliseconds);
    connect(&m_poll, &QTimer::timeout, this, &SimulationController::poll);
    connect(&m_document, &ExperimentDocument::changed, this, &SimulationController::schedule);
    connect(&m_document, &ExperimentDocument::precisionChanged, this,
            &SimulationController::onPrecisionChanged);
    connect(&m_window, &render::ImageWindow::deviceReady, this,
            &SimulationController::onDeviceReady);
    connect(&m_window, &render::ImageWindow::deviceReleasing, this,
            &SimulationController::onDeviceReleasing);
    connect(&m_window, &render::ImageWindow::frameRendered, this,
            &SimulationController::startPending);
}

SimulationController::~SimulationController() {
    destroySimulator();
}

QString SimulationController::deviceDescription() const {
    return m_device ? QString::fromStdString(m_device->description()) : QString();
}

bool SimulationController::isComplete() const {
    return m_simulator && !m_inFlight && !m_dirty && !m_failedState && m_resolved.has_value();
}

bool SimulationController::waitForComplete(int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (!isComplete()) {
        if (m_failedState && !m_inFlight && !m_dirty)
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

void SimulationController::onDeviceReady() {
    buildSimulator();
    schedule();
}

void SimulationController::onDeviceReleasing() {
    destroySimulator();
    m_device.reset();
    m_dirty = true; // a new device gets the current state
}

void SimulationController::onPrecisionChanged() {
    if (!m_device)
        return;
    buildSimulator();
}

void SimulationController::buildSimulator() {
    destroySimulator();
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
        m_simulator = std::make_unique<engine::Simulator>(*m_device, options);
    } catch (const std::exception& e) {
        m_simulator.reset();
        fail(QString::fromStdString(e.what()));
    }
    m_dirty = true;
    emit simulatorChanged();
}

void SimulationController::destroySimulator() {
    if (m_simulator) {
        try {
            m_simulator->finish();
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
    m_simulator.reset();
    m_inFlight = false;
    m_poll.stop();
    m_window.setImageSource({});
    m_window.setRenderHeld(false);
    if (had)
        emit simulatorChanged();
}

void SimulationController::schedule() {
    if (m_inFlight && m_dirty)
        ++m_skippedStates; // the value waiting for the run to end is superseded
    m_dirty = true;
    if (!m_inFlight && !m_startAfterFrame && m_simulator)
        startRun();
}

void SimulationController::fail(const QString& message) {
    m_failedState = true;
    m_lastError = message;
    emit failed(message);
}

void SimulationController::startRun() {
    m_dirty = false;
    m_failedState = false;
    const Experiment& experiment = m_document.experiment();
    std::ostringstream log;
    try {
        random::ReferenceRandom rng;
        ResolvedExperiment resolved = resolve(experiment, rng, log);
        const plan::Plan plan = plan::makePlan(resolved, experiment.mask);
        const bool resized =
            plan.fastPixels != m_simulator->fastPixels() ||
            plan.slowPixels != m_simulator->slowPixels();
        if (resized) {
            // the old image buffer goes: no frame may still read it
            m_device->waitIdle();
            m_window.setImageSource({});
        }
        // the reference's serial loop, as the headless mode runs it (same numbers)
        m_simulator->setPlan(plan, {engine::phiAngles(resolved), engine::referenceThreads()});
        m_running = std::move(resolved);
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
        m_simulator->start();
        m_inFlight = true;
        m_poll.start();
        emit runStarted();
    } catch (const std::exception& e) {
        m_window.setRenderHeld(false);
        fail(QString::fromStdString(e.what()));
    }
}

void SimulationController::poll() {
    if (!m_simulator || !m_inFlight) {
        m_poll.stop();
        return;
    }
    if (!m_simulator->isFinished()) {
        const int total = m_simulator->sliceCount();
        if (total > 1) {
            const int finished = m_simulator->finishedSlices();
            if (finished != m_reportedSlices) {
                m_reportedSlices = finished;
                emit progress(finished, total);
            }
        }
        return;
    }
    m_reportedSlices = -1;
    finishRun();
    if (m_dirty) {
        // the newest state next, once the frame showing this image is on its way (a frame
        // submitted after the next run would have to wait for it)
        m_startAfterFrame = true;
        QTimer::singleShot(kFrameWaitMilliseconds, this, &SimulationController::startPending);
    }
}

void SimulationController::startPending() {
    if (!m_startAfterFrame)
        return;
    m_startAfterFrame = false;
    if (m_dirty && !m_inFlight && m_simulator)
        startRun();
}

void SimulationController::finishRun() {
    m_poll.stop();
    m_inFlight = false;
    try {
        m_simulator->finish();
        m_image = m_simulator->image();
    } catch (const std::exception& e) { // bv::Error (a lost device), bad_alloc
        m_window.setRenderHeld(false);
        fail(QString::fromStdString(e.what()));
        return;
    }
    m_wallMilliseconds = static_cast<double>(m_runClock.nsecsElapsed()) / 1e6;
    m_gpuMilliseconds = m_simulator->gpuMilliseconds();
    m_fast = m_simulator->fastPixels();
    m_slow = m_simulator->slowPixels();
    m_resolved = std::move(m_running);
    m_running.reset();
    m_resolveLog = m_runningLog;
    ++m_completedRuns;

    // pixels the simulation skipped: masked, or outside the region of interest
    const std::vector<std::uint16_t>& mask = m_document.experiment().mask;
    const Roi& roi = m_resolved->roi;
    std::vector<std::uint8_t> skipped(m_image.size(), 0);
    bool any = false;
    const bool haveMask = mask.size() == m_image.size();
    for (int s = 0; s < m_slow; ++s)
        for (int f = 0; f < m_fast; ++f) {
            const std::size_t i = static_cast<std::size_t>(s) * static_cast<std::size_t>(m_fast) +
                                  static_cast<std::size_t>(f);
            if ((haveMask && mask[i] == 0) || !roi.contains(f, s)) {
                skipped[i] = 1;
                any = true;
            }
        }
    if (!any)
        skipped.clear();
    m_skipped = skipped;
    m_window.setSkipped(std::move(skipped));
    m_window.setImageSource({m_simulator->imageBuffer(), m_fast, m_slow});
    m_window.setRenderHeld(false);
    m_window.scheduleRender();
    emit imageReady();
}

} // namespace bv::app
