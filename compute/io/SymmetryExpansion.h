#pragma once
// Internal to the gemmi readers (StructureFactorFiles.h): a list of reflections in any
// setting of a space group -> the same |F| on every symmetry and Friedel mate, in P1.

#include "compute/io/ReflectionGrid.h"

#include <gemmi/symmetry.hpp>

#include <string>
#include <vector>

namespace bv::io {

// Each reflection, then its mates under the group's rotations (the centring translations
// move no index) and their Friedel mates, each index once per reflection.
std::vector<Reflection> expandToP1(const gemmi::SpaceGroup& group,
                                   const std::vector<Reflection>& reflections);

// F from a value of a column: amplitudes as they are (negative or infinite: throws
// bv::Error naming `where`), intensities as sqrt(max(I, 0)) (`negatives` counts I < 0).
double amplitudeOf(double value, bool intensity, const std::string& where, long& negatives);

// The line the readers write to the log: "<path>: <what>, <group>, N reflections, M in P1"
std::string readingSummary(const std::string& path, const std::string& what,
                           const gemmi::SpaceGroup& group, std::size_t listed,
                           std::size_t expanded, long negatives);

} // namespace bv::io
