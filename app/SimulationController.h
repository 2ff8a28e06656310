#pragma once
// SimulationController: runs the document's experiment on the Simulator built on the image
// window's device, without blocking the GUI thread, newest value first.
//
// A change of the document marks it dirty. When no run is in flight the controller resolves
// the experiment and flattens it into a plan (run::prepare, microseconds), hands the plan to the
// Simulator (which uploads only the tables that changed and re-submits the command buffer it
// recorded; a new recording only for a new detector size or pipeline variant) and submits
// with start(). A timer polls; when the run is done the host copy of the image is refreshed
// (for the readout, plots and exports), the GPU histogram of the image is counted (for
// auto-contrast), the window draws the GPU buffer, and, if the document changed meanwhile,
// the newest state is submitted at once. Intermediate values that arrived during a run are
// never computed: a slider that moves faster than the GPU skips to where it is now.
//
// Progressive refinement: a heavy setting is cut by the Simulator into slices, one
// submission each, after each of which the image buffer holds the partial sum scaled like
// the final image. When a slice is done (its end timestamp is there) and before the next is
// submitted, the controller lets the window draw one frame: the frame's command buffer goes
// to the queue between the two slices, its barriers order it after the finished slice's
// writes and before the next slice's (ImageRenderer.h), so it reads a complete partial image
// and never one being written, and it waits for no slice. The next slice is submitted once
// that frame was submitted (or after kFrameWaitMilliseconds, when no frame comes).
//
// Interruption: a change during a run longer than the preview budget cancels it at once: the
// shader reads a cancel word at every unit of each pixel's loop and stops, also inside a long
// slice or the last one (Simulator::requestCancel), the slices not yet submitted never run,
// the partial image is discarded (never shown) and the newest state starts as soon as the
// slice on the GPU ends. Previews and runs within the budget finish: their images are what a
// movement shows.
//
// Preview (issue 14): while values change in quick succession (a change arrives while a run
// is in flight, while a preview is shown, or less than kMovingMilliseconds after the change
// before it) and the exact setting would take longer than the preview budget at the measured
// rate, the controller runs a lighter sampling of the same experiment that fits the budget
// (plan::previewCounts: fewer sub-pixels, then domains, phi steps, sources, layers) and
// marks the image as a preview (isPreview(), previewDescription()). When a preview is done
// and no newer value is waiting, the exact setting runs at once and refines on screen as
// above; its image is the headless one, bit for bit. A new value stops a run expected to take
// longer than the budget at once, inside its slice (the shader's cancel word); a preview, or
// a run within the budget, runs to its end (a movement's values, 16 ms apart, would otherwise
// stop every one before its image). Runs keep the Simulator's slices (plan::chooseRun); partial
// images are drawn at most every kPartialFrameMilliseconds (each frame holds the next slice
// back). isComplete() is false while a preview is shown:
// exports, the pixel trace and the tests wait for the exact image.
//
// Errors: a value resolve() refuses or a plan the device cannot run is reported by failed()
// with a message; the last good image stays on screen. A failure of the engine itself (any
// bv::Error while a run is submitted or polled: VK_ERROR_DEVICE_LOST, ...) stops it:
// engineStopped() and failed() report it, nothing more is submitted, and restartEngine()
// gives the window's device up and builds a new device and Simulator.
//
// What runs next and when (coalescing, movement, preview or exact, cancel, the budget, the
// rate) is decided by RunScheduler (app/RunScheduler.h, Qt-free, tested without a window);
// this class carries its answers out with the engine, the window, timers and signals.

#include "app/DetectorSignal.h"
#include "app/ExperimentDocument.h"
#include "app/RunScheduler.h"
#include "compute/engine/Simulator.h"
#include "compute/model/Resolve.h"
#include "compute/plan/Preview.h"
#include "compute/plan/RunCost.h"
#include "compute/products/Products.h"
#include "compute/run/PreparedRun.h"
#include "render/GpuHistogram.h"
#include "render/ImageWindow.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <cstdint>
#include <functional>
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
    bool isBusy() const { return m_scheduler.isInFlight(); }
    // The image shown is the document's current state (or the experiment shown in its place,
    // setShownExperiment()), exact: nothing in flight, nothing pending, not a preview, and the
    // last attempt did not fail.
    bool isComplete() const;
    // The last complete image is a preview (a lighter sampling, computed while values moved);
    // the exact image follows. previewDescription() says what it left out ("oversample 1 of
    // 5"); empty for an exact image.
    bool isPreview() const { return m_scheduler.isPreviewShown(); }
    QString previewDescription() const {
        return QString::fromStdString(m_scheduler.previewDescription());
    }
    int previewRuns() const { return m_scheduler.previewRuns(); }
    bool isPreviewRunning() const { return m_scheduler.isPreviewRunning(); }
    // The time a preview may take on the GPU at the measured rate (ms); a setting expected to
    // take longer is previewed while values move: plan::previewBudgetMilliseconds() of the
    // device (a 60 Hz frame on a GPU, 60 ms on a CPU device) unless set here. 0: no previews
    // (the viewer as it was before previews; braggview-bench-viewer --no-preview).
    void setPreviewBudget(double milliseconds) { m_scheduler.setBudget(milliseconds); }
    double previewBudget() const { return m_scheduler.budget(); }
    // a change this soon after the one before is part of a movement
    static constexpr int kMovingMilliseconds = RunScheduler::kMovingMilliseconds;
    // the shortest time between two partial images of a run
    static constexpr int kPartialFrameMilliseconds = 500;
    // Processes events until isComplete() or a failure; false on failure or timeout.
    bool waitForComplete(int timeoutMs);

    // The last complete image (photons per pixel, fast-major) as shown, and what it was
    // computed from: with a -background its layer added, with a response's point spread
    // function spread by it (app/DetectorSignal.h); the readout, plots and compare views read it.
    const std::vector<float>& image() const { return m_image; }
    // The same image before the point spread function: the headless run's float image, which
    // the exports write (the noise image's response applies the PSF itself). image() when no
    // PSF is set.
    const std::vector<float>& floatImage() const {
        return m_floatImage.empty() ? m_image : m_floatImage;
    }
    // what adds the background and the PSF (tests: how many layers it computed)
    const DetectorSignal* detectorSignal() const { return m_signal.get(); }
    int fastPixels() const { return m_fast; }
    int slowPixels() const { return m_slow; }
    const ResolvedExperiment* resolved() const { return m_resolved ? &*m_resolved : nullptr; }
    // The generator as resolve() left it for that image (the noise image continues it).
    const products::GeneratorState& generator() const { return m_generator; }
    // What resolve() printed for it (the reference's warnings).
    const std::string& resolveLog() const { return m_resolveLog; }
    // What the window shows of an image: the simulated image's buffer as it is, or another
    // buffer of the same layout in its place (the compare views, app/CompareView.h). Every
    // image the controller shows passes through it; showSource() shows the last complete image
    // again, through it.
    using SourceFilter =
        std::function<render::ImageWindow::ImageSource(const render::ImageWindow::ImageSource&)>;
    void setSourceFilter(SourceFilter filter) { m_sourceFilter = std::move(filter); }
    void showSource();
    // An experiment shown in place of the document's (the Refine panel's fit as it runs, then
    // its result until applied or discarded); nullopt: the document's again. Either way the
    // image is computed anew, as for a change of the document.
    void setShownExperiment(std::optional<Experiment> experiment);
    bool showsOtherExperiment() const { return m_shown.has_value(); }
    // the device the window and the Simulator share (nullptr before it exists)
    const vk::Device* device() const { return m_device.get(); }
    // Said before the run in flight or last started (compute/run/RunNotices.h): values that
    // look like a slip of units and, in fast precision, spots too sharp for float (the
    // warnings the window puts first), and its cost at the device kind's assumed rate when
    // long.
    const std::vector<std::string>& warnings() const { return m_warnings; }
    const std::optional<std::string>& assumedCost() const { return m_assumedCost; }
    // The value at a pixel of the last complete image; nullopt outside it.
    std::optional<float> valueAt(int fast, int slow) const;
    // one byte per pixel, non-zero where the simulation skipped it (mask, ROI)
    const std::vector<std::uint8_t>& skipped() const { return m_skipped; }

    // the Simulator, for the status display and the tests (nullptr before the device exists)
    const engine::Simulator* simulator() const { return m_simulator.get(); }
    double lastGpuMilliseconds() const { return m_gpuMilliseconds; }
    // The work of the exact setting of the run started last (or running; a preview runs
    // less), and how long it takes on the GPU at the rate the runs before it showed
    // (compute/plan/RunCost.h); none before a rate.
    const plan::RunCost& currentCost() const { return m_scheduler.currentCost(); }
    std::optional<double> expectedMilliseconds() const {
        return m_scheduler.expectedMilliseconds();
    }
    const plan::RateEstimate& rate() const { return m_scheduler.rate(); }
    double lastWallMilliseconds() const { return m_wallMilliseconds; }
    int completedRuns() const { return m_scheduler.completedRuns(); }
    // values superseded while in flight
    int skippedStates() const { return m_scheduler.skippedStates(); }
    // runs cancelled for a newer state
    int interruptedRuns() const { return m_scheduler.interruptedRuns(); }
    // of the last interrupted run: the slices submitted when the newer state came, of the
    // slices in its plan
    struct Interruption {
        int submittedSlices = 0;
        int plannedSlices = 0;
    };
    const Interruption& lastInterruption() const { return m_lastInterruption; }
    // frames drawn of a partial image (between two slices of a run)
    int partialFrames() const { return m_partialFrames; }
    // The histogram of the last complete image, counted on the GPU (empty until the first, or
    // when it could not be counted).
    const render::ImageHistogram& histogram() const { return m_histogram; }

    // Pixel-steps per dispatch (SimulatorOptions::workPerSlice; 0: the device's default).
    // Rebuilds the Simulator. Tests set it small to get several slices from a light setting.
    void setWorkPerSlice(std::uint64_t pixelSteps);

    // The engine stopped after a failure (restartEngine() brings it back).
    bool isEngineStopped() const { return m_engineStopped; }
    // A new Vulkan device for the window and a new Simulator on it; the current state is
    // computed again once the device is there.
    void restartEngine();
    // Test hook: the run in flight, or the next one, fails as if the device were lost.
    void simulateDeviceLoss() { m_simulateLoss = true; }
    const QString& lastError() const { return m_lastError; }
    QString deviceDescription() const;

  signals:
    void imageReady(); // a new complete image
    void runStarted();
    // dispatches finished of the run in flight (heavy settings are cut into several)
    void progress(int finished, int total);
    void failed(const QString& message);
    void engineStopped(const QString& message); // after failed(): restartEngine() is needed
    void simulatorChanged();                    // built, rebuilt (precision) or gone

  public slots:
    void schedule(); // the document changed, or the engine needs the current state again

  private slots:
    void onDocumentChanged(); // a new value: part of a movement or not, then schedule()
    void onDeviceReady();
    void onDeviceReleasing();
    void onPrecisionChanged();
    void poll();
    void startPending();
    void onFrameRendered();

  private:
    void buildSimulator();
    void destroySimulator();
    void startRun();
    bool finishRun(); // false when it failed (reported)
    void fail(const QString& message);
    void stopEngine(const QString& message);
    // carries out the scheduler's answer to a new value or state
    void act(RunScheduler::Action action);
    void interrupt();
    void showPartialImage();
    // The next run's preview of `exact` while values move, or nothing: the exact one runs.
    std::optional<run::PreparedRun> choosePreview(const run::PreparedRun& exact,
                                                  const Experiment& experiment);
    // whether a run can start: a Simulator, the engine not stopped
    bool canRun() const { return m_simulator && !m_engineStopped; }

    ExperimentDocument& m_document;
    std::optional<Experiment> m_shown; // setShownExperiment()
    render::ImageWindow& m_window;
    std::unique_ptr<vk::Device> m_device;
    SourceFilter m_sourceFilter;
    render::ImageWindow::ImageSource filtered(const render::ImageWindow::ImageSource& source) const;
    std::unique_ptr<engine::Simulator> m_simulator;
    std::unique_ptr<render::GpuHistogram> m_histogramCounter;
    // the background and response of the image shown, and its buffer (none: the simulator's)
    std::unique_ptr<DetectorSignal> m_signal;
    bool m_signalShown = false;
    VkBuffer shownBuffer() const;
    Experiment m_runningSignal; // the run's background and response (its other fields unused)
    QTimer m_poll;
    QElapsedTimer m_runClock;

    RunScheduler m_scheduler;
    bool m_failedState = false;
    QElapsedTimer m_changeClock; // since the last change of the document
    std::optional<ResolvedExperiment> m_running; // resolved state of the run in flight
    products::GeneratorState m_runningGenerator;
    std::string m_runningLog;
    std::vector<std::uint8_t> m_runningSkipped;
    bool m_waitingForFrame = false;  // a partial image's frame: the next slice waits for it
    QElapsedTimer m_frameClock;
    int m_shownSlices = 0;        // slices of the run in flight whose partial image was drawn
    QElapsedTimer m_partialClock; // since the last partial image drawn (or the run's start)
    std::uint64_t m_workPerSlice = 0;
    bool m_engineStopped = false;
    bool m_simulateLoss = false;

    std::vector<float> m_image;
    std::vector<float> m_floatImage; // before the PSF, when one is shown
    int m_fast = 0, m_slow = 0;
    std::optional<ResolvedExperiment> m_resolved;
    products::GeneratorState m_generator;
    std::string m_resolveLog;
    std::vector<std::string> m_warnings;
    std::optional<std::string> m_assumedCost;
    std::vector<std::uint8_t> m_skipped;
    double m_gpuMilliseconds = 0.0;
    double m_wallMilliseconds = 0.0;
    Interruption m_lastInterruption;
    int m_partialFrames = 0;
    int m_reportedSlices = -1;
    render::ImageHistogram m_histogram;
    QString m_lastError;
};

} // namespace bv::app
