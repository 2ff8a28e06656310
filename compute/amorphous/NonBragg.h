#pragma once
// braggview --headless --nonbragg ARGS: the reference's nonBragg program (bl831/nanoBragg
// nonBragg.c), its command line and its four files (float image, int image, PGM, noise
// image), the amorphous image computed on the CPU with threads (compute/amorphous/
// AmorphousImage.h). docs/amorphous.md describes it; docs/reference-quirks.md where it departs.
#include <ostream>
#include <string>
#include <vector>

namespace bv::amorphous {

// Prints the reference's summary lines to `out`; throws bv::Error on bad input, before any
// file is written (the files are staged and renamed together at the end).
int runNonBragg(const std::vector<std::string>& args, std::ostream& out);

} // namespace bv::amorphous
