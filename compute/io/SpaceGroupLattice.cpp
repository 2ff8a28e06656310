#include "compute/io/SpaceGroupLattice.h"

#include "compute/core/Error.h"

#include <gemmi/symmetry.hpp>


namespace bv::io {

const char* SpaceGroupLattice::systemName() const {
    switch (system) {
    case LatticeSystem::Triclinic: return "triclinic";
    case LatticeSystem::Monoclinic: return "monoclinic";
    case LatticeSystem::Orthorhombic: return "orthorhombic";
    case LatticeSystem::Tetragonal: return "tetragonal";
    case LatticeSystem::Hexagonal: return "hexagonal";
    case LatticeSystem::Rhombohedral: return "rhombohedral";
    case LatticeSystem::Cubic: return "cubic";
    }
    return "";
}

std::optional<SpaceGroupLattice> spaceGroupLattice(const std::string& hallSymbol) {
    gemmi::GroupOps ops;
    try {
        ops = gemmi::symops_from_hall(hallSymbol.c_str());
    } catch (const std::exception& e) {
        throw Error("space group Hall symbol \"" + hallSymbol + "\": " + e.what());
    }
    const gemmi::SpaceGroup* group = gemmi::find_spacegroup_by_ops(ops);
    if (!group)
        return std::nullopt;
    SpaceGroupLattice lattice;
    lattice.name = group->hm;
    switch (group->crystal_system()) {
    case gemmi::CrystalSystem::Triclinic: lattice.system = LatticeSystem::Triclinic; break;
    case gemmi::CrystalSystem::Monoclinic: {
        lattice.system = LatticeSystem::Monoclinic;
        // gemmi's qualifier names the unique axis of a monoclinic setting ("b", "-c", "b1")
        for (std::size_t i = 0; i < sizeof group->qualifier && group->qualifier[i]; ++i)
            if (group->qualifier[i] >= 'a' && group->qualifier[i] <= 'c') {
                lattice.uniqueAxis = group->qualifier[i] - 'a';
                break;
            }
        break;
    }
    case gemmi::CrystalSystem::Orthorhombic: lattice.system = LatticeSystem::Orthorhombic; break;
    case gemmi::CrystalSystem::Tetragonal: lattice.system = LatticeSystem::Tetragonal; break;
    case gemmi::CrystalSystem::Trigonal:
        lattice.system = group->ext == 'R' ? LatticeSystem::Rhombohedral : LatticeSystem::Hexagonal;
        break;
    case gemmi::CrystalSystem::Hexagonal: lattice.system = LatticeSystem::Hexagonal; break;
    case gemmi::CrystalSystem::Cubic: lattice.system = LatticeSystem::Cubic; break;
    }
    return lattice;
}

} // namespace bv::io
