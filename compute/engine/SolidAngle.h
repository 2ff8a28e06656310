#pragma once
// The sum the reference prints as "solid angle subtended by detector": the pixel solid angle
// omega added up over every simulated pixel, sensor layer and sub-pixel, with the same
// "last value" rule as the image (omega is computed on first need in each pixel, every time
// with -oversample_omega). Computed on the CPU in double: it does not depend on the crystal.
// Each detector row is summed in the reference's order and the rows are then added in order,
// so the result does not depend on how many threads share the rows (up to 16, as the
// hardware has them: a 4096^2 detector is 16 million square roots and three divisions each).

#include "compute/plan/Plan.h"

namespace bv::engine {

// Sum of omega (steradian) over the ROI's unmasked pixels, layers and sub-pixels. The
// reference prints it divided by the plan's steps (and as a percentage of 4 pi).
double solidAngleSum(const plan::Plan& plan);

} // namespace bv::engine
