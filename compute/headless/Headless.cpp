#include "compute/headless/Headless.h"

#include "compute/cli/CommandLine.h"
#include "compute/engine/SerialOrder.h"
#include "compute/engine/Simulator.h"
#include "compute/engine/SolidAngle.h"
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

#include <cmath>
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

io::SmvHeader smvHeader(const cli::CommandLine& cl, const ResolvedExperiment& r) {
    const DetectorGeometry& d = r.detector;
    io::SmvHeader h;
    h.fpixels = d.fastPixels;
    h.spixels = d.slowPixels;
    h.pixelSizeMm = d.pixelSize * 1000.0;
    h.distanceMm = d.distance * 1000.0;
    h.wavelengthA = r.wavelength * 1e10;
    h.beamCenterXMm = d.Xbeam * 1000.0;
    h.beamCenterYMm = d.Ybeam * 1000.0;
    h.adxvCenterXMm = d.Fbeam * 1000.0;
    h.adxvCenterYMm = (d.sizeSlow - d.Sbeam) * 1000.0;
    h.mosflmCenterXMm = (d.Sbeam - 0.5 * d.pixelSize) * 1000.0;
    h.mosflmCenterYMm = (d.Fbeam - 0.5 * d.pixelSize) * 1000.0;
    h.denzoXBeamMm = d.Sbeam * 1000.0;
    h.denzoYBeamMm = d.Fbeam * 1000.0;
    h.dialsOriginMm = d.dialsOrigin;
    h.orgX = d.orgX;
    h.orgY = d.orgY;
    h.closeDistanceMm = d.closeDistance * 1000.0;
    h.phiDeg = units::degreesFromRadians(r.phi0);
    h.oscStartDeg = units::degreesFromRadians(r.phi0);
    h.oscRangeDeg = units::degreesFromRadians(r.phi.range);
    h.twoThetaDeg = units::degreesFromRadians(cl.experiment.detector.twotheta);
    return h;
}


int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    cli::CommandLine cl = cli::parseCommandLine(args);
    if (cl.help) {
        out << cli::usageText();
        return 0;
    }
    out << "braggview " BRAGGVIEW_VERSION " - nanoBragg-compatible diffraction simulator (physics of nanoBragg by James Holton and Ken Frankel)\n";
    for (const std::string& notice : cl.notices)
        out << "WARNING: " << notice << "\n";
    cli::loadInputs(cl, out);

    // the run's generator: misset, mosaic domains, then the noise image, in the reference's order
    random::ReferenceRandom rng;
    const ResolvedExperiment r = resolve(cl.experiment, rng, out);
    printSummary(out, cl, r);
    const plan::Plan plan = plan::makePlan(r, cl.experiment.mask);

    vk::DeviceOptions deviceOptions;
    deviceOptions.deviceOverride = cl.device;
    const vk::Device device(deviceOptions);
    engine::SimulatorOptions options;
    options.precision = cl.precision;
    engine::Simulator simulator(device, options);
    out << "  GPU: " << device.description() << ", " << engine::precisionName(simulator.precision())
        << " precision" << (device.validationEnabled() ? ", Vulkan validation on" : "") << "\n";
    if (!simulator.notice().empty())
        err << "braggview: warning: " << simulator.notice() << "\n";
    // the reference's serial loop, as run by as many OpenMP threads as OMP_NUM_THREADS says
    simulator.setPlan(plan, {engine::phiAngles(r), engine::referenceThreads()});
    for (const std::string& warning : simulator.warnings()) // pipeline cache, slicing
        err << "braggview: warning: " << warning << "\n";
    const bool bar = cl.progress && err.rdbuf() == std::cerr.rdbuf() && isatty(STDERR_FILENO);
    ProgressBar progress(err);
    if (bar)
        simulator.run([&](int done, int total) { progress.update(done, total); });
    else
        simulator.run();
    progress.finish();
    const std::vector<float> image = simulator.image();
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
    const double omegaSum = engine::solidAngleSum(plan);
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
    io::NoiseImage noise;
    if (o.writeNoise) {
        long seed = cl.experiment.seed; // the run's generator continues after the mosaic domains
        noise = io::noiseImage(rng, seed, image, width, height, o.adcOffset, roi);
    }

    out << "writing " << o.floatFile << " as " << image.size() << " " << sizeof(float)
        << "-byte floats\n";
    io::writeFloatImage(o.floatFile, image);
    out << io::formatStatistics(stats);
    out << "intfile_scale = " << io::formatG(intScale) << "\n";
    out << "writing " << o.intFile << " as " << sizeof(std::uint16_t) << "-byte integers\n";
    io::writeSmv(o.intFile, header, intPixels);
    if (o.writePgm) {
        out << "pgm_scale = " << io::formatG(pgmScale) << "\n";
        out << "writing " << o.pgmFile << " as 1-byte integers\n";
        io::writePgm(o.pgmFile, width, height, image, pgmScale, roi);
    }
    if (o.writeNoise) {
        out << io::formatFixed(noise.photons, 0) << " photons on noise image (" << noise.overloads
            << " overloads)\n";
        out << "writing " << o.noiseFile << " as " << sizeof(std::uint16_t) << "-byte integers\n";
        io::writeSmv(o.noiseFile, header, noise.data);
    }
    out << std::flush;
    return 0;
}

} // namespace

int runHeadless(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    try {
        return run(args, out, err);
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
