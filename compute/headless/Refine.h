#pragma once
// braggview --headless ... -refine GROUPS: the experiment fitted to the measured frame with
// the GPU as the forward model (compute/refine), the fit printed, and -fit_report and
// -refined_experiment written. The request's inputs are loaded; the measured image read.

#include "compute/io/MeasuredImage.h"
#include "compute/refine/Refinement.h"
#include "compute/request/RunRequest.h"
#include "compute/run/ModelRenderer.h"

#include <ostream>

namespace bv::headless {

// How the fit's renderings are made: the same plan with new parameter values and the fitted
// pixels alone (run::ModelRenderer), or, for comparison, each a whole preparation with the
// frame read back (braggview-bench-refine --whole-frame).
enum class RenderPath { FittedPixels, WholeFrame };

// The fit of runRefinement on `simulator`, from `start` (refine::canonicalStart of the
// request's experiment), printing nothing; `times`, when given, gets where the renderings'
// time went.
refine::FitReport refineOnDevice(const RunRequest& request, const io::MeasuredImage& measured,
                                 engine::Simulator& simulator, const Experiment& start,
                                 RenderPath path = RenderPath::FittedPixels,
                                 run::RenderTimes* times = nullptr);

void runRefinement(const RunRequest& request, const io::MeasuredImage& measured, std::ostream& out,
                   std::ostream& err);

} // namespace bv::headless
