#pragma once
// A guard shared by the structure-factor readers: an HKL file or Fdump header whose index
// ranges would need an absurd grid (a typo, or a file that is not what it claims) must be
// refused with a message, not answered with a multi-gigabyte allocation.

#include <cstdint>
#include <string>

namespace bv::io {

// Largest structure-factor grid accepted: 2^28 points = 2 GiB of doubles.
inline constexpr std::int64_t kMaxGridPoints = std::int64_t(1) << 28;

// Throws bv::Error "<where>: ..." unless min <= max on every axis and the grid
// (hMax-hMin+1)(kMax-kMin+1)(lMax-lMin+1) has at most kMaxGridPoints points.
void checkGridRanges(const std::string& where, std::int64_t hMin, std::int64_t hMax,
                     std::int64_t kMin, std::int64_t kMax, std::int64_t lMin, std::int64_t lMax);

} // namespace bv::io
