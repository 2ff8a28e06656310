// The rows of the session's experiment (SessionFields.h): most are one kind of value (a
// number of a quantity, an optional one, a switch, a vector, a sweep, a choice, a count); the
// few that hold more (the cell, the matrix, the sources, the panels, the region) or check
// fields together are written out as their own pair of functions.

#include "compute/request/SessionFields.h"

#include "compute/request/SessionRows.h"

#include "compute/core/Error.h"
#include "compute/request/Parameters.h"

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
    rows.parameter("-default_F");
    rows.parameter("-water");
    rows.row(
        "seed", [](JsonWriter& w, const Experiment& e) { w.key("seed").integer(e.seed); },
        [](const JsonFields& r, Experiment& e, const std::string&) {
            e.seed = static_cast<long>(r.whole("seed", -kMaxSeed, kMaxSeed));
        });
    return out;
}

bool placed(const std::vector<SessionField>& rows, const SessionField& row) {
    for (const SessionField& r : rows)
        if (r.section == row.section && r.key == row.key)
            return true;
    return false;
}

// The layout's rows, then each parameter of the table that the layout does not place, at the
// end of its section (a new parameter needs no line here; a file that lacks its key is refused,
// as for every key, until the reader is told a default).
std::vector<SessionField> withTableRows(std::vector<SessionField> rows) {
    for (const Flag& f : flagTable()) {
        if (!f.session || placed(rows, *f.session))
            continue;
        auto at = rows.end();
        for (auto it = rows.begin(); it != rows.end(); ++it)
            if (it->section == f.session->section)
                at = it + 1;
        rows.insert(at, *f.session);
    }
    return rows;
}

} // namespace

namespace sessionrows {

void Rows::parameter(const char* flag) {
    const Flag* f = findFlag(flag);
    if (!f || !f->session || f->session->section != m_section)
        throw Error(std::string("session layout: ") + flag + " has no row in section \"" +
                    m_section + "\""); // a table and layout that disagree: a programming error
    m_rows.push_back(*f->session);
}

} // namespace sessionrows

const std::vector<SessionField>& sessionFields() {
    static const std::vector<SessionField> rows = withTableRows(buildRows());
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
