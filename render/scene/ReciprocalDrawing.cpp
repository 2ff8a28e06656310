#include "render/scene/ReciprocalDrawing.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace bv::scene {

namespace {

constexpr int kCircleSegments = 96;
constexpr int kMeridians = 6; // great circles through the beam axis, 30 degrees apart
constexpr int kLatitudes = 7; // circles about the beam axis

SceneVertex vertex(const glm::dvec3& p, const float (&colour)[4], float size = 1.0f) {
    SceneVertex v;
    v.position[0] = static_cast<float>(p.x);
    v.position[1] = static_cast<float>(p.y);
    v.position[2] = static_cast<float>(p.z);
    v.size = size;
    std::copy(std::begin(colour), std::end(colour), v.colour);
    return v;
}

void segment(SceneDrawing& d, const glm::dvec3& a, const glm::dvec3& b, const float (&c)[4]) {
    d.lines.push_back(vertex(a, c));
    d.lines.push_back(vertex(b, c));
}

// A circle of `radius` about `centre` in the plane spanned by the unit vectors u, v.
void circle(SceneDrawing& d, const glm::dvec3& centre, const glm::dvec3& u, const glm::dvec3& v,
            double radius, const float (&c)[4]) {
    glm::dvec3 previous = centre + radius * u;
    for (int i = 1; i <= kCircleSegments; ++i) {
        const double t = 2.0 * M_PI * i / kCircleSegments;
        const glm::dvec3 next = centre + radius * (std::cos(t) * u + std::sin(t) * v);
        segment(d, previous, next, c);
        previous = next;
    }
}

// A unit vector perpendicular to `axis` (and, where possible, to `prefer` too).
glm::dvec3 perpendicular(const glm::dvec3& axis, const glm::dvec3& prefer) {
    glm::dvec3 p = glm::cross(axis, prefer);
    if (glm::length(p) < 1e-6)
        p = glm::cross(axis, std::fabs(axis.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0));
    return glm::normalize(p);
}

void drawSphere(SceneDrawing& d, const plan::EwaldScene& s) {
    const glm::dvec3 w = glm::normalize(s.beam);
    // u lies in the beam-spindle plane, v is perpendicular to both
    const glm::dvec3 v = perpendicular(w, s.spindle);
    const glm::dvec3 u = glm::cross(v, w);
    const float(&c)[4] = SceneColours::sphere;
    float faint[4];
    std::copy(std::begin(c), std::end(c), faint);
    faint[3] *= 0.45f;
    using Colour = const float(&)[4];
    for (int m = 0; m < kMeridians; ++m) {
        const double t = M_PI * m / kMeridians;
        const glm::dvec3 across = std::cos(t) * u + std::sin(t) * v;
        circle(d, s.sphereCentre, w, across, s.radius, m == 0 ? c : Colour(faint));
    }
    for (int l = 1; l <= kLatitudes; ++l) {
        const double polar = M_PI * l / (kLatitudes + 1); // angle from the beam axis
        circle(d, s.sphereCentre + w * (s.radius * std::cos(polar)), u, v,
               s.radius * std::sin(polar), l == (kLatitudes + 1) / 2 ? c : Colour(faint));
    }
    if (s.thickness > 0.0) { // the shell swept by dispersion and divergence
        circle(d, s.sphereCentre, w, u, s.radius - s.thickness / 2.0, c);
        circle(d, s.sphereCentre, w, u, s.radius + s.thickness / 2.0, c);
    }
}

void drawNodes(SceneDrawing& d, const plan::EwaldScene& s) {
    // without a depth test the later dot lies on top: the nodes nearest the sphere go last,
    // so the ones that make spots are never hidden behind the faint far ones
    std::vector<std::pair<double, std::size_t>> order;
    order.reserve(s.nodes.size());
    for (std::size_t i = 0; i < s.nodes.size(); ++i)
        order.emplace_back(emphasis(s.nodes[i]), i);
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    const double shell = kShellSpacings * latticeSpacing(s);
    for (const auto& [near, index] : order) {
        const plan::ReciprocalNode& node = s.nodes[index];
        if (!nodeShown(s, node))
            continue;
        float colour[4];
        for (int i = 0; i < 4; ++i)
            colour[i] =
                static_cast<float>(SceneColours::farNode[i] +
                                   (SceneColours::inReach[i] - SceneColours::farNode[i]) * near);
        if (!node.inReach() && shell > 0.0) // fading out towards the shell's edge
            colour[3] *= static_cast<float>(1.0 - std::fabs(node.excitation) / shell);
        // far nodes are small and faint (a protein lattice has tens of thousands), nodes in
        // reach large; |F| adds to both. A node with no |F| stays a dot: the lattice is there.
        const double w = std::sqrt(std::clamp(node.weight, 0.0, 1.0));
        const float size = static_cast<float>(1.5 + 1.0 * w + (2.0 + 3.0 * w) * near);
        d.points.push_back(vertex(node.r, colour, size));
    }
    d.nodePoints = d.points.size();
}

} // namespace

bool SceneHighlights::operator==(const SceneHighlights& o) const {
    return hoveredNode == o.hoveredNode && pinnedPoint == o.pinnedPoint &&
           pinnedNode == o.pinnedNode;
}

SceneBounds sceneBounds(const plan::EwaldScene& s) {
    // the sphere and the origin's neighbourhood the nodes fill: centred between the sphere's
    // centre and the origin, out to the farther of the sphere's rim and the outermost node
    SceneBounds b;
    b.centre = s.sphereCentre * 0.5;
    b.radius = glm::length(s.sphereCentre - b.centre) + s.radius;
    for (const plan::ReciprocalNode& node : s.nodes)
        b.radius = std::max(b.radius, glm::length(node.r - b.centre));
    return b;
}

SceneBounds spotBounds(const plan::EwaldScene& s) {
    glm::dvec3 low(0.0), high(0.0); // the origin is always in
    std::size_t points = 0;
    for (const std::vector<glm::dvec3>& outline : s.detectorOutline)
        for (const glm::dvec3& p : outline) {
            low = glm::min(low, p);
            high = glm::max(high, p);
            ++points;
        }
    if (points == 0)
        return sceneBounds(s);
    SceneBounds b;
    b.centre = 0.5 * (low + high);
    b.radius = 0.0;
    for (const std::vector<glm::dvec3>& outline : s.detectorOutline)
        for (const glm::dvec3& p : outline)
            b.radius = std::max(b.radius, glm::length(p - b.centre));
    b.radius = std::max({b.radius, glm::length(b.centre), 1e-6 * s.radius});
    return b;
}

double latticeSpacing(const plan::EwaldScene& s) {
    const double spacing =
        std::min({glm::length(s.aStar), glm::length(s.bStar), glm::length(s.cStar)});
    return std::isfinite(spacing) ? spacing : 0.0;
}

bool nodeShown(const plan::EwaldScene& s, const plan::ReciprocalNode& node) {
    const double spacing = latticeSpacing(s);
    return spacing <= 0.0 || node.inReach() ||
           std::fabs(node.excitation) < kShellSpacings * spacing;
}

double nodeScale(const plan::EwaldScene& s, double pixelsPerUnit) {
    const double spacing = latticeSpacing(s) * pixelsPerUnit; // logical pixels
    if (!(spacing > 0.0) || !std::isfinite(spacing))
        return 1.0;
    return std::clamp(kDotsPerSpacing * spacing / kLargestNodeDot, kSmallestNodeScale, 1.0);
}

double emphasis(const plan::ReciprocalNode& node) {
    if (node.inReach())
        return 1.0;
    const double c = closeness(node); // at most 0.5 out of reach
    return c * c;
}

double closeness(const plan::ReciprocalNode& node) {
    if (!(node.reach > 0.0))
        return node.excitation == 0.0 ? 1.0 : 0.0;
    const double x = node.excitation / node.reach;
    return std::exp(-std::log(2.0) * x * x);
}

SceneDrawing drawScene(const plan::EwaldScene& s, const SceneHighlights& h) {
    SceneDrawing d;
    drawSphere(d, s);
    const glm::dvec3 w = glm::normalize(s.beam);
    // the incident beam: in through the sphere's rim, through its centre -k0 and the origin,
    // with an arrowhead just past the origin
    const glm::dvec3 tip = w * (0.15 * s.radius);
    segment(d, s.sphereCentre - w * s.radius, tip, SceneColours::beam);
    const glm::dvec3 side = perpendicular(w, s.spindle) * (0.03 * s.radius);
    const glm::dvec3 back = tip - w * (0.06 * s.radius);
    segment(d, tip, back + side, SceneColours::beam);
    segment(d, tip, back - side, SceneColours::beam);
    // the rotation axis through the origin
    const glm::dvec3 axis = glm::normalize(s.spindle) * (1.1 * s.radius);
    segment(d, -axis, axis, SceneColours::spindle);
    for (const std::vector<glm::dvec3>& outline : s.detectorOutline)
        for (std::size_t i = 1; i < outline.size(); ++i)
            segment(d, outline[i - 1], outline[i], SceneColours::detector);

    drawNodes(d, s);
    d.points.push_back(vertex(glm::dvec3(0.0), SceneColours::beam, 7.0f)); // the origin
    if (h.pinnedPoint) { // on top of the nodes it passes
        d.overlayLines.push_back(vertex(s.sphereCentre, SceneColours::ray));
        d.overlayLines.push_back(vertex(*h.pinnedPoint, SceneColours::ray));
        d.points.push_back(vertex(*h.pinnedPoint, SceneColours::ray, 9.0f));
    }
    if (h.pinnedNode && *h.pinnedNode < s.nodes.size())
        d.points.push_back(vertex(s.nodes[*h.pinnedNode].r, SceneColours::pinnedNode, 18.0f));
    if (h.hoveredNode && *h.hoveredNode < s.nodes.size())
        d.points.push_back(vertex(s.nodes[*h.hoveredNode].r, SceneColours::hovered, 20.0f));
    return d;
}

} // namespace bv::scene
