#include "compute/io/GridLimits.h"

#include "compute/core/Error.h"

namespace bv::io {

namespace {

std::string range(const char* name, std::int64_t lo, std::int64_t hi) {
    return std::string(name) + " [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

} // namespace

void checkGridRanges(const std::string& where, std::int64_t hMin, std::int64_t hMax,
                     std::int64_t kMin, std::int64_t kMax, std::int64_t lMin, std::int64_t lMax) {
    const std::string ranges =
        range("h", hMin, hMax) + ", " + range("k", kMin, kMax) + ", " + range("l", lMin, lMax);
    if (hMax < hMin || kMax < kMin || lMax < lMin)
        throw Error(where + ": empty index range (" + ranges +
                    "): each minimum must not exceed "
                    "its maximum");
    // each count is checked before the product so that nothing overflows
    const std::int64_t hCount = hMax - hMin + 1;
    const std::int64_t kCount = kMax - kMin + 1;
    const std::int64_t lCount = lMax - lMin + 1;
    const bool tooBig = hCount > kMaxGridPoints || kCount > kMaxGridPoints ||
                        lCount > kMaxGridPoints || hCount * kCount > kMaxGridPoints ||
                        hCount * kCount * lCount > kMaxGridPoints;
    if (tooBig)
        throw Error(where + ": index ranges " + ranges +
                    " would need a structure-factor grid of more than " +
                    std::to_string(kMaxGridPoints) +
                    " points; expected Miller indices of a real crystal");
}

} // namespace bv::io
