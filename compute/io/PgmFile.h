#pragma once
// nanoBragg's -pgmfile (nanoBragg.c:3189-3224): an 8-bit binary portable greymap of the
// float image for a quick look,
//
//   "P5\n<width> <height>\n# pixels scaled by <scale %g>\n255\n" then width*height bytes
//
// pixel = min(255, value*scale) truncated to an integer; pixels outside the ROI are 0.

#include "compute/io/Roi.h"

#include <string>
#include <vector>

namespace bv::io {

class AtomicFile;

// The -pgmscale rule: a requested scale > 0 is kept; otherwise the int image's scale,
// replaced by 250/(5*rmsd) when rmsd > 0 (ImageStatistics::rmsd): 5 sigma is white.
double pgmScale(double requestedScale, double intImageScale, double rmsd);

// Writes the greymap atomically. Negative values become 0 (the reference's cast of a
// negative double to unsigned char is undefined). Throws bv::Error when image does not hold
// width*height pixels and on I/O failure.
void writePgm(const std::string& path, int width, int height, const std::vector<float>& image,
              double scale, const Roi& roi);
// The same bytes into a file the caller commits (several outputs renamed together).
void writePgm(AtomicFile& file, int width, int height, const std::vector<float>& image,
              double scale, const Roi& roi);

} // namespace bv::io
