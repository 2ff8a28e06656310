#include "compute/headless/Headless.h"

#include "compute/cli/CommandLine.h"
#include "compute/engine/SerialOrder.h"
#include "compute/engine/Simulator.h"
#include "compute/engine/SolidAngle.h"
#include "compute/headless/Batch.h"
#include "compute/headless/Frames.h"
#include "compute/headless/Summary.h"
#include "compute/io/FloatImageFile.h"
#include "compute/io/ImageStatistics.h"
#include "compute/io/IntImage.h"
#include "compute/io/NoiseImage.h"
#include "compute/io/PgmFile.h"
#include "compute/io/PrintfFormat.h"
#include "compute/io/Smv.h"
#include "compute/model/Error.h"
#include "compute/model/Resolve.h"
#include "compute/model/Units.h"
#include "compute/plan/Plan.h"
#include "compute/random/ReferenceRandom.h"
#include "compute/vk/Device.h"
#include "compute/vk/PhaseTimer.h"

#include <cmath>
#include <future>
#include <iostream>
#include <ostream>
#include <sstream>
#include <unistd.h>

namespace bv::headless {
namespace {

io::Roi ioRoi(const Roi& roi) {
    return {roi.xmin, roi.xmax, roi.ymin, roi.ymax};
}

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

// smvHeader(): compute/headless/Frames.h (shared with series and jobs)


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

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
        Timing& timing) {
    vk::PhaseTimer& times = timing.timer;
    if (isBatch(args)) { // -series or --job: compute/headless/Batch.h
        runBatch(args, out, err);
        return 0;
    }
    cli::CommandLine cl = cli::parseCommandLine(args);
    timing.verbose = cl.verbose;
    times.mark("parse");
    if (cl.help) {
        out << cli::usageText();
        return 0;
    }
    out << "braggview " BRAGGVIEW_VERSION " - nanoBragg-compatible diffraction simulator (physics of nanoBragg by James Holton and Ken Frankel)\n";
    for (const std::string& notice : cl.notices)
        out << "WARNING: " << notice << "\n";
    cli::loadInputs(cl, out);
    times.mark("load");

    // the run's generator: misset, mosaic domains, then the noise image, in the reference's order
    random::ReferenceRandom rng;
    const ResolvedExperiment r = resolve(cl.experiment, rng, out);
    printSummary(out, cl, r);
    times.mark("resolve");
    const plan::Plan plan = plan::makePlan(r, cl.experiment.mask);
    times.mark("plan");
    // the summary's solid angle: a CPU sum over every pixel, done while the GPU is set up
    std::future<double> omegaSumLater =
        std::async(std::launch::async, [&plan] { return engine::solidAngleSum(plan); });

    vk::DeviceOptions deviceOptions;
    deviceOptions.deviceOverride = cl.device;
    const vk::Device device(deviceOptions);
    times.mark("device");
    timing.notes.push_back("device: " + phaseList(device.creationTimes()));
    engine::SimulatorOptions options;
    options.precision = cl.precision;
    engine::Simulator simulator(device, options);
    times.mark("simulator");
    timing.notes.push_back("simulator: " + phaseList(simulator.constructionTimes()));
    out << "  GPU: " << device.description() << ", " << engine::precisionName(simulator.precision())
        << " precision" << (device.validationEnabled() ? ", Vulkan validation on" : "") << "\n";
    if (!simulator.notice().empty())
        err << "braggview: warning: " << simulator.notice() << "\n";
    // the reference's serial loop, as run by as many OpenMP threads as OMP_NUM_THREADS says
    simulator.setPlan(plan, {engine::phiAngles(r), engine::referenceThreads()});
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
    const std::vector<float> image = simulator.image();
    times.mark("readback");
    // with BRAGGVIEW_VALIDATION=1: what the Vulkan validation layer said (nothing, normally)
    for (const std::string& message : device.validationMessages())
        err << "braggview: validation: " << message << "\n";

    if (cl.verbose) {
        out << "  GPU time " << io::formatG(simulator.gpuMilliseconds()) << " ms in "
            << simulator.sliceCount() << " dispatch" << (simulator.sliceCount() == 1 ? "" : "es")
            << " (" << simulator.stepsPerPixel() << " steps per pixel):";
        for (double ms : simulator.dispatchMilliseconds())
            out << " " << io::formatG(ms);
        out << " ms\n";
    }

    out << "\n";
    const double omegaSum = omegaSumLater.get();
    const double steps = static_cast<double>(plan.steps);
    out << "solid angle subtended by detector = " << io::formatG(omegaSum / steps)
        << " steradian ( " << io::formatG(100.0 * omegaSum / steps / 4.0 / M_PI) << "% sphere)\n";

    const DetectorGeometry& d = r.detector;
    const int width = d.fastPixels, height = d.slowPixels;
    const io::Roi roi = ioRoi(r.roi);
    const cli::OutputOptions& o = cl.outputs;
    const std::vector<std::uint16_t>& mask = cl.experiment.mask;

    // everything is computed before the first file is written, so that an error (a bad
    // value, memory) leaves no output behind; each file then appears whole or not at all
    const io::ImageStatistics stats =
        io::statistics(image, width, height, roi, mask, d.pixelSize, r.oversample);
    const double intScale = io::intImageScale(o.intScale, stats.maxI);
    const std::vector<std::uint16_t> intPixels =
        io::intImage(image, width, height, intScale, o.adcOffset, roi);
    const io::SmvHeader header = smvHeader(cl, r);
    const double pgmScale = io::pgmScale(o.pgmScale, intScale, stats.rmsd);
    // -cbffile (braggview's own): the noise image's deviates from a copy of the generator
    const CbfOutput cbf = o.writeCbf ? prepareCbf(cl, r, image, rng, cl.experiment.seed, o.cbfFile,
                                                  runStartSeconds())
                                     : CbfOutput{};
    io::NoiseImage noise;
    if (o.writeNoise) {
        long seed = cl.experiment.seed; // the run's generator continues after the mosaic domains
        noise = io::noiseImage(rng, seed, image, width, height, o.adcOffset, roi);
    }
    times.mark("statistics");

    out << "writing " << o.floatFile << " as " << image.size() << " " << sizeof(float)
        << "-byte floats\n";
    times.restart(); // printing is not a phase
    io::writeFloatImage(o.floatFile, image);
    times.mark("write " + o.floatFile);
    out << io::formatStatistics(stats);
    out << "intfile_scale = " << io::formatG(intScale) << "\n";
    out << "writing " << o.intFile << " as " << sizeof(std::uint16_t) << "-byte integers\n";
    times.restart();
    io::writeSmv(o.intFile, header, intPixels);
    times.mark("write " + o.intFile);
    if (o.writePgm) {
        out << "pgm_scale = " << io::formatG(pgmScale) << "\n";
        out << "writing " << o.pgmFile << " as 1-byte integers\n";
        times.restart();
        io::writePgm(o.pgmFile, width, height, image, pgmScale, roi);
        times.mark("write " + o.pgmFile);
    }
    if (o.writeNoise) {
        out << io::formatFixed(noise.photons, 0) << " photons on noise image (" << noise.overloads
            << " overloads)\n";
        out << "writing " << o.noiseFile << " as " << sizeof(std::uint16_t) << "-byte integers\n";
        times.restart();
        io::writeSmv(o.noiseFile, header, noise.data);
        times.mark("write " + o.noiseFile);
    }
    if (o.writeCbf) {
        times.restart();
        writeCbfOutput(out, o.cbfFile, cbf);
        times.mark("write " + o.cbfFile);
    }
    out << std::flush;
    times.restart();
    return 0;
}

} // namespace

int runHeadless(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    try {
        Timing timing;
        const int status = run(args, out, err, timing);
        timing.timer.mark("teardown"); // the Simulator, device and instance destroyed
        if (timing.verbose)
            printTiming(out, timing);
        return status;
    } catch (const cli::UsageError& e) {
        err << "braggview: " << e.reason() << "\n" << e.what();
        return 2;
    } catch (const Error& e) {
        err << "braggview: error: " << e.what() << "\n";
        return 1;
    } catch (const std::bad_alloc&) {
        err << "braggview: error: out of memory\n";
        return 1;
    } catch (const std::exception& e) {
        err << "braggview: error: " << e.what() << "\n";
        return 1;
    }
}

} // namespace bv::headless
