#pragma once
// Which file holds a request's structure factors and how it is read: nanoBragg's -hkl text,
// or, through gemmi, -mtz, -sfcif and -model (compute/io/StructureFactorFiles.h). All four
// name RunRequest::hkl (the last one given wins, as a repeated -hkl does), so the cache it
// writes, the files a run reads and a batch's shared inputs treat them alike.

#include "compute/request/RunRequest.h"

#include <iosfwd>
#include <optional>
#include <string>

namespace bv::request {

// "-hkl", "-mtz", "-sfcif" or "-model": the option that named request.hkl
const char* structureFactorOption(const RunRequest& request);

// A session file's name of a format ("text", "mtz", "cif", "model") and back (nullopt: none)
const char* hklFormatName(RunRequest::HklFormat format);
std::optional<RunRequest::HklFormat> hklFormatFromName(const std::string& name);

// Throws bv::Error for -sf_column without -mtz or -sfcif, and -model_dmin without -model.
void checkStructureFactorOptions(const RunRequest& request);

// Reads request.hkl as its format says, with -sf_column and -model_dmin (checked as above).
// Throws bv::Error: the io reader's "<path>: ...".
StructureFactors readStructureFactors(const RunRequest& request, double defaultF,
                                      std::ostream& log);

// The resolution at the detector's farthest corner from the beam, in m, for the shortest
// wavelength of the beam (lambda0 less half the -dispersion, or a -sourcefile's shortest):
// -model's default limit is 95% of it, a margin for the mosaic spread, divergence and the
// interpolation's neighbours. A detector of panels counts every panel's corners.
double detectorCornerResolution(const Experiment& experiment);

} // namespace bv::request
