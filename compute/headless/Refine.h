#pragma once
// braggview --headless ... -refine GROUPS: the experiment fitted to the measured frame with
// the GPU as the forward model (compute/refine), the fit printed, and -fit_report and
// -refined_experiment written. The request's inputs are loaded; the measured image read.

#include "compute/io/MeasuredImage.h"
#include "compute/request/RunRequest.h"

#include <ostream>

namespace bv::headless {

void runRefinement(const RunRequest& request, const io::MeasuredImage& measured, std::ostream& out,
                   std::ostream& err);

} // namespace bv::headless
