#pragma once
// The pixels a run leaves out, for the display (drawn in the masked colour) and the histogram
// (not counted): one byte per pixel, non-zero where the simulation skips the pixel (masked,
// or outside the region of interest); empty when none is skipped.

#include "compute/model/Resolve.h"

#include <cstdint>
#include <vector>

namespace bv::app {

std::vector<std::uint8_t> skippedPixels(const ResolvedExperiment& resolved,
                                        const std::vector<std::uint16_t>& mask, int fast,
                                        int slow);

} // namespace bv::app
