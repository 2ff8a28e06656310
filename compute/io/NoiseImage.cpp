#include "compute/io/NoiseImage.h"

#include "compute/io/ImageSize.h"

namespace bv::io {

NoiseImage noiseImage(random::ReferenceRandom& rng, long& seed, const std::vector<float>& image,
                      int width, int height, double adcOffset, const Roi& roi) {
    checkImageSize(image.size(), width, height, "noise image");
    NoiseImage noise;
    noise.data.assign(image.size(), 0);
    for (int slow = 0; slow < height; ++slow)
        for (int fast = 0; fast < width; ++fast) {
            if (!roi.contains(fast, slow))
                continue;
            const std::size_t i = pixelIndex(fast, slow, width);
            double value = static_cast<double>(rng.poisson(image[i], seed));
            noise.photons += value;
            value += adcOffset;
            if (value > 65535.0) {
                value = 65535.0;
                ++noise.overloads;
            }
            if (value < 0.0)
                value = 0.0; // a negative pedestal; the reference's cast would be undefined
            noise.data[i] = static_cast<std::uint16_t>(value);
        }
    return noise;
}

} // namespace bv::io
