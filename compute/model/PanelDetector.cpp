#include "compute/model/PanelDetector.h"

#include "compute/core/Error.h"
#include "compute/model/PhysicalLimits.h"
#include "compute/model/Resolve.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

namespace bv {

namespace {

bool finite(const glm::dvec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

std::optional<std::string> axisProblem(const glm::dvec3& axis, const char* which) {
    const std::string name = std::string("the ") + which + " axis";
    if (!finite(axis))
        return name + " is not finite";
    const double length = glm::length(axis);
    if (!(length > 0.0))
        return name + " is zero";
    if (std::fabs(length - 1.0) > kUnitTolerance)
        return name + " is not a unit vector (length " + std::to_string(length) + ")";
    return std::nullopt;
}

std::array<glm::dvec3, 4> corners(const Panel& p) {
    return {p.position(0, 0), p.position(p.fastPixels, 0), p.position(0, p.slowPixels),
            p.position(p.fastPixels, p.slowPixels)};
}

// overlap of the two rectangles' shadows on `axis`, m (negative: a gap between them)
double overlapAlong(const glm::dvec3& axis, const std::array<glm::dvec3, 4>& a,
                    const std::array<glm::dvec3, 4>& b) {
    auto range = [&axis](const std::array<glm::dvec3, 4>& c) {
        double lo = glm::dot(axis, c[0]), hi = lo;
        for (const glm::dvec3& v : c) {
            lo = std::min(lo, glm::dot(axis, v));
            hi = std::max(hi, glm::dot(axis, v));
        }
        return std::pair<double, double>(lo, hi);
    };
    const auto [aLo, aHi] = range(a);
    const auto [bLo, bHi] = range(b);
    return std::min(aHi, bHi) - std::max(aLo, bLo);
}

} // namespace

long long PanelDetector::pixelCount() const {
    long long count = 0;
    for (const Panel& p : panels)
        count += p.pixelCount();
    return count;
}

const Panel* PanelDetector::find(const std::string& name) const {
    for (const Panel& p : panels)
        if (p.name == name)
            return &p;
    return nullptr;
}

std::optional<std::string> panelProblem(const Panel& p) {
    if (auto problem = axisProblem(p.fast, "fast"))
        return problem;
    if (auto problem = axisProblem(p.slow, "slow"))
        return problem;
    const double cosine = glm::dot(p.fast, p.slow);
    if (std::fabs(cosine) > kOrthogonalityTolerance)
        return "the fast and slow axes are not orthogonal (they make " +
               std::to_string(std::acos(std::clamp(cosine, -1.0, 1.0)) * 180.0 / M_PI) +
               " degrees)";
    for (const auto& [size, which] :
         {std::pair{p.pixelSizeFast, "fast"}, std::pair{p.pixelSizeSlow, "slow"}})
        if (!withinLimits(Quantity::PixelSize, Bound::Positive, size, QuantityUnits::Model))
            return std::string("the pixel size along ") + which + " is " + std::to_string(size) +
                   " m; expected " +
                   expectedValue(Quantity::PixelSize, Bound::Positive, QuantityUnits::Model);
    for (const auto& [count, which] :
         {std::pair{p.fastPixels, "fast"}, std::pair{p.slowPixels, "slow"}})
        if (count < 1 || count > kMaxPanelPixels)
            return std::string("the pixel count along ") + which + " is " + std::to_string(count) +
                   "; expected 1 to " + std::to_string(kMaxPanelPixels);
    if (p.pixelCount() > kMaxImagePixels)
        return "it has " + std::to_string(p.pixelCount()) + " pixels (" +
               std::to_string(p.fastPixels) + " x " + std::to_string(p.slowPixels) +
               "); an image holds at most " + std::to_string(kMaxImagePixels);
    for (int i = 0; i < 3; ++i)
        if (!withinLimits(Quantity::DetectorLength, Bound::Any, p.origin[i], QuantityUnits::Model))
            return "the origin is not a position (component " + std::to_string(p.origin[i]) +
                   " m; expected " +
                   expectedValue(Quantity::DetectorLength, Bound::Any, QuantityUnits::Model) + ")";
    if (p.thickness &&
        !withinLimits(Quantity::Thickness, Bound::Positive, *p.thickness, QuantityUnits::Model))
        return "the sensor thickness is " + std::to_string(*p.thickness) + " m; expected " +
               expectedValue(Quantity::Thickness, Bound::Positive, QuantityUnits::Model);
    if (p.mu && !(std::isfinite(*p.mu) && *p.mu >= 0.0))
        return "the attenuation coefficient mu is " + std::to_string(*p.mu) +
               " 1/m; expected a finite number, 0 or more";
    return std::nullopt;
}

std::optional<std::string> overlapProblem(const Panel& a, const Panel& b) {
    constexpr double kParallel = 1e-6; // in the cosine of the normals' angle
    constexpr double kPlane = 1e-6;    // m
    // cheap rejection: bounding spheres around the centres
    const glm::dvec3 centreA = a.position(a.fastPixels / 2.0, a.slowPixels / 2.0);
    const glm::dvec3 centreB = b.position(b.fastPixels / 2.0, b.slowPixels / 2.0);
    const double radiusA = 0.5 * std::hypot(a.widthFast(), a.widthSlow());
    const double radiusB = 0.5 * std::hypot(b.widthFast(), b.widthSlow());
    if (glm::length(centreA - centreB) >= radiusA + radiusB)
        return std::nullopt;

    const glm::dvec3 normal = glm::normalize(a.normal());
    if (std::fabs(glm::dot(normal, glm::normalize(b.normal()))) < 1.0 - kParallel)
        return std::nullopt;
    const auto cornersA = corners(a);
    const auto cornersB = corners(b);
    for (const glm::dvec3& c : cornersB)
        if (std::fabs(glm::dot(c - a.origin, normal)) > kPlane)
            return std::nullopt;

    const double slack =
        0.01 * std::min({a.pixelSizeFast, a.pixelSizeSlow, b.pixelSizeFast, b.pixelSizeSlow});
    double smallest = HUGE_VAL;
    for (const glm::dvec3& axis : {a.fast, a.slow, b.fast, b.slow}) {
        const double overlap = overlapAlong(axis, cornersA, cornersB);
        if (overlap <= slack)
            return std::nullopt;
        smallest = std::min(smallest, overlap);
    }
    return "panels '" + a.name + "' and '" + b.name + "' overlap (they share the same plane " +
           "and cover a common area at least " + std::to_string(smallest * 1e3) + " mm across)";
}

std::optional<std::string> panelCountProblem(std::size_t count) {
    if (count == 0)
        return std::string("the detector has no panels");
    if (count > static_cast<std::size_t>(kMaxPanels))
        return std::to_string(count) + " panels; at most " + std::to_string(kMaxPanels) +
               " are supported";
    return std::nullopt;
}

std::optional<std::string> stackedImageProblem(const std::vector<Panel>& panels) {
    long long widest = 0, rows = 0;
    for (const Panel& p : panels) {
        widest = std::max<long long>(widest, p.fastPixels);
        rows += p.slowPixels;
    }
    if (widest * rows <= kMaxImagePixels)
        return std::nullopt;
    return "the panels' rows stacked make an image of " + std::to_string(widest) + " x " +
           std::to_string(rows) + " pixels; an image holds at most " +
           std::to_string(kMaxImagePixels);
}

void validatePanels(const PanelDetector& detector, const std::string& where) {
    if (auto problem = panelCountProblem(detector.panels.size()))
        throw Error(where + ": " + *problem);
    std::set<std::string> names;
    for (const Panel& p : detector.panels) {
        if (p.name.empty())
            throw Error(where + ": a panel has no name");
        if (!names.insert(p.name).second)
            throw Error(where + ": two panels are named '" + p.name + "'");
        if (auto problem = panelProblem(p))
            throw Error(where + ": panel '" + p.name + "': " + *problem);
    }
    if (auto problem = stackedImageProblem(detector.panels))
        throw Error(where + ": " + *problem);
    for (std::size_t i = 0; i < detector.panels.size(); ++i)
        for (std::size_t j = i + 1; j < detector.panels.size(); ++j)
            if (auto problem = overlapProblem(detector.panels[i], detector.panels[j]))
                throw Error(where + ": " + *problem);
}

PanelDetector singlePanelDetector(const ResolvedExperiment& r) {
    if (r.curved)
        throw Error("a curved detector (-curved_det) puts every pixel at the same distance "
                    "from the sample: it is not a flat panel");
    const DetectorGeometry& g = r.detector;
    Panel p;
    p.name = "detector";
    p.origin = g.pix0; // the reference's pix0 is the outer corner of pixel (0, 0)
    p.fast = g.fdet;
    p.slow = g.sdet;
    p.pixelSizeFast = p.pixelSizeSlow = g.pixelSize;
    p.fastPixels = g.fastPixels;
    p.slowPixels = g.slowPixels;
    if (r.thickness.range > 0.0)
        p.thickness = r.thickness.range;
    if (r.mu > 0.0)
        p.mu = r.mu;
    return PanelDetector{{p}};
}

} // namespace bv
