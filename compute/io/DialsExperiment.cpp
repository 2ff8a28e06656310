#include "compute/io/DialsExperiment.h"

#include "compute/core/Error.h"
#include "compute/io/InputFile.h"
#include "compute/io/NumberText.h"

#include "compute/model/Crystal.h"

#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace bv::io {

namespace {

using Json = nlohmann::json;

// dxtbx (x, y, z) -> the simulator's frame (docs/numerics/detector-frames.md)
glm::dvec3 fromDials(const glm::dvec3& v) {
    return {-v.z, v.y, v.x};
}

constexpr int kMaxHierarchyDepth = 32; // real detectors nest 3 or 4 groups deep

// one position in the document, for messages: "detector[0].panels[2].origin"
class Node {
  public:
    Node(const std::string& path, const Json& value, std::string key)
        : m_path(&path), m_value(&value), m_key(std::move(key)) {}

    [[noreturn]] void fail(const std::string& what) const {
        throw Error(*m_path + ": " + (m_key.empty() ? std::string("the top level") : m_key) + ": " +
                    what);
    }
    const Json& json() const { return *m_value; }
    const std::string* path() const { return m_path; }
    const std::string& key() const { return m_key; }

    bool has(const char* name) const { return m_value->is_object() && m_value->contains(name); }
    Node member(const char* name) const {
        if (!m_value->is_object())
            fail("expected an object");
        const auto it = m_value->find(name);
        if (it == m_value->end())
            fail(std::string("missing key \"") + name + "\"");
        return Node(*m_path, *it, m_key.empty() ? name : m_key + "." + name);
    }
    std::size_t size() const {
        if (!m_value->is_array())
            fail("expected a list");
        return m_value->size();
    }
    Node element(std::size_t i) const {
        size();
        return Node(*m_path, (*m_value)[i], m_key + "[" + std::to_string(i) + "]");
    }
    double number() const {
        if (!m_value->is_number())
            fail("expected a number");
        const double v = m_value->get<double>();
        if (!std::isfinite(v))
            fail("expected a finite number");
        return v;
    }
    long long integer(long long least, long long most) const {
        if (!m_value->is_number_integer())
            fail("expected a whole number");
        const long long v = m_value->is_number_unsigned()
                                ? static_cast<long long>(std::min<std::uint64_t>(
                                      m_value->get<std::uint64_t>(), 1ull << 62))
                                : m_value->get<long long>();
        if (v < least || v > most)
            fail("expected a whole number from " + std::to_string(least) + " to " +
                 std::to_string(most) + ", not " + std::to_string(v));
        return v;
    }
    std::string text() const {
        if (!m_value->is_string())
            fail("expected a string");
        return m_value->get<std::string>();
    }
    glm::dvec3 vector3() const {
        if (size() != 3)
            fail("expected 3 numbers");
        return {element(0).number(), element(1).number(), element(2).number()};
    }
    std::pair<double, double> pair() const {
        if (size() != 2)
            fail("expected 2 numbers");
        return {element(0).number(), element(1).number()};
    }

  private:
    const std::string* m_path;
    const Json* m_value;
    std::string m_key;
};

glm::dvec3 unitAxis(const Node& axis) {
    const glm::dvec3 v = axis.vector3();
    const double length = glm::length(v);
    if (!(length > 0.0) || !std::isfinite(length))
        axis.fail("the axis is zero");
    return v / length;
}

// a frame of the hierarchy, in dxtbx's lab frame (mm)
struct Frame {
    glm::dvec3 fast{1, 0, 0}, slow{0, 1, 0}, origin{0.0};
    glm::dvec3 normal() const { return glm::cross(fast, slow); }
    glm::dvec3 toParent(const glm::dvec3& v) const {
        return v.x * fast + v.y * slow + v.z * normal();
    }
};

Frame localFrame(const Node& node) {
    Frame f;
    if (node.has("fast_axis"))
        f.fast = unitAxis(node.member("fast_axis"));
    if (node.has("slow_axis"))
        f.slow = unitAxis(node.member("slow_axis"));
    if (node.has("origin"))
        f.origin = node.member("origin").vector3();
    if (std::fabs(glm::dot(f.fast, f.slow)) > kOrthogonalityTolerance)
        node.fail("the fast and slow axes are not orthogonal");
    return f;
}

Frame compose(const Frame& parent, const Frame& local) {
    Frame f;
    f.fast = glm::normalize(parent.toParent(local.fast));
    f.slow = glm::normalize(parent.toParent(local.slow));
    f.origin = parent.origin + parent.toParent(local.origin);
    return f;
}

// walks the hierarchy, giving every panel it names the frame of its group
void placeGroups(const Node& node, const Frame& parent, int depth, std::vector<Frame>& frames,
                 std::vector<bool>& placed) {
    if (depth > kMaxHierarchyDepth)
        node.fail("groups nested more than " + std::to_string(kMaxHierarchyDepth) + " deep");
    const Frame frame = compose(parent, localFrame(node));
    if (!node.has("children"))
        return;
    const Node children = node.member("children");
    for (std::size_t i = 0; i < children.size(); ++i) {
        const Node child = children.element(i);
        if (child.has("panel")) {
            const auto k = static_cast<std::size_t>(
                child.member("panel").integer(0, static_cast<long long>(frames.size()) - 1));
            if (placed[k])
                child.fail("panel " + std::to_string(k) + " appears twice in the hierarchy");
            placed[k] = true;
            frames[k] = frame;
        } else {
            placeGroups(child, frame, depth + 1, frames, placed);
        }
    }
}

Panel readPanel(const Node& node, const Frame& group) {
    Panel p;
    p.name = node.member("name").text();
    const Node type = node.member("type");
    const std::string typeName = type.text();
    if (std::none_of(std::begin(kDxtbxPanelTypes), std::end(kDxtbxPanelTypes),
                     [&](const char* t) { return typeName == t; }))
        type.fail("unknown panel type " + quoteToken(typeName) +
                  " (dxtbx's are SENSOR_PAD, SENSOR_CCD, SENSOR_IMAGE_PLATE, SENSOR_UNKNOWN)");
    const Frame local{unitAxis(node.member("fast_axis")), unitAxis(node.member("slow_axis")),
                      node.member("origin").vector3()};
    const Frame lab = compose(group, local);
    p.fast = fromDials(lab.fast);
    p.slow = fromDials(lab.slow);
    p.origin = fromDials(lab.origin * 1e-3);
    const auto [sizeFast, sizeSlow] = node.member("pixel_size").pair();
    p.pixelSizeFast = sizeFast * 1e-3;
    p.pixelSizeSlow = sizeSlow * 1e-3;
    const Node imageSize = node.member("image_size");
    if (imageSize.size() != 2)
        imageSize.fail("expected 2 whole numbers (fast, slow)");
    p.fastPixels = static_cast<int>(imageSize.element(0).integer(1, kMaxPanelPixels));
    p.slowPixels = static_cast<int>(imageSize.element(1).integer(1, kMaxPanelPixels));
    // dxtbx writes 0 and "" for "not known"
    if (node.has("thickness") && node.member("thickness").number() != 0.0)
        p.thickness = node.member("thickness").number() * 1e-3;
    if (node.has("mu") && node.member("mu").number() != 0.0)
        p.mu = node.member("mu").number() * 1e3;
    if (node.has("material"))
        p.material = node.member("material").text();
    if (node.has("trusted_range")) {
        const Node range = node.member("trusted_range");
        const auto [low, high] = range.pair();
        if (!(low <= high))
            range.fail("a trusted range from its minimum to its maximum count");
        p.trustedRange = std::make_pair(low, high);
    }
    if (auto problem = panelProblem(p))
        node.fail(*problem);
    return p;
}

// the index experiment `id` names for `model`, or 0 where the list names none
std::size_t chosenModel(const Node& root, std::size_t id, const char* model) {
    if (!root.has("experiment") || root.member("experiment").size() == 0)
        return 0;
    const Node experiment = root.member("experiment").element(id);
    if (!experiment.has(model))
        return 0;
    return static_cast<std::size_t>(experiment.member(model).integer(0, 1 << 20));
}

Node chosen(const Node& root, std::size_t id, const char* model) {
    const Node list = root.member(model);
    const std::size_t index = chosenModel(root, id, model);
    if (index >= list.size())
        list.fail("experiment " + std::to_string(id) + " names " + std::string(model) + " " +
                  std::to_string(index) + ", but the list has " + std::to_string(list.size()));
    return list.element(index);
}

// whether the list has a model of this kind for the chosen experiment. Strict (-experiment):
// the experiment names one (dxtbx leaves out the models an experiment lacks: no goniometer
// and scan for a still); a file of models without experiments has the first of each.
// Otherwise (-detector): any model of the kind, the first where the experiment names none.
bool hasModel(const Node& root, std::size_t id, const char* model, bool strict) {
    if (!root.has(model) || root.member(model).size() == 0)
        return false;
    if (!strict || !root.has("experiment") || root.member("experiment").size() == 0)
        return true;
    const Node experiment = root.member("experiment").element(id);
    return experiment.has(model) && !experiment.member(model).json().is_null();
}

// dxtbx's 3 x 3 matrices: 9 numbers, row-major; a rotation must be orthonormal and proper
glm::dmat3 rotationMatrix(const Node& node) {
    if (node.size() != 9)
        node.fail("expected 9 numbers (a 3 x 3 matrix, row-major)");
    glm::dmat3 m; // m[column][row]
    for (int row = 0; row < 3; ++row)
        for (int column = 0; column < 3; ++column)
            m[column][row] = node.element(static_cast<std::size_t>(row * 3 + column)).number();
    const glm::dmat3 shouldBeIdentity = glm::transpose(m) * m;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            if (std::fabs(shouldBeIdentity[i][j] - (i == j ? 1.0 : 0.0)) > 1e-6)
                node.fail("not a rotation matrix (its columns are not orthonormal)");
    if (glm::determinant(m) < 0.0)
        node.fail("not a rotation matrix (a reflection: determinant -1)");
    return m;
}

glm::dmat3 optionalRotation(const Node& node, const char* key) {
    return node.has(key) ? rotationMatrix(node.member(key)) : glm::dmat3(1.0);
}

double radiansOf(double degrees) {
    return degrees * (3.14159265358979323846 / 180.0);
}

void readBeamPolarization(const Node& beam, DialsExperiment& result) {
    if (beam.has("polarization_normal")) {
        result.polarizationNormal = fromDials(unitAxis(beam.member("polarization_normal")));
    }
    if (beam.has("polarization_fraction")) {
        const Node fraction = beam.member("polarization_fraction");
        const double p = fraction.number();
        if (p < 0.0 || p > 1.0)
            fraction.fail("expected a fraction from 0 to 1");
        result.polarizationFraction = p;
    }
}

DialsCrystal readCrystal(const Node& node, const glm::dmat3& settingTimesFixed) {
    DialsCrystal crystal;
    glm::dvec3* vectors[] = {&crystal.a, &crystal.b, &crystal.c};
    const char* keys[] = {"real_space_a", "real_space_b", "real_space_c"};
    for (int i = 0; i < 3; ++i)
        *vectors[i] = fromDials(settingTimesFixed * node.member(keys[i]).vector3());
    if (!vectorsFormCell(crystal.a, crystal.b, crystal.c))
        node.fail("real_space_a, _b and _c do not form a cell (zero or coplanar vectors)");
    if (node.has("space_group_hall_symbol"))
        crystal.hallSymbol = node.member("space_group_hall_symbol").text();
    const auto positiveDegrees = [&](const char* key) -> std::optional<double> {
        if (!node.has(key) || node.member(key).json().is_null())
            return std::nullopt;
        const Node value = node.member(key);
        const double v = value.number();
        if (v < 0.0 || v >= 90.0)
            value.fail("expected degrees from 0 to 90");
        return radiansOf(v);
    };
    crystal.halfMosaicity = positiveDegrees("ML_half_mosaicity_deg");
    crystal.mosaicity = positiveDegrees("mosaicity");
    if (node.has("ML_domain_size_ang") && !node.member("ML_domain_size_ang").json().is_null()) {
        const Node size = node.member("ML_domain_size_ang");
        if (!(size.number() > 0.0))
            size.fail("expected a size greater than 0 (Angstrom)");
        crystal.domainSize = size.number();
    }
    return crystal;
}

DialsScan readScan(const Node& node) {
    DialsScan scan;
    const Node range = node.member("image_range");
    if (range.size() != 2)
        range.fail("expected 2 whole numbers (first, last)");
    scan.firstImage = range.element(0).integer(0, 1LL << 40);
    scan.lastImage = range.element(1).integer(0, 1LL << 40);
    if (scan.lastImage < scan.firstImage)
        range.fail("the last image comes before the first");
    const auto [start, width] = node.member("oscillation").pair();
    scan.start = radiansOf(start);
    scan.width = radiansOf(width);
    return scan;
}

Json parseJson(const std::string& path, const std::string& text) {
    try {
        return Json::parse(text);
    } catch (const Json::parse_error& e) {
        const std::size_t at = std::min<std::size_t>(e.byte, text.size());
        const long line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(at), '\n');
        std::string why = e.what(); // "[json.exception.parse_error.101] parse error at ...: why"
        const std::size_t colon = why.rfind(": ");
        throw Error(path + ":" + std::to_string(line) + ": not a DIALS experiment list (not " +
                    "JSON: " + (colon == std::string::npos ? why : why.substr(colon + 2)) + ")");
    } catch (const Json::exception& e) {
        // out of range: a number too large for a double ("1e400")
        throw Error(path + ": not a DIALS experiment list (" + e.what() + ")");
    }
}

void readOtherModels(const Node& root, std::size_t id, DialsExperiment& result);

} // namespace

DialsExperiment readDialsExperiment(const std::string& path, std::size_t id, DialsModels models) {
    const std::string text = readWholeFile(path, "DIALS experiment list");
    const Json json = parseJson(path, text);
    const Node root(path, json, "");
    if (!json.is_object())
        root.fail("expected an object (a DIALS experiment list)");
    DialsExperiment result;
    if (root.has("experiment"))
        result.experimentCount = root.member("experiment").size();
    if (id > 0 && id >= result.experimentCount)
        root.fail("no experiment " + std::to_string(id) + ": the list has " +
                  std::to_string(result.experimentCount) + " (counted from 0)");

    const Node detector = chosen(root, id, "detector");
    const Node panels = detector.member("panels");
    const std::size_t count = panels.size();
    if (const auto problem = panelCountProblem(count))
        panels.fail(*problem);
    std::vector<Frame> frames(count);
    std::vector<bool> placed(count, false);
    if (detector.has("hierarchy"))
        placeGroups(detector.member("hierarchy"), Frame{}, 0, frames, placed);
    for (std::size_t i = 0; i < count; ++i)
        result.detector.panels.push_back(readPanel(panels.element(i), frames[i]));
    for (std::size_t j = 0; j < count; ++j)
        for (std::size_t i = 0; i < j; ++i)
            if (auto problem = overlapProblem(result.detector.panels[i], result.detector.panels[j]))
                panels.element(j).fail(*problem);
    validatePanels(result.detector, path + ": " + detector.key());

    if (hasModel(root, id, "beam", models == DialsModels::All)) {
        const Node beam = chosen(root, id, "beam");
        const Node direction = beam.member("direction");
        // dxtbx's direction points to the source; the X-rays travel the other way
        result.beamDirection = -fromDials(unitAxis(direction));
        const Node wavelength = beam.member("wavelength");
        const double angstrom = wavelength.number();
        if (!(angstrom > 0.0))
            wavelength.fail("expected a wavelength greater than 0 (Angstrom)");
        result.wavelength = angstrom * 1e-10;
        if (models == DialsModels::All)
            readBeamPolarization(beam, result);
    }
    if (models == DialsModels::All)
        readOtherModels(root, id, result);
    if (root.has("detector") && root.member("detector").size() > 1)
        result.notes.push_back(path + ": " + std::to_string(root.member("detector").size()) +
                               " detectors; read " + detector.key() + ", " +
                               (id == 0 ? std::string("the first experiment's")
                                        : "experiment " + std::to_string(id) + "'s"));
    return result;
}

namespace {

void readOtherModels(const Node& root, std::size_t id, DialsExperiment& result) {
    // dxtbx turns the crystal at angle phi as S R(axis, phi) F A
    glm::dmat3 setting(1.0), fixed(1.0);
    if (hasModel(root, id, "goniometer", true)) {
        const Node goniometer = chosen(root, id, "goniometer");
        if (!goniometer.has("rotation_axis") && goniometer.has("axes"))
            goniometer.fail("a multi-axis goniometer (axes, angles, scan_axis) is not read; "
                            "dials.import with a single-axis model, or give -spindle_axis");
        setting = optionalRotation(goniometer, "setting_rotation");
        fixed = optionalRotation(goniometer, "fixed_rotation");
        DialsGoniometer g;
        g.axis = fromDials(setting * unitAxis(goniometer.member("rotation_axis")));
        result.goniometer = g;
    }
    if (hasModel(root, id, "crystal", true))
        result.crystal = readCrystal(chosen(root, id, "crystal"), setting * fixed);
    if (hasModel(root, id, "scan", true))
        result.scan = readScan(chosen(root, id, "scan"));
    if (hasModel(root, id, "imageset", true)) {
        const Node imageset = chosen(root, id, "imageset");
        const auto beside = [&](std::string path) {
            if (!path.empty() && path[0] != '/') {
                const std::string& expt = *root.path();
                const std::size_t slash = expt.rfind('/');
                if (slash != std::string::npos)
                    path = expt.substr(0, slash + 1) + path;
            }
            return path;
        };
        if (imageset.has("template"))
            result.imageTemplate = beside(imageset.member("template").text());
        if (imageset.has("mask") && imageset.member("mask").json().is_string() &&
            !imageset.member("mask").text().empty())
            result.mask = beside(imageset.member("mask").text());
        if (imageset.has("images")) {
            const Node images = imageset.member("images");
            for (std::size_t i = 0; i < images.size(); ++i)
                result.images.push_back(beside(images.element(i).text()));
        }
    }
}

} // namespace

} // namespace bv::io
