#pragma once
// What a simulation renders of its image: nanoBragg's -mask (an image whose 0 pixels are not
// rendered) and -roi. Elsewhere the simulated image is 0, drawn in the viewer's masked colour,
// left out of its histogram, and a measured frame compared or fitted with it has no data
// (io::readMeasuredImageFor).

#include "compute/model/Roi.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace bv {

struct RenderedArea {
    std::vector<std::uint16_t> mask; // fast-major, 0 = not rendered; empty (or of another
                                     // size than the image): every pixel
    std::optional<Roi> roi;          // nullopt: the whole image
};

// One byte per pixel of a fast x slow image, non-zero where the simulation skips it; empty
// when it skips none.
std::vector<std::uint8_t> skippedPixels(const RenderedArea& area, int fast, int slow);

} // namespace bv
