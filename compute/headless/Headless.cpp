#include "compute/headless/Headless.h"

#include "compute/amorphous/Background.h"
#include "compute/amorphous/NonBragg.h"
#include "compute/cli/CommandLine.h"
#include "compute/detector_response/Noisify.h"
#include "compute/request/Inputs.h"
#include "compute/core/Error.h"
#include "compute/engine/CounterNoise.h"
#include "compute/engine/PixelTrace.h"
#include "compute/engine/Simulator.h"
#include "compute/engine/SolidAngle.h"
#include "compute/headless/Batch.h"
#include "compute/headless/Ranks.h"
#include "compute/headless/Summary.h"
#include "compute/io/PrintfFormat.h"
#include "compute/io/Smv.h"
#include "compute/model/Resolve.h"
#include "compute/plan/Plan.h"
#include "compute/headless/Refine.h"
#include "compute/products/Comparison.h"
#include "compute/products/FileHeaders.h"
#include "compute/products/Products.h"
#include "compute/request/ExperimentFile.h"
#include "compute/random/CounterRandom.h"
#include "compute/random/ReferenceRandom.h"
#include "compute/run/PreparedRun.h"
#include "compute/run/RunNotices.h"
#include "compute/vk/Device.h"
#include "compute/vk/PhaseTimer.h"

#include <cmath>
#include <future>
#include <iostream>
#include <locale>
#include <memory>
#include <optional>
#include <ostream>
#include <unistd.h>

namespace bv::headless {
namespace {

// A one-line bar redrawn in place, for a terminal only.
class ProgressBar {
  public:
    explicit ProgressBar(std::ostream& stream) : m_stream(stream) {}
    void update(int done, int total) {
        if (total <= 0 || (m_drawn && done == m_done))
            return;
        m_done = done;
        const int width = 40;
        const int filled = done * width / total;
        m_stream << "\r[" << std::string(static_cast<std::size_t>(filled), '#')
                 << std::string(static_cast<std::size_t>(width - filled), ' ') << "] "
                 << done * 100 / total << "% " << std::flush;
        m_drawn = true;
    }
    void finish() {
        if (m_drawn)
            m_stream << "\r" << std::string(60, ' ') << "\r" << std::flush;
    }

  private:
    std::ostream& m_stream;
    bool m_drawn = false;
    int m_done = -1;
};

// -v: where the process's time goes, phase by phase, with the device's and the Simulator's
// own phases on the lines below (docs/performance.md, "Whole process"). Printed after the
// run's objects are gone, so that their teardown is measured too.
struct Timing {
    vk::PhaseTimer timer;
    bool verbose = false;
    std::vector<std::string> notes; // the sub-phases, the pipeline cache's use
};

std::string phaseList(const std::vector<vk::PhaseTime>& phases) {
    std::string text;
    for (const vk::PhaseTime& p : phases)
        text += (text.empty() ? "" : ", ") + p.name + " " + io::formatFixed(p.milliseconds, 2);
    return text;
}

void printTiming(std::ostream& out, const Timing& t) {
    out << "timing (ms, wall):";
    for (const vk::PhaseTime& p : t.timer.phases())
        out << " " << p.name << " " << io::formatFixed(p.milliseconds, 2) << ";";
    out << " total " << io::formatFixed(t.timer.totalMilliseconds(), 2) << "\n";
    for (const std::string& note : t.notes)
        out << "  " << note << "\n";
}

const char* cacheUseName(vk::ComputePipeline::CacheUse use) {
    switch (use) {
    case vk::ComputePipeline::CacheUse::Hit:
        return "hit";
    case vk::ComputePipeline::CacheUse::Miss:
        return "miss";
    default:
        return "unknown (no driver feedback)";
    }
}

// -printout_pixel F S: how that pixel's value comes about, from the shader's trace variant
// (compute/engine/PixelTrace.h); the reference prints its own few lines for it. A pixel off
// the detector prints nothing, as in the reference, and says why.
void printPixelTrace(std::ostream& out, std::ostream& err, const engine::Simulator& simulator,
                     int fast, int slow) {
    if (fast < 0 || slow < 0 || fast >= simulator.fastPixels() || slow >= simulator.slowPixels()) {
        err << "braggview: warning: -printout_pixel " << fast << " " << slow << " is not on the "
            << simulator.fastPixels() << "x" << simulator.slowPixels()
            << " detector: nothing to print\n";
        return;
    }
    engine::PixelTracer tracer(simulator);
    std::string text;
    try {
        text = engine::formatTrace(tracer.trace(fast, slow));
    } catch (const Error& e) { // the image is right; only its trace could not be had
        err << "braggview: warning: -printout_pixel: " << e.what() << "\n";
        return;
    }
    out << "pixel trace (" << engine::precisionName(simulator.precision()) << " shader):\n"
        << text;
}

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
        Timing& timing) {
    vk::PhaseTimer& times = timing.timer;
    // the reference's two companion programs (docs/amorphous.md, docs/detector-response.md)
    if (!args.empty() && args.front() == "--nonbragg")
        return amorphous::runNonBragg({args.begin() + 1, args.end()}, out);
    if (!args.empty() && args.front() == "--noisify")
        return detector::runNoisify({args.begin() + 1, args.end()}, out);
    if (isBatch(args)) { // -series or --job: compute/headless/Batch.h
        runBatch(args, out, err);
        return 0;
    }
    RunRequest cl = cli::parseCommandLine(args);
    timing.verbose = cl.verbose;
    times.mark("parse");
    if (cl.help) {
        out << cli::usageText();
        return 0;
    }
    if (cl.listDetectors) {
        out << cli::detectorListText();
        return 0;
    }
    if (cl.device == "all" || cl.device.find(',') != std::string::npos)
        throw Error("-device " + cl.device +
                    ": all and lists are for a batch (-series, --job), whose frames are shared "
                    "among the devices; one image renders on one device");
    if (const RankPlace place = rankPlaceFromEnvironment(); place.size > 1)
        throw Error("started by mpirun as " + std::to_string(place.size) +
                    " processes: only a batch (-series, --job) shares its frames among them; "
                    "every process would write this one image");
    // before anything is read or written (loadInputs writes the structure-factor cache)
    request::checkOutputFiles(request::inputFiles(cl), request::outputFiles(cl));
    // The Vulkan instance and device (most of a short run's time, all of it the driver's) are
    // made on a thread of their own while the inputs are read and the plan is made; an
    // error of the inputs is still reported first (the device's waits in the future).
    std::future<std::unique_ptr<vk::Device>> deviceLater;
    if (cl.refine.empty()) {
        vk::DeviceOptions deviceOptions;
        deviceOptions.deviceOverride = cl.device;
        deviceLater = std::async(std::launch::async, [deviceOptions] {
            return std::make_unique<vk::Device>(deviceOptions);
        });
    }
    printBanner(out, cl);
    request::loadInputs(cl, out);
    // -spots and -compare: the observed spots and the measured image read before any
    // rendering, so a bad one costs nothing
    const std::optional<refine::ObservedSpots> spots = readObservedSpots(cl);
    std::optional<request::MeasuredSource> measuredSource;
    std::optional<io::MeasuredImage> measured;
    if (cl.compare || !cl.refine.empty()) {
        measuredSource = request::measuredSource(cl);
        measured = request::readMeasured(cl, *measuredSource, out);
    }
    times.mark("load");
    if (!cl.refine.empty()) { // compute/headless/Refine.h
        runRefinement(cl, *measured, spots ? &*spots : nullptr, out, err);
        return 0;
    }

    // the run's generator: misset, mosaic domains, then the noise image, in the reference's order
    random::ReferenceRandom rng;
    const run::PreparedRun prepared =
        run::prepare(cl.experiment, rng, out, [&](const ResolvedExperiment& r) {
            printSummary(out, cl, r);
            times.mark("resolve");
        });
    const plan::Plan& plan = prepared.plan;
    times.mark("plan");
    if (measured && (measured->width != plan.fastPixels || measured->height != plan.slowPixels))
        throw Error("-compare: " + measuredSource->path + " is " + std::to_string(measured->width) +
                    " x " + std::to_string(measured->height) + " pixels, the simulated image " +
                    std::to_string(plan.fastPixels) + " x " + std::to_string(plan.slowPixels) +
                    (plan.stackedPanels ? " (the panels' rows stacked)" : ""));
    // the summary's solid angle: a CPU sum over every pixel, done while the GPU is set up
    std::future<double> omegaSumLater =
        std::async(std::launch::async, [&plan] { return engine::solidAngleSum(plan); });

    const bool background = !cl.experiment.background.material.empty();
    if (cl.experiment.response.enabled && cl.outputs.noiseGenerator == NoiseGenerator::Counter)
        throw Error("-response_* with -noise_generator counter: the detector response draws "
                    "from the reference generator (noisify's); use it");
    if (background && cl.outputs.noiseGenerator == NoiseGenerator::Counter)
        throw Error("-background with -noise_generator counter: the counter noise is drawn "
                    "from the Bragg image on the device, before the background is added; use "
                    "the reference generator");
    const std::unique_ptr<vk::Device> ownedDevice = deviceLater.get();
    const vk::Device& device = *ownedDevice;
    times.mark("device");
    // a likely slip of units, and the cost of a long run with its reason, before the work
    for (const std::string& notice : run::runNotices(prepared, device.info(), cl.precision))
        err << "braggview: warning: " << notice << "\n" << std::flush;
    timing.notes.push_back("device: " + phaseList(device.creationTimes()));
    // The Simulator in its own scope: it and its host-visible readback buffer are gone before
    // the output images are made, so the process never holds both (docs/performance.md,
    // "Memory"). The device and the instance stay to the end: destroying them takes tens of
    // milliseconds on some drivers, which would delay the files.
    std::vector<float> image;
    std::optional<engine::GridExit> gridExit; // where interpolation stopped, if it did
    std::vector<float> counterDeviates;       // -noise_generator counter, drawn on the device
    {
        engine::SimulatorOptions options;
        options.precision = cl.precision;
        options.watched = false; // larger slices on a GPU
        engine::Simulator simulator(device, options);
        times.mark("simulator");
        timing.notes.push_back("simulator: " + phaseList(simulator.constructionTimes()));
        out << "  GPU: " << device.description() << ", "
            << engine::precisionName(simulator.precision()) << " precision"
            << (device.validationEnabled() ? ", Vulkan validation on" : "") << "\n";
        if (!simulator.notice().empty())
            err << "braggview: warning: " << simulator.notice() << "\n";
        // the reference's serial loop, as run by as many OpenMP threads as OMP_NUM_THREADS says
        run::setPlan(simulator, prepared);
        times.mark("set plan");
        timing.notes.push_back("set plan: " + phaseList(simulator.lastPlanTimes()));
        timing.notes.push_back(
            std::string("pipeline cache: ") + cacheUseName(simulator.pipelineCacheUse()) + ", " +
            std::to_string(simulator.pipelineCacheLoadedBytes()) + " bytes loaded, file " +
            (simulator.pipelineCacheSaved() ? "rewritten" : "unchanged"));
        for (const std::string& warning : simulator.warnings()) // pipeline cache, slicing
            err << "braggview: warning: " << warning << "\n";
        const bool bar = cl.progress && err.rdbuf() == std::cerr.rdbuf() && isatty(STDERR_FILENO);
        ProgressBar progress(err);
        if (bar)
            simulator.run([&](int done, int total) { progress.update(done, total); });
        else
            simulator.run();
        progress.finish();
        times.mark("run");
        image = simulator.image();
        gridExit = simulator.gridExit();
        times.mark("readback");
        if (background) { // nonBragg's amorphous term, before any noise (docs/amorphous.md)
            amorphous::addBackground(image, prepared.resolved,
                                     {cl.experiment.background.material, cl.experiment.background.thickness,
                                      cl.experiment.background.density, cl.experiment.background.molecularWeight},
                                     plan.fastPixels, plan.slowPixels, &device,
                                     cl.precision == Precision::Fast);
            times.mark("background");
        }
        if (cl.outputs.noiseGenerator == NoiseGenerator::Counter && cl.outputs.drawsNoise()) {
            // the noise drawn where the image is (docs/numerics/counter-noise.md)
            counterDeviates = engine::CounterNoise(device).deviates(
                simulator.imageBuffer(), image.size(), random::counterKey(cl.experiment.seed, 0));
            times.mark("counter noise");
        }
        // with BRAGGVIEW_VALIDATION=1: what the Vulkan validation layer said (nothing, normally)
        for (const std::string& message : device.validationMessages())
            err << "braggview: validation: " << message << "\n";

        if (cl.printoutPixel)
            printPixelTrace(out, err, simulator, cl.printoutPixel->first, cl.printoutPixel->second);

        if (cl.verbose) {
            out << "  GPU time " << io::formatG(simulator.gpuMilliseconds()) << " ms in "
                << simulator.sliceCount() << " dispatch"
                << (simulator.sliceCount() == 1 ? "" : "es") << " (" << simulator.stepsPerPixel()
                << " steps per pixel):";
            for (double ms : simulator.dispatchMilliseconds())
                out << " " << io::formatG(ms);
            out << " ms\n";
            if (gridExit)
                out << "  tricubic interpolation off from pixel (fast, slow) " << gridExit->fast
                    << ", " << gridExit->slow << ", step " << gridExit->step << " of its loop\n";
        }
    }
    times.mark("release simulator");

    // printed by the reference from inside its pixel loop, where this blank line comes from
    if (gridExit)
        out << gridExitWarning(gridExit->hkl) << "\n" << kFurtherWarnings;
    out << "\n";
    const double omegaSum = omegaSumLater.get();
    const double steps = static_cast<double>(plan.steps);
    out << "solid angle subtended by detector = " << io::formatG(omegaSum / steps)
        << " steradian ( " << io::formatG(100.0 * omegaSum / steps / 4.0 / M_PI) << "% sphere)\n";

    // the files, and the reference's lines about them; printing is not a phase of -v's timing
    const products::Hooks hooks{[&](const std::string& text) {
                                    out << text;
                                    times.restart();
                                },
                                [&](const std::string& phase) { times.mark(phase); }};
    // -response_*: the noise image is noisify's chain's (products::writeProducts)
    products::ImageSource source{cl, prepared.resolved, image, {rng, cl.experiment.seed},
                                 products::runStartSeconds()};
    if (!counterDeviates.empty())
        source.counterDeviates = &counterDeviates;
    products::writeProducts(source, products::OutputFiles::ofSingleRun(cl.outputs), hooks);
    if (measured)
        products::printComparison(out, measuredSource->path, *measured, measuredSource->frame,
                                  products::compareImages(*measured, image, prepared.resolved));
    if (measured && spots)
        printObservedSpots(out, *spots, image, *measured, prepared.resolved);
    out << std::flush;
    times.restart();
    return 0;
}

} // namespace

namespace {

// The reference prints its numbers in the C locale ("1.5e-10", "1024"); a stream takes the
// program's global locale when it is made, and under de_DE that gives "1,5e-10" and "1.024".
// The streams print in the classic locale for the run and get their own back after it.
class ClassicLocale {
  public:
    explicit ClassicLocale(std::ostream& stream)
        : m_stream(stream), m_previous(stream.imbue(std::locale::classic())) {}
    ~ClassicLocale() { m_stream.imbue(m_previous); }
    ClassicLocale(const ClassicLocale&) = delete;
    ClassicLocale& operator=(const ClassicLocale&) = delete;

  private:
    std::ostream& m_stream;
    std::locale m_previous;
};

// Under mpirun a message says which process it comes from.
std::string rankPrefix() {
    const RankPlace place = rankPlaceFromEnvironment();
    return place.size > 1
               ? "rank " + std::to_string(place.rank) + " of " + std::to_string(place.size) + ": "
               : std::string();
}

// A batch's error under mpirun stops every rank (the others would wait for this one's
// frames); the files written so far are whole (each renamed into place when complete).
int stopRanks(std::ostream& err, int status) {
    err << std::flush;
    abortAllRanks(status);
    return status;
}

} // namespace

int runHeadless(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const ClassicLocale classicOut(out), classicErr(err);
    try {
        Timing timing;
        const int status = run(args, out, err, timing);
        timing.timer.mark("teardown"); // the Simulator, device and instance destroyed
        if (timing.verbose)
            printTiming(out, timing);
        return status;
    } catch (const request::UsageError& e) {
        err << "braggview: " << rankPrefix() << e.reason() << "\n" << e.what();
        return stopRanks(err, 2);
    } catch (const Error& e) {
        err << "braggview: error: " << rankPrefix() << e.what() << "\n";
        return stopRanks(err, 1);
    } catch (const std::bad_alloc&) {
        err << "braggview: error: " << rankPrefix() << "out of memory\n";
        return stopRanks(err, 1);
    } catch (const std::exception& e) {
        err << "braggview: error: " << rankPrefix() << e.what() << "\n";
        return stopRanks(err, 1);
    }
}

} // namespace bv::headless
