#include "compute/headless/SessionFile.h"

#include "compute/io/HklFile.h"
#include "compute/io/JsonFields.h"
#include "compute/io/Smv.h"
#include "compute/core/Error.h"

#include <climits>
#include <cmath>
#include <filesystem>

namespace bv::headless {

namespace {

constexpr int kVersion = 1;
const char* kFormat = "braggview session";

// the command line's limits: counts up to a billion, seeds within int
constexpr long long kMaxCount = 1000000000;
constexpr long long kMaxSeed = INT_MAX;
// a detector edge, in pixels (the command line's limit)
constexpr int kMaxPixelsPerSide = 32768;

using io::JsonFields;
using io::JsonWriter;

// ---- writing -------------------------------------------------------------------------------

void optional(JsonWriter& w, const char* key, const std::optional<double>& v) {
    w.key(key);
    v ? w.number(*v) : w.null();
}
void optional(JsonWriter& w, const char* key, const std::optional<int>& v) {
    w.key(key);
    v ? w.integer(*v) : w.null();
}
void optional(JsonWriter& w, const char* key, const std::optional<long>& v) {
    w.key(key);
    v ? w.integer(*v) : w.null();
}
void vec(JsonWriter& w, const char* key, const glm::dvec3& v) {
    w.key(key).beginArray().number(v.x).number(v.y).number(v.z).endArray();
}
void sweep(JsonWriter& w, const char* key, const SweepRequest& s) {
    w.key(key).beginObject();
    optional(w, "range", s.range);
    optional(w, "step", s.step);
    optional(w, "steps", s.steps);
    w.endObject();
}

const char* shapeKey(LatticeShape s) {
    switch (s) {
    case LatticeShape::Square: return "square";
    case LatticeShape::Round: return "round";
    case LatticeShape::Gauss: return "gauss";
    case LatticeShape::Tophat: return "tophat";
    }
    return "square";
}
const char* missetKey(MissetKind k) {
    switch (k) {
    case MissetKind::None: return "none";
    case MissetKind::Angles: return "angles";
    case MissetKind::Random: return "random";
    }
    return "none";
}
const char* interpolationKey(Interpolation i) {
    switch (i) {
    case Interpolation::Auto: return "auto";
    case Interpolation::Nearest: return "nearest";
    case Interpolation::Tricubic: return "tricubic";
    }
    return "auto";
}

void writeExperiment(JsonWriter& w, const Experiment& e) {
    w.beginObject();
    w.key("convention").string(conventionName(e.convention));
    w.key("customAxes").beginObject();
    vec(w, "beam", e.customAxes.beam);
    vec(w, "polarization", e.customAxes.polarization);
    vec(w, "spindle", e.customAxes.spindle);
    vec(w, "twothetaAxis", e.customAxes.twothetaAxis);
    vec(w, "fdet", e.customAxes.fdet);
    vec(w, "sdet", e.customAxes.sdet);
    vec(w, "odet", e.customAxes.odet);
    w.endObject();

    const Beam& b = e.beam;
    w.key("beam").beginObject();
    w.key("wavelength").number(b.wavelength);
    sweep(w, "dispersion", b.dispersion);
    sweep(w, "horizontalDivergence", b.horizontalDivergence);
    sweep(w, "verticalDivergence", b.verticalDivergence);
    w.key("roundDivergence").boolean(b.roundDivergence);
    w.key("sourceFile").beginArray();
    for (const SourceRecord& s : b.sourceFile) {
        w.beginArray();
        for (double x : {s.X, s.Y, s.Z, s.weight, s.lambda})
            std::isnan(x) ? w.null() : w.number(x); // NaN: a column the file left out
        w.endArray();
    }
    w.endArray();
    w.key("sourceDistance").number(b.sourceDistance);
    w.key("kahnFactor").number(b.kahnFactor);
    w.key("polarization").boolean(b.polarization);
    w.key("fluence").number(b.fluence);
    w.key("flux").number(b.flux);
    w.key("exposure").number(b.exposure);
    w.key("beamSize").number(b.beamSize);
    w.endObject();

    const Detector& d = e.detector;
    w.key("detector").beginObject();
    w.key("pixelSize").number(d.pixelSize);
    w.key("sizeFast").number(d.sizeFast);
    w.key("sizeSlow").number(d.sizeSlow);
    w.key("distance").number(d.distance);
    optional(w, "closeDistance", d.closeDistance);
    optional(w, "beamX", d.beamX);
    optional(w, "beamY", d.beamY);
    optional(w, "closeX", d.closeX);
    optional(w, "closeY", d.closeY);
    optional(w, "orgX", d.orgX);
    optional(w, "orgY", d.orgY);
    w.key("pivot").string(pivotName(d.pivot));
    w.key("rotX").number(d.rotX);
    w.key("rotY").number(d.rotY);
    w.key("rotZ").number(d.rotZ);
    w.key("twotheta").number(d.twotheta);
    w.key("curved").boolean(d.curved);
    w.key("pointPixel").boolean(d.pointPixel);
    sweep(w, "thickness", d.thickness);
    optional(w, "attenuationDepth", d.attenuationDepth);
    w.endObject();

    const Crystal& c = e.crystal;
    w.key("crystal").beginObject();
    w.key("cell");
    if (c.cell) {
        w.beginObject();
        w.key("a").number(c.cell->a).key("b").number(c.cell->b).key("c").number(c.cell->c);
        w.key("alpha").number(c.cell->alpha).key("beta").number(c.cell->beta);
        w.key("gamma").number(c.cell->gamma);
        w.endObject();
    } else {
        w.null();
    }
    w.key("mosflmMatrix");
    if (c.mosflmMatrix) { // columns a*, b*, c*
        w.beginArray();
        for (int i = 0; i < 3; ++i) {
            const glm::dvec3 column = (*c.mosflmMatrix)[i];
            w.beginArray().number(column.x).number(column.y).number(column.z).endArray();
        }
        w.endArray();
    } else {
        w.null();
    }
    w.key("misset").string(missetKey(c.misset));
    vec(w, "missetAngles", c.missetAngles);
    optional(w, "missetSeed", c.missetSeed);
    vec(w, "cells", c.cells);
    vec(w, "sampleSize", c.sampleSize);
    w.key("shape").string(shapeKey(c.shape));
    w.key("fudge").number(c.fudge);
    optional(w, "mosaicSpread", c.mosaicSpread);
    optional(w, "mosaicDomains", c.mosaicDomains);
    w.key("mosaicSeed").integer(c.mosaicSeed);
    w.key("phi0").number(c.phi0);
    sweep(w, "phi", c.phi);
    w.endObject();

    const Sampling& s = e.sampling;
    w.key("sampling").beginObject();
    optional(w, "oversample", s.oversample);
    w.key("oversampleThick").boolean(s.oversampleThick);
    w.key("oversamplePolar").boolean(s.oversamplePolar);
    w.key("oversampleOmega").boolean(s.oversampleOmega);
    w.key("roi");
    if (s.roi)
        w.beginArray()
            .integer(s.roi->xmin)
            .integer(s.roi->xmax)
            .integer(s.roi->ymin)
            .integer(s.roi->ymax)
            .endArray();
    else
        w.null();
    w.key("dmin").number(s.dmin);
    w.key("interpolation").string(interpolationKey(s.interpolation));
    w.key("interpolationEdge")
        .string(s.interpolationEdge == InterpolationEdge::Local ? "local" : "reference");
    w.endObject();

    w.key("defaultF").number(e.structureFactors.defaultF);
    w.key("waterThickness").number(e.waterThickness);
    w.key("seed").integer(e.seed);
    w.endObject();
}

std::string absolute(const std::string& path) {
    if (path.empty())
        return path;
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::absolute(path, ec);
    return ec ? path : p.string();
}

// ---- reading -------------------------------------------------------------------------------

template <typename Enum, std::size_t N>
Enum choose(const JsonFields& r, const char* key,
            const std::pair<const char*, Enum> (&choices)[N]) {
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

Experiment readExperiment(const JsonFields& r) {
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
    const io::JsonValue& sources = beam.value("sourceFile");
    if (!sources.isArray())
        beam.fail(sources, "sourceFile", "an array of sources");
    for (const io::JsonValue& line : sources.elements()) {
        if (!line.isArray() || line.elements().size() != 5)
            beam.fail(line, "sourceFile",
                      "a source as five numbers X, Y, Z, weight, lambda (null for a missing one)");
        double x[5];
        for (std::size_t i = 0; i < 5; ++i) {
            const io::JsonValue& v = line.elements()[i];
            x[i] = v.isNull() ? std::nan("") : beam.number(v, "sourceFile");
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
    d.pivot = choose(detector, "pivot",
                     {std::pair{"beam", Pivot::Beam}, std::pair{"sample", Pivot::Sample}});
    d.rotX = detector.limited("rotX", Quantity::Angle);
    d.rotY = detector.limited("rotY", Quantity::Angle);
    d.rotZ = detector.limited("rotZ", Quantity::Angle);
    d.twotheta = detector.limited("twotheta", Quantity::Angle);
    d.curved = detector.boolean("curved");
    d.pointPixel = detector.boolean("pointPixel");
    d.thickness = readSweep(detector, "thickness", Quantity::Thickness);
    d.attenuationDepth =
        detector.optionalLimited("attenuationDepth", Quantity::Thickness, Bound::NonNegative);
    const double fast = d.sizeFast / d.pixelSize, slow = d.sizeSlow / d.pixelSize;
    if (!(fast >= 0.5 && slow >= 0.5 && fast < kMaxPixelsPerSide + 0.5 &&
          slow < kMaxPixelsPerSide + 0.5))
        detector.fail(detector.value("sizeFast"), "sizeFast",
                      "sizeFast and sizeSlow of 1 to " + std::to_string(kMaxPixelsPerSide) +
                          " pixels of pixelSize");

    const JsonFields crystal = r.object("crystal");
    Crystal& c = e.crystal;
    if (!crystal.value("cell").isNull()) {
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
    const io::JsonValue& matrix = crystal.value("mosflmMatrix");
    if (!matrix.isNull()) {
        const char* expected = "three columns (a*, b*, c*) of three numbers, or null";
        if (!matrix.isArray() || matrix.elements().size() != 3)
            crystal.fail(matrix, "mosflmMatrix", expected);
        glm::dmat3 m(0.0);
        for (int i = 0; i < 3; ++i) {
            const io::JsonValue& column = matrix.elements()[static_cast<std::size_t>(i)];
            if (!column.isArray() || column.elements().size() != 3)
                crystal.fail(column, "mosflmMatrix", expected);
            for (int j = 0; j < 3; ++j)
                m[i][j] = crystal.number(column.elements()[static_cast<std::size_t>(j)],
                                         "mosflmMatrix");
        }
        if (!vectorsFormCell(m[0], m[1], m[2]))
            crystal.fail(matrix, "mosflmMatrix",
                         "reciprocal cell vectors that span a volume (not in one plane)");
        c.mosflmMatrix = m;
    }
    if (!c.cell && !c.mosflmMatrix)
        crystal.fail(crystal.value("cell"), "cell", "a unit cell (the session has no matrix either)");
    c.misset = choose(crystal, "misset",
                      {std::pair{"none", MissetKind::None}, std::pair{"angles", MissetKind::Angles},
                       std::pair{"random", MissetKind::Random}});
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
    c.shape = choose(crystal, "shape",
                     {std::pair{"square", LatticeShape::Square}, std::pair{"round", LatticeShape::Round},
                      std::pair{"gauss", LatticeShape::Gauss}, std::pair{"tophat", LatticeShape::Tophat}});
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
    const io::JsonValue& roi = sampling.value("roi");
    if (!roi.isNull()) {
        if (!roi.isArray() || roi.elements().size() != 4)
            sampling.fail(roi, "roi", "[xmin, xmax, ymin, ymax] in pixels, or null");
        int bound[4];
        for (std::size_t i = 0; i < 4; ++i)
            bound[i] = static_cast<int>(
                sampling.whole(roi.elements()[i], "roi", -kMaxCount, kMaxCount));
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
    s.interpolation = choose(sampling, "interpolation",
                             {std::pair{"auto", Interpolation::Auto},
                              std::pair{"nearest", Interpolation::Nearest},
                              std::pair{"tricubic", Interpolation::Tricubic}});
    // sessions written before braggview had the choice follow the reference
    if (sampling.has("interpolationEdge"))
        s.interpolationEdge = choose(sampling, "interpolationEdge",
                                     {std::pair{"reference", InterpolationEdge::Reference},
                                      std::pair{"local", InterpolationEdge::Local}});
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
    if (name.empty() || directory.empty() || std::filesystem::path(name).is_absolute())
        return name;
    return (std::filesystem::path(directory) / name).string();
}

} // namespace

void writeSessionMembers(JsonWriter& w, const cli::CommandLine& cl) {
    w.key("format").string(kFormat);
    w.key("version").integer(kVersion);
    w.key("experiment");
    writeExperiment(w, cl.experiment);
    w.key("files").beginObject();
    w.key("hkl").string(absolute(cl.hkl));
    w.key("mat").string(absolute(cl.mat));
    w.key("sourceFile").string(absolute(cl.sourceFile));
    w.key("mask").string(absolute(cl.mask));
    w.key("dump").string(absolute(cl.dumpFile));
    w.endObject();
    w.key("outputs").beginObject();
    w.key("intScale").number(cl.outputs.intScale);
    w.key("pgmScale").number(cl.outputs.pgmScale);
    w.key("adcOffset").number(cl.outputs.adcOffset);
    w.endObject();
    w.key("precision").string(precisionName(cl.precision));
}

std::string sessionText(const cli::CommandLine& cl) {
    JsonWriter w;
    w.beginObject();
    writeSessionMembers(w, cl);
    w.endObject();
    return w.text();
}

cli::CommandLine parseSession(const io::JsonValue& root, const std::string& source,
                              const std::string& directory) {
    if (!root.isObject())
        throw Error(io::jsonWhere(source, root) +
                    ": not a braggview session (expected a JSON object, got " +
                    io::JsonValue::typeName(root.type()) + ")");
    const JsonFields session(root, source);
    if (session.text("format") != kFormat)
        session.fail(session.value("format"), "format", std::string("\"") + kFormat + "\"");
    if (session.whole("version", 0, kMaxCount) != kVersion)
        session.fail(session.value("version"), "version",
                     std::to_string(kVersion) + " (the version this braggview reads)");
    cli::CommandLine cl;
    cl.experiment = readExperiment(session.object("experiment"));
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
    cli::CommandLine cl = parseSession(io::readJsonFile(path), path, directoryOf(path));
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
