#include "compute/io/IntImage.h"

#include "compute/io/ImageSize.h"

#include <cmath>

namespace bv::io {

double intImageScale(double requestedScale, double maxI) {
    if (requestedScale > 0.0)
        return requestedScale;
    return maxI > 0.0 ? 55000.0 / maxI : 1.0;
}

std::vector<std::uint16_t> intImage(const std::vector<float>& image, int width, int height,
                                    double scale, double adcOffset, const Roi& roi) {
    checkImageSize(image.size(), width, height, "integer image");
    std::vector<std::uint16_t> pixels(image.size(), 0);
    for (int slow = 0; slow < height; ++slow)
        for (int fast = 0; fast < width; ++fast) {
            if (!roi.contains(fast, slow))
                continue;
            const std::size_t i = pixelIndex(fast, slow, width);
            double value = static_cast<double>(image[i]) * scale + adcOffset;
            if (value > 65535.0)
                value = 65535.0;
            if (value < 0.0)
                value = 0.0;
            pixels[i] = static_cast<std::uint16_t>(std::floor(static_cast<float>(value + 0.5)));
        }
    return pixels;
}

} // namespace bv::io
