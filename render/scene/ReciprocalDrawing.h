#pragma once
// ReciprocalDrawing: the Ewald construction of a plan::EwaldScene as points and lines for
// SceneRenderer (docs/user-guide.md, "Reciprocal space"):
//  - the reciprocal lattice nodes near the sphere as round points, coloured and sized by how
//    close they are to the sphere against how far they still diffract (node.excitation
//    against node.reach): nodes in reach large and bright orange, far ones small, faint and
//    blue; a larger |F| (node.weight) makes both larger (which nodes, and how large on
//    screen: kShellSpacings and nodeScale below);
//  - the Ewald sphere as latitude and longitude circles about the beam, the circle in the
//    beam-spindle plane drawn twice more at radius +- thickness/2 when the sphere has a
//    thickness (dispersion and divergence);
//  - the incident beam from the sphere's centre -k0 through the origin, the rotation axis
//    through the origin, the detector's outline on the sphere;
//  - highlights: the hovered node (a green halo), the pinned pixel's ray from the centre to its
//    sphere point S (red) and the node nearest S (a white halo).

#include "compute/plan/EwaldScene.h"
#include "render/scene/SceneDrawing.h"

#include <glm/vec3.hpp>

#include <cstddef>
#include <optional>

namespace bv::scene {

struct SceneHighlights {
    std::optional<std::size_t> hoveredNode; // index into scene.nodes
    std::optional<glm::dvec3> pinnedPoint;  // the pinned pixel's sphere point S (1/Angstrom)
    std::optional<std::size_t> pinnedNode;  // the node nearest S
    bool operator==(const SceneHighlights& o) const;
    bool operator!=(const SceneHighlights& o) const { return !(*this == o); }
};

// Colours the view uses; the tests look for them in screenshots.
struct SceneColours {
    static constexpr float inReach[4] = {1.0f, 0.62f, 0.12f, 1.0f};
    static constexpr float farNode[4] = {0.45f, 0.58f, 0.95f, 0.35f};
    static constexpr float sphere[4] = {0.35f, 0.85f, 1.0f, 0.35f};
    static constexpr float beam[4] = {1.0f, 1.0f, 0.85f, 0.9f};
    static constexpr float spindle[4] = {0.4f, 0.95f, 0.4f, 0.8f};
    static constexpr float detector[4] = {0.95f, 0.45f, 0.95f, 0.9f};
    static constexpr float ray[4] = {1.0f, 0.25f, 0.25f, 1.0f};
    static constexpr float hovered[4] = {0.3f, 1.0f, 0.45f, 0.6f};
    static constexpr float pinnedNode[4] = {1.0f, 1.0f, 1.0f, 0.7f};
};

// The ball that holds the sphere and the nodes: where the camera looks and how far it backs off.
struct SceneBounds {
    glm::dvec3 centre{0.0};
    double radius = 1.0;
};
SceneBounds sceneBounds(const plan::EwaldScene& scene);
// The ball that holds the spots' part of the construction: the origin and the detector's
// outline on the sphere (the cap where nodes become spots), for a close look that a lecture
// room can read; the whole scene when there is no outline.
SceneBounds spotBounds(const plan::EwaldScene& scene);

// 0..1: 1 on the sphere, 0.5 at the edge of the node's reach, towards 0 beyond (a Gaussian in
// excitation / reach, so a node in reach stands out against its neighbours).
double closeness(const plan::ReciprocalNode& node);
// How strongly a node is drawn, 0..1: 1 in reach (a spot), closeness squared beyond, so a
// crystal's broad reach still shows which nodes make spots and which only come near.
double emphasis(const plan::ReciprocalNode& node);

// Readable at a lesson's size (a dock a few hundred pixels wide), where a protein lattice's
// tens of thousands of nodes once merged into one solid blob:
//  - only the nodes near the sphere are drawn: those in reach, and those within
//    kShellSpacings lattice spacings of the sphere, fading towards that edge. The nodes deep
//    inside or far outside say nothing about the image, and seen through the lattice's depth
//    they are what covered everything; the ones near the sphere are the ones a change of
//    wavelength or phi brings into reach, the lessons' point.
//  - the nodes' dots are at most kDotsPerSpacing of their spacing on screen (nodeScale, from
//    the camera's zoom, applied on the GPU), so neighbours stay apart however far the view is
//    zoomed out; the highlights keep their size.
inline constexpr double kShellSpacings = 2.5;
inline constexpr double kDotsPerSpacing = 0.6;
inline constexpr double kLargestNodeDot = 7.5; // drawNodes' largest diameter, logical pixels
inline constexpr double kSmallestNodeScale = 0.2;

// The distance between neighbouring nodes: the shortest of |a*|, |b*|, |c*| (1/Angstrom);
// 0 when the scene has no lattice axes.
double latticeSpacing(const plan::EwaldScene& scene);
// Whether the drawing shows a node (in reach, or near the sphere as above); every node when
// the scene has no lattice spacing.
bool nodeShown(const plan::EwaldScene& scene, const plan::ReciprocalNode& node);
// The factor on the nodes' dot sizes for a view of `pixelsPerUnit` logical pixels per
// 1/Angstrom (OrbitCamera::pixelsPerUnit over the device pixel ratio): the largest dot at
// most kDotsPerSpacing of the spacing, never larger than drawn, at least kSmallestNodeScale.
double nodeScale(const plan::EwaldScene& scene, double pixelsPerUnit);

// The drawing of `scene` with `highlights`; generation is left 0 for the caller to set.
SceneDrawing drawScene(const plan::EwaldScene& scene, const SceneHighlights& highlights);

} // namespace bv::scene
