#include "compute/io/CrystfelGeometry.h"

#include "compute/core/Error.h"
#include "compute/io/InputFile.h"
#include "compute/io/NumberText.h"

#include <cmath>
#include <map>

namespace bv::io {

namespace {

struct GeomValue {
    std::string text;
    int line = 0;
};

using Values = std::map<std::string, GeomValue>;

struct PanelLines {
    std::string name;
    int firstLine = 0;
    Values values; // the globals in force when the panel was first named, then its own
};

// The largest index into the data array a panel's min_fs .. max_ss may name: the array may
// hold many panels, so it may be taller or wider than one panel may be (kMaxPanelPixels,
// which panelProblem() checks on each panel's own size).
constexpr long long kMaxDataIndex = 1000000;

// the keys that place a panel; every other known key is about the data, not the geometry
// clang-format off
constexpr const char* kGeometryKeys[] = {"min_fs", "max_fs", "min_ss", "max_ss", "fs", "ss",
                                         "corner_x", "corner_y", "res", "clen", "coffset"};
constexpr const char* kOtherKeys[] = {
    "adu_per_eV", "adu_per_photon", "max_adu", "data", "mask", "mask_file", "mask_good",
    "mask_bad", "saturation_map", "saturation_map_file", "badrow_direction", "no_index",
    "photon_energy", "photon_energy_bandwidth", "photon_energy_scale", "wavelength",
    "electron_voltage", "bandwidth", "peak_list", "peak_list_type", "detector_shift_x",
    "detector_shift_y", "flag_lessthan", "flag_morethan", "flag_equal", "n_panels"};
// clang-format on

bool isGeometryKey(const std::string& key) {
    for (const char* k : kGeometryKeys)
        if (key == k)
            return true;
    return false;
}

bool isOtherKey(const std::string& key) {
    for (const char* k : kOtherKeys)
        if (key == k)
            return true;
    // dim0, dim1, ...; mask0_data, mask1_file, ...
    return key.rfind("dim", 0) == 0 ||
           (key.rfind("mask", 0) == 0 && key.find('_') != std::string::npos);
}

std::string_view trimmed(std::string_view s) {
    const std::size_t begin = s.find_first_not_of(kWhitespace);
    if (begin == std::string_view::npos)
        return {};
    const std::size_t end = s.find_last_not_of(kWhitespace);
    return s.substr(begin, end - begin + 1);
}

class Reader {
  public:
    explicit Reader(std::string path) : m_path(std::move(path)) {}

    [[noreturn]] void fail(int line, const std::string& what) const {
        throw Error(m_path + ":" + std::to_string(line) + ": " + what);
    }

    double number(const PanelLines& p, const char* key, const char* meaning) const {
        const GeomValue& v = required(p, key, meaning);
        const auto value = parseDouble(v.text);
        if (!value || !std::isfinite(*value))
            fail(v.line, "panel '" + p.name + "': " + key + " " + quoteToken(v.text) +
                             " is not a finite number (" + meaning + ")");
        return *value;
    }

    long long index(const PanelLines& p, const char* key) const {
        const GeomValue& v = required(p, key, "a pixel index of the data array, from 0");
        const auto value = parseInteger(v.text);
        if (!value || *value < 0 || *value >= kMaxDataIndex)
            fail(v.line, "panel '" + p.name + "': " + key + " " + quoteToken(v.text) +
                             " is not a pixel index (expected a whole number from 0 to " +
                             std::to_string(kMaxDataIndex - 1) + ")");
        return *value;
    }

    // "+0.0x -1.0y", "-x", "+0.9998x +0.0175y +0.001z": CrystFEL's lab-frame components
    glm::dvec3 vector(const PanelLines& p, const char* key) const {
        const GeomValue& v = required(p, key, "a direction like \"+0.0x -1.0y\"");
        glm::dvec3 result{0.0};
        bool seen[3] = {false, false, false};
        const auto fields = splitFields(v.text, kWhitespace);
        auto bad = [&](std::string_view why) {
            fail(v.line, "panel '" + p.name + "': " + key + " " + quoteToken(v.text) + " " +
                             std::string(why) + " (expected a direction like \"+0.0x -1.0y\")");
        };
        if (fields.empty())
            bad("is empty");
        for (std::string_view field : fields) {
            const char axis = field.back();
            if (axis != 'x' && axis != 'y' && axis != 'z')
                bad("has a term without x, y or z");
            const int i = axis - 'x';
            if (seen[i])
                bad(std::string("gives ") + axis + " twice");
            seen[i] = true;
            const std::string_view coefficient = field.substr(0, field.size() - 1);
            std::optional<double> c;
            if (coefficient.empty() || coefficient == "+")
                c = 1.0;
            else if (coefficient == "-")
                c = -1.0;
            else
                c = parseDouble(coefficient);
            if (!c || !std::isfinite(*c) || std::fabs(*c) > 1e6)
                bad("has a coefficient that is not a number");
            result[i] = *c;
        }
        return result;
    }

    const GeomValue& required(const PanelLines& p, const char* key, const char* meaning) const {
        const auto it = p.values.find(key);
        if (it == p.values.end())
            fail(p.firstLine, "panel '" + p.name + "' has no " + key + " (" + meaning + "; give " +
                                  p.name + "/" + key + " or a global " + key + ")");
        return it->second;
    }

    const std::string& path() const { return m_path; }

  private:
    std::string m_path;
};

// CrystFEL (x, y, z) -> the simulator's frame (docs/numerics/detector-frames.md)
glm::dvec3 fromCrystfel(const glm::dvec3& v) {
    return {v.z, v.y, -v.x};
}

Panel makePanel(const Reader& r, const PanelLines& p) {
    const long long minFs = r.index(p, "min_fs"), maxFs = r.index(p, "max_fs");
    const long long minSs = r.index(p, "min_ss"), maxSs = r.index(p, "max_ss");
    if (maxFs < minFs)
        r.fail(p.values.at("max_fs").line, "panel '" + p.name + "': max_fs " +
                                               std::to_string(maxFs) + " is less than min_fs " +
                                               std::to_string(minFs) + " (both inclusive)");
    if (maxSs < minSs)
        r.fail(p.values.at("max_ss").line, "panel '" + p.name + "': max_ss " +
                                               std::to_string(maxSs) + " is less than min_ss " +
                                               std::to_string(minSs) + " (both inclusive)");
    const double res = r.number(p, "res", "pixels per metre");
    if (!(res > 0.0))
        r.fail(p.values.at("res").line, "panel '" + p.name +
                                            "': res must be greater than 0 "
                                            "(pixels per metre: 13333.3 for 75 um pixels)");
    const GeomValue& clenValue = r.required(p, "clen", "the camera length, m");
    if (!parseDouble(clenValue.text) && !clenValue.text.empty() && clenValue.text[0] == '/')
        r.fail(clenValue.line, "panel '" + p.name + "': clen " + quoteToken(clenValue.text) +
                                   " is read from each image's data file, which a simulation "
                                   "has not got; give the camera length as a number (metres)");
    const double clen = r.number(p, "clen", "the camera length, m");
    const double coffset =
        p.values.count("coffset") ? r.number(p, "coffset", "metres added to clen") : 0.0;
    const double cornerX = r.number(p, "corner_x", "lab x of the first pixel's corner, pixels");
    const double cornerY = r.number(p, "corner_y", "lab y of the first pixel's corner, pixels");
    const glm::dvec3 fs = r.vector(p, "fs");
    const glm::dvec3 ss = r.vector(p, "ss");

    Panel panel;
    panel.name = p.name;
    panel.fastPixels = static_cast<int>(maxFs - minFs + 1);
    panel.slowPixels = static_cast<int>(maxSs - minSs + 1);
    panel.origin = fromCrystfel({cornerX / res, cornerY / res, clen + coffset});
    // an axis's length scales the pixel along it (CrystFEL steps |fs| pixels per index)
    const double fsLength = glm::length(fs), ssLength = glm::length(ss);
    panel.pixelSizeFast = fsLength / res;
    panel.pixelSizeSlow = ssLength / res;
    panel.fast = fsLength > 0.0 ? fromCrystfel(fs / fsLength) : glm::dvec3(0.0);
    panel.slow = ssLength > 0.0 ? fromCrystfel(ss / ssLength) : glm::dvec3(0.0);
    if (auto problem = panelProblem(panel)) {
        // an axis problem belongs to the fs or ss line, any other to the panel's first
        const bool axes = problem->find("axis") != std::string::npos ||
                          problem->find("axes") != std::string::npos;
        r.fail(axes ? p.values.at(fsLength > 0.0 ? "ss" : "fs").line : p.firstLine,
               "panel '" + p.name + "': " + *problem);
    }
    return panel;
}

} // namespace

CrystfelGeometry readCrystfelGeometry(const std::string& path) {
    const std::string text = readWholeFile(path, "CrystFEL geometry file");
    Reader reader(path);
    CrystfelGeometry result;
    Values globals;
    std::vector<PanelLines> panels;
    std::map<std::string, std::size_t> panelIndex;
    bool notedBad = false;

    for (const TextLine& line : splitLines(text)) {
        std::string_view content = line.text.substr(0, line.text.find(';'));
        content = trimmed(content);
        if (content.empty())
            continue;
        const std::size_t equals = content.find('=');
        if (equals == std::string_view::npos)
            reader.fail(line.number, quoteToken(content) + " is not a \"key = value\" line");
        const std::string key(trimmed(content.substr(0, equals)));
        const std::string value(trimmed(content.substr(equals + 1)));
        if (key.empty())
            reader.fail(line.number, "a value without a key");
        const std::size_t slash = key.find('/');
        if (key.rfind("bad", 0) == 0) { // bad regions: masks, not geometry
            if (!notedBad)
                result.notes.push_back(path + ":" + std::to_string(line.number) +
                                       ": bad regions (" + key.substr(0, slash) +
                                       ", ...) ignored: a simulation computes every pixel");
            notedBad = true;
            continue;
        }
        if (key.rfind("rigid_group", 0) == 0)
            continue; // refinement groups: no geometry of their own
        if (slash == std::string::npos) {
            if (isGeometryKey(key))
                globals[key] = {value, line.number};
            else if (!isOtherKey(key))
                result.notes.push_back(path + ":" + std::to_string(line.number) + ": unknown key " +
                                       quoteToken(key) + " ignored");
            continue;
        }
        const std::string name = key.substr(0, slash);
        const std::string field = key.substr(slash + 1);
        if (name.empty() || field.empty() || field.find('/') != std::string::npos)
            reader.fail(line.number, quoteToken(key) + " is not \"panel/key\"");
        auto [it, added] = panelIndex.emplace(name, panels.size());
        if (added) {
            if (const auto problem = panelCountProblem(panels.size() + 1))
                reader.fail(line.number, *problem);
            panels.push_back({name, line.number, globals});
        }
        if (isGeometryKey(field))
            panels[it->second].values[field] = {value, line.number};
        else if (!isOtherKey(field))
            result.notes.push_back(path + ":" + std::to_string(line.number) + ": unknown key " +
                                   quoteToken(key) + " ignored");
    }
    if (const auto problem = panelCountProblem(panels.size()))
        throw Error(path + ": " + *problem + " (expected lines like \"p0/min_fs = 0\")");

    for (const PanelLines& p : panels)
        result.detector.panels.push_back(makePanel(reader, p));
    // overlaps, named by the line where the second panel begins
    for (std::size_t j = 0; j < panels.size(); ++j)
        for (std::size_t i = 0; i < j; ++i)
            if (auto problem = overlapProblem(result.detector.panels[i], result.detector.panels[j]))
                reader.fail(panels[j].firstLine, *problem + " ('" + panels[i].name +
                                                     "' begins at line " +
                                                     std::to_string(panels[i].firstLine) + ")");
    validatePanels(result.detector, path);
    return result;
}

} // namespace bv::io
