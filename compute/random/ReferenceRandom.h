#pragma once
// nanoBragg's random numbers, reproduced draw for draw: the Numerical Recipes ran1 uniform
// generator with its 32-entry shuffle table, and everything the reference draws from it
// (Gaussian and Poisson deviates, mosaic-domain rotations, the random misset). Same seeds,
// same numbers, same call order. See docs/numerics/random-generator.md.
//
// The reference keeps the shuffle table and the deviates' caches in C statics shared by every
// stream. Here that hidden state is an explicit object, ReferenceRandom, that the caller owns:
// one per simulated run reproduces the reference's sequence exactly; a seed (the reference's
// `long idum`) is a separate value passed by reference, as in the original.

#include <array>
#include <vector>
#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

namespace bv::random {

class ReferenceRandom {
public:
    // ran1: uniform deviate in (0, 1), at most 1 - 2^-23 (the reference's cap RNMX as a
    // float). A seed <= 0 (or the first call ever) reloads the shuffle table from -seed (0, and
    // a positive seed on the first call, count as 1) and leaves the seed positive; a positive
    // seed later continues the shared table. Throws bv::Error for |seed| >= 2^31 - 1.
    float uniform(long& seed);
    // gaussdev: unit-variance normal deviate (polar Box-Muller; keeps the spare deviate).
    float gaussian(long& seed);
    // poidev: Poisson deviate of mean `mean` (direct method below 12, rejection above,
    // mean + sqrt(mean)*gaussian above 1e6, which is not a whole number). The argument is a
    // float, as in the reference; like it, no check is made on the mean. A mean <= 0 gives 0,
    // except -1 while the cache still holds its initial "last mean" of -1: the threshold is
    // then the cache's 0 and the product of uniforms runs until it underflows (~100).
    float poisson(float mean, long& seed);

private:
    long m_iy = 0;
    std::array<long, 32> m_iv{};
    // gaussdev's spare deviate
    int m_gaussSpare = 0;
    float m_gaussSpareValue = 0.0f;
    // poidev's cache of the last mean
    float m_poissonSq = 0.0f, m_poissonLogMean = 0.0f, m_poissonG = 0.0f, m_poissonLastMean = -1.0f;
};

// Row-major 3x3 rotation as the reference stores it (umat[0..8]); applying it to a column
// vector v gives (u0*vx+u1*vy+u2*vz, u3*vx+..., u6*vx+...).
using RotationRows = std::array<double, 9>;

// mosaic_rotation_umat: a random rotation whose angle is drawn inside a spherical cap of
// "diameter" `mosaicity` (radians, passed as float like the reference). Three uniform draws.
RotationRows mosaicRotation(ReferenceRandom& rng, float mosaicity, long& seed);

// umat2misset: the x, y, z rotation angles (radians) that reproduce a rotation matrix.
glm::dvec3 rotationToMisset(const RotationRows& u);

// The reference's random orientation for `-misset random`: mosaicRotation with a "cap" of
// 90 (radians, as the reference passes it) then rotationToMisset. Returns angles in radians.
glm::dvec3 randomMisset(ReferenceRandom& rng, long& seed);

// The reference's mosaic domains: `domains` rotations drawn in order with mosaicRotation
// (spread in radians, narrowed to float), the first replaced by the identity after it is drawn
// (its three draws still happen). Throws bv::Error for a negative count; 0 draws nothing.
std::vector<RotationRows> mosaicDomains(ReferenceRandom& rng, double spread, int domains, long& seed);

} // namespace bv::random
