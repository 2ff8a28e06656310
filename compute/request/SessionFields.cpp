// The rows of the session's experiment (SessionFields.h): most are one kind of value (a
// number of a quantity, an optional one, a switch, a vector, a sweep, a choice, a count); the
// few that hold more (the cell, the matrix, the sources, the panels, the region) or check
// fields together are written out as their own pair of functions.

#include "compute/request/SessionFields.h"

#include "compute/request/SessionRows.h"

#include <filesystem>

namespace bv::request {

namespace {

using namespace sessionrows;

std::vector<SessionField> buildRows() {
    std::vector<SessionField> out;
    Rows rows(out);
    addConventionRows(rows);
    addBeamRows(rows);
    addDetectorRows(rows);
    addCrystalRows(rows);
    addSamplingRows(rows);
    rows.section("");
    rows.number("defaultF", Quantity::StructureFactor, Bound::NonNegative,
                [](Experiment& e) -> double& { return e.structureFactors.defaultF; });
    rows.number("waterThickness", Quantity::Thickness, Bound::NonNegative,
                [](Experiment& e) -> double& { return e.waterThickness; });
    rows.row(
        "seed", [](JsonWriter& w, const Experiment& e) { w.key("seed").integer(e.seed); },
        [](const JsonFields& r, Experiment& e, const std::string&) {
            e.seed = static_cast<long>(r.whole("seed", -kMaxSeed, kMaxSeed));
        });
    return out;
}

} // namespace

const std::vector<SessionField>& sessionFields() {
    static const std::vector<SessionField> rows = buildRows();
    return rows;
}

void writeSessionExperiment(JsonWriter& w, const Experiment& experiment) {
    w.beginObject();
    std::string open; // the section whose object is open, "" for none
    for (const SessionField& f : sessionFields()) {
        if (f.section != open) {
            if (!open.empty())
                w.endObject();
            if (!f.section.empty())
                w.key(f.section).beginObject();
            open = f.section;
        }
        if (f.write)
            f.write(w, experiment);
    }
    if (!open.empty())
        w.endObject();
    w.endObject();
}

Experiment readSessionExperiment(const JsonFields& r, const std::string& directory) {
    Experiment e;
    std::optional<JsonFields> section;
    std::string open;
    for (const SessionField& f : sessionFields()) {
        if (f.section.empty()) {
            f.read(r, e, directory);
            open.clear();
            continue;
        }
        if (f.section != open || !section) {
            section.emplace(r.object(f.section.c_str()));
            open = f.section;
        }
        f.read(*section, e, directory);
    }
    return e;
}

std::string absoluteName(const std::string& path) {
    if (path.empty())
        return path;
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::absolute(path, ec);
    return ec ? path : p.string();
}

std::string nameInDirectory(const std::string& directory, const std::string& name) {
    if (name.empty() || directory.empty() || std::filesystem::path(name).is_absolute())
        return name;
    return (std::filesystem::path(directory) / name).string();
}

} // namespace bv::request
