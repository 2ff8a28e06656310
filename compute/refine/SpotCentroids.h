#pragma once
// The spots of a simulated image, for a refinement's pixels and its spot RMSD: the pixels
// above 1% of the image's 99.9th percentile (the spots' cores), their connected groups
// (4-neighbours), and the cores grown by 3 pixels (the fit's spot regions, which hold the
// spots' edges and a little background). The percentile and the cores are of the image less
// its smooth background (each 32 x 32 tile's 25th percentile, interpolated between the
// tiles' centres): 0 between the sparse spots of a model without amorphous scattering, and
// the water's or air's where the model has it, which would otherwise put every pixel over
// the threshold and join the spots into one.

#include "compute/io/MeasuredImage.h"

#include <cstdint>
#include <vector>

namespace bv::refine {

struct SpotRegions {
    std::vector<std::uint8_t> grown; // 1: in a spot region
    std::vector<int> label;          // the spot a core pixel belongs to, -1 elsewhere
    int spots = 0;
};

SpotRegions spotRegions(const std::vector<float>& image, int width, int height,
                        const std::vector<std::uint8_t>& hasData);

// The rms distance (pixels) between each spot's centroid in `simulated` and in the measured
// image less `background` (positive parts), over the spots whose measured intensity is
// positive; `count` (if not null) gets their number.
double spotRmsd(const SpotRegions& regions, const std::vector<float>& simulated,
                const io::MeasuredImage& measured, double background, int width,
                std::size_t* count);

} // namespace bv::refine
