#pragma once
// nanoBragg's -noisefile pixels (nanoBragg.c:3231-3257): every ROI pixel replaced by a
// Poisson deviate of its expected photon count, plus the ADC pedestal, clipped at 65535.
//
//     bv::random::ReferenceRandom rng;
//     long seed = -123; // -seed 123
//     auto noise = bv::io::noiseImage(rng, seed, image, width, height, 40.0, roi);
//     // "%.0f photons on noise image (%d overloads)", noise.photons, noise.overloads

#include "compute/io/Roi.h"
#include "compute/random/ReferenceRandom.h"

#include <cstdint>
#include <vector>

namespace bv::io {

struct NoiseImage {
    std::vector<std::uint16_t> data; // fast-major; 0 outside the ROI
    double photons = 0.0;            // sum of the Poisson deviates (before the pedestal)
    int overloads = 0;               // pixels clipped at 65535
};

// Draws one deviate per ROI pixel, slow index outer, fast inner (the reference's order:
// the same seed gives the same image). The deviate's mean is the pixel's float value; the
// pixel is the deviate + adcOffset, clipped at 65535 and truncated to an integer.
// Throws bv::Error when image does not hold width*height pixels.
NoiseImage noiseImage(random::ReferenceRandom& rng, long& seed, const std::vector<float>& image,
                      int width, int height, double adcOffset, const Roi& roi);
// The same pixels from deviates drawn beforehand, one per pixel (-noise_generator counter:
// random::counterPoissonImage or engine::CounterNoise); pixels outside the ROI are 0 whatever
// their deviate. Throws bv::Error when deviates does not hold width*height values.
NoiseImage noiseImage(const std::vector<float>& deviates, int width, int height, double adcOffset,
                      const Roi& roi);

} // namespace bv::io
