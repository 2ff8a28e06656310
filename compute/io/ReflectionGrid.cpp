#include "compute/io/ReflectionGrid.h"

#include "compute/io/GridLimits.h"
#include "compute/io/PrintfFormat.h"
#include "compute/core/Error.h"

#include <algorithm>

namespace bv::io {

StructureFactors reflectionGrid(const std::string& path, const std::vector<Reflection>& reflections,
                                double defaultF) {
    if (reflections.empty())
        throw Error(path + ": no reflections found");

    StructureFactors sf;
    sf.hMin = sf.hMax = reflections.front().h;
    sf.kMin = sf.kMax = reflections.front().k;
    sf.lMin = sf.lMax = reflections.front().l;
    for (const Reflection& r : reflections) {
        sf.hMin = std::min(sf.hMin, r.h), sf.hMax = std::max(sf.hMax, r.h);
        sf.kMin = std::min(sf.kMin, r.k), sf.kMax = std::max(sf.kMax, r.k);
        sf.lMin = std::min(sf.lMin, r.l), sf.lMax = std::max(sf.lMax, r.l);
    }
    checkGridRanges(path, sf.hMin, sf.hMax, sf.kMin, sf.kMax, sf.lMin, sf.lMax);
    // a few reflections far apart would span a grid of gigabytes (and an Fdump.bin as big):
    // real tables are dense (P1.hkl fills its grid, a sparse one a third of it)
    const double gridPoints = static_cast<double>(sf.hMax - sf.hMin + 1) *
                              static_cast<double>(sf.kMax - sf.kMin + 1) *
                              static_cast<double>(sf.lMax - sf.lMin + 1);
    if (gridPoints > double(1 << 22) && gridPoints > 64.0 * static_cast<double>(reflections.size()))
        throw Error(path + ": " + std::to_string(reflections.size()) +
                    " reflections spread over a grid of " + formatG(gridPoints) +
                    " points (h " + std::to_string(sf.hMin) + ".." + std::to_string(sf.hMax) +
                    ", k " + std::to_string(sf.kMin) + ".." + std::to_string(sf.kMax) + ", l " +
                    std::to_string(sf.lMin) + ".." + std::to_string(sf.lMax) +
                    "): is an index wrong?");

    sf.defaultF = defaultF;
    sf.F.assign(static_cast<std::size_t>(sf.hCount()) * static_cast<std::size_t>(sf.kCount()) *
                    static_cast<std::size_t>(sf.lCount()),
                defaultF);
    for (const Reflection& r : reflections)
        sf.F[sf.index(r.h, r.k, r.l)] = r.F;
    sf.reflectionCount = reflections.size();
    return sf;
}

} // namespace bv::io
