#include "compute/products/NexusSeries.h"

#include "compute/core/Error.h"
#include "compute/io/CbfImage.h"
#include "compute/model/Units.h"
#include "compute/plan/Plan.h"
#include "compute/products/FileHeaders.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <set>

namespace bv::products {
namespace {

// A module's group name: the panel's own where HDF5 and NeXus can take it (dxtbx names its
// Panel by the group's path), else "module_<index>". Not a name of the detector's own
// fields, not twice.
std::string moduleName(const std::string& panel, std::size_t index,
                       const std::set<std::string>& taken) {
    static const std::set<std::string> fields = {
        "beam_center_x",    "beam_center_y",   "count_time", "depends_on",       "description",
        "distance",         "frame_time",      "pixel_mask", "saturation_value", "sensor_material",
        "sensor_thickness", "transformations", "type",       "underload_value",  "x_pixel_size",
        "y_pixel_size"};
    const bool plain = !panel.empty() && std::all_of(panel.begin(), panel.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
    });
    if (plain && !fields.count(panel) && !taken.count(panel))
        return panel;
    std::string name = "module_" + std::to_string(index);
    while (taken.count(name))
        name += "_";
    return name;
}

// One plane of square pixels in NeXus' frame: its corner, fast and slow axes as the simulator
// places them (nanoBragg's pix0, fdet, sdet).
io::NexusModule nexusModule(const ResolvedExperiment& r, const glm::dvec3& pix0,
                            const glm::dvec3& fdet, const glm::dvec3& sdet, double pixelSize,
                            int fastPixels, int slowPixels) {
    io::NexusModule m;
    m.origin = nexusFromLab(r, pix0);
    m.fast = nexusFromLab(r, fdet);
    m.slow = nexusFromLab(r, sdet);
    m.fastPixelSize = m.slowPixelSize = pixelSize;
    m.fastPixels = fastPixels;
    m.slowPixels = slowPixels;
    return m;
}

// The multi-panel detector's part of the description: a module per panel, placed where the
// plan stacks its rows (plan::stackedSize, the engine's layout). A narrower panel's rows
// leave pixels of the image in no module: readers take each module's hyperslab, so they are
// never read, and no pixel_mask marks them (dxtbx 3.12 cannot slice one for a module narrower
// than the image: docs/nexus.md).
void describePanels(const ResolvedExperiment& r, io::NexusDescription& n) {
    const std::vector<plan::PanelEntry> entries = plan::panelEntries(r.panels);
    const plan::StackedSize size = plan::stackedSize(entries);
    n.imageFast = size.fast;
    n.imageSlow = static_cast<int>(size.slow); // resolve() made it the detector's int size
    std::set<std::string> taken;
    for (std::size_t i = 0; i < r.panels.size(); ++i) {
        const PanelGeometry& g = r.panels[i];
        io::NexusModule m =
            nexusModule(r, g.pix0, g.fdet, g.sdet, g.pixelSize, g.fastPixels, g.slowPixels);
        m.name = moduleName(g.name, i, taken);
        taken.insert(m.name);
        m.slowOffset = static_cast<int>(size.firstRow[i]);
        n.modules.push_back(m);
    }
    // one material if the panels name one (dxtbx reads one for the detector), else Si
    const std::string& first = r.panels.front().material;
    if (!first.empty() && std::all_of(r.panels.begin(), r.panels.end(),
                                      [&](const PanelGeometry& g) { return g.material == first; }))
        n.sensorMaterial = first;
    // NXmx's distance, for guidance: the detector's centre along the beam (-distance's
    // meaning); no beam centre, which would need one plane of pixels
    n.distance = glm::dot(detectorCentre(r.panels), glm::normalize(r.axes.beam));
    n.hasBeamCentre = false;
}

} // namespace

glm::dvec3 nexusFromLab(const ResolvedExperiment& r, const glm::dvec3& v) {
    const glm::dvec3 z = glm::normalize(r.axes.beam);
    // nanoBragg's +y is up in its named conventions; a beam along y (no convention has one)
    // takes nanoBragg's z as up instead
    glm::dvec3 up = std::abs(z.y) < 0.999 ? glm::dvec3(0, 1, 0) : glm::dvec3(0, 0, 1);
    const glm::dvec3 y = glm::normalize(up - glm::dot(up, z) * z);
    const glm::dvec3 x = glm::cross(y, z);
    return {glm::dot(v, x), glm::dot(v, y), glm::dot(v, z)};
}

std::array<double, 4> polarisationStokes(const ResolvedExperiment& r) {
    // nanoBragg's factor 0.5 (1 + cos^2 2theta - K cos 2psi sin^2 2theta), psi the scattered
    // ray's azimuth from the E-vector (-polar_vector): K is the beam's degree of linear
    // polarization along that E-vector, so S1 + i S2 = K e^(2 i chi), chi the E-vector's
    // angle from NeXus' x; -nopolar drops the factor, which no beam gives: unpolarized
    const double k = r.polarization ? r.kahnFactor : 0.0;
    const glm::dvec3 e = nexusFromLab(r, r.axes.polarization);
    const double chi = std::atan2(e.y, e.x);
    const auto clean = [](double v) { return std::abs(v) < 1e-15 ? 0.0 : v; };
    return {1.0, clean(k * std::cos(2.0 * chi)), clean(k * std::sin(2.0 * chi)), 0.0};
}

io::NexusDescription nexusDescription(const ResolvedExperiment& r, bool counts,
                                      double epochSeconds) {
    const DetectorGeometry& d = r.detector;
    io::NexusDescription n;
    if (!r.panelsFromSource) {
        n.imageFast = d.fastPixels;
        n.imageSlow = d.slowPixels;
        n.modules.push_back(nexusModule(r, d.pix0, d.fdet, d.sdet, d.pixelSize, d.fastPixels,
                                        d.slowPixels));
        n.distance = d.distance; // NXmx: sample to the beam centre, for guidance only
        n.beamCentreFast = d.Fbeam / d.pixelSize;
        n.beamCentreSlow = d.Sbeam / d.pixelSize;
    } else {
        describePanels(r, n);
    }
    n.pixels = counts ? io::NexusPixels::Int32 : io::NexusPixels::Float32;
    n.wavelength = r.wavelength;
    n.flux = r.flux;
    n.polarisationStokes = polarisationStokes(r);
    // nanoBragg's default, an ideal sensor of no thickness, as 1 um: dxtbx refuses a sensor
    // thickness of 0 (it asserts t0 > 0 for its parallax correction), which then moves a
    // spot by at most 1 um * tan(2theta), a hundredth of a pixel at 45 degrees
    n.sensorThickness = r.thickness.range > 0.0 ? r.thickness.range : kThinnestSensor;
    n.exposure = r.exposure > 0.0 ? r.exposure : 1.0;
    // the CBF's cut-off, so that the counts are the CBF's pixel for pixel
    n.saturation = counts ? io::kPilatusCountCutoff : 0;
    n.spindle = glm::normalize(nexusFromLab(r, r.axes.spindle));
    n.oscillationDeg = units::degreesFromRadians(r.phi.range);
    n.startTime = isoTimestamp(epochSeconds);
    n.software = "braggview " BRAGGVIEW_VERSION;
    return n;
}

NexusSeries::NexusSeries(std::string path) : m_path(std::move(path)) {
    io::requireBitshuffle(m_path);
    const std::filesystem::path folder = std::filesystem::path(m_path).parent_path();
    std::error_code ec;
    if (!folder.empty() && !std::filesystem::is_directory(folder, ec))
        throw Error(m_path + ": cannot write NeXus file: no folder " + folder.string());
}

NexusFrame nexusFrame(const ImageSource& source) {
    const ResolvedExperiment& r = source.resolved;
    NexusFrame f;
    f.startDeg = units::degreesFromRadians(r.phi0);
    f.counts = source.commandLine.outputs.countPhotons;
    if (!f.counts) {
        f.image = source.image;
        return f;
    }
    // the photons a counting detector records: the CBF's deviates, from a copy of the
    // generator, so the noise image and the CBF stay as they are
    GeneratorState g = source.generator;
    // the file's image: the detector's, or the panels' rows stacked (a gap counts 0), which
    // resolve() makes the detector's size, as nexusDescription() does the file's
    const int width = r.detector.fastPixels, height = r.detector.slowPixels;
    const std::vector<std::uint16_t>& mask = source.commandLine.experiment.mask;
    if (source.commandLine.outputs.noiseGenerator == NoiseGenerator::Counter) {
        std::vector<float> drawn;
        f.photons =
            io::cbfCounts(counterDeviates(source, drawn), width, height, r.roi, mask).data;
    } else {
        f.photons = io::cbfCounts(g.rng, g.seed, source.image, width, height, r.roi, mask).data;
    }
    return f;
}

void NexusSeries::append(const ImageSource& source) { append(source, nexusFrame(source)); }

void NexusSeries::append(const ImageSource& source, const NexusFrame& frame) {
    if (!m_writer)
        m_writer = std::make_unique<io::NexusWriter>(
            m_path, nexusDescription(source.resolved, frame.counts, source.epochSeconds));
    if (frame.counts)
        m_writer->appendFrame(frame.startDeg, frame.photons);
    else
        m_writer->appendFrame(frame.startDeg, frame.image);
}

void NexusSeries::finish() {
    if (m_writer)
        m_writer->finish();
}

void NexusSeries::commit() {
    if (!m_writer)
        throw Error(m_path + ": no frame was written, so no NeXus file either");
    m_writer->commit();
}

} // namespace bv::products
