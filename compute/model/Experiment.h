#pragma once
// Everything that defines one simulated image, as the user states it (nanoBragg's command
// line, the viewer's panels, a session file). SI units, double precision. What follows from
// it by the reference's rules (detector position, cell vectors, sources, steps) is computed
// by resolve() in Resolve.h, never stored here twice.

#include "compute/model/BackgroundAndResponse.h"
#include "compute/model/Beam.h"
#include "compute/model/Convention.h"
#include "compute/model/Crystal.h"
#include "compute/model/Detector.h"
#include "compute/model/Roi.h"
#include "compute/model/StructureFactors.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace bv {

struct Sampling {
    std::optional<int> oversample; // sub-pixels per pixel edge; nullopt: from the crystal size
    bool oversampleThick = false;  // recompute sensor absorption for every sub-pixel
    bool oversamplePolar = false;  // ... the polarization factor
    bool oversampleOmega = false;  // ... the pixel solid angle
    std::optional<Roi> roi;        // nullopt: the whole detector
    double dmin = 0.0;             // m; skip scattering to resolution finer than this (0: off)
    Interpolation interpolation = Interpolation::Auto;
    InterpolationEdge interpolationEdge = InterpolationEdge::Reference;
};

struct Experiment {
    Convention convention = Convention::Mosflm;
    LabAxes customAxes; // the laboratory frame when convention is Custom
    Beam beam;
    Detector detector;
    Crystal crystal;
    Sampling sampling;
    StructureFactors structureFactors;
    double waterThickness = 0.0; // m of water around the crystal (background)
    BackgroundRequest background; // -background: an amorphous layer (braggview's own)
    ResponseRequest response;     // -response_*: the detector's response (braggview's own)
    // mask image (fast-major, detector size): pixels that are 0 are not rendered
    std::vector<std::uint16_t> mask;
    // the reference's run seed (-seed N gives -N); seeds the noise image and, unless
    // -misset_seed is given, the random misset
    long seed = -1;

    // the frame in use: a named convention's, or the user's custom vectors
    LabAxes axes() const { return convention == Convention::Custom ? customAxes : conventionAxes(convention); }
    // the pivot in use: a named convention imposes its own, CUSTOM follows the user
    Pivot effectivePivot() const { return conventionPivot(convention).value_or(detector.pivot); }
};

} // namespace bv
