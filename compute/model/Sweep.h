#pragma once
// A parameter swept in equal steps (phi, divergence, dispersion, sensor depth) and the
// reference's rules for filling in whichever of range, step and count the user left out.
// Each rule set is the reference's own; they differ on purpose (see docs/reference-quirks.md).

#include <optional>

namespace bv {

struct Sweep {
    double range = 0.0; // full width swept, in the parameter's unit
    double step = 0.0;  // spacing between samples
    int steps = 1;      // number of samples
};

// What the user said; nullopt means "choose for me".
struct SweepRequest {
    std::optional<double> range;
    std::optional<double> step;
    std::optional<int> steps;
};

// Beam divergence (horizontal or vertical) and spectral dispersion: samples span the range
// end to end (step = range/(steps-1)); nothing given means one sample, no spread.
Sweep resolveSpreadSweep(const SweepRequest& request);
// Detector sensor layers: a thickness alone gives two layers of half the thickness each.
Sweep resolveThicknessSweep(const SweepRequest& request);
// Spindle rotation: range is the oscillation, samples start at phi0 (step = osc/steps);
// nothing given means a still (one step, no oscillation).
Sweep resolvePhiSweep(const SweepRequest& request);

} // namespace bv
