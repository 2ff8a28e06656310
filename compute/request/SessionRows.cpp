// The rows of the session's experiment (SessionFields.h), section by section.

#include "compute/request/SessionRows.h"

#include "compute/core/Error.h"
#include "compute/request/DetectorSource.h"

#include <nlohmann/json.hpp>
#include <cmath>

namespace bv::request::sessionrows {

namespace {

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

void writePanel(JsonWriter& w, const Panel& p) {
    w.beginObject();
    w.key("name").string(p.name);
    writeVector(w, "origin", p.origin);
    writeVector(w, "fast", p.fast);
    writeVector(w, "slow", p.slow);
    w.key("pixelSizeFast").number(p.pixelSizeFast);
    w.key("pixelSizeSlow").number(p.pixelSizeSlow);
    w.key("fastPixels").integer(p.fastPixels);
    w.key("slowPixels").integer(p.slowPixels);
    writeOptional(w, "thickness", p.thickness);
    writeOptional(w, "mu", p.mu);
    w.key("material").string(p.material);
    w.endObject();
}

// A detector of panels: what named it (a preset, or its file absolute, as the session's
// files) and the panels as stated, by value, so that the session draws the same detector bit
// for bit without the file (as the matrix and the sources are kept by value).
void writePanels(JsonWriter& w, const Detector& d) {
    w.key("distanceStated").boolean(d.distanceStated);
    std::string source; // none without panels, which the reader would read from it
    if (d.panelsFromSource())
        source = isDetectorPreset(d.panelsSource) ? d.panelsSource : absoluteName(d.panelsSource);
    w.key("panelsSource").string(source);
    w.key("panels");
    if (!d.panelsFromSource()) {
        w.null(); // nanoBragg's one flat detector, as stated above
    } else {
        w.beginArray();
        for (const Panel& p : d.panels)
            writePanel(w, p);
        w.endArray();
    }
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
        source = isDetectorPreset(written) ? written : nameInDirectory(directory, written);
    }
    const io::Json* list = detector.has("panels") ? &detector.value("panels") : nullptr;
    if (!list || list->is_null()) {
        if (written.empty())
            return;
        if (isDetectorPreset(written))
            d.panels = readDetectorSource(written, detector.path("panelsSource")).panels;
        else if (!isDetectorFileName(written))
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

// ---- the rows, in the file's order -----------------------------------------------------------

} // namespace

void addConventionRows(Rows& rows) {
    rows.section("");
    rows.row(
        "convention",
        [](JsonWriter& w, const Experiment& e) {
            w.key("convention").string(conventionName(e.convention));
        },
        [](const JsonFields& r, Experiment& e, const std::string&) {
            const std::optional<Convention> convention = conventionFromName(r.text("convention"));
            if (!convention)
                r.fail(r.value("convention"), "convention",
                       "one of mosflm, xds, adxv, denzo, dials, custom");
            e.convention = *convention;
        });
    rows.section("customAxes");
    rows.parameter("-beam_vector");
    rows.parameter("-polar_vector");
    rows.parameter("-spindle_axis");
    rows.parameter("-twotheta_axis");
    rows.parameter("-fdet_vector");
    rows.parameter("-sdet_vector");
    rows.parameter("-odet_vector");
}

void addBeamRows(Rows& rows) {
    rows.section("beam");
    rows.parameter("-lambda");
    rows.parameter("-dispersion");
    rows.parameter("-hdivrange");
    rows.parameter("-vdivrange");
    rows.parameter("-round_div");
    // the source file's lines by value: X, Y, Z, weight, lambda, null for a column it left out
    rows.row(
        "sourceFile",
        [](JsonWriter& w, const Experiment& e) {
            w.key("sourceFile").beginArray();
            for (const SourceRecord& s : e.beam.sourceFile) {
                w.beginArray();
                for (double x : {s.X, s.Y, s.Z, s.weight, s.lambda})
                    std::isnan(x) ? w.null() : w.number(x); // NaN: a column left out
                w.endArray();
            }
            w.endArray();
        },
        [](const JsonFields& beam, Experiment& e, const std::string&) {
            const io::Json& sources = beam.value("sourceFile");
            if (!sources.is_array())
                beam.fail(sources, "sourceFile", "an array of sources");
            for (std::size_t n = 0; n < sources.size(); ++n) {
                const io::Json& line = sources[n];
                const std::string key = "sourceFile[" + std::to_string(n) + "]";
                if (!line.is_array() || line.size() != 5)
                    beam.fail(line, key,
                              "a source as five numbers X, Y, Z, weight, lambda (null for "
                              "a missing one)");
                double x[5];
                for (std::size_t i = 0; i < 5; ++i) {
                    const io::Json& v = line[i];
                    x[i] = v.is_null() ? std::nan("")
                                       : beam.number(v, key + "[" + std::to_string(i) + "]");
                }
                e.beam.sourceFile.push_back({x[0], x[1], x[2], x[3], x[4]});
            }
        });
    rows.row(
        "sourceDistance",
        [](JsonWriter& w, const Experiment& e) {
            w.key("sourceDistance").number(e.beam.sourceDistance);
        },
        [](const JsonFields& beam, Experiment& e, const std::string&) {
            e.beam.sourceDistance = beam.number("sourceDistance", JsonFields::NonNegative);
        });
    rows.parameter("-polar");
    rows.parameter("-nopolar");
    rows.parameter("-fluence");
    rows.parameter("-flux");
    rows.parameter("-exposure");
    rows.parameter("-beamsize");
}

void addDetectorRows(Rows& rows) {
    rows.section("detector");
    rows.parameter("-pixel");
    rows.parameter("-detsize_f");
    rows.parameter("-detsize_s");
    rows.parameter("-distance");
    rows.parameter("-close_distance");
    rows.parameter("-Xbeam");
    rows.parameter("-Ybeam");
    rows.parameter("-Xclose");
    rows.parameter("-Yclose");
    rows.parameter("-ORGX");
    rows.parameter("-ORGY");
    rows.parameter("-pivot");
    rows.parameter("-detector_rotx");
    rows.parameter("-detector_roty");
    rows.parameter("-detector_rotz");
    rows.parameter("-twotheta");
    rows.parameter("-curved_det");
    rows.parameter("-point_pixel");
    rows.parameter("-detector_thick");
    rows.parameter("-detector_abs");
    rows.row(
        "distanceStated", // with "panelsSource" and "panels"
        [](JsonWriter& w, const Experiment& e) { writePanels(w, e.detector); },
        [](const JsonFields& detector, Experiment& e, const std::string& directory) {
            readPanels(detector, e.detector, directory);
        });
    rows.row("sizeFast", nullptr, // the pixel counts of the sizes, checked together
             [](const JsonFields& detector, Experiment& e, const std::string&) {
                 const Detector& d = e.detector;
                 const double fast = d.sizeFast / d.pixelSize, slow = d.sizeSlow / d.pixelSize;
                 if (!(fast >= 0.5 && slow >= 0.5 && fast < kMaxPixelsPerSide + 0.5 &&
                       slow < kMaxPixelsPerSide + 0.5))
                     detector.fail(detector.value("sizeFast"), "sizeFast",
                                   "sizeFast and sizeSlow of 1 to " +
                                       std::to_string(kMaxPixelsPerSide) + " pixels of pixelSize");
             });
}

void addCrystalRows(Rows& rows) {
    rows.section("crystal");
    rows.row(
        "cell",
        [](JsonWriter& w, const Experiment& e) {
            const std::optional<UnitCell>& cell = e.crystal.cell;
            w.key("cell");
            if (!cell) {
                w.null();
                return;
            }
            w.beginObject();
            w.key("a").number(cell->a).key("b").number(cell->b).key("c").number(cell->c);
            w.key("alpha").number(cell->alpha).key("beta").number(cell->beta);
            w.key("gamma").number(cell->gamma);
            w.endObject();
        },
        [](const JsonFields& crystal, Experiment& e, const std::string&) {
            if (crystal.value("cell").is_null())
                return;
            const JsonFields cell = crystal.object("cell");
            // an angle of 0 stands for 90 degrees, as in UnitCell
            auto angle = [&cell](const char* key) {
                return cell.limited(key, Quantity::CellAngle, Bound::NonNegative);
            };
            Crystal& c = e.crystal;
            c.cell = UnitCell{cell.limited("a", Quantity::CellLength, Bound::Positive),
                              cell.limited("b", Quantity::CellLength, Bound::Positive),
                              cell.limited("c", Quantity::CellLength, Bound::Positive),
                              angle("alpha"),
                              angle("beta"),
                              angle("gamma")};
            if (!anglesFormCell(c.cell->alpha, c.cell->beta, c.cell->gamma))
                crystal.fail(crystal.value("cell"), "cell",
                             "angles that can form a unit cell (each less than the sum of "
                             "the other two, all three less than 360 degrees together)");
        });
    rows.row(
        "mosflmMatrix",
        [](JsonWriter& w, const Experiment& e) {
            const std::optional<glm::dmat3>& m = e.crystal.mosflmMatrix;
            w.key("mosflmMatrix");
            if (!m) {
                w.null();
                return;
            }
            w.beginArray(); // columns a*, b*, c*
            for (int i = 0; i < 3; ++i) {
                const glm::dvec3 column = (*m)[i];
                w.beginArray().number(column.x).number(column.y).number(column.z).endArray();
            }
            w.endArray();
        },
        [](const JsonFields& crystal, Experiment& e, const std::string&) {
            const io::Json& matrix = crystal.value("mosflmMatrix");
            if (matrix.is_null())
                return;
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
            e.crystal.mosflmMatrix = m;
        });
    rows.row("cell", nullptr, // a cell or a matrix
             [](const JsonFields& crystal, Experiment& e, const std::string&) {
                 if (!e.crystal.cell && !e.crystal.mosflmMatrix)
                     crystal.fail(crystal.value("cell"), "cell",
                                  "a unit cell (the session has no matrix either)");
             });
    rows.parameter("-misset");
    rows.vector("missetAngles", Quantity::Angle, Bound::Any,
                [](Experiment& e) -> glm::dvec3& { return e.crystal.missetAngles; });
    rows.row(
        "missetSeed",
        [](JsonWriter& w, const Experiment& e) {
            writeOptional(w, "missetSeed", e.crystal.missetSeed);
        },
        [](const JsonFields& crystal, Experiment& e, const std::string&) {
            if (const auto seed = crystal.optionalWhole("missetSeed", -kMaxSeed, kMaxSeed))
                e.crystal.missetSeed = static_cast<long>(*seed);
        });
    rows.row(
        "cells",
        [](JsonWriter& w, const Experiment& e) { writeVector(w, "cells", e.crystal.cells); },
        [](const JsonFields& crystal, Experiment& e, const std::string&) {
            glm::dvec3& cells = e.crystal.cells;
            cells = crystal.vector("cells");
            for (int i = 0; i < 3; ++i)
                if (!(cells[i] >= 0.0 && cells[i] <= static_cast<double>(kMaxCount)))
                    crystal.fail(crystal.value("cells"), "cells",
                                 "three cell counts from 0 to " + std::to_string(kMaxCount));
        });
    rows.parameter("-xtalsize");
    rows.choice("shape", session::kShapes,
                [](Experiment& e) -> LatticeShape& { return e.crystal.shape; });
    rows.parameter("-fudge");
    rows.parameter("-mosaic");
    rows.parameter("-mosaic_domains");
    rows.row(
        "mosaicSeed",
        [](JsonWriter& w, const Experiment& e) {
            w.key("mosaicSeed").integer(e.crystal.mosaicSeed);
        },
        [](const JsonFields& crystal, Experiment& e, const std::string&) {
            e.crystal.mosaicSeed =
                static_cast<long>(crystal.whole("mosaicSeed", -kMaxSeed, kMaxSeed));
        });
    rows.parameter("-phi");
    rows.parameter("-osc");
    rows.parameter("-phi_sampling");
}

void addSamplingRows(Rows& rows) {
    rows.section("sampling");
    rows.parameter("-oversample");
    rows.parameter("-oversample_thick");
    rows.parameter("-oversample_polar");
    rows.parameter("-oversample_omega");
    rows.row(
        "roi",
        [](JsonWriter& w, const Experiment& e) {
            const std::optional<Roi>& roi = e.sampling.roi;
            w.key("roi");
            if (roi)
                w.beginArray()
                    .integer(roi->xmin)
                    .integer(roi->xmax)
                    .integer(roi->ymin)
                    .integer(roi->ymax)
                    .endArray();
            else
                w.null();
        },
        [](const JsonFields& sampling, Experiment& e, const std::string&) {
            const io::Json& roi = sampling.value("roi");
            if (roi.is_null())
                return;
            if (!roi.is_array() || roi.size() != 4)
                sampling.fail(roi, "roi", "[xmin, xmax, ymin, ymax] in pixels, or null");
            int bound[4];
            for (std::size_t i = 0; i < 4; ++i)
                bound[i] = static_cast<int>(sampling.whole(roi[i], "roi[" + std::to_string(i) + "]",
                                                           -kMaxCount, kMaxCount));
            const Roi given{bound[0], bound[1], bound[2], bound[3]};
            e.sampling.roi = given;
            // as the command line leaves it: an edge is stored as the pixel count
            const Detector& d = e.detector;
            if (!(given.xmin >= 0 && given.xmin <= given.xmax && given.xmax <= d.fastPixels() &&
                  given.ymin >= 0 && given.ymin <= given.ymax && given.ymax <= d.slowPixels()))
                sampling.fail(roi, "roi",
                              "[xmin, xmax, ymin, ymax] with 0 <= min <= max on the " +
                                  std::to_string(d.fastPixels()) + "x" +
                                  std::to_string(d.slowPixels()) + " detector");
        });
    rows.parameter("-dmin");
    rows.parameter("-interpolate");
    // sessions written before braggview had the choice have none: the reference's
    rows.row(
        "interpolationEdge",
        [](JsonWriter& w, const Experiment& e) {
            w.key("interpolationEdge")
                .string(
                    session::nameOf(session::kInterpolationEdges, e.sampling.interpolationEdge));
        },
        [](const JsonFields& sampling, Experiment& e, const std::string&) {
            if (sampling.has("interpolationEdge"))
                e.sampling.interpolationEdge =
                    choose(sampling, "interpolationEdge", session::kInterpolationEdges);
        });
}

} // namespace bv::request::sessionrows
