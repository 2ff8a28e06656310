#pragma once
// The nanocrystal: unit cell (direct parameters or a MOSFLM orientation matrix), its
// orientation (misset), size in unit cells, the lattice-transform shape model, mosaicity
// and the spindle rotation. Cell vectors are derived by resolve().

#include "compute/model/Sweep.h"

#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>
#include <optional>

namespace bv {

struct UnitCell {
    double a = 0, b = 0, c = 0;             // Angstrom (the reference works in A until the end)
    double alpha = 0, beta = 0, gamma = 0;  // rad; 0 means 90 degrees
};

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

    std::optional<double> mosaicSpread; // rad
    std::optional<int> mosaicDomains;
    long mosaicSeed = -12345678;

    double phi0 = 0.0;  // rad
    SweepRequest phi;   // oscillation range (rad), phi step (rad), phi steps
};

} // namespace bv
