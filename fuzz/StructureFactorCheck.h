#pragma once
// What every structure-factor reader's table must be (fuzz_hkl's contract, shared by the
// gemmi readers' targets): a non-empty grid of finite values, F.size() matching the ranges,
// defaultF kept and returned off the grid.

#include "FuzzInput.h"

#include "compute/model/StructureFactors.h"

#include <cmath>
#include <string>

namespace bv::fuzz {

inline void checkTable(const StructureFactors& sf, double defaultF, const char* reader) {
    const std::string who = std::string(reader) + ": ";
    require(sf.hCount() > 0 && sf.kCount() > 0 && sf.lCount() > 0, (who + "empty grid").c_str());
    require(sf.F.size() == static_cast<std::size_t>(sf.hCount()) *
                               static_cast<std::size_t>(sf.kCount()) *
                               static_cast<std::size_t>(sf.lCount()),
            (who + "F.size() does not match the index ranges").c_str());
    require(sf.hasTable() && sf.defaultF == defaultF, (who + "no table, or defaultF lost").c_str());
    for (double F : sf.F)
        require(std::isfinite(F) && F >= 0.0, (who + "an F is negative or not finite").c_str());
    // Friedel mates hold one value
    for (int h = sf.hMin; h <= sf.hMax; ++h)
        for (int k = sf.kMin; k <= sf.kMax; ++k)
            for (int l = sf.lMin; l <= sf.lMax; ++l)
                require(sf.amplitude(h, k, l) == sf.amplitude(-h, -k, -l),
                        (who + "a Friedel mate differs").c_str());
    require(!sf.contains(sf.hMin - 1, sf.kMin, sf.lMin) &&
                sf.amplitude(sf.hMin - 1, sf.kMin, sf.lMin) == defaultF,
            (who + "a point outside the grid is not defaultF").c_str());
}

} // namespace bv::fuzz
