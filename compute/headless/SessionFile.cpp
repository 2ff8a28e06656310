// Reading session files (SessionFile.h describes the layout): every member checked against the
// command line's limits, errors naming the file, line, column and key path.

#include "compute/headless/SessionFile.h"

#include "compute/cli/DetectorSource.h"
#include "compute/headless/SessionFormat.h"
#include "compute/io/HklFile.h"
#include "compute/io/JsonFields.h"
#include "compute/io/Smv.h"
#include "compute/core/Error.h"

#include <climits>
#include <cmath>
#include <filesystem>

namespace bv::headless {

namespace {

// the command line's limits: counts up to a billion, seeds within int
constexpr long long kMaxCount = 1000000000;
constexpr long long kMaxSeed = INT_MAX;
// a detector edge, in pixels (the command line's limit)
constexpr int kMaxPixelsPerSide = 32768;

using io::JsonFields;

template <typename Enum, std::size_t N>
Enum choose(const JsonFields& r, const char* key, const session::Choice<Enum> (&choices)[N]) {
    const std::string& text = r.text(key);
    for (const auto& [name, value] : choices)
        if (text == name)
            return value;
    std::string expected;
    for (std::size_t i = 0; i < N; ++i)
        expected += std::string(i == 0 ? "one of " : ", ") + choices[i].first;
    r.fail(r.value(key), key, expected);
}

SweepRequest readSweep(const JsonFields& parent, const char* key, Quantity quantity) {
    const JsonFields s = parent.object(key);
    SweepRequest out;
    out.range = s.optionalLimited("range", quantity, Bound::NonNegative);
    out.step = s.optionalLimited("step", quantity, Bound::NonNegative);
    if (const auto steps = s.optionalWhole("steps", 0, kMaxCount))
        out.steps = static_cast<int>(*steps);
    return out;
}

std::optional<int> optionalCount(const JsonFields& r, const char* key) {
    if (const auto v = r.optionalWhole(key, 0, kMaxCount))
        return static_cast<int>(*v);
    return std::nullopt;
}

// A name in the session: a relative one joined to the session's directory.
std::string joined(const std::string& directory, const std::string& name) {
    if (name.empty() || directory.empty() || std::filesystem::path(name).is_absolute())
        return name;
    return (std::filesystem::path(directory) / name).string();
}

Panel readPanel(const JsonFields& p) {
    Panel panel;
    panel.name = p.text("name");
    panel.origin = p.vector("origin");
    panel.fast = p.vector("fast");
    panel.slow = p.vector("slow");
    panel.pixelSizeFast = p.number("pixelSizeFast");
    panel.pixelSizeSlow = p.number("pixelSizeSlow");
    panel.fastPixels = static_cast<int>(p.whole("fastPixels", 1, kMaxPanelPixels));
    panel.slowPixels = static_cast<int>(p.whole("slowPixels", 1, kMaxPanelPixels));
    panel.thickness = p.optionalNumber("thickness");
    panel.mu = p.optionalNumber("mu");
    panel.material = p.text("material");
    return panel;
}

// experiment.detector's panels (version 2; a session before has none: nanoBragg's one flat
// detector). The list, when the session holds it, is the detector exactly as saved, whatever
// has become of the file it came from; "panelsSource" then only names it. Without the list
// (null, or a session written by hand) the source is read as -detector reads it: a preset's
// name here, a file (relative to the session's directory) by loadSessionInputs.
void readPanels(const JsonFields& detector, Detector& d, const std::string& directory) {
    const io::JsonDocument& doc = detector.document();
    if (detector.has("distanceStated"))
        d.distanceStated = detector.boolean("distanceStated");
    std::string written, source; // the name as the session writes it, and as a path here
    if (detector.has("panelsSource")) {
        written = detector.text("panelsSource");
        if (written.find('\0') != std::string::npos)
            detector.fail(detector.value("panelsSource"), "panelsSource",
                          "a detector preset or file name");
        source = cli::isDetectorPreset(written) ? written : joined(directory, written);
    }
    const io::Json* list = detector.has("panels") ? &detector.value("panels") : nullptr;
    if (!list || list->is_null()) {
        if (written.empty())
            return;
        if (cli::isDetectorPreset(written))
            d.panels = cli::readDetectorSource(written, detector.path("panelsSource")).panels;
        else if (!cli::isDetectorFileName(written))
            detector.fail(detector.value("panelsSource"), "panelsSource",
                          "a detector preset (-detector list shows them) or a .expt, .json or "
                          ".geom file");
        // a file is read by loadSessionInputs, with the HKL file and the mask
        d.panelsSource = source;
        return;
    }
    if (!list->is_array() || list->empty())
        detector.fail(*list, "panels", "an array of panels, or null for none");
    PanelDetector panels;
    for (std::size_t i = 0; i < list->size(); ++i) {
        const io::Json& entry = (*list)[i];
        const std::string key = detector.path("panels[" + std::to_string(i) + "]");
        const Panel panel = readPanel(JsonFields(doc, entry, key));
        if (const auto problem = panelProblem(panel))
            throw Error(doc.where(entry) + ": " + key + ": " + *problem);
        panels.panels.push_back(panel);
    }
    // names, their number, overlaps
    validatePanels(panels, doc.where(*list) + ": " + detector.path("panels"));
    d.panels = std::move(panels.panels);
    d.panelsSource = source;
}

Experiment readExperiment(const JsonFields& r, const std::string& directory) {
    Experiment e;
    const std::optional<Convention> convention = conventionFromName(r.text("convention"));
    if (!convention)
        r.fail(r.value("convention"), "convention", "one of mosflm, xds, adxv, denzo, dials, custom");
    e.convention = *convention;
    const JsonFields axes = r.object("customAxes");
    auto direction = [&axes](const char* key) {
        return axes.limitedVector(key, Quantity::Direction);
    };
    e.customAxes = {direction("beam"), direction("polarization"), direction("spindle"),
                    direction("twothetaAxis"), direction("fdet"), direction("sdet"),
                    direction("odet")};

    const JsonFields beam = r.object("beam");
    Beam& b = e.beam;
    b.wavelength = beam.limited("wavelength", Quantity::Wavelength, Bound::Positive);
    b.dispersion = readSweep(beam, "dispersion", Quantity::Dispersion);
    b.horizontalDivergence = readSweep(beam, "horizontalDivergence", Quantity::Divergence);
    b.verticalDivergence = readSweep(beam, "verticalDivergence", Quantity::Divergence);
    b.roundDivergence = beam.boolean("roundDivergence");
    const io::Json& sources = beam.value("sourceFile");
    if (!sources.is_array())
        beam.fail(sources, "sourceFile", "an array of sources");
    for (std::size_t n = 0; n < sources.size(); ++n) {
        const io::Json& line = sources[n];
        const std::string key = "sourceFile[" + std::to_string(n) + "]";
        if (!line.is_array() || line.size() != 5)
            beam.fail(line, key,
                      "a source as five numbers X, Y, Z, weight, lambda (null for a missing one)");
        double x[5];
        for (std::size_t i = 0; i < 5; ++i) {
            const io::Json& v = line[i];
            x[i] = v.is_null() ? std::nan("") : beam.number(v, key + "[" + std::to_string(i) + "]");
        }
        b.sourceFile.push_back({x[0], x[1], x[2], x[3], x[4]});
    }
    b.sourceDistance = beam.number("sourceDistance", JsonFields::NonNegative);
    b.kahnFactor = beam.limited("kahnFactor", Quantity::KahnFactor);
    b.polarization = beam.boolean("polarization");
    b.fluence = beam.limited("fluence", Quantity::Fluence, Bound::NonNegative);
    b.flux = beam.limited("flux", Quantity::Flux, Bound::NonNegative);
    b.exposure = beam.limited("exposure", Quantity::ExposureTime, Bound::NonNegative);
    b.beamSize = beam.limited("beamSize", Quantity::SampleLength, Bound::NonNegative);

    const JsonFields detector = r.object("detector");
    Detector& d = e.detector;
    constexpr Quantity length = Quantity::DetectorLength;
    d.pixelSize = detector.limited("pixelSize", Quantity::PixelSize, Bound::Positive);
    d.sizeFast = detector.limited("sizeFast", length, Bound::Positive);
    d.sizeSlow = detector.limited("sizeSlow", length, Bound::Positive);
    d.distance = detector.limited("distance", length, Bound::Positive);
    d.closeDistance = detector.optionalLimited("closeDistance", length, Bound::Positive);
    d.beamX = detector.optionalLimited("beamX", length);
    d.beamY = detector.optionalLimited("beamY", length);
    d.closeX = detector.optionalLimited("closeX", length);
    d.closeY = detector.optionalLimited("closeY", length);
    d.orgX = detector.optionalLimited("orgX", Quantity::PixelPosition);
    d.orgY = detector.optionalLimited("orgY", Quantity::PixelPosition);
    d.pivot = choose(detector, "pivot", session::kPivots);
    d.rotX = detector.limited("rotX", Quantity::Angle);
    d.rotY = detector.limited("rotY", Quantity::Angle);
    d.rotZ = detector.limited("rotZ", Quantity::Angle);
    d.twotheta = detector.limited("twotheta", Quantity::Angle);
    d.curved = detector.boolean("curved");
    d.pointPixel = detector.boolean("pointPixel");
    d.thickness = readSweep(detector, "thickness", Quantity::Thickness);
    d.attenuationDepth =
        detector.optionalLimited("attenuationDepth", Quantity::Thickness, Bound::NonNegative);
    readPanels(detector, d, directory);
    const double fast = d.sizeFast / d.pixelSize, slow = d.sizeSlow / d.pixelSize;
    if (!(fast >= 0.5 && slow >= 0.5 && fast < kMaxPixelsPerSide + 0.5 &&
          slow < kMaxPixelsPerSide + 0.5))
        detector.fail(detector.value("sizeFast"), "sizeFast",
                      "sizeFast and sizeSlow of 1 to " + std::to_string(kMaxPixelsPerSide) +
                          " pixels of pixelSize");

    const JsonFields crystal = r.object("crystal");
    Crystal& c = e.crystal;
    if (!crystal.value("cell").is_null()) {
        const JsonFields cell = crystal.object("cell");
        // an angle of 0 stands for 90 degrees, as in UnitCell
        auto angle = [&cell](const char* key) {
            return cell.limited(key, Quantity::CellAngle, Bound::NonNegative);
        };
        c.cell = UnitCell{cell.limited("a", Quantity::CellLength, Bound::Positive),
                          cell.limited("b", Quantity::CellLength, Bound::Positive),
                          cell.limited("c", Quantity::CellLength, Bound::Positive),
                          angle("alpha"), angle("beta"), angle("gamma")};
        if (!anglesFormCell(c.cell->alpha, c.cell->beta, c.cell->gamma))
            crystal.fail(crystal.value("cell"), "cell",
                         "angles that can form a unit cell (each less than the sum of the other "
                         "two, all three less than 360 degrees together)");
    }
    const io::Json& matrix = crystal.value("mosflmMatrix");
    if (!matrix.is_null()) {
        const char* expected = "three columns (a*, b*, c*) of three numbers, or null";
        if (!matrix.is_array() || matrix.size() != 3)
            crystal.fail(matrix, "mosflmMatrix", expected);
        glm::dmat3 m(0.0);
        for (std::size_t i = 0; i < 3; ++i) {
            const io::Json& column = matrix[i];
            const std::string key = "mosflmMatrix[" + std::to_string(i) + "]";
            if (!column.is_array() || column.size() != 3)
                crystal.fail(column, key, expected);
            for (std::size_t j = 0; j < 3; ++j)
                m[static_cast<int>(i)][static_cast<int>(j)] =
                    crystal.number(column[j], key + "[" + std::to_string(j) + "]");
        }
        if (!vectorsFormCell(m[0], m[1], m[2]))
            crystal.fail(matrix, "mosflmMatrix",
                         "reciprocal cell vectors that span a volume (not in one plane)");
        c.mosflmMatrix = m;
    }
    if (!c.cell && !c.mosflmMatrix)
        crystal.fail(crystal.value("cell"), "cell", "a unit cell (the session has no matrix either)");
    c.misset = choose(crystal, "misset", session::kMissets);
    c.missetAngles = crystal.limitedVector("missetAngles", Quantity::Angle);
    if (const auto seed = crystal.optionalWhole("missetSeed", -kMaxSeed, kMaxSeed))
        c.missetSeed = static_cast<long>(*seed);
    c.cells = crystal.vector("cells");
    for (int i = 0; i < 3; ++i)
        if (!(c.cells[i] >= 0.0 && c.cells[i] <= static_cast<double>(kMaxCount)))
            crystal.fail(crystal.value("cells"), "cells",
                         "three cell counts from 0 to " + std::to_string(kMaxCount));
    c.sampleSize =
        crystal.limitedVector("sampleSize", Quantity::SampleLength, Bound::NonNegative);
    c.shape = choose(crystal, "shape", session::kShapes);
    c.fudge = crystal.limited("fudge", Quantity::ShapeFactor, Bound::Positive);
    c.mosaicSpread =
        crystal.optionalLimited("mosaicSpread", Quantity::Angle, Bound::NonNegative);
    c.mosaicDomains = optionalCount(crystal, "mosaicDomains");
    c.mosaicSeed = static_cast<long>(crystal.whole("mosaicSeed", -kMaxSeed, kMaxSeed));
    c.phi0 = crystal.limited("phi0", Quantity::Angle);
    c.phi = readSweep(crystal, "phi", Quantity::Angle);

    const JsonFields sampling = r.object("sampling");
    Sampling& s = e.sampling;
    s.oversample = optionalCount(sampling, "oversample");
    s.oversampleThick = sampling.boolean("oversampleThick");
    s.oversamplePolar = sampling.boolean("oversamplePolar");
    s.oversampleOmega = sampling.boolean("oversampleOmega");
    const io::Json& roi = sampling.value("roi");
    if (!roi.is_null()) {
        if (!roi.is_array() || roi.size() != 4)
            sampling.fail(roi, "roi", "[xmin, xmax, ymin, ymax] in pixels, or null");
        int bound[4];
        for (std::size_t i = 0; i < 4; ++i)
            bound[i] = static_cast<int>(sampling.whole(roi[i], "roi[" + std::to_string(i) + "]",
                                                       -kMaxCount, kMaxCount));
        s.roi = Roi{bound[0], bound[1], bound[2], bound[3]};
        // as the command line leaves it: an edge is stored as the pixel count (the reference's)
        const Roi& given = *s.roi;
        if (!(given.xmin >= 0 && given.xmin <= given.xmax && given.xmax <= d.fastPixels() &&
              given.ymin >= 0 && given.ymin <= given.ymax && given.ymax <= d.slowPixels()))
            sampling.fail(roi, "roi",
                          "[xmin, xmax, ymin, ymax] with 0 <= min <= max on the " +
                              std::to_string(d.fastPixels()) + "x" +
                              std::to_string(d.slowPixels()) + " detector");
    }
    s.dmin = sampling.limited("dmin", Quantity::Resolution, Bound::NonNegative);
    s.interpolation = choose(sampling, "interpolation", session::kInterpolations);
    // sessions written before braggview had the choice follow the reference
    if (sampling.has("interpolationEdge"))
        s.interpolationEdge =
            choose(sampling, "interpolationEdge", session::kInterpolationEdges);
    e.structureFactors.defaultF =
        r.limited("defaultF", Quantity::StructureFactor, Bound::NonNegative);
    e.waterThickness = r.limited("waterThickness", Quantity::Thickness, Bound::NonNegative);
    e.seed = static_cast<long>(r.whole("seed", -kMaxSeed, kMaxSeed));
    return e;
}

std::string fileName(const JsonFields& files, const char* key, const std::string& directory) {
    const std::string& name = files.text(key);
    if (name.find('\0') != std::string::npos)
        files.fail(files.value(key), key, "a file name");
    return joined(directory, name);
}

} // namespace

cli::CommandLine parseSession(const io::JsonDocument& doc, const std::string& directory) {
    return parseSession(doc, doc.root(), "", directory);
}

cli::CommandLine parseSession(const io::JsonDocument& doc, const io::Json& object,
                              const std::string& path, const std::string& directory) {
    if (!object.is_object())
        throw Error(doc.where(object) + ": " + (path.empty() ? "" : path + ": ") +
                    "not a braggview session (expected a JSON object, got " +
                    io::jsonTypeName(object) + ")");
    const JsonFields session(doc, object, path);
    if (session.text("format") != session::kFormat)
        session.fail(session.value("format"), "format",
                     std::string("\"") + session::kFormat + "\"");
    const long long version = session.whole("version", 0, kMaxCount);
    if (version < 1 || version > session::kVersion)
        session.fail(session.value("version"), "version",
                     "1 to " + std::to_string(session::kVersion) +
                         " (the versions this braggview reads)");
    cli::CommandLine cl;
    cl.experiment = readExperiment(session.object("experiment"), directory);
    const JsonFields files = session.object("files");
    cl.hkl = fileName(files, "hkl", directory);
    cl.mat = fileName(files, "mat", directory);
    cl.sourceFile = fileName(files, "sourceFile", directory);
    cl.mask = fileName(files, "mask", directory);
    cl.dumpFile = fileName(files, "dump", directory);
    const JsonFields outputs = session.object("outputs");
    cl.outputs.intScale = outputs.limited("intScale", Quantity::IntensityScale, Bound::NonNegative);
    cl.outputs.pgmScale = outputs.limited("pgmScale", Quantity::IntensityScale, Bound::NonNegative);
    cl.outputs.adcOffset = outputs.limited("adcOffset", Quantity::AdcOffset);
    const std::optional<Precision> precision = precisionFromName(session.text("precision"));
    if (!precision)
        session.fail(session.value("precision"), "precision", "fast or precise");
    cl.precision = *precision;
    return cl;
}

void loadSessionInputs(cli::CommandLine& cl, std::ostream& log) {
    Experiment& e = cl.experiment;
    Detector& d = e.detector;
    if (d.panelsUnread()) // a file named without its panels
        d.panels =
            cli::readDetectorSource(d.panelsSource, "experiment.detector.panelsSource").panels;
    if (!cl.hkl.empty()) {
        try {
            e.structureFactors = io::readHkl(cl.hkl, e.structureFactors.defaultF, log);
        } catch (const Error& error) {
            throw Error(std::string("files.hkl: ") + error.what());
        }
    }
    if (!cl.mask.empty()) {
        io::SmvImage mask;
        try {
            mask = io::readSmv(cl.mask);
        } catch (const Error& error) {
            throw Error(std::string("files.mask: ") + error.what());
        }
        const int fast = e.detector.fastPixels(), slow = e.detector.slowPixels();
        if (mask.width != fast || mask.height != slow)
            throw Error("files.mask: " + cl.mask + ": the mask is " + std::to_string(mask.width) +
                        "x" + std::to_string(mask.height) + " pixels but the session's detector is " +
                        std::to_string(fast) + "x" + std::to_string(slow));
        e.mask = std::move(mask.data);
    }
}

cli::CommandLine readSession(const std::string& path, std::ostream& log) {
    cli::CommandLine cl = parseSession(io::readJsonFile(path), directoryOf(path));
    try {
        loadSessionInputs(cl, log);
    } catch (const Error& error) {
        throw Error(path + ": " + error.what());
    }
    return cl;
}

std::string directoryOf(const std::string& path) {
    return std::filesystem::path(path).parent_path().string();
}

} // namespace bv::headless
