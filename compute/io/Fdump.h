#pragma once
// nanoBragg's structure-factor cache "Fdump.bin" (written after every HKL read, read back
// when no -hkl is given), byte for byte:
//
//   text   "hMin hMax kMin kMax lMin lMax\n\f"   (printf "%d %d %d %d %d %d\n\f")
//   binary (hCount+1) * (kCount+1) * (lCount+1) doubles in the host's byte order, h slowest,
//          l fastest: each (h,k) row holds lCount+1 values. The last h plane, the last k row
//          of every plane and the last value of every row are padding (written as 0): the
//          reference allocates one more than each range and writes the whole allocation.
//
// The file does not record defaultF: the caller sets it (nanoBragg's -default_F applies
// only outside the grid when the table comes from Fdump.bin).

#include "compute/model/StructureFactors.h"

#include <string>

namespace bv::io {

// Writes sf's grid (which must not be empty) atomically. Throws bv::Error on I/O failure.
void writeFdump(const std::string& path, const StructureFactors& sf);

// Reads the grid back without its padding; reflectionCount = hCount*kCount*lCount as in the
// reference, defaultF = 0. Throws bv::Error "<path>: ..." for a missing file, a header that
// is not six integers and a form feed, absurd ranges, a truncated or overlong data block,
// or values that are not finite numbers.
StructureFactors readFdump(const std::string& path);

} // namespace bv::io
