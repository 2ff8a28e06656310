#include "compute/io/ImageStatistics.h"

#include "compute/io/ImageSize.h"
#include "compute/io/PrintfFormat.h"
#include "compute/core/Error.h"

#include <cmath>

namespace bv::io {

ImageStatistics statistics(const std::vector<float>& image, int width, int height, const Roi& roi,
                           const std::vector<std::uint16_t>& mask, double pixelSize,
                           int oversample) {
    checkImageSize(image.size(), width, height, "image statistics");
    if (!mask.empty())
        checkImageSize(mask.size(), width, height, "image statistics: mask");
    if (oversample < 1)
        throw Error("image statistics: oversample is " + std::to_string(oversample) +
                    ", expected at least 1");

    const double subpixel = pixelSize / oversample;
    ImageStatistics stats;
    double sum = 0.0, sumSquares = 0.0;
    long n = 0;
    for (int slow = 0; slow < height; ++slow)
        for (int fast = 0; fast < width; ++fast) {
            if (!roi.contains(fast, slow))
                continue;
            const std::size_t i = pixelIndex(fast, slow, width);
            if (!mask.empty() && mask[i] == 0)
                continue;
            const float value = image[i];
            if (value > stats.maxI) {
                stats.maxI = value;
                stats.maxFast = subpixel * (fast * oversample + oversample - 1) + subpixel / 2.0;
                stats.maxSlow = subpixel * (slow * oversample + oversample - 1) + subpixel / 2.0;
            }
            sum += value;
            // the reference squares in float (float*float) and sums in double
            const float square = value * value;
            sumSquares += square;
            ++n;
        }
    stats.count = n;
    stats.mean = sum / static_cast<double>(n <= 0 ? 1 : n);
    stats.rms = std::sqrt(sumSquares / static_cast<double>((n <= 1 ? 2 : n) - 1));

    double sumDeviations = 0.0;
    long all = 0;
    for (int slow = 0; slow < height; ++slow)
        for (int fast = 0; fast < width; ++fast) {
            if (!roi.contains(fast, slow))
                continue;
            const double deviation =
                static_cast<double>(image[pixelIndex(fast, slow, width)]) - stats.mean;
            sumDeviations += deviation * deviation;
            ++all;
        }
    stats.rmsd = std::sqrt(sumDeviations / static_cast<double>((all <= 1 ? 2 : all) - 1));
    return stats;
}

std::string formatStatistics(const ImageStatistics& stats) {
    return "max_I = " + formatG(stats.maxI) + "  at " + formatG(stats.maxFast) + " " +
           formatG(stats.maxSlow) + "\nmean= " + formatG(stats.mean) +
           " rms= " + formatG(stats.rms) + " rmsd= " + formatG(stats.rmsd) + "\n";
}

} // namespace bv::io
