#pragma once
// Text HKL files: one reflection per line, "h k l F" (Miller indices and the structure-factor
// amplitude |F|, whitespace separated; blank lines allowed), as nanoBragg's -hkl reads them.
//
//     std::ostringstream warnings;
//     bv::StructureFactors sf = bv::io::readHkl("P1.hkl", /*defaultF=*/0.0, warnings);
//     sf.amplitude(1, 2, 3);
//
// The grid spans the smallest and largest listed index on each axis; points the file does
// not list hold defaultF; a reflection listed twice keeps its last value; reflectionCount
// is the number of reflection lines.

#include "compute/model/StructureFactors.h"

#include <iosfwd>
#include <string>

namespace bv::io {

// A non-integer index is a warning on `log` ("WARNING: non-integer value for h (1.5) at
// line 7", line numbers 1-based) and is replaced by the nearest integer (halves away from
// zero). Everything else wrong throws bv::Error "<path>:<line>: ..." (or "<path>: ..." for the
// whole file): not exactly 4 numbers on a line, a token that is not a number, NaN or
// infinity, a missing/unreadable file or a directory, no reflections at all, or index
// ranges needing more than kMaxGridPoints grid points.
StructureFactors readHkl(const std::string& path, double defaultF, std::ostream& log);

} // namespace bv::io
