#pragma once
// nonBragg's interpolation of F(sin(theta)/lambda): the table padded with two points far
// below (F of the first point) and two far above (F of the last), then the 4-point Lagrange
// cubic through the points k-1..k+2, where k is the last point at or below the argument
// (nonBragg.c polint; the reference finds k by walking from the last pixel's k, which gives the
// same k for a strictly increasing table: docs/amorphous.md).
#include "compute/io/StolFile.h"

#include <vector>

namespace bv::amorphous {

class StolSpline {
  public:
    StolSpline() = default;
    // stol values multiplied by `multiplier` (1e10: 1/Angstrom -> 1/m)
    StolSpline(const io::StolTable& table, double multiplier);
    // F at sin(theta)/lambda `stol` (1/m, >= 0)
    double operator()(double stol) const;
    // k, the last point at or below stol, at least 1 (where the reference's walk ends; the
    // padding far above keeps it at most size - 3): the cubic runs through k-1..k+2
    std::size_t below(double stol) const;
    std::size_t points() const { return m_x.size(); } // padded, as the reference counts
    // the padded points (what the GPU pass uploads)
    const std::vector<double>& x() const { return m_x; }
    const std::vector<double>& y() const { return m_y; }

  private:
    std::vector<double> m_x, m_y;
};

} // namespace bv::amorphous
