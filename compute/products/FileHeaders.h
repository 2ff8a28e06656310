#pragma once
// The headers of the files a simulated image is written to: the reference's SMV header and
// braggview's miniCBF header, from the resolved experiment, and the time stamp a CBF carries.

#include "compute/request/RunRequest.h"
#include "compute/io/CbfImage.h"
#include "compute/io/Smv.h"
#include "compute/model/Resolve.h"

#include <string>

namespace bv::products {

// The reference's SMV header (nanoBragg.c writes the same for the int and noise images).
io::SmvHeader smvHeader(const RunRequest& cl, const ResolvedExperiment& r);

// A miniCBF header with the frame's geometry: pixel size, wavelength, the distance along the
// detector normal, the beam centre (where the direct beam meets the detector), the frame's
// start angle and oscillation, the exposure, flux and sensor thickness. `path` names the CIF
// block; `epochSeconds` is the frame's time stamp (runStartSeconds()).
io::CbfHeader cbfHeader(const ResolvedExperiment& r, const std::string& path, double epochSeconds);

// When the run started, in seconds since 1970: $SOURCE_DATE_EPOCH when set (reproducible
// files), else the clock. Frame i of a series is stamped with it + i exposures.
double runStartSeconds();
// "2026-01-31T12:00:00.000" (UTC), the PILATUS time stamp.
std::string isoTimestamp(double epochSeconds);

} // namespace bv::products
