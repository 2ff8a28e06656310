#pragma once
// braggview --headless --noisify ARGS: the reference's noisify program (bl831/nanoBragg
// noisify.c): a float image (photons/pixel after -scale and -fluence) becomes what a detector
// records: flicker (1/f source noise), a per-pixel calibration error with its own seed, Poisson
// photon counting, the point spread function (Psf.h), gain, ADC offset, readout noise and
// 16- or 32-bit integers, with the reference's generator called in its order, so the same
// seeds give the same integers. Its files: the noiseless int image, a PGM, the noise image.
// docs/detector-response.md; docs/reference-quirks.md for where braggview departs.
#include <ostream>
#include <string>
#include <vector>

namespace bv::detector {

// Prints the reference's summary lines; throws bv::Error on bad input before any file is
// written (the files are staged and renamed together at the end).
int runNoisify(const std::vector<std::string>& args, std::ostream& out);

} // namespace bv::detector
