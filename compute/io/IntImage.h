#pragma once
// nanoBragg's -intfile pixels (nanoBragg.c:3135-3157): the float image scaled, offset by the
// ADC pedestal, clipped to [0, 65535] and rounded to unsigned 16-bit integers.
//
//     double scale = bv::io::intImageScale(requested, stats.maxI); // "intfile_scale = %g"
//     auto pixels = bv::io::intImage(image, width, height, scale, 40.0, roi);
//     bv::io::writeSmv("int.img", header, pixels);

#include "compute/io/Roi.h"

#include <cstdint>
#include <vector>

namespace bv::io {

// The -scale rule: a requested scale > 0 is kept; otherwise 55000/maxI when maxI > 0, else 1.
// maxI is the image maximum over the simulated (ROI, unmasked) pixels, ImageStatistics::maxI.
double intImageScale(double requestedScale, double maxI);

// pixel = floorf(value*scale + adcOffset + 0.5) after clipping value*scale + adcOffset to
// [0, 65535] (the sum rounded to float before floorf, as the reference calls floorf);
// pixels outside `roi` are 0. `image` holds width*height floats, fast index fastest.
// Throws bv::Error when the image size does not match.
std::vector<std::uint16_t> intImage(const std::vector<float>& image, int width, int height,
                                    double scale, double adcOffset, const Roi& roi);

} // namespace bv::io
