#pragma once
// The dense table of structure factors the engine takes (bv::StructureFactors), made from a
// list of reflections: what -hkl, -mtz, -sfcif and -model all end in.
//
//     std::vector<bv::io::Reflection> list = {{1, 2, 3, 10.0}, {-1, -2, -3, 10.0}};
//     bv::StructureFactors sf = bv::io::reflectionGrid("P1.hkl", list, /*defaultF=*/0.0);
//
// The grid spans the smallest and largest listed index on each axis; points not listed hold
// defaultF; a reflection listed twice keeps its last value; reflectionCount is the length of
// the list (reflections listed twice counted twice, as nanoBragg counts HKL lines).

#include "compute/model/StructureFactors.h"

#include <string>
#include <vector>

namespace bv::io {

struct Reflection {
    int h = 0, k = 0, l = 0;
    double F = 0.0;
};

// Throws bv::Error "<path>: ..." for an empty list, and for indices spread over a grid
// too large to hold (GridLimits.h; a sparse list spread over more than 4M points and 64
// points per reflection is taken for a wrong index).
StructureFactors reflectionGrid(const std::string& path, const std::vector<Reflection>& reflections,
                                double defaultF);

} // namespace bv::io
