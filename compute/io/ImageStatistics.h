#pragma once
// The summary nanoBragg prints after a simulation (nanoBragg.c:3042-3049, 3095-3134):
//
//   max_I = 154.652  at 0.00645 0.00645
//   mean= 6.85209 rms= 21.8441 rmsd= 20.7415
//
// reproduced from the float image, so a GPU run reports what the reference would.

#include "compute/io/Roi.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bv::io {

struct ImageStatistics {
    // largest pixel value (photons), 0 when no pixel exceeds 0; the first such pixel in
    // slow-then-fast order wins
    double maxI = 0.0;
    // detector position of that maximum in meters, as the reference reports it: the centre of
    // the LAST sub-pixel the simulation visited in that pixel,
    // subpixel*(pixel*oversample + oversample-1) + subpixel/2, subpixel = pixelSize/oversample
    double maxFast = 0.0;
    double maxSlow = 0.0;
    double mean = 0.0; // over unmasked ROI pixels
    double rms = 0.0;  // sqrt(sum of squares / (n-1)) over unmasked ROI pixels
    double rmsd = 0.0; // sqrt(sum of (value-mean)^2 / (n-1)) over ALL ROI pixels, masked too
    long count = 0;    // n: unmasked ROI pixels
};

// `mask` is empty or holds width*height values, 0 marking a pixel the simulation skipped
// (nanoBragg's -mask). pixelSize in meters; oversample >= 1 sub-pixels per pixel side.
// The reference's guards for tiny n are kept: the mean divides by max(n,1), rms and rmsd by
// max(n,2)-1. Throws bv::Error for sizes that do not match or a non-positive oversample.
ImageStatistics statistics(const std::vector<float>& image, int width, int height, const Roi& roi,
                           const std::vector<std::uint16_t>& mask, double pixelSize,
                           int oversample);

// The reference's two lines, each ended by "\n":
// "max_I = %g  at %g %g\n" "mean= %g rms= %g rmsd= %g\n"
std::string formatStatistics(const ImageStatistics& stats);

} // namespace bv::io
