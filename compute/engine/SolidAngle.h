#pragma once
// The sum the reference prints as "solid angle subtended by detector": the pixel solid angle
// omega added up over every simulated pixel, sensor layer and sub-pixel, with the same
// "last value" rule as the image (omega is computed on first need in each pixel, every time
// with -oversample_omega). Computed on the CPU in double: it is cheap next to the image and
// does not depend on the crystal.

#include "compute/plan/Plan.h"

namespace bv::engine {

// Sum of omega (steradian) over the ROI's unmasked pixels, layers and sub-pixels. The
// reference prints it divided by the plan's steps (and as a percentage of 4 pi).
double solidAngleSum(const plan::Plan& plan);

} // namespace bv::engine
