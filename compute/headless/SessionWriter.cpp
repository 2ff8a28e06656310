// Writing session files (SessionFile.h describes the layout): the experiment field by field in
// SI units, numbers as the shortest text that reads back bit for bit (io::JsonWriter).

#include "compute/headless/SessionFile.h"

#include "compute/cli/DetectorSource.h"
#include "compute/headless/SessionFormat.h"

#include <cmath>
#include <filesystem>

namespace bv::headless {

namespace {

using io::JsonWriter;

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

void panel(JsonWriter& w, const Panel& p) {
    w.beginObject();
    w.key("name").string(p.name);
    vec(w, "origin", p.origin);
    vec(w, "fast", p.fast);
    vec(w, "slow", p.slow);
    w.key("pixelSizeFast").number(p.pixelSizeFast);
    w.key("pixelSizeSlow").number(p.pixelSizeSlow);
    w.key("fastPixels").integer(p.fastPixels);
    w.key("slowPixels").integer(p.slowPixels);
    optional(w, "thickness", p.thickness);
    optional(w, "mu", p.mu);
    w.key("material").string(p.material);
    w.endObject();
}

std::string absolute(const std::string& path) {
    if (path.empty())
        return path;
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::absolute(path, ec);
    return ec ? path : p.string();
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
    w.key("pivot").string(session::nameOf(session::kPivots, d.pivot));
    w.key("rotX").number(d.rotX);
    w.key("rotY").number(d.rotY);
    w.key("rotZ").number(d.rotZ);
    w.key("twotheta").number(d.twotheta);
    w.key("curved").boolean(d.curved);
    w.key("pointPixel").boolean(d.pointPixel);
    sweep(w, "thickness", d.thickness);
    optional(w, "attenuationDepth", d.attenuationDepth);
    // a detector of panels: what named it (a preset, or its file absolute, as the files
    // below) and the panels as stated, by value, so that the session draws the same detector
    // bit for bit without the file (as the matrix and the sources are kept by value)
    w.key("distanceStated").boolean(d.distanceStated);
    std::string source; // none without panels, which the reader would read from it
    if (d.panelsFromSource())
        source = cli::isDetectorPreset(d.panelsSource) ? d.panelsSource : absolute(d.panelsSource);
    w.key("panelsSource").string(source);
    w.key("panels");
    if (!d.panelsFromSource()) {
        w.null(); // nanoBragg's one flat detector, as stated above
    } else {
        w.beginArray();
        for (const Panel& p : d.panels)
            panel(w, p);
        w.endArray();
    }
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
    w.key("misset").string(session::nameOf(session::kMissets, c.misset));
    vec(w, "missetAngles", c.missetAngles);
    optional(w, "missetSeed", c.missetSeed);
    vec(w, "cells", c.cells);
    vec(w, "sampleSize", c.sampleSize);
    w.key("shape").string(session::nameOf(session::kShapes, c.shape));
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
    w.key("interpolation").string(session::nameOf(session::kInterpolations, s.interpolation));
    w.key("interpolationEdge")
        .string(session::nameOf(session::kInterpolationEdges, s.interpolationEdge));
    w.endObject();

    w.key("defaultF").number(e.structureFactors.defaultF);
    w.key("waterThickness").number(e.waterThickness);
    w.key("seed").integer(e.seed);
    w.endObject();
}

} // namespace

void writeSessionMembers(JsonWriter& w, const cli::CommandLine& cl) {
    w.key("format").string(session::kFormat);
    // the oldest version that holds this session, so that an earlier braggview reads what it
    // can and refuses a detector of panels rather than drawing a flat one (SessionFormat.h)
    w.key("version").integer(cl.experiment.detector.panelsFromSource() ? session::kVersion
                                                                       : session::kVersionFlat);
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

} // namespace bv::headless
