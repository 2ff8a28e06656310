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

#include <glm/vec3.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace bv::plan {

struct ReciprocalNode {
    glm::ivec3 hkl{0};
    glm::dvec3 r{0.0};         // 1/Angstrom, lab frame, at the scene's phi
    double dSpacing = 0.0;     // Angstrom, 1/|r|
    double excitation = 0.0;   // |k0 + r| - 1/lambda, 1/Angstrom
    double reach = 0.0;        // how far from the sphere it still diffracts (1/Angstrom):
                               // the lattice factor's width 1/(N a) for the crystal's smallest
                               // extent, plus |r| x mosaic spread, plus the sphere's thickness
    double amplitude = 0.0;    // |F| (the structure factors given, else the default F)
    double weight = 0.0;       // 0..1 for drawing: |F| against the scene's largest |F| in view
    glm::dvec3 diffracted{0.0}; // unit direction of k0 + r (where its spot would be)
    bool inReach() const;       // |excitation| <= reach
};

struct EwaldOptions {
    double dMin = 0.0;           // Angstrom; 0: the finest the detector reaches
    std::size_t nodeLimit = 20000; // nearest to the origin first when there are more
    int outlineSamples = 16;     // points along each panel edge
};

struct EwaldScene {
    double wavelength = 1.0;       // Angstrom, the central source
    glm::dvec3 beam{1.0, 0.0, 0.0}; // unit incident direction
    glm::dvec3 sphereCentre{0.0};  // -k0
    double radius = 1.0;           // 1/lambda
    double thickness = 0.0;        // radial width of the shell swept by dispersion and
                                   // divergence, 1/Angstrom (0 for one source)
    glm::dvec3 spindle{0.0, 0.0, 1.0};
    double phi = 0.0;              // rad
    double dMin = 0.0;             // Angstrom, the resolution the nodes go to
    glm::dvec3 aStar{0.0}, bStar{0.0}, cStar{0.0}; // 1/Angstrom, at phi
    std::vector<ReciprocalNode> nodes;
    // each panel's outline (nanoBragg's one detector: one), as sphere points, closed
    std::vector<std::vector<glm::dvec3>> detectorOutline;

    // The sphere point of a unit direction from the sample: d/lambda - k0 (the scattering
    // vector S of a pixel seen along d).
    glm::dvec3 spherePoint(const glm::dvec3& direction) const;
    // Fractional Miller indices of a scattering vector, and the node nearest to it (nullopt
    // when that node is not among `nodes`).
    glm::dvec3 fractionalHkl(const glm::dvec3& s) const;
    std::optional<std::size_t> nearestNode(const glm::dvec3& s) const;
    std::optional<std::size_t> find(const glm::ivec3& hkl) const;
};

// `factors` may be null (every |F| is then the default F of nanoBragg, 1 for drawing).
EwaldScene ewaldScene(const ResolvedExperiment& resolved, const StructureFactors* factors,
                      double phi, const EwaldOptions& options);

} // namespace bv::plan
