#pragma once
// nonBragg's pixel loop on the CPU: for every pixel of the region of interest, the sub-pixels
// and sources, the scattering angle's sin(theta)/lambda, F from the .stol spline, the
// polarization and solid angle, summed as the reference sums them (double precision, its
// order of operations), then photons = sum * r_e^2 * fluence * molecules / steps, stored as
// float. Rows are shared out over threads; a pixel's value does not depend on how many.
#include "compute/amorphous/NonBraggSetup.h"

#include <vector>

namespace bv::amorphous {

struct AmorphousImage {
    std::vector<float> pixels; // fast-major, 0 outside the region of interest
    double omegaSum = 0.0;     // the solid angle of every sub-pixel computed (steradian)
};

// threads: 0 = the hardware's
AmorphousImage renderAmorphous(const NonBraggSetup& setup, int threads = 0);

// What the reference's loop variables hold after a pixel: its last sub-pixel's solid angle,
// and the last source's sin(theta)/lambda (1/m), F and polarization factor.
struct LastStep {
    double omega = 0.0, stol = 0.0, F = 0.0, polar = 1.0;
};
LastStep lastStep(const NonBraggSetup& setup, int fpixel, int spixel);

} // namespace bv::amorphous
