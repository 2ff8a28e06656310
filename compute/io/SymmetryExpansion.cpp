#include "compute/io/SymmetryExpansion.h"

#include "compute/io/PrintfFormat.h"
#include "compute/core/Error.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace bv::io {

std::vector<Reflection> expandToP1(const gemmi::SpaceGroup& group,
                                   const std::vector<Reflection>& reflections) {
    const gemmi::GroupOps ops = group.operations();
    std::vector<Reflection> expanded;
    expanded.reserve(reflections.size() * ops.sym_ops.size() * 2);
    std::vector<std::array<int, 3>> mates;
    for (const Reflection& r : reflections) {
        mates.clear();
        for (const gemmi::Op& op : ops.sym_ops) {
            const gemmi::Op::Miller m = op.apply_to_hkl({{r.h, r.k, r.l}});
            mates.push_back({m[0], m[1], m[2]});
            mates.push_back({-m[0], -m[1], -m[2]});
        }
        std::sort(mates.begin(), mates.end());
        mates.erase(std::unique(mates.begin(), mates.end()), mates.end());
        for (const auto& m : mates)
            expanded.push_back({m[0], m[1], m[2], r.F});
    }
    return expanded;
}

double amplitudeOf(double value, bool intensity, const std::string& where, long& negatives) {
    if (!std::isfinite(value))
        throw Error(where + ": the value is " + formatG(value) + ", expected a finite number");
    if (intensity) {
        if (value < 0.0) {
            ++negatives;
            return 0.0;
        }
        return std::sqrt(value);
    }
    if (value < 0.0)
        throw Error(where + ": the amplitude is " + formatG(value) +
                    ", expected |F| >= 0 (is the column an amplitude?)");
    return value;
}

std::string readingSummary(const std::string& path, const std::string& what,
                           const gemmi::SpaceGroup& group, std::size_t listed,
                           std::size_t expanded, long negatives) {
    std::string line = path + ": " + what + ", space group " + group.xhm() + ", " +
                       std::to_string(listed) + " reflections, " + std::to_string(expanded) +
                       " in P1 with their Friedel mates";
    if (negatives > 0)
        line += " (" + std::to_string(negatives) + " negative intensities taken as F = 0)";
    return line;
}

} // namespace bv::io
