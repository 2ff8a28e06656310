#include "compute/io/NoiseImage.h"

#include "compute/io/ImageSize.h"

namespace bv::io {

namespace {

// The one path of the noise image: `deviate(i)` is pixel i's Poisson deviate, asked for in the
// reference's order (slow outer, fast inner, ROI pixels only), so that the reference's serial
// generator can be drawn inside it.
template <class Deviate>
NoiseImage makeNoiseImage(Deviate&& deviate, std::size_t pixels, int width, int height,
                          double adcOffset, const Roi& roi) {
    checkImageSize(pixels, width, height, "noise image");
    NoiseImage noise;
    noise.data.assign(pixels, 0);
    for (int slow = 0; slow < height; ++slow)
        for (int fast = 0; fast < width; ++fast) {
            if (!roi.contains(fast, slow))
                continue;
            const std::size_t i = pixelIndex(fast, slow, width);
            double value = deviate(i);
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

} // namespace

NoiseImage noiseImage(random::ReferenceRandom& rng, long& seed, const std::vector<float>& image,
                      int width, int height, double adcOffset, const Roi& roi) {
    return makeNoiseImage(
        [&](std::size_t i) { return static_cast<double>(rng.poisson(image[i], seed)); },
        image.size(), width, height, adcOffset, roi);
}

NoiseImage noiseImage(const std::vector<float>& deviates, int width, int height, double adcOffset,
                      const Roi& roi) {
    return makeNoiseImage([&](std::size_t i) { return static_cast<double>(deviates[i]); },
                          deviates.size(), width, height, adcOffset, roi);
}

} // namespace bv::io
