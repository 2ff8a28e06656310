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
    // the messages made once: a grid can hold tens of millions of points (a large cell to
    // high resolution), and a string built per point made one input a 30 s timeout
    const std::string notFinite = who + "an F is negative or not finite";
    for (double F : sf.F)
        require(std::isfinite(F) && F >= 0.0, notFinite.c_str());
    // Friedel mates hold one value: every point of a grid up to 2^20 of them, of a larger one
    // every n-th point in memory order, so that one input stays well under a second
    const std::string friedel = who + "a Friedel mate differs";
    const std::size_t kCount = static_cast<std::size_t>(sf.kCount());
    const std::size_t lCount = static_cast<std::size_t>(sf.lCount());
    const std::size_t stride = sf.F.size() / (std::size_t(1) << 20) + 1;
    for (std::size_t i = 0; i < sf.F.size(); i += stride) {
        const int h = sf.hMin + static_cast<int>(i / (kCount * lCount));
        const int k = sf.kMin + static_cast<int>((i / lCount) % kCount);
        const int l = sf.lMin + static_cast<int>(i % lCount);
        require(sf.amplitude(h, k, l) == sf.amplitude(-h, -k, -l), friedel.c_str());
    }
    require(!sf.contains(sf.hMin - 1, sf.kMin, sf.lMin) &&
                sf.amplitude(sf.hMin - 1, sf.kMin, sf.lMin) == defaultF,
            (who + "a point outside the grid is not defaultF").c_str());
}

} // namespace bv::fuzz
