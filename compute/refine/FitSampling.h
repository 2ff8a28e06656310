#pragma once
// How finely a fit samples what a measured frame integrates, where the user did not say:
// the rotation of its oscillation and the crystal's mosaic domains
// (docs/numerics/fit-sampling.md).

#include "compute/model/Resolve.h"

namespace bv::refine {

struct RotationSampling {
    int steps = 0;            // phi steps over the oscillation
    double oscillation = 0.0; // rad
    double crossing = 0.0;    // rad: how long the narrowest reflection takes to cross the sphere
    double resolution = 0.0;  // Angstrom: the detector's highest, where that reflection lies
};

// The phi steps that sample `resolved`'s oscillation at half the angle in which a reflection
// at the detector's highest resolution crosses the Ewald sphere (a crystal of the resolved
// size in cells), never fewer than nanoBragg's two nor more than kMaxRotationSteps.
constexpr int kMaxRotationSteps = 64;
RotationSampling rotationSamplingForFit(const ResolvedExperiment& resolved, double wavelength);

// The mosaic domains of a fit whose crystal has a spread (or fits one) and no -mosaic_domains:
// nanoBragg's 10 random domains leave lumps in each spot's rocking curve that a fit answers by
// moving the distance and the cell along their shared valley.
constexpr int kFitMosaicDomains = 50;

} // namespace bv::refine
