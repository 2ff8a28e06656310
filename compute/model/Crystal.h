#pragma once
// The nanocrystal: unit cell (direct parameters or a MOSFLM orientation matrix), its
// orientation (misset), size in unit cells, the lattice-transform shape model, mosaicity
// and the spindle rotation. Cell vectors are derived by resolve().

#include "compute/model/Sweep.h"

#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

#include <cmath>
#include <optional>
#include <string>

namespace bv {

// The angle at which each phi step is sampled: its start (nanoBragg: phi0 + t * step) or its
// centre (phi0 + (t + 1/2) * step, the midpoint rule of an even rotation).
enum class PhiSampling { StepStart, StepCentre };

struct UnitCell {
    double a = 0, b = 0, c = 0;             // Angstrom (the reference works in A until the end)
    double alpha = 0, beta = 0, gamma = 0;  // rad; 0 means 90 degrees
};

// Whether three cell angles (rad; 0 means 90 degrees, as in UnitCell) close a cell: the
// volume is abc times the root of 1 - cos^2 alpha - cos^2 beta - cos^2 gamma
// + 2 cos alpha cos beta cos gamma, which must be positive. That also says each angle is less
// than the sum of the other two and all three less than 360 degrees. The reference, given
// angles that fail it, prints an "impossible" or "oddball" warning and renders an arbitrary
// cell. A square root below 1e-6 (angles within about 1e-6 rad of a flat cell, such as 60 60
// 120, which rounding can leave a hair above 0) counts as flat.
inline double cellVolumeFraction(double alpha, double beta, double gamma) {
    auto cosine = [](double angle) { return angle == 0.0 ? 0.0 : std::cos(angle); };
    const double ca = cosine(alpha), cb = cosine(beta), cc = cosine(gamma);
    const double squared = 1.0 - ca * ca - cb * cb - cc * cc + 2.0 * ca * cb * cc;
    return squared > 0.0 ? std::sqrt(squared) : 0.0;
}
inline bool anglesFormCell(double alpha, double beta, double gamma) {
    return cellVolumeFraction(alpha, beta, gamma) > 1e-6;
}
// The same for three cell vectors (a MOSFLM matrix's a*, b*, c*): their triple product over
// the product of their lengths is that root.
inline bool vectorsFormCell(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c) {
    const double lengths = glm::length(a) * glm::length(b) * glm::length(c);
    return lengths > 0.0 && std::fabs(glm::dot(a, glm::cross(b, c))) > 1e-6 * lengths;
}

enum class LatticeShape { Square, Round, Gauss, Tophat };

enum class MissetKind { None, Angles, Random };

struct Crystal {
    std::optional<UnitCell> cell;
    // MOSFLM A matrix as read: rows x, y, z; columns a*, b*, c*; times the wavelength
    std::optional<glm::dmat3> mosflmMatrix;

    MissetKind misset = MissetKind::None;
    glm::dvec3 missetAngles{0.0};  // rad, about x, then y, then z
    std::optional<long> missetSeed; // the reference's seed variable (negative of -misset_seed);
                                    // unset: the time-based run seed

    glm::dvec3 cells{1.0, 1.0, 1.0}; // Na, Nb, Nc
    glm::dvec3 sampleSize{0.0};      // m along a, b, c; > 0 replaces the cell count

    LatticeShape shape = LatticeShape::Square;
    double fudge = 1.0;

    // The space group by its Hall symbol (a DIALS crystal's space_group_hall_symbol), which
    // constrains the cell a refinement may move; "" when not known
    std::string spaceGroupHall;

    std::optional<double> mosaicSpread; // rad
    std::optional<int> mosaicDomains;
    long mosaicSeed = -12345678;

    double phi0 = 0.0;  // rad
    SweepRequest phi;   // oscillation range (rad), phi step (rad), phi steps
    // where in each phi step the crystal is taken (-phi_sampling): unset is nanoBragg's
    // start of the step; a fit of a measured frame takes the centre (docs/numerics/fit-sampling.md)
    std::optional<PhiSampling> phiSampling;
};

} // namespace bv
