#pragma once
// Structure-factor amplitudes |F(hkl)| of the unit cell on a dense integer grid, as the
// reference keeps them: every index inside [hMin,hMax]x[kMin,kMax]x[lMin,lMax] has a value
// (those missing from the HKL file hold defaultF), everything outside the grid is defaultF.

#include <cstddef>
#include <optional>
#include <vector>

namespace bv {

enum class Interpolation { Auto, Nearest, Tricubic };

// What tricubic interpolation does where a step's 4x4x4 neighbourhood of grid points is not all
// on the grid. Reference: as nanoBragg, that step and every later one in its serial loop order
// (pixels row by row, then layers, sub-pixels, sources, phi steps, mosaic domains) take the
// nearest grid value: interpolation is off for the rest of the image. Local: only the steps
// whose neighbourhood leaves the grid take the nearest value (docs/reference-quirks.md).
enum class InterpolationEdge { Reference, Local };

struct StructureFactors {
    int hMin = 0, hMax = -1;
    int kMin = 0, kMax = -1;
    int lMin = 0, lMax = -1;
    // F, h slowest and l fastest: index ((h-hMin)*kCount() + (k-kMin))*lCount() + (l-lMin)
    std::vector<double> F;
    // value for every hkl not on the grid (and, when an HKL file is read, for grid points it
    // does not list). nanoBragg's -default_F.
    double defaultF = 0.0;
    // number of reflections the grid was built from: lines read from an HKL file, or the
    // grid size for a table read from Fdump.bin. 0 means "no table": every F is defaultF.
    std::size_t reflectionCount = 0;

    int hCount() const { return hMax - hMin + 1; }
    int kCount() const { return kMax - kMin + 1; }
    int lCount() const { return lMax - lMin + 1; }
    bool hasTable() const { return reflectionCount > 0 && !F.empty(); }

    bool contains(int h, int k, int l) const {
        return h >= hMin && h <= hMax && k >= kMin && k <= kMax && l >= lMin && l <= lMax;
    }
    std::size_t index(int h, int k, int l) const {
        return (static_cast<std::size_t>(h - hMin) * static_cast<std::size_t>(kCount()) +
                static_cast<std::size_t>(k - kMin)) *
                   static_cast<std::size_t>(lCount()) +
               static_cast<std::size_t>(l - lMin);
    }
    // nearest-neighbour lookup with nanoBragg's rule: on the grid the table, else defaultF
    double amplitude(int h, int k, int l) const {
        return hasTable() && contains(h, k, l) ? F[index(h, k, l)] : defaultF;
    }
};

} // namespace bv
