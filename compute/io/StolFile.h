#pragma once
// Amorphous-material scattering curves (".stol" files), as nonBragg's -stol reads them
// (bl831/nanoBragg nonBragg.c, read_text_file): one point per line,
//
//   stol F
//
// sin(theta)/lambda (1/Angstrom; -4stol and -Q files carry 4*stol and Q in the first column,
// the caller scales) and the structure factor of one molecule (electrons). Fields are separated
// by any of " \t,;:!"; columns after the second are ignored (nanoice.stol has a third). Blank
// lines and lines starting with '#' are skipped (the reference reads a '#' line as a point
// (0, 0): docs/reference-quirks.md).
//
// Refused, with "<name>:<line>: ..." (nothing is simulated, no file written): a token that is
// not a finite number (nan, inf, text), a line with one number, a negative first column, a
// first column that does not increase strictly from line to line (the reference's spline then
// divides by zero or picks the wrong neighbours), and fewer than two points.
#include <string>
#include <string_view>
#include <vector>

namespace bv::io {

struct StolTable {
    std::vector<double> stol; // first column as written, strictly increasing, >= 0
    std::vector<double> F;    // second column (negative allowed: the reference keeps its sign)
};

// `name` is what messages call the text (a path, or "water (built in)").
StolTable parseStolText(std::string_view text, const std::string& name);
// Reads the file whole; throws bv::Error for an unreadable file and everything above.
StolTable readStolFile(const std::string& path);

} // namespace bv::io
