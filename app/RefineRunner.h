#pragma once
// RefineRunner: the viewer's fit of the experiment to the measured frame (compute/refine,
// Ceres), with the viewer's own GPU as the forward model, without blocking the GUI thread.
//
// Ceres is synchronous: it calls the forward model and waits for each image. So the solver
// runs on a worker thread of its own, and each image it asks for is computed where every
// other submission of the viewer is made, on the GUI thread: the worker posts the experiment
// and waits; the GUI thread sets the plan on a Simulator of its own (on the image window's
// device, borrowed as the SimulationController borrows it), submits, and polls with a timer
// as the controller does, so between the fit's dispatches the GUI thread keeps handling
// events. The forward model is the headless fit's (run::ModelRenderer): a whole image where
// the fit needs one, and after the fit has chosen its pixels those alone, rendered (the rest
// masked) and read back on the device. One queue, one submitting thread: the window's frames, the
// controller's runs and the fit's dispatches are never submitted concurrently, and the fit writes
// only buffers of its own Simulator, never the image the window draws.
//
// After each step Ceres accepts, progressed() reports where the fit is (on the GUI thread);
// stop() ends the fit at its next accepted step, whose values are then the result. Closing
// the window or releasing the device aborts the fit (the image waited for fails).
//
//     RefineRunner runner(window);
//     connect(&runner, &RefineRunner::progressed, ...);
//     runner.start(experiment, measured, {"distance"}, refine::PixelChoice::Spots,
//                  refine::BackgroundChoice::Local, precision);
//     ... finished(): runner.report()

#include "compute/engine/Simulator.h"
#include "compute/io/MeasuredImage.h"
#include "compute/refine/Refinement.h"
#include "compute/run/ModelRenderer.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace bv::render {
class ImageWindow;
}
namespace bv::vk {
class Device;
}

namespace bv::app {

class RefineRunner : public QObject {
    Q_OBJECT
  public:
    explicit RefineRunner(render::ImageWindow& window, QObject* parent = nullptr);
    ~RefineRunner() override;

    // Starts a fit of `experiment` (as the document states it) to `measured` (copied) over
    // `groups` (-refine's names). Throws bv::Error for a choice the fit refuses (an unknown
    // group, a curved detector, no device yet) before anything runs.
    void start(const Experiment& experiment, const io::MeasuredImage& measured,
               const std::vector<std::string>& groups, refine::PixelChoice pixels,
               refine::BackgroundChoice background, engine::Precision precision);
    // Ends the fit at its next accepted step (its result is that step's).
    void stop();
    bool isRunning() const { return m_worker.joinable(); }

    // The start the fit's parameters act on (canonical) and its parameters; valid from start().
    const refine::ParameterSet* parameters() const { return m_set.get(); }
    // The result of the last fit that finished.
    const std::optional<refine::FitReport>& report() const { return m_report; }
    // Images computed for the fit so far (derivatives included).
    int renders() const { return m_renders; }

  signals:
    void progressed(const bv::refine::FitProgress& progress);
    void finished();                      // report() holds the result
    void failed(const QString& message);  // an error, or aborted

  private:
    // What the worker asks of the GUI thread: the whole image of an experiment, the chosen
    // pixels' values, or the choice of pixels (answered at once, with no values).
    struct Request {
        enum Kind { Image, Pixels, SetPixels } kind = Image;
        Experiment experiment;
        std::vector<std::size_t> pixels;
    };
    // worker thread: `request` done on the GUI thread, its values when it has some
    std::vector<float> askGuiThread(Request request);
    // the fit's forward model, on the GUI thread through askGuiThread
    refine::PixelModel pixelModel();
    // GUI thread
    void beginRender();
    void poll();
    void fulfil(std::vector<float> image);
    void fail(const std::string& message);
    void abort(const std::string& message); // the fit cannot go on: fails what it waits for
    void join();
    void releaseEngine();

    render::ImageWindow& m_window;
    std::unique_ptr<vk::Device> m_device; // borrows the window's
    std::unique_ptr<engine::Simulator> m_simulator;
    std::unique_ptr<run::ModelRenderer> m_renderer; // on m_simulator, the GUI thread's alone
    engine::Precision m_precision = engine::Precision::Fast;
    QTimer m_poll;

    std::unique_ptr<refine::ParameterSet> m_set;
    io::MeasuredImage m_measured;
    std::thread m_worker;
    std::atomic<bool> m_stop{false};
    std::optional<refine::FitReport> m_report;
    int m_renders = 0;

    // the request the worker waits for (one at a time: Ceres asks in turn)
    std::mutex m_mutex;
    bool m_aborted = false;
    std::optional<Request> m_request;
    std::optional<std::promise<std::vector<float>>> m_promise;
    bool m_rendering = false;
};

} // namespace bv::app
