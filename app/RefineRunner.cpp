#include "app/RefineRunner.h"

#include "compute/core/Error.h"
#include "compute/refine/FrameSampling.h"
#include "compute/refine/StartSize.h"
#include "compute/run/PreparedRun.h"
#include "compute/vk/Device.h"
#include "render/ImageWindow.h"
#include "render/WindowDevice.h"


namespace bv::app {

namespace {
// How often the GUI thread looks at a fit's rendering: a few hundred renderings a fit, each
// handed back up to this late (5 ms cost a 512² fit on lavapipe about a second in 14).
constexpr int kRefinePollMilliseconds = 1;
} // namespace

RefineRunner::RefineRunner(render::ImageWindow& window, QObject* parent)
    : QObject(parent), m_window(window) {
    m_poll.setInterval(kRefinePollMilliseconds);
    connect(&m_poll, &QTimer::timeout, this, &RefineRunner::poll);
    // the Simulator lives on the window's device: it goes before the device does, and a fit
    // waiting for an image cannot have it
    connect(&m_window, &render::ImageWindow::deviceReleasing, this, [this] {
        abort("the GPU device was released (engine restart)");
        releaseEngine();
    });
}

RefineRunner::~RefineRunner() {
    abort("the viewer closed");
    join();
    releaseEngine();
}

void RefineRunner::start(const Experiment& experiment, const io::MeasuredImage& measured,
                         const std::vector<std::string>& groups, refine::PixelChoice pixels,
                         refine::BackgroundChoice background, engine::Precision precision) {
    if (isRunning())
        throw Error("refinement: a fit is running already");
    if (m_window.device() == VK_NULL_HANDLE)
        throw Error("refinement: the GPU device is not ready yet");
    const ResolvedExperiment resolved = run::resolveQuietly(experiment);
    // ncells too where no size is stated (the worker searches its start): the panel's rows
    const std::vector<std::string> fitting = refine::fittedGroups(experiment, groups);
    auto set = std::make_unique<refine::ParameterSet>(refine::canonicalStart(experiment, resolved),
                                                      resolved, fitting);
    if (!m_simulator || precision != m_precision) {
        releaseEngine();
        vk::BorrowedDevice borrowed = render::borrowedDevice(m_window);
        borrowed.float64Enabled = m_window.float64Enabled();
        m_device = std::make_unique<vk::Device>(borrowed);
        engine::SimulatorOptions options;
        options.precision = precision;
        options.specialisation = engine::interactiveSpecialisation(*m_device);
        m_simulator = std::make_unique<engine::Simulator>(*m_device, options);
        m_renderer = std::make_unique<run::ModelRenderer>(*m_simulator);
        m_precision = precision;
    }
    m_set = std::move(set);
    m_measured = measured;
    m_report.reset();
    m_renders = 0;
    m_stop = false;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_aborted = false;
        m_request.reset();
        m_promise.reset();
    }
    m_worker = std::thread([this, pixels, background, experiment, fitting] {
        try {
            // no size stated and ncells fitted: the start searched first, as headless does
            // (the panel's start column follows the fit's first values)
            const refine::PixelModel model = pixelModel();
            const refine::ForwardModel& render = model.image; // a whole image
            Experiment sized = experiment;
            std::vector<std::string> sizedGroups = fitting;
            refine::chooseStartSize(sized, sizedGroups, m_measured, render);
            const ResolvedExperiment r = run::resolveQuietly(sized);
            // the headless flow: the frame's phi sampling and mosaic domains found where the
            // experiment leaves them open (refine/FrameSampling.h); the panel's rows follow
            // the fit of its own groups (a first fit with the orientation added shows none)
            const refine::SampledFit sampled = refine::fitFindingSampling(
                sized, refine::canonicalStart(sized, r), sizedGroups, m_measured,
                [&](const Experiment& from, const std::vector<std::string>& fitted, bool shown) {
                    refine::Refinement fit(refine::ParameterSet(from, r, fitted), m_measured, model,
                                           pixels, background);
                    fit.setProgress([this, shown](const refine::FitProgress& progress) {
                        if (shown)
                            QMetaObject::invokeMethod(
                                this, [this, progress] { emit progressed(progress); },
                                Qt::QueuedConnection);
                        return !m_stop.load();
                    });
                    return fit.run();
                },
                render);
            refine::FitReport report = sampled.report;
            QMetaObject::invokeMethod(
                this,
                [this, report = std::move(report)]() mutable {
                    join();
                    m_report = std::move(report);
                    emit finished();
                },
                Qt::QueuedConnection);
        } catch (const std::exception& e) {
            QMetaObject::invokeMethod(
                this,
                [this, message = QString::fromStdString(e.what())] {
                    join();
                    emit failed(message);
                },
                Qt::QueuedConnection);
        }
    });
}

void RefineRunner::stop() {
    m_stop = true;
}

refine::PixelModel RefineRunner::pixelModel() {
    refine::PixelModel model;
    model.image = [this](const Experiment& e) { return askGuiThread({Request::Image, e, {}}); };
    model.setPixels = [this](const std::vector<std::size_t>& pixels) {
        askGuiThread({Request::SetPixels, {}, pixels});
    };
    model.pixels = [this](const Experiment& e) { return askGuiThread({Request::Pixels, e, {}}); };
    return model;
}

std::vector<float> RefineRunner::askGuiThread(Request request) {
    std::future<std::vector<float>> answer;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_aborted)
            throw Error("refinement stopped: the fit was aborted");
        m_request = std::move(request);
        m_promise.emplace();
        answer = m_promise->get_future();
    }
    QMetaObject::invokeMethod(this, [this] { beginRender(); }, Qt::QueuedConnection);
    return answer.get(); // what the GUI thread computed, or its error
}

void RefineRunner::beginRender() {
    Request r;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (!m_request || !m_promise)
            return; // aborted meanwhile
        r = std::move(*m_request);
        m_request.reset();
    }
    if (!m_renderer) {
        fail("refinement: no GPU engine");
        return;
    }
    try {
        switch (r.kind) {
        case Request::SetPixels:
            m_renderer->setPixels(r.pixels);
            fulfil({});
            return;
        case Request::Image:
            m_renderer->startImage(r.experiment);
            break;
        case Request::Pixels:
            m_renderer->startPixels(r.experiment);
            break;
        }
        m_rendering = true;
        m_poll.start();
    } catch (const std::exception& error) {
        fail(error.what());
    }
}

void RefineRunner::poll() {
    if (!m_rendering || !m_renderer) {
        m_poll.stop();
        return;
    }
    try {
        if (!m_renderer->isFinished())
            return;
        m_poll.stop();
        m_rendering = false;
        std::vector<float> values = m_renderer->finish();
        ++m_renders;
        fulfil(std::move(values));
    } catch (const std::exception& error) {
        m_poll.stop();
        m_rendering = false;
        fail(error.what());
    }
}

void RefineRunner::fulfil(std::vector<float> image) {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_promise) {
        m_promise->set_value(std::move(image));
        m_promise.reset();
    }
}

void RefineRunner::fail(const std::string& message) {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_promise) {
        m_promise->set_exception(std::make_exception_ptr(Error(message)));
        m_promise.reset();
    }
}

void RefineRunner::abort(const std::string& message) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_aborted = true;
    m_stop = true;
    m_request.reset();
    if (m_promise) {
        m_promise->set_exception(std::make_exception_ptr(Error("refinement stopped: " + message)));
        m_promise.reset();
    }
}

void RefineRunner::join() {
    if (m_worker.joinable())
        m_worker.join();
}

void RefineRunner::releaseEngine() {
    m_poll.stop();
    if (m_simulator) {
        try {
            if (m_rendering)
                m_simulator->cancel(); // waits for the dispatch on the GPU
        } catch (const Error&) {
            // a lost device: the destructor below still releases what it can
        }
    }
    m_rendering = false;
    m_renderer.reset();
    m_simulator.reset();
    m_device.reset();
}

} // namespace bv::app
