#include "compute/random/CounterRandom.h"

#include "compute/core/HostThreads.h"

#include <algorithm>
#include <cmath>
#include <cstring>

// Mirrored line for line by shaders/counter_random.glsl: a change here is a change there, and
// tests/engine/tst_counternoise.cpp compares the two bit for bit. Constants are written as the
// 9-digit decimal of their float value, so that C++ and glslang (which reads a literal as a
// double first) both land on the same float.

namespace bv::random {

namespace {

// Philox4x32's multipliers and Weyl key increments (Salmon et al. 2011, section 4.2)
constexpr std::uint32_t kMultiplier0 = 0xD2511F53u;
constexpr std::uint32_t kMultiplier1 = 0xCD9E8D57u;
constexpr std::uint32_t kWeyl0 = 0x9E3779B9u; // golden ratio
constexpr std::uint32_t kWeyl1 = 0xBB67AE85u; // sqrt(3) - 1
// the fourth counter word: which quantity a stream draws (a later use takes another tag)
constexpr std::uint32_t kNoiseStream = 0x6E6F6973u; // "nois"

float bitsToFloat(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

std::uint32_t floatToBits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

// A pixel's uniforms: Philox blocks (pixel, block, 0, "nois") taken four words at a time.
class PixelStream {
  public:
    PixelStream(CounterKey key, std::uint32_t pixel) : m_key{key.seed, key.frame}, m_pixel(pixel) {}
    float uniform() {
        if (m_used == 4) {
            m_words = philox4x32({m_pixel, m_block++, 0u, kNoiseStream}, m_key);
            m_used = 0;
        }
        return counterUniform(m_words[static_cast<std::size_t>(m_used++)]);
    }

  private:
    PhiloxKey m_key;
    std::uint32_t m_pixel;
    std::uint32_t m_block = 0;
    PhiloxCounter m_words{};
    int m_used = 4;
};

float divide(float a, float b) {
    return a * deterministicReciprocal(b);
}

// lgamma(n + 1) - (n + 1/2) log n + n - log(2 pi)/2 for n = 1..15 (Stirling's error, from
// double precision lgamma; Loader 2000 tabulates the same quantity)
constexpr float kStirlingError[16] = {
    0.0f,           0.0810614675f,  0.0413406976f,  0.0276779253f,  0.0207906719f,  0.016644692f,
    0.0138761289f,  0.0118967099f,  0.0104112653f,  0.00925546233f, 0.00833056308f, 0.00757367536f,
    0.00694284029f, 0.00640899409f, 0.00595137011f, 0.00555473333f};

float stirlingError(std::int32_t n) {
    if (n <= 15)
        return kStirlingError[n];
    // 1/(12n) - 1/(360n^3) + 1/(1260n^5): below 1e-10 error from n = 16
    const float r = deterministicReciprocal(static_cast<float>(n));
    const float r2 = r * r;
    return r * (0.0833333358f - r2 * (0.00277777785f - r2 * 0.000793650805f));
}

// k log(k / mean) + mean - k without cancellation (Loader 2000, "bd0"): the series in
// v = (k - mean)/(k + mean) when k is near the mean. `delta` is k - mean computed exactly
// enough by the caller.
float deviance(std::int32_t k, float mean, float delta) {
    const float kf = static_cast<float>(k);
    const float sum = kf + mean;
    if (std::fabs(delta) < 0.1f * sum) {
        constexpr float kOddReciprocal[11] = {
            1.0f,          0.333333343f,  0.200000003f,  0.142857149f,  0.111111112f, 0.0909090936f,
            0.0769230798f, 0.0666666701f, 0.0588235296f, 0.0526315793f, 0.0476190485f};
        float v = divide(delta, sum);
        float s = delta * v;
        float term = 2.0f * kf * v;
        const float v2 = v * v;
        for (int j = 1; j <= 10; ++j) {
            term = term * v2;
            const float next = s + term * kOddReciprocal[j];
            if (next == s)
                break;
            s = next;
        }
        return s;
    }
    return kf * deterministicLog(divide(kf, mean)) + (mean - kf);
}

// log of the Poisson probability of k at `mean`, k >= 0 (Loader's saddle-point form, stable
// in float where k log(mean) - mean - lgamma(k + 1) would lose everything to cancellation)
float logPoissonProbability(std::int32_t k, float mean, float delta) {
    if (k == 0)
        return -mean;
    const float kf = static_cast<float>(k);
    return ((-stirlingError(k) - deviance(k, mean, delta)) - 0.5f * deterministicLog(kf)) -
           0.918938518f; // log(2 pi) / 2
}

constexpr int kMaxDraws = 1000; // a bound for the GPU's loops; never reached in practice

// Mean below 10: count uniforms until their product falls to exp(-mean) (Knuth's algorithm
// as the reference's poidev runs it: k + 1 uniforms for a deviate k).
float multiplication(float mean, PixelStream& stream) {
    const float threshold = deterministicExp(-mean);
    float product = stream.uniform();
    int k = 0;
    while (product > threshold && k < kMaxDraws) {
        ++k;
        product = product * stream.uniform();
    }
    return static_cast<float>(k);
}

// Mean 10 to 2^24: PTRS, W. Hormann, "The transformed rejection method for generating Poisson
// random variables", Insurance: Mathematics and Economics 12 (1993) 39-45, with its constants.
float transformedRejection(float mean, PixelStream& stream) {
    const float wholeMean = std::floor(mean);
    const auto wholeMeanI = static_cast<std::int32_t>(wholeMean);
    const float fractionMean = mean - wholeMean; // exact
    const float rootMean = deterministicSqrt(mean);
    const float b = 0.930999994f + 2.52999997f * rootMean;
    const float a = -0.0590000004f + 0.0248300005f * b;
    const float inverseAlpha = 1.12390006f + divide(1.13279998f, b - 3.4000001f);
    const float vr = 0.927699983f - divide(3.62240005f, b - 2.0f);
    for (int draw = 0; draw < kMaxDraws; ++draw) {
        const float u = stream.uniform() - 0.5f; // exact
        const float v = stream.uniform();
        const float us = 0.5f - std::fabs(u); // exact, >= 2^-24
        // k = floor((2a/us + b) u + mean + 0.43), with the mean's whole part added as an
        // integer so that float rounding at large means cannot move k
        const float offset = ((divide(2.0f * a, us) + b) * u + 0.430000007f) + fractionMean;
        if (offset < -mean - 1.0f || offset > 1.0e9f)
            continue; // k < 0, or so far out that the density there is 0 in float
        const std::int32_t k = wholeMeanI + static_cast<std::int32_t>(std::floor(offset));
        if (us >= 0.0700000003f && v <= vr)
            return static_cast<float>(k);
        if (k < 0 || (us < 0.0130000003f && v > us))
            continue;
        const float delta = static_cast<float>(k - wholeMeanI) - fractionMean;
        const float lhs = (deterministicLog(v) + deterministicLog(inverseAlpha)) -
                          deterministicLog(divide(a, us * us) + b);
        if (lhs <= logPoissonProbability(k, mean, delta))
            return static_cast<float>(k);
    }
    return wholeMean;
}

// Mean 2^24 and above: mean + sqrt(mean) z rounded, z from the polar Box-Muller method. The
// Poisson's skewness there is below 2.5e-4, so the normal is within that of it (the
// reference switches at 1e6 and returns the unrounded value).
float normalApproximation(float mean, PixelStream& stream) {
    if (!(mean < 3.40282347e+38f))
        return mean; // +inf
    for (int draw = 0; draw < kMaxDraws; ++draw) {
        const float x = 2.0f * stream.uniform() - 1.0f; // exact
        const float y = 2.0f * stream.uniform() - 1.0f;
        const float r2 = x * x + y * y;
        if (r2 >= 1.0f)
            continue;
        const float z = x * deterministicSqrt(divide(-2.0f * deterministicLog(r2), r2));
        return std::floor(mean + deterministicSqrt(mean) * z + 0.5f);
    }
    return mean;
}

} // namespace

PhiloxCounter philox4x32(PhiloxCounter c, PhiloxKey key) {
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            key[0] += kWeyl0;
            key[1] += kWeyl1;
        }
        const std::uint64_t p0 = std::uint64_t{kMultiplier0} * c[0];
        const std::uint64_t p1 = std::uint64_t{kMultiplier1} * c[2];
        const auto hi0 = static_cast<std::uint32_t>(p0 >> 32), lo0 = static_cast<std::uint32_t>(p0);
        const auto hi1 = static_cast<std::uint32_t>(p1 >> 32), lo1 = static_cast<std::uint32_t>(p1);
        c = {hi1 ^ c[1] ^ key[0], lo1, hi0 ^ c[3] ^ key[1], lo0};
    }
    return c;
}

CounterKey counterKey(long seed, std::uint32_t frame) {
    return {static_cast<std::uint32_t>(static_cast<std::uint64_t>(seed) & 0xffffffffu), frame};
}

float counterUniform(std::uint32_t word) {
    // an odd multiple of 2^-24 below 1: exact in float, never 0 or 1
    return static_cast<float>((word >> 8) | 1u) * 5.96046448e-08f;
}

float deterministicReciprocal(float x) {
    // a first guess from the bits (within 12 %), then four Newton steps y (2 - x y), each
    // squaring the error
    float y = bitsToFloat(0x7EF311C3u - floatToBits(x));
    for (int i = 0; i < 4; ++i)
        y = y * (2.0f - x * y);
    return y;
}

float deterministicSqrt(float x) {
    // 1/sqrt(x) from the bits, four Newton steps y (3/2 - x/2 y^2), then x / sqrt(x)
    const float half = 0.5f * x;
    float y = bitsToFloat(0x5F3759DFu - (floatToBits(x) >> 1));
    for (int i = 0; i < 4; ++i)
        y = y * (1.5f - (half * y) * y);
    return x * y;
}

float deterministicLog(float x) {
    // x = 2^e m with m in [sqrt(1/2), sqrt(2)); log m = 2 atanh(t), t = (m - 1)/(m + 1),
    // |t| < 0.172, by its odd series to t^11 (error below 2e-10)
    const std::uint32_t bits = floatToBits(x);
    auto e = static_cast<std::int32_t>(bits >> 23) - 127;
    float m = bitsToFloat((bits & 0x007FFFFFu) | 0x3F800000u);
    if (m > 1.41421354f) {
        m = 0.5f * m;
        ++e;
    }
    const float f = m - 1.0f; // exact
    const float t = f * deterministicReciprocal(2.0f + f);
    const float t2 = t * t;
    const float series =
        t2 * (0.333333343f +
              t2 * (0.200000003f + t2 * (0.142857149f + t2 * (0.111111112f + t2 * 0.0909090936f))));
    const float logM = 2.0f * t + (2.0f * t) * series;
    const auto ef = static_cast<float>(e);
    // log 2 in two parts: e * hi is exact for |e| < 256
    return ef * 0.693145752f + (logM + ef * 1.42860677e-06f);
}

float deterministicExp(float x) {
    // x = n log 2 + r, |r| <= log(2)/2; exp r by its Taylor series to r^7 (error below 1e-8);
    // times 2^n exactly
    const float n = std::floor(x * 1.44269502f + 0.5f);
    const float r = (x - n * 0.693145752f) - n * 1.42860677e-06f;
    const float p =
        1.0f +
        r * (1.0f + r * (0.5f + r * (0.166666672f +
                                     r * (0.0416666679f +
                                          r * (0.00833333377f +
                                               r * (0.00138888892f + r * 0.000198412701f))))));
    const auto scale = static_cast<std::uint32_t>(static_cast<std::int32_t>(n) + 127) << 23;
    return p * bitsToFloat(scale);
}

float counterPoisson(float mean, CounterKey key, std::uint32_t pixel) {
    if (!(mean > 0.0f))
        return 0.0f;
    PixelStream stream(key, pixel);
    if (mean < 10.0f)
        return multiplication(mean, stream);
    if (mean < 16777216.0f)
        return transformedRejection(mean, stream);
    return normalApproximation(mean, stream);
}

std::vector<float> counterPoissonImage(const std::vector<float>& means, CounterKey key,
                                       int threads) {
    std::vector<float> deviates(means.size());
    // a pixel's deviate is keyed by its index alone: any thread may draw it
    forEachOnHostThreads(
        means.size(),
        [&](std::size_t i) {
            deviates[i] = counterPoisson(means[i], key, static_cast<std::uint32_t>(i));
        },
        static_cast<unsigned>(std::max(threads, 0)), 4096);
    return deviates;
}

} // namespace bv::random
