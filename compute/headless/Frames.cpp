#include "compute/headless/Frames.h"

#include "compute/engine/SerialOrder.h"
#include "compute/io/FloatImageFile.h"
#include "compute/io/IntImage.h"
#include "compute/io/NumberText.h"
#include "compute/io/PgmFile.h"
#include "compute/io/PrintfFormat.h"
#include "compute/model/Error.h"
#include "compute/model/Units.h"
#include "compute/vk/Device.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <optional>
#include <ostream>

namespace bv::headless {

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

io::CbfHeader cbfHeader(const ResolvedExperiment& r, const std::string& path, double epochSeconds) {
    const DetectorGeometry& d = r.detector;
    io::CbfHeader h;
    h.fastPixels = d.fastPixels;
    h.slowPixels = d.slowPixels;
    h.pixelSizeM = d.pixelSize;
    h.wavelengthA = r.wavelength * 1e10;
    h.distanceM = d.closeDistance;
    // Fbeam, Sbeam: from pix0, the outer corner of the first pixel, along fdet and sdet
    h.beamFastPixels = d.Fbeam / d.pixelSize;
    h.beamSlowPixels = d.Sbeam / d.pixelSize;
    h.startAngleDeg = units::degreesFromRadians(r.phi0);
    h.angleIncrementDeg = units::degreesFromRadians(r.phi.range);
    h.exposureS = r.exposure > 0.0 ? r.exposure : 1.0;
    h.thicknessM = r.thickness.range;
    // the angle between the beam and the detector normal
    const double cosine = std::clamp(std::abs(d.beamInDetector.z), 0.0, 1.0);
    h.twoThetaDeg = units::degreesFromRadians(std::acos(cosine));
    h.flux = r.flux;
    h.polarization = r.kahnFactor;
    const std::string stem = std::filesystem::path(path).stem().string();
    h.dataName = stem.empty() ? std::string("image") : stem;
    h.timestamp = isoTimestamp(epochSeconds);
    h.software = "braggview " BRAGGVIEW_VERSION;
    return h;
}

double runStartSeconds() {
    if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH")) {
        // parsed as in the C locale, whatever the process's locale is
        const std::optional<double> value = io::parseDouble(epoch);
        if (value && std::isfinite(*value) && *value >= 0.0)
            return *value;
    }
    using namespace std::chrono;
    return duration<double>(system_clock::now().time_since_epoch()).count();
}

std::string isoTimestamp(double epochSeconds) {
    const double whole = std::floor(epochSeconds);
    const auto seconds = static_cast<std::time_t>(whole);
    int millis = static_cast<int>(std::lround((epochSeconds - whole) * 1000.0));
    std::time_t shown = seconds;
    if (millis >= 1000) {
        millis -= 1000;
        ++shown;
    }
    std::tm utc{};
    gmtime_r(&shown, &utc);
    char text[40];
    const std::size_t n = std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%S", &utc);
    std::string out(text, n);
    const std::string ms = std::to_string(millis);
    return out + "." + std::string(3 - ms.size(), '0') + ms;
}

CbfOutput prepareCbf(const cli::CommandLine& cl, const ResolvedExperiment& r,
                     const std::vector<float>& image, random::ReferenceRandom rng, long seed,
                     const std::string& path, double epochSeconds) {
    CbfOutput cbf;
    cbf.header = cbfHeader(r, path, epochSeconds);
    cbf.counts = io::cbfCounts(rng, seed, image, r.detector.fastPixels, r.detector.slowPixels,
                               {r.roi.xmin, r.roi.xmax, r.roi.ymin, r.roi.ymax}, cl.experiment.mask,
                               cbf.header.countCutoff);
    cbf.header.excludedPixels = cbf.counts.excludedPixels;
    return cbf;
}

void writeCbfOutput(std::ostream& out, const std::string& path, const CbfOutput& cbf) {
    out << io::formatFixed(cbf.counts.photons, 0) << " photons on CBF image ("
        << cbf.counts.overloads << " overloads)\n";
    out << "writing " << path << " as 4-byte integers (miniCBF, byte offset)\n";
    io::writeCbf(path, cbf.header, cbf.counts.data);
}

std::vector<std::pair<std::string, std::string>> FrameFiles::named() const {
    std::vector<std::pair<std::string, std::string>> out;
    const std::pair<const char*, const std::string*> all[] = {{"-floatfile", &floatFile},
                                                              {"-intfile", &intFile},
                                                              {"-pgmfile", &pgmFile},
                                                              {"-noisefile", &noiseFile},
                                                              {"-cbffile", &cbfFile}};
    for (const auto& [option, name] : all)
        if (!name->empty())
            out.emplace_back(option, *name);
    return out;
}

bool FrameFiles::allExist() const {
    const auto files = named();
    if (files.empty())
        return false;
    for (const auto& [option, name] : files) {
        std::error_code ignored;
        if (!std::filesystem::is_regular_file(name, ignored))
            return false;
    }
    return true;
}

// ---- the renderer ------------------------------------------------------------------------

FrameRenderer::FrameRenderer(const std::string& deviceOverride, Precision precision) {
    vk::DeviceOptions deviceOptions;
    deviceOptions.deviceOverride = deviceOverride;
    m_device = std::make_unique<vk::Device>(deviceOptions);
    engine::SimulatorOptions options;
    options.precision = precision;
    m_simulator = std::make_unique<engine::Simulator>(*m_device, options);
}

FrameRenderer::~FrameRenderer() = default;

std::string FrameRenderer::description() const {
    return "GPU: " + m_device->description() + ", " +
           engine::precisionName(m_simulator->precision()) + " precision" +
           (m_device->validationEnabled() ? ", Vulkan validation on" : "");
}

void FrameRenderer::setPlan(const ResolvedExperiment& r, const plan::Plan& plan) {
    // the reference's serial loop, as run by as many OpenMP threads as OMP_NUM_THREADS says
    m_simulator->setPlan(plan, {engine::phiAngles(r), engine::referenceThreads()});
}

std::vector<float> FrameRenderer::render(const ResolvedExperiment& r, const plan::Plan& plan) {
    setPlan(r, plan);
    m_simulator->run();
    return m_simulator->image();
}

// ---- products ----------------------------------------------------------------------------

FrameProducts makeProducts(const cli::CommandLine& cl, const ResolvedExperiment& r,
                           std::vector<float> image, const random::ReferenceRandom& rng,
                           long noiseSeed, const FrameFiles& files, double epochSeconds) {
    FrameProducts p;
    const DetectorGeometry& d = r.detector;
    const cli::OutputOptions& o = cl.outputs;
    p.width = d.fastPixels;
    p.height = d.slowPixels;
    p.roi = {r.roi.xmin, r.roi.xmax, r.roi.ymin, r.roi.ymax};
    p.image = std::move(image);
    p.stats = io::statistics(p.image, p.width, p.height, p.roi, cl.experiment.mask, d.pixelSize,
                             r.oversample);
    p.intScale = io::intImageScale(o.intScale, p.stats.maxI);
    p.pgmScale = io::pgmScale(o.pgmScale, p.intScale, p.stats.rmsd);
    if (!files.intFile.empty())
        p.intPixels = io::intImage(p.image, p.width, p.height, p.intScale, o.adcOffset, p.roi);
    if (!files.intFile.empty() || !files.noiseFile.empty())
        p.smv = smvHeader(cl, r);
    if (!files.noiseFile.empty()) {
        random::ReferenceRandom noiseRng = rng;
        long seed = noiseSeed;
        p.noise = io::noiseImage(noiseRng, seed, p.image, p.width, p.height, o.adcOffset, p.roi);
    }
    if (!files.cbfFile.empty())
        p.cbf = prepareCbf(cl, r, p.image, rng, noiseSeed, files.cbfFile, epochSeconds);
    return p;
}

void writeProducts(const FrameProducts& p, const FrameFiles& files) {
    if (!files.floatFile.empty())
        io::writeFloatImage(files.floatFile, p.image);
    if (!files.intFile.empty())
        io::writeSmv(files.intFile, p.smv, p.intPixels);
    if (!files.pgmFile.empty())
        io::writePgm(files.pgmFile, p.width, p.height, p.image, p.pgmScale, p.roi);
    if (!files.noiseFile.empty())
        io::writeSmv(files.noiseFile, p.smv, p.noise.data);
    if (!files.cbfFile.empty())
        io::writeCbf(files.cbfFile, p.cbf.header, p.cbf.counts.data);
}

} // namespace bv::headless
