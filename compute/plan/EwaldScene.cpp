#include "compute/plan/EwaldScene.h"

#include "compute/model/Rotation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

namespace bv::plan {

namespace {

// Below this fraction of the radius a shell's width is rounding (a lone source's direction is
// the beam's to the last bit or two), not a thickness: far below anything drawn.
constexpr double kRoundingWidth = 1e-9;

// Directions spread evenly over the unit sphere (a Fibonacci lattice), where the shell's width
// is probed for its widest; neighbours are about sqrt(4 pi / n) = 0.08 rad apart, so the width
// found is within about 0.1 % of the widest between them (it varies as the cosine of the
// angle near its maximum). The beam's two directions are probed as well: dispersion alone is
// widest straight back.
constexpr int kProbeDirections = 2048;

// A flat rectangle of the detector: nanoBragg's one detector or a panel.
struct DetectorRectangle {
    glm::dvec3 corner{0.0}, fast{0.0}, slow{0.0}; // m: pix0, and the edges along fdet, sdet
};

std::vector<DetectorRectangle> detectorRectangles(const ResolvedExperiment& resolved) {
    std::vector<DetectorRectangle> rectangles;
    for (const PanelGeometry& p : resolved.panels)
        rectangles.push_back({p.pix0, p.fdet * p.sizeFast(), p.sdet * p.sizeSlow()});
    return rectangles;
}

// The rectangle's edge, `samples` points on each side from its corners in order, closed.
std::vector<glm::dvec3> edgePoints(const DetectorRectangle& r, int samples) {
    const glm::dvec3 corners[4] = {r.corner, r.corner + r.fast, r.corner + r.fast + r.slow,
                                   r.corner + r.slow};
    std::vector<glm::dvec3> points;
    for (int side = 0; side < 4; ++side) {
        const glm::dvec3& from = corners[side];
        const glm::dvec3& to = corners[(side + 1) % 4];
        for (int k = 0; k < samples; ++k)
            points.push_back(from + (to - from) * (double(k) / samples));
    }
    points.push_back(points.front());
    return points;
}

// The axis turned about the spindle to phi, by the plan's rule: not turned for a phi that is
// exactly 0 (PixelGeometry reads the image's h k l with the same rule)
glm::dvec3 turned(const glm::dvec3& axis, const glm::dvec3& spindle, double phi) {
    return phi != 0.0 ? rotateAbout(axis, spindle, phi) : axis;
}

double widestShell(const EwaldScene& scene) {
    double widest = 0.0;
    const auto probe = [&](const glm::dvec3& u) {
        const glm::dvec2 shell = scene.shellAt(u);
        widest = std::max(widest, shell.x + shell.y);
    };
    probe(scene.beam);
    probe(-scene.beam);
    const double turn = M_PI * (3.0 - std::sqrt(5.0)); // the golden angle
    for (int i = 0; i < kProbeDirections; ++i) {
        const double z = 1.0 - (2.0 * i + 1.0) / kProbeDirections;
        const double rho = std::sqrt(1.0 - z * z);
        probe({rho * std::cos(turn * i), rho * std::sin(turn * i), z});
    }
    return widest;
}

// The nodes within sMax, nearest to the origin first, at most `limit`. Where the ball of
// radius sMax holds far more nodes than the limit (about 4/3 pi s^3 V of them, V the real
// cell's volume), a smaller ball is enumerated first and grown until it holds the limit: the
// `limit` nearest of the whole ball are then all in it.
std::vector<ReciprocalNode> nearestNodes(const EwaldScene& scene, double sMax, std::size_t limit) {
    std::vector<ReciprocalNode> nodes;
    if (limit == 0 || !(sMax > 0.0) || !std::isfinite(sMax))
        return nodes;
    const double volume = std::fabs(glm::dot(scene.a, glm::cross(scene.b, scene.c)));
    const double wanted = 2.0 * static_cast<double>(limit) + 64.0;
    double s = sMax;
    if (volume > 0.0 && 4.0 / 3.0 * M_PI * s * s * s * volume > wanted)
        s = std::cbrt(wanted * 3.0 / (4.0 * M_PI * volume));
    struct Found {
        glm::ivec3 hkl;
        double length;
    };
    std::vector<Found> found;
    for (;;) {
        found.clear();
        forEachNode(scene, s, [&](const glm::ivec3& hkl, const glm::dvec3& r) {
            found.push_back({hkl, glm::length(r)});
        });
        if (found.size() >= limit || s >= sMax)
            break;
        s = std::min(sMax, s * 1.26); // twice the volume
    }
    std::sort(found.begin(), found.end(), [](const Found& x, const Found& y) {
        if (x.length != y.length)
            return x.length < y.length;
        return std::tie(x.hkl.x, x.hkl.y, x.hkl.z) < std::tie(y.hkl.x, y.hkl.y, y.hkl.z);
    });
    if (found.size() > limit)
        found.resize(limit);
    nodes.reserve(found.size());
    for (const Found& f : found)
        nodes.push_back(scene.node(f.hkl));
    return nodes;
}

} // namespace

bool ReciprocalNode::inReach() const {
    return std::fabs(excitation) <= reach;
}

glm::dvec3 EwaldScene::spherePoint(const glm::dvec3& direction) const {
    return direction * radius + sphereCentre;
}

glm::dvec3 EwaldScene::fractionalHkl(const glm::dvec3& s) const {
    return {glm::dot(a, s), glm::dot(b, s), glm::dot(c, s)};
}

std::optional<std::size_t> EwaldScene::find(const glm::ivec3& hkl) const {
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].hkl == hkl)
            return i;
    return std::nullopt;
}

std::optional<std::size_t> EwaldScene::nearestNode(const glm::dvec3& s) const {
    const glm::dvec3 f = fractionalHkl(s);
    if (!std::isfinite(f.x) || !std::isfinite(f.y) || !std::isfinite(f.z) || std::fabs(f.x) > 1e6 ||
        std::fabs(f.y) > 1e6 || std::fabs(f.z) > 1e6)
        return std::nullopt;
    const glm::ivec3 rounded(static_cast<int>(std::lround(f.x)), static_cast<int>(std::lround(f.y)),
                             static_cast<int>(std::lround(f.z)));
    // the rounded indices are the nearest node of an orthogonal cell; of an oblique one the
    // nearest (in 1/Angstrom) is among their neighbours
    glm::ivec3 nearest = rounded;
    double best = std::numeric_limits<double>::infinity();
    for (int dh = -1; dh <= 1; ++dh)
        for (int dk = -1; dk <= 1; ++dk)
            for (int dl = -1; dl <= 1; ++dl) {
                const glm::ivec3 hkl = rounded + glm::ivec3(dh, dk, dl);
                const glm::dvec3 r =
                    double(hkl.x) * aStar + double(hkl.y) * bStar + double(hkl.z) * cStar;
                const double distance = glm::length(r - s);
                if (distance < best) {
                    best = distance;
                    nearest = hkl;
                }
            }
    return find(nearest);
}

glm::dvec2 EwaldScene::shellAt(const glm::dvec3& u) const {
    // Along the ray centre + t u, source i's sphere (centre c_i, radius R_i) lies at
    //   t_i = -(u . d) + sqrt((u . d)^2 - |d|^2 + R_i^2),   d = sphereCentre - c_i = k_i - k0
    // (the ray starts inside every sphere: each passes through the origin, their centres
    // about one |k_i - k0| apart)
    glm::dvec2 shell{0.0};
    for (const SourceSphere& source : sources) {
        const glm::dvec3 d = sphereCentre - source.centre;
        const double along = glm::dot(u, d);
        const double discriminant = along * along - glm::dot(d, d) + source.radius * source.radius;
        if (!(discriminant >= 0.0))
            continue;
        const double t = std::sqrt(discriminant) - along;
        shell.x = std::max(shell.x, radius - t);
        shell.y = std::max(shell.y, t - radius);
    }
    const double rounding = kRoundingWidth * radius;
    return {shell.x > rounding ? shell.x : 0.0, shell.y > rounding ? shell.y : 0.0};
}

ReciprocalNode EwaldScene::node(const glm::ivec3& hkl) const {
    ReciprocalNode n;
    n.hkl = hkl;
    n.r = double(hkl.x) * aStar + double(hkl.y) * bStar + double(hkl.z) * cStar;
    const double length = glm::length(n.r);
    n.dSpacing = length > 0.0 ? 1.0 / length : std::numeric_limits<double>::infinity();
    const glm::dvec3 k = n.r - sphereCentre; // k0 + r
    n.excitation = glm::length(k) - radius;
    n.diffracted = unitOrZero(k);
    // the shell on the node's side of the central sphere: outside it, the outermost source's
    // sphere is the one the node nears first; inside, the innermost
    const double crystal = latticeWidth + length * mosaicSpread;
    if (std::fabs(n.excitation) > crystal + shellBound) {
        n.reach = crystal + shellBound; // out of reach whatever the shell is here
    } else {
        const glm::dvec2 shell = sources.empty() ? glm::dvec2(0.0) : shellAt(n.diffracted);
        n.reach = crystal + (n.excitation >= 0.0 ? shell.y : shell.x);
    }
    n.amplitude = 1.0;
    n.weight = 0.0;
    return n;
}

EwaldScene ewaldScene(const ResolvedExperiment& resolved, const StructureFactors* factors,
                      double phi, const EwaldOptions& options) {
    EwaldScene scene;
    const double lambda = resolved.wavelength * 1e10; // Angstrom
    scene.wavelength = lambda;
    scene.beam = unitOrZero(resolved.axes.beam);
    scene.sphereCentre = -(scene.beam / lambda); // as PixelGeometry writes k0, to the bit
    scene.radius = 1.0 / lambda;
    scene.spindle = unitOrZero(resolved.axes.spindle);
    scene.phi = phi;

    // the cell at phi, reciprocal axes from the turned real ones (as PixelGeometry)
    const CellVectors& cell = resolved.cell;
    scene.a = turned(cell.a, scene.spindle, phi);
    scene.b = turned(cell.b, scene.spindle, phi);
    scene.c = turned(cell.c, scene.spindle, phi);
    const double volume = glm::dot(scene.a, glm::cross(scene.b, scene.c));
    scene.aStar = glm::cross(scene.b, scene.c) / volume;
    scene.bStar = glm::cross(scene.c, scene.a) / volume;
    scene.cStar = glm::cross(scene.a, scene.b) / volume;
    const double extent =
        std::min({resolved.cells.x * glm::length(cell.a), resolved.cells.y * glm::length(cell.b),
                  resolved.cells.z * glm::length(cell.c)});
    scene.latticeWidth = extent > 0.0 ? 1.0 / extent : 0.0;
    scene.mosaicSpread = resolved.mosaicSpread;

    for (const Source& source : resolved.sources) {
        const double lambdaI = source.wavelength * 1e10;
        if (!(lambdaI > 0.0))
            continue;
        // the incident direction is -direction (towards the sample), k_i = incident / lambda_i
        scene.sources.push_back({source.direction / lambdaI, 1.0 / lambdaI});
    }
    scene.thickness = widestShell(scene);
    // |t_i - R| <= |R_i - R| + 2 |d_i| along any direction (shellAt's t_i, d_i = k_i - k0:
    // sqrt(R_i^2 - |d|^2 + (u.d)^2) lies between R_i - |d| and R_i for |d| <= R_i)
    for (const SourceSphere& source : scene.sources)
        scene.shellBound =
            std::max(scene.shellBound, std::fabs(source.radius - scene.radius) +
                                           2.0 * glm::length(scene.sphereCentre - source.centre));
    if (scene.thickness == 0.0)
        scene.shellBound = 0.0; // one source, or several alike

    // the detector's outline on the sphere, and the finest resolution it reaches (2θ is
    // largest on a flat rectangle's edge: its contours are conics about the beam)
    double widestAngle = 0.0;
    for (const DetectorRectangle& rectangle : detectorRectangles(resolved)) {
        const std::vector<glm::dvec3> points =
            edgePoints(rectangle, std::max(options.outlineSamples, 1));
        std::vector<glm::dvec3> outline;
        for (const glm::dvec3& p : points) {
            const glm::dvec3 d = unitOrZero(p);
            widestAngle =
                std::max(widestAngle, std::acos(std::clamp(glm::dot(d, scene.beam), -1.0, 1.0)));
            outline.push_back(scene.spherePoint(d));
        }
        if (options.outlineSamples > 0)
            scene.detectorOutline.push_back(std::move(outline));
    }
    const double reached = widestAngle > 0.0 ? lambda / (2.0 * std::sin(widestAngle / 2.0))
                                             : std::numeric_limits<double>::infinity();
    scene.dMin = options.dMin > 0.0 && std::isfinite(options.dMin) ? options.dMin : reached;

    scene.nodes = nearestNodes(scene, 1.0 / scene.dMin, options.nodeLimit);
    double largest = 0.0;
    for (ReciprocalNode& n : scene.nodes) {
        n.amplitude = factors ? factors->amplitude(n.hkl.x, n.hkl.y, n.hkl.z) : 1.0;
        largest = std::max(largest, std::fabs(n.amplitude));
    }
    for (ReciprocalNode& n : scene.nodes)
        n.weight = factors ? (largest > 0.0 ? std::fabs(n.amplitude) / largest : 0.0) : 1.0;
    return scene;
}

} // namespace bv::plan
