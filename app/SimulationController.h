#pragma once
// SimulationController: runs the document's experiment on the Simulator built on the image
// window's device, without blocking the GUI thread, newest value first.
//
// A change of the document marks it dirty. When no run is in flight the controller resolves
// the experiment (resolve(), microseconds), flattens it (makePlan), hands the plan to the
// Simulator (which uploads only the tables that changed and re-submits the command buffer it
// recorded; a new recording only for a new detector size or pipeline variant) and submits
// with start(). A timer polls isFinished(); when the run is done the host copy of the image
// is refreshed (for the readout, plots and exports), the window draws the GPU buffer, and,
// if the document changed meanwhile, the newest state is submitted at once. Intermediate
// values that arrived during a run are never computed: a slider that moves faster than the
// GPU skips to where it is now.
//
// Errors (a value resolve() refuses, a plan the device cannot run, a lost device) are
// reported by failed() with a message; the last good image stays on screen.

#include "app/ExperimentDocument.h"
#include "compute/engine/Simulator.h"
#include "compute/model/Resolve.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace bv::vk {
class Device;
}

namespace bv::render {
class ImageWindow;
}

namespace bv::app {

class SimulationController : public QObject {
    Q_OBJECT

  public:
    SimulationController(ExperimentDocument& document, render::ImageWindow& window,
                         QObject* parent = nullptr);
    ~SimulationController() override;

    bool hasDevice() const { return m_simulator != nullptr; }
    bool isBusy() const { return m_inFlight; }
    // The image shown is the document's current state: nothing in flight, nothing pending,
    // and the last attempt did not fail.
    bool isComplete() const;
    // Processes events until isComplete() or a failure; false on failure or timeout.
    bool waitForComplete(int timeoutMs);

    // The last complete image (photons per pixel, fast-major) and what it was computed from.
    const std::vector<float>& image() const { return m_image; }
    int fastPixels() const { return m_fast; }
    int slowPixels() const { return m_slow; }
    const ResolvedExperiment* resolved() const { return m_resolved ? &*m_resolved : nullptr; }
    // What resolve() printed for it (the reference's warnings).
    const std::string& resolveLog() const { return m_resolveLog; }
    // The value at a pixel of the last complete image; nullopt outside it.
    std::optional<float> valueAt(int fast, int slow) const;
    // one byte per pixel, non-zero where the simulation skipped it (mask, ROI)
    const std::vector<std::uint8_t>& skipped() const { return m_skipped; }

    // the Simulator, for the status display and the tests (nullptr before the device exists)
    const engine::Simulator* simulator() const { return m_simulator.get(); }
    double lastGpuMilliseconds() const { return m_gpuMilliseconds; }
    double lastWallMilliseconds() const { return m_wallMilliseconds; }
    int completedRuns() const { return m_completedRuns; }
    int skippedStates() const { return m_skippedStates; } // values superseded while in flight
    const QString& lastError() const { return m_lastError; }
    QString deviceDescription() const;

  signals:
    void imageReady();          // a new complete image
    void runStarted();
    // dispatches finished of the run in flight (heavy settings are cut into several)
    void progress(int finished, int total);
    void failed(const QString& message);
    void simulatorChanged();    // built, rebuilt (precision) or gone

  public slots:
    void schedule(); // the document changed

  private slots:
    void onDeviceReady();
    void onDeviceReleasing();
    void onPrecisionChanged();
    void poll();
    void startPending();

  private:
    void buildSimulator();
    void destroySimulator();
    void startRun();
    void finishRun();
    void fail(const QString& message);

    ExperimentDocument& m_document;
    render::ImageWindow& m_window;
    std::unique_ptr<vk::Device> m_device;
    std::unique_ptr<engine::Simulator> m_simulator;
    QTimer m_poll;
    QElapsedTimer m_runClock;

    bool m_dirty = true;
    bool m_inFlight = false;
    bool m_failedState = false;
    bool m_startAfterFrame = false; // the next run waits for the frame of the last image
    std::optional<ResolvedExperiment> m_running; // resolved state of the run in flight
    std::string m_runningLog;

    std::vector<float> m_image;
    int m_fast = 0, m_slow = 0;
    std::optional<ResolvedExperiment> m_resolved;
    std::string m_resolveLog;
    std::vector<std::uint8_t> m_skipped;
    double m_gpuMilliseconds = 0.0;
    double m_wallMilliseconds = 0.0;
    int m_completedRuns = 0;
    int m_skippedStates = 0;
    int m_reportedSlices = -1;
    QString m_lastError;
};

} // namespace bv::app
