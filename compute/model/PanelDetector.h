#pragma once
// A detector made of flat panels (compute/model/Panel.h), after dxtbx's Detector: Eiger and
// Pilatus modules with their gaps, a Jungfrau, a CSPAD or ePix10k's tiles, or nanoBragg's one
// flat panel. Vectors in the simulator's laboratory frame, lengths in metres.
//
// Why not bv::Detector: that name already belongs to nanoBragg's detector options
// (compute/model/Detector.h: a size, a beam centre, rotations), which resolve() turns into
// one panel; singlePanelDetector() below turns that into this model.
//
//     bv::PanelDetector d = bv::singlePanelDetector(resolved); // today's detector, one panel
//     bv::validatePanels(d, "-detector eiger2-16m");            // throws bv::Error
//     for (const bv::Panel& p : d.panels) ...
//
// This is the model the readers fill (presets, DIALS .expt, CrystFEL .geom, sessions);
// resolve() places it as PanelGeometry (compute/model/PanelPlacement.h).

#include "compute/model/Panel.h"
#include "compute/model/PhysicalLimits.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace bv {

struct ResolvedExperiment;

struct PanelDetector {
    std::vector<Panel> panels;

    long long pixelCount() const;
    const Panel* find(const std::string& name) const; // nullptr when no panel has that name
};

// Limits a panel must keep (beyond them a file is garbage, not an unusual detector): the
// flat detector's (compute/model/PhysicalLimits.h), so that a file cannot ask for what
// -detpixels may not.
inline constexpr int kMaxPanelPixels = kMaxPixelsPerSide; // per axis
inline constexpr int kMaxPanels = 4096; // a Jungfrau 16M split per chip has 256

// Two axes count as orthogonal when the cosine of their angle is at most this: 1e-3 (0.06
// degrees) accepts axes written with four decimals ("+0.0012x +1.0000y") and refuses any
// real shear. Axes are unit vectors within kUnitTolerance (readers normalise them).
inline constexpr double kOrthogonalityTolerance = 1e-3;
inline constexpr double kUnitTolerance = 1e-9;

// What is wrong with one panel on its own, in words ("the fast axis is zero"), or nullopt:
// axes zero, not unit or not orthogonal, pixel sizes or counts not positive or out of
// range (more than kMaxPanelPixels along an axis or kMaxImagePixels in all), a non-finite
// origin or sensor value. Readers prefix it with the file and line.
std::optional<std::string> panelProblem(const Panel& panel);

// What is wrong with a detector of `count` panels, in words, or nullopt: none, or more than
// kMaxPanels (readers ask it while they read, before the panels are whole).
std::optional<std::string> panelCountProblem(std::size_t count);

// What is wrong with the image of these panels stacked (the widest panel's width times all
// their rows), in words, or nullopt: more than kMaxImagePixels, as for the flat detector.
std::optional<std::string> stackedImageProblem(const std::vector<Panel>& panels);

// Every panel's panelProblem(), empty or duplicate names, the count of panels, the stacked
// image's size, and panels that overlap (overlapProblem()). Throws bv::Error "<where>: ...".
void validatePanels(const PanelDetector& detector, const std::string& where);

// Whether two panels' pixel areas intersect, in words, or nullopt. The test: the two
// rectangles are coplanar (normals parallel within 1e-6 in cosine, every corner of one
// within 1 um of the other's plane) and their areas overlap by more than 1 % of a pixel
// across every edge (separating axes: each rectangle's two axes). Panels that only touch
// along an edge do not overlap. Panels in different planes are not compared (one may
// shadow the other, as a CrystFEL coffset does; that is geometry, not an error).
std::optional<std::string> overlapProblem(const Panel& a, const Panel& b);

// Today's detector as one panel: pix0, fdet, sdet, the pixel size and counts of resolve(),
// with the sensor thickness and mu when given. A curved detector (-curved_det) has no flat
// panel: bv::Error.
PanelDetector singlePanelDetector(const ResolvedExperiment& resolved);

} // namespace bv
