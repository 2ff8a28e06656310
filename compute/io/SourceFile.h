#pragma once
// X-ray source lists, as nanoBragg's -sourcefile reads them (read_text_file, nanoBragg.c:3867):
// one source per line, up to five numbers
//
//   X Y Z weight lambda
//
// separated by any of " \t,;:!" (blank lines skipped). X, Y, Z: position of the source
// relative to the sample, in meters; only the direction counts (the reference normalizes it,
// nanoBragg.c:2427; X-rays travel from there towards the sample). weight: relative intensity
// of the source. lambda: its wavelength in meters. A missing trailing column leaves NaN,
// which the simulator replaces by the reference's defaults (nanoBragg.c:2326): position
// -10 m along the beam, weight 1, lambda the -lambda value. A value written as nan or inf is
// an error (the reference takes a written nan as missing: docs/reference-quirks.md).

#include "compute/model/Beam.h"

#include <string>
#include <vector>

namespace bv::io {

// one line of the file: bv::SourceRecord (compute/model/Beam.h), NaN where a column is missing
using bv::SourceRecord;

// Columns beyond the fifth are ignored, as the reference ignores them. Throws bv::Error
// "<path>:<line>: ..." for a token that is not a finite number, and "<path>: ..."
// for a file without any source or a missing/unreadable file or a directory.
std::vector<SourceRecord> readSourceFile(const std::string& path);

} // namespace bv::io
