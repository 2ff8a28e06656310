#pragma once
// The counter-based noise generator (-noise_generator counter): Philox4x32-10 (Salmon, Moraes,
// Dror & Shaw, SC'11) keyed by (seed, frame) and counted by pixel, and Poisson deviates drawn
// from it, so that a pixel's deviate depends on (seed, frame, pixel, mean) alone: the same on
// any device, any number of GPUs and threads, in any order. It is NOT the reference's
// sequence (ReferenceRandom.h); shaders/counter_random.glsl is the same arithmetic on the GPU
// and gives the same bits. See docs/numerics/counter-noise.md.
//
//     const bv::random::CounterKey key = bv::random::counterKey(-123, 0); // -seed 123, frame 0
//     float photons = bv::random::counterPoisson(42.5f, key, pixelIndex);
//     std::vector<float> all = bv::random::counterPoissonImage(image, key);
//
// Every floating-point step is a correctly rounded IEEE operation (+, -, *, comparisons,
// conversions) in a fixed order; division, sqrt, log and exp are built from them here, because
// Vulkan lets a driver's own division, sqrt, log and exp be a few ulp off. The target is
// compiled with -ffp-contract=off and the shader marks its values precise, so no a*b+c is
// fused on either side.

#include <array>
#include <cstdint>
#include <vector>

namespace bv::random {

using PhiloxCounter = std::array<std::uint32_t, 4>;
using PhiloxKey = std::array<std::uint32_t, 2>;

// Philox4x32 with 10 rounds: four 32-bit words out of a 128-bit counter and a 64-bit key.
PhiloxCounter philox4x32(PhiloxCounter counter, PhiloxKey key);

// The key of one image's noise: the run's seed variable (Experiment::seed, the reference's
// negated -seed) as 32 bits, and the frame (0 for a single image; a series' or job's frame
// index).
struct CounterKey {
    std::uint32_t seed = 0;
    std::uint32_t frame = 0;
};
CounterKey counterKey(long seed, std::uint32_t frame);

// One Poisson deviate of mean `mean` for pixel `pixel` (fast-major index of the image), as a
// float holding a whole number. Mean below 10: multiplication of uniforms (exact); 10 to 2^24:
// Hormann's transformed rejection PTRS (exact up to float rounding); 2^24 and above: the
// nearest integer to mean + sqrt(mean) z, z normal. A mean <= 0 or NaN gives 0, +inf gives
// +inf.
float counterPoisson(float mean, CounterKey key, std::uint32_t pixel);

// counterPoisson for every pixel of `means` (pixel = index), split over `threads` threads
// (0: the hardware's); the result does not depend on the count.
std::vector<float> counterPoissonImage(const std::vector<float>& means, CounterKey key,
                                       int threads = 1);

// The building blocks, exposed for their tests: uniform in (0, 1) from a 32-bit word (24 bits,
// odd multiples of 2^-24), and the correctly-rounded-operations-only functions.
float counterUniform(std::uint32_t word);
float deterministicReciprocal(float x); // x > 0, normal
float deterministicSqrt(float x);       // x > 0, normal
float deterministicLog(float x);        // x > 0, normal
float deterministicExp(float x);        // -87 < x <= 0

} // namespace bv::random
