#pragma once
// The lattice a space group imposes on its cell, from the group's Hall symbol (a DIALS
// crystal's space_group_hall_symbol), through gemmi's table of settings: which cell
// parameters are free and which are tied (docs/refinement.md, "The cell").
//
//   triclinic      a, b, c, alpha, beta, gamma
//   monoclinic     a, b, c and the angle at the unique axis (beta for b)
//   orthorhombic   a, b, c                      angles 90
//   tetragonal     a, c                         b = a, angles 90
//   hexagonal      a, c                         b = a, alpha = beta = 90, gamma = 120
//                  (trigonal groups on hexagonal axes too)
//   rhombohedral   a, alpha                     b = c = a, beta = gamma = alpha
//                  (trigonal R groups on rhombohedral axes)
//   cubic          a                            b = c = a, angles 90

#include <optional>
#include <string>

namespace bv::io {

enum class LatticeSystem {
    Triclinic, Monoclinic, Orthorhombic, Tetragonal, Hexagonal, Rhombohedral, Cubic
};

struct SpaceGroupLattice {
    LatticeSystem system = LatticeSystem::Triclinic;
    int uniqueAxis = 1;      // monoclinic: 0 a, 1 b, 2 c
    std::string name;        // the group's Hermann-Mauguin symbol, "P 41 21 2"
    const char* systemName() const;
};

// Throws bv::Error for a Hall symbol gemmi cannot read; nullopt for a group in a setting that
// gemmi's table does not list (its lattice is then not known here).
std::optional<SpaceGroupLattice> spaceGroupLattice(const std::string& hallSymbol);

} // namespace bv::io
