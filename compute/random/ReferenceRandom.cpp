#include "compute/random/ReferenceRandom.h"

#include "compute/core/Error.h"

#include <cmath>
#include <cstddef>
#include <string>

// Every expression below keeps the reference's float/double split on purpose: a float operand
// times a float operand is a float product (C's usual arithmetic conversions, FLT_EVAL_METHOD 0),
// a C library call such as log() or sqrt() is the double version even on a float argument, and
// powf() is the float version. C++ overloads would silently pick logf/sqrtf for a float
// argument, so every libm call here casts its argument to the precision the reference used.
// The target is compiled with -ffp-contract=off so that no a*b+c becomes a fused multiply-add.

namespace bv::random {

namespace {

// Park & Miller's "minimal standard" multiplicative congruential generator,
// x' = 16807 x mod (2^31 - 1), evaluated with Schrage's factorisation m = a q + r so that
// no intermediate product leaves 32 bits.
constexpr long kMultiplier = 16807;        // a = 7^5
constexpr long kModulus = 2147483647;      // m = 2^31 - 1
constexpr long kSchrageQ = 127773;         // q = m / a
constexpr long kSchrageR = 2836;           // r = m % a
constexpr int kTableSize = 32;             // Bays-Durham shuffle table length
constexpr long kBucket = 1 + (kModulus - 1) / kTableSize; // 67108864: maps a draw to a slot
constexpr double kScale = 1.0 / static_cast<double>(kModulus);
constexpr double kLargestUniform = 1.0 - 1.2e-7; // the cap that keeps ran1 below 1
constexpr double kPi = 3.14159265358979323846;   // M_PI, spelled out (not in ISO C++17)

long minimalStandardStep(long x)
{
    const long k = x / kSchrageQ;
    x = kMultiplier * (x - k * kSchrageQ) - kSchrageR * k;
    if (x < 0)
        x += kModulus;
    return x;
}

// Numerical Recipes' log Gamma (Lanczos series, 6 terms): float in, float out, double inside.
float logGamma(float xx)
{
    static constexpr double kCoefficients[6] = {76.18009172947146,     -86.50532032941677,
                                                24.01409824083091,     -1.231739572450155,
                                                0.1208650973866179e-2, -0.5395239384953e-5};
    const double x = static_cast<double>(xx);
    double y = x;
    double tmp = x + 5.5;
    tmp -= (x + 0.5) * std::log(tmp);
    double series = 1.000000000190015;
    for (const double c : kCoefficients) {
        y += 1.0;
        series += c / y;
    }
    return static_cast<float>(-tmp + std::log(2.5066282746310005 * series / x));
}

// One draw on [-1, 1), in double, from a float uniform deviate.
double signedUniform(ReferenceRandom& rng, long& seed)
{
    return 2.0 * static_cast<double>(rng.uniform(seed)) - 1.0;
}

// Row norms are sqrt(x*x + y*y + z*z) summed left to right, as the reference writes them.
double rowNorm(const glm::dvec3& v)
{
    return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
}

// v / |v| component by component (a division, not a multiplication by 1/|v|), or v itself
// when its length is zero.
glm::dvec3 normalisedOrSelf(const glm::dvec3& v, double norm)
{
    return norm > 0.0 ? glm::dvec3(v.x / norm, v.y / norm, v.z / norm) : v;
}

glm::dvec3 normalisedOrSelf(const glm::dvec3& v)
{
    return normalisedOrSelf(v, rowNorm(v));
}

// a x b with each component's two products subtracted in the reference's order.
glm::dvec3 crossProduct(const glm::dvec3& a, const glm::dvec3& b)
{
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

} // namespace

float ReferenceRandom::uniform(long& seed)
{
    // Valid seeds have magnitude below m = 2^31 - 1. Magnitude m maps to 0, a fixed point (the
    // reference then returns 0 forever); larger ones make Schrage's step leave [0, m), put
    // negative values in the table and index it out of bounds (undefined in the reference,
    // which only ever gets int seeds from -atoi or -time).
    if (seed <= -kModulus || seed >= kModulus)
        throw Error("random seed " + std::to_string(seed) + ": expected a seed between " +
                    std::to_string(-(kModulus - 1)) + " and " + std::to_string(kModulus - 1));
    if (seed <= 0 || m_iy == 0) {
        // (Re)load the shuffle table. A negative seed starts from its magnitude; zero, and a
        // positive seed on the very first call, start from 1 (the reference tests -seed < 1).
        seed = (-seed < 1) ? 1 : -seed;
        // Eight warm-up steps are discarded, then the table is filled from its last slot down.
        for (int j = kTableSize + 7; j >= 0; --j) {
            seed = minimalStandardStep(seed);
            if (j < kTableSize)
                m_iv[static_cast<std::size_t>(j)] = seed;
        }
        m_iy = m_iv[0];
    }
    seed = minimalStandardStep(seed);
    // The previous output picks the slot; the slot's old content is this output and the
    // fresh Park-Miller value takes its place.
    const auto slot = static_cast<std::size_t>(m_iy / kBucket);
    m_iy = m_iv[slot];
    m_iv[slot] = seed;
    const float value = static_cast<float>(kScale * static_cast<double>(m_iy));
    return static_cast<double>(value) > kLargestUniform ? static_cast<float>(kLargestUniform)
                                                        : value;
}

float ReferenceRandom::gaussian(long& seed)
{
    if (m_gaussSpare != 0) {
        m_gaussSpare = 0;
        return m_gaussSpareValue;
    }
    // Polar Box-Muller: a point uniform in the unit disc (float coordinates, float radius^2).
    float v1 = 0.0f;
    float v2 = 0.0f;
    float rsq = 0.0f;
    do {
        v1 = static_cast<float>(signedUniform(*this, seed));
        v2 = static_cast<float>(signedUniform(*this, seed));
        rsq = v1 * v1 + v2 * v2;
    } while (rsq >= 1.0f || rsq == 0.0f);
    const double r2 = static_cast<double>(rsq);
    const float factor = static_cast<float>(std::sqrt(-2.0 * std::log(r2) / r2));
    m_gaussSpareValue = v1 * factor;
    m_gaussSpare = 1;
    return v2 * factor;
}

float ReferenceRandom::poisson(float mean, long& seed)
{
    const double meanD = static_cast<double>(mean);
    if (meanD > 1.0e6) {
        // Normal approximation, evaluated in double and returned as float (not an integer).
        return static_cast<float>(meanD + std::sqrt(meanD) * static_cast<double>(gaussian(seed)));
    }

    float count = 0.0f; // the reference's em: a float that holds whole numbers
    float ratio = 0.0f; // the reference's t
    if (meanD < 12.0) {
        // Direct method: count events until the product of uniforms drops to exp(-mean).
        if (mean != m_poissonLastMean) {
            m_poissonLastMean = mean;
            m_poissonG = static_cast<float>(std::exp(-meanD));
        }
        count = -1.0f;
        ratio = 1.0f;
        do {
            count += 1.0f;
            ratio *= uniform(seed);
        } while (ratio > m_poissonG);
        return count;
    }

    // Rejection method with a Lorentzian comparison function.
    if (mean != m_poissonLastMean) {
        m_poissonLastMean = mean;
        m_poissonSq = static_cast<float>(std::sqrt(2.0 * meanD));
        m_poissonLogMean = static_cast<float>(std::log(meanD));
        const float product = mean * m_poissonLogMean; // float product
        m_poissonG = product - logGamma(static_cast<float>(meanD + 1.0));
    }
    do {
        float y = 0.0f;
        do {
            y = static_cast<float>(std::tan(kPi * static_cast<double>(uniform(seed))));
            const float scaled = m_poissonSq * y; // float product, then a float sum
            count = scaled + mean;
        } while (static_cast<double>(count) < 0.0);
        count = static_cast<float>(std::floor(static_cast<double>(count)));
        const float countLogMean = count * m_poissonLogMean;
        const float exponent =
            (countLogMean - logGamma(static_cast<float>(static_cast<double>(count) + 1.0))) -
            m_poissonG;
        const float ySquared = y * y;
        ratio = static_cast<float>(0.9 * (1.0 + static_cast<double>(ySquared)) *
                                   std::exp(static_cast<double>(exponent)));
    } while (uniform(seed) > ratio);
    return count;
}

RotationRows mosaicRotation(ReferenceRandom& rng, float mosaicity, long& seed)
{
    // Three draws, in this order: azimuth of the axis, its z component, and the angle fraction.
    const double r1 = signedUniform(rng, seed);
    const double r2 = signedUniform(rng, seed);
    const double r3 = signedUniform(rng, seed);

    // Axis uniform on the unit sphere: z = r2, azimuth pi*r1 measured from +y towards +x.
    const double xyRadius = std::sqrt(1.0 - r2 * r2);
    const double v1 = xyRadius * std::sin(kPi * r1);
    const double v2 = xyRadius * std::cos(kPi * r1);
    const double v3 = r2;

    // Angle = mosaicity * (1 - r3^2)^(1/3): powf and the product in float, as the reference.
    const float capFraction =
        std::pow(static_cast<float>(1.0 - r3 * r3), static_cast<float>(1.0 / 3.0));
    const float angleF = mosaicity * capFraction;
    const double angle = static_cast<double>(angleF);

    // Rodrigues' formula R = c I + (1 - c) v v^T + s [v]_x, with the products grouped as the
    // reference groups them ((1 - c) v_i first, then times v_j) so that every bit agrees.
    const double c = std::cos(angle);
    const double oneMinusC = 1.0 - c;
    const double s = std::sin(angle);
    const double w1 = oneMinusC * v1;
    const double w1v2 = w1 * v2;
    const double w1v3 = w1 * v3;
    const double w2v3 = oneMinusC * v2 * v3;
    const double s1 = s * v1;
    const double s2 = s * v2;
    const double s3 = s * v3;

    return RotationRows{c + oneMinusC * (v1 * v1), w1v2 - s3, w1v3 + s2,
                        w1v2 + s3, c + oneMinusC * (v2 * v2), w2v3 - s1,
                        w1v3 - s2, w2v3 + s1, c + oneMinusC * (v3 * v3)};
}

glm::dvec3 rotationToMisset(const RotationRows& u)
{
    glm::dvec3 row[3] = {{u[0], u[1], u[2]}, {u[3], u[4], u[5]}, {u[6], u[7], u[8]}};
    const double norm[3] = {rowNorm(row[0]), rowNorm(row[1]), rowNorm(row[2])};
    for (int i = 0; i < 3; ++i)
        row[i] = normalisedOrSelf(row[i], norm[i]);

    // Two zero rows: the reference restores them to the identity's rows (norms are never
    // negative, so "norm <= 0" means "zero" and "norm >= 0" is always true).
    const glm::dvec3 ex(1.0, 0.0, 0.0), ey(0.0, 1.0, 0.0), ez(0.0, 0.0, 1.0);
    const bool zero[3] = {norm[0] <= 0.0, norm[1] <= 0.0, norm[2] <= 0.0};
    if (zero[1] && zero[2]) {
        row[1] = ey;
        row[2] = ez;
    }
    if (zero[0] && zero[2]) {
        row[0] = ex;
        row[2] = ez;
    }
    if (zero[0] && zero[1]) {
        row[0] = ex;
        row[1] = ey;
    }

    // One zero row: replaced by the (unit) cross product of the other two; done twice, each
    // pass computing all three cross products before replacing anything.
    for (int pass = 0; pass < 2; ++pass) {
        const glm::dvec3 xCrossY = normalisedOrSelf(crossProduct(row[0], row[1]));
        const glm::dvec3 yCrossZ = normalisedOrSelf(crossProduct(row[1], row[2]));
        const glm::dvec3 zCrossX = normalisedOrSelf(crossProduct(row[2], row[0]));
        if (zero[0])
            row[0] = yCrossZ;
        if (zero[1])
            row[1] = zCrossX;
        if (zero[2])
            row[2] = xCrossY;
    }
    for (auto& r : row)
        r = normalisedOrSelf(r);

    // R = Rz(rotz) Ry(roty) Rx(rotx): the bottom row is (-sin y, cos y sin x, cos y cos x) and
    // the first column is cos y (cos z, sin z, .).
    const glm::dvec3& x = row[0];
    const glm::dvec3& y = row[1];
    const glm::dvec3& z = row[2];
    if (z.x * z.x < 1.0) {
        return {std::atan2(z.y, z.z), std::atan2(-z.x, std::sqrt(z.y * z.y + z.z * z.z)),
                std::atan2(y.x, x.x)};
    }
    // Gimbal lock (|sin roty| = 1): the reference answers rotx = pi, roty = +pi/2 whatever the
    // sign of sin roty, and takes rotz from the first two rows.
    return {std::atan2(1.0, 1.0) * 4.0, std::atan2(1.0, 1.0) * 2.0, std::atan2(x.y, -y.y)};
}

glm::dvec3 randomMisset(ReferenceRandom& rng, long& seed)
{
    // The reference passes 90.0 as the cap; mosaicRotation takes it as radians, so the
    // angle is 90 (1 - r^2)^(1/3) rad, many turns, not a quarter turn.
    return rotationToMisset(mosaicRotation(rng, 90.0f, seed));
}

std::vector<RotationRows> mosaicDomains(ReferenceRandom& rng, double spread, int domains,
                                        long& seed)
{
    if (domains < 0)
        throw Error("-mosaic_domains: expected a number of mosaic domains >= 0, got " +
                    std::to_string(domains));
    std::vector<RotationRows> rotations;
    rotations.reserve(static_cast<std::size_t>(domains));
    const float spreadF = static_cast<float>(spread); // the reference's float parameter
    for (int i = 0; i < domains; ++i) {
        rotations.push_back(mosaicRotation(rng, spreadF, seed));
        if (i == 0) // drawn, then forced to be the unrotated domain
            rotations.back() = RotationRows{1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0};
    }
    return rotations;
}

} // namespace bv::random
