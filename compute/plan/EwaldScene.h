#pragma once
// The Ewald construction of a resolved experiment at one spindle angle: what the viewer's
// reciprocal-space view draws (render/scene) and what links it to the image (app/).
//
//     const plan::EwaldScene scene = plan::ewaldScene(resolved, &structureFactors,
//                                                     resolved.phi0, {});
//     for (const plan::ReciprocalNode& node : scene.nodes)
//         if (node.inReach()) ...   // a spot on the image, at node.diffracted
//
// Frame: the lab frame of resolve() (LabAxes), lengths in 1/Angstrom. The origin is the
// reciprocal lattice's origin; the incident wave vector is k0 = beam / lambda, so the sphere
// of radius 1/lambda is centred at -k0 and passes through the origin. A node r = h a* + k b* +
// l c* (the cell after the misset, turned about the spindle to `phi`, without mosaic domains)
// diffracts when |k0 + r| = 1/lambda; its excitation error is |k0 + r| - 1/lambda.
// A detector direction d (unit, from the sample) is the sphere point d/lambda - k0.
//
// docs/numerics/ewald-construction.md derives what is drawn and why.

#include "compute/model/Resolve.h"
#include "compute/model/StructureFactors.h"

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include <cmath>
#include <cstddef>
#include <optional>
#include <vector>

namespace bv::plan {

struct ReciprocalNode {
    glm::ivec3 hkl{0};
    glm::dvec3 r{0.0};          // 1/Angstrom, lab frame, at the scene's phi
    double dSpacing = 0.0;      // Angstrom, 1/|r|
    double excitation = 0.0;    // |k0 + r| - 1/lambda, 1/Angstrom
    double reach = 0.0;         // how far from the sphere it still diffracts (1/Angstrom):
                                // the lattice factor's width 1/(N a) for the crystal's smallest
                                // extent, plus |r| x mosaic spread, plus the sphere's thickness
                                // where the node is: shellAt(diffracted), on the
                                // node's side of the central sphere (a node farther than
                                // any shell reaches: shellBound, out of reach either way)
    double amplitude = 0.0;     // |F| (the structure factors given, else 1)
    double weight = 0.0;        // 0..1 for drawing: |F| against the scene's largest |F| in view
    glm::dvec3 diffracted{0.0}; // unit direction of k0 + r (where its spot would be)
    bool inReach() const;       // |excitation| <= reach
};

struct EwaldOptions {
    double dMin = 0.0;             // Angstrom; 0: the finest the detector reaches
    std::size_t nodeLimit = 20000; // nearest to the origin first when there are more
    int outlineSamples = 16;       // points along each panel edge (0: no outline)
};

// One source's Ewald sphere: centre -k_i (k_i = its incident direction / lambda_i), radius
// 1/lambda_i; like the central one it passes through the origin.
struct SourceSphere {
    glm::dvec3 centre{0.0};
    double radius = 0.0;
};

struct EwaldScene {
    double wavelength = 1.0;        // Angstrom, the central source
    glm::dvec3 beam{1.0, 0.0, 0.0}; // unit incident direction
    glm::dvec3 sphereCentre{0.0};   // -k0
    double radius = 1.0;            // 1/lambda
    double thickness = 0.0;         // radial width of the shell swept by dispersion and
                                    // divergence where it is widest, 1/Angstrom (0 for one
                                    // source); shellAt() gives it along any direction
    glm::dvec3 spindle{0.0, 0.0, 1.0};
    double phi = 0.0;                              // rad
    double dMin = 0.0;                             // Angstrom, the resolution the nodes go to
    glm::dvec3 aStar{0.0}, bStar{0.0}, cStar{0.0}; // 1/Angstrom, at phi
    glm::dvec3 a{0.0}, b{0.0}, c{0.0};             // Angstrom, the real axes at phi
    double latticeWidth = 0.0;         // 1/(N a) for the crystal's smallest extent N a, 1/Angstrom
    double mosaicSpread = 0.0;         // rad
    std::vector<SourceSphere> sources; // every source's sphere; their spread is the thickness
    double shellBound = 0.0; // no shellAt() side exceeds it, 1/Angstrom (0 for one source)
    // nearest to the origin first (ties in ascending h, k, l)
    std::vector<ReciprocalNode> nodes;
    // each panel's outline (nanoBragg's one detector: one), as sphere points, closed: the
    // corners in order, outlineSamples points along each edge, the last point repeating the
    // first
    std::vector<std::vector<glm::dvec3>> detectorOutline;

    // The sphere point of a unit direction from the sample: d/lambda - k0 (the scattering
    // vector S of a pixel seen along d).
    glm::dvec3 spherePoint(const glm::dvec3& direction) const;
    // Fractional Miller indices of a scattering vector, and the node nearest to it (nullopt
    // when that node is not among `nodes`).
    glm::dvec3 fractionalHkl(const glm::dvec3& s) const;
    std::optional<std::size_t> nearestNode(const glm::dvec3& s) const;
    std::optional<std::size_t> find(const glm::ivec3& hkl) const;

    // The shell the sources' spheres sweep, along a unit direction u from sphereCentre: how far
    // the farthest of them lies inside (x) and outside (y) the central sphere there,
    // 1/Angstrom, both >= 0 (0, 0 for one source; 0, 0 towards the origin, which every
    // sphere passes through).
    glm::dvec2 shellAt(const glm::dvec3& u) const;
    // The node hkl at this scene's phi: r, dSpacing, excitation, reach and diffracted (its
    // amplitude 1 and weight 0: ewaldScene() fills them in from the structure factors).
    ReciprocalNode node(const glm::ivec3& hkl) const;
};

// The reciprocal lattice's nodes, enumerated once for the scene and for the image's predicted
// spots (app/PixelGeometry): visit(hkl, r) for every node but the origin with |r| <= sMax
// (1/Angstrom), r = h a* + k b* + l c* at the scene's phi, in ascending h, then k, then l.
// The indices run to ceil(|a| sMax) (|h| = |a . r| <= |a| |r|). Returns false, having visited
// nothing, where the axes are not finite or the box of indices would hold more than
// maxIndices (a cell so large against the resolution that its nodes would be a carpet).
template <class Visit>
bool forEachNode(const EwaldScene& scene, double sMax, Visit&& visit, double maxIndices = 2e7) {
    const double limits[3] = {std::ceil(glm::length(scene.a) * sMax),
                              std::ceil(glm::length(scene.b) * sMax),
                              std::ceil(glm::length(scene.c) * sMax)};
    for (const double limit : limits) // NaN before an experiment is resolved
        if (!std::isfinite(limit) || limit < 0.0 || limit > 1e6)
            return false;
    if ((2.0 * limits[0] + 1.0) * (2.0 * limits[1] + 1.0) * (2.0 * limits[2] + 1.0) > maxIndices)
        return false;
    const int hMax = static_cast<int>(limits[0]);
    const int kMax = static_cast<int>(limits[1]);
    const int lMax = static_cast<int>(limits[2]);
    for (int h = -hMax; h <= hMax; ++h)
        for (int k = -kMax; k <= kMax; ++k)
            for (int l = -lMax; l <= lMax; ++l) {
                if (h == 0 && k == 0 && l == 0)
                    continue;
                const glm::dvec3 r =
                    double(h) * scene.aStar + double(k) * scene.bStar + double(l) * scene.cStar;
                if (glm::length(r) <= sMax)
                    visit(glm::ivec3(h, k, l), r);
            }
    return true;
}

// `factors` may be null: every |F| is then 1 and every weight 1 (the geometry alone, as the
// image's predicted spots need it). options.dMin <= 0 (or not finite): the finest resolution
// the detector's outline reaches.
EwaldScene ewaldScene(const ResolvedExperiment& resolved, const StructureFactors* factors,
                      double phi, const EwaldOptions& options);

} // namespace bv::plan
