#pragma once
// What the parameter table's actions work on (internal to compute/request and the parser of
// compute/cli): the request being filled and the detector sizes that are only settled after
// the last option.

#include "compute/request/RunRequest.h"
#include "compute/request/FlagValues.h"
#include "compute/request/Parameters.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace bv::request {

struct ParseContext {
    explicit ParseContext(RunRequest& filled) : request(filled) {}

    RunRequest& request;
    // pixel counts as given (-detpixels*, an -img/-mask header); 0: not given, the size
    // in mm decides (the reference's "fill in blanks")
    int fastPixels = 0, slowPixels = 0;
    // -roi as given; a negative bound means "the detector's edge"
    std::optional<std::array<int, 4>> roi;
    // the -mask image's size, to check against the final detector
    int maskWidth = 0, maskHeight = 0;
    // -distance was given (a close distance, if any, still decides: nanoBragg's rule)
    bool distanceGiven = false;
    // -experiment's scan (DIALS image numbers, first image's start and width per image, rad),
    // for a -frame after it; and the wavelength its crystal's matrix carries, for a -lambda or
    // -energy after it (the cell stays the file's)
    struct ExperimentScan {
        long long firstImage = 1, lastImage = 1;
        double start = 0.0, width = 0.0;
    };
    std::optional<ExperimentScan> experimentScan;
    std::optional<double> experimentMatrixWavelength; // m
};

} // namespace bv::request
