#pragma once
// braggview --headless ... -refine GROUPS: the experiment fitted to the measured frame with
// the GPU as the forward model (compute/refine), the fit printed, and -fit_report and
// -refined_experiment written. The request's inputs are loaded; the measured image read.
// -spots FILE.refl: DIALS's observed spots against the simulated spot centroids, with
// -refine before and after the fit, with -compare for the run's image.

#include "compute/io/MeasuredImage.h"
#include "compute/model/Resolve.h"
#include "compute/refine/ObservedSpots.h"
#include "compute/refine/Refinement.h"
#include "compute/request/RunRequest.h"
#include "compute/run/ModelRenderer.h"

#include <optional>
#include <ostream>
#include <vector>

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
                                 run::RenderTimes* times = nullptr,
                                 const refine::ProgressCallback& progress = {});

// The whole of -refine on a device of its own: the fit, -spots against it, printed to `out`,
// -fit_report and -refined_experiment written.
void runRefinement(const RunRequest& request, const io::MeasuredImage& measured,
                   const refine::ObservedSpots* spots, std::ostream& out, std::ostream& err);
// The same on the caller's `simulator` (the Python module's), its report returned; the
// request checked by checkRefinement first; `progress` as Refinement::setProgress (false
// ends the fit at that step).
refine::FitReport refineAndReport(const RunRequest& request, const io::MeasuredImage& measured,
                                  const refine::ObservedSpots* spots,
                                  engine::Simulator& simulator, std::ostream& out,
                                  const refine::ProgressCallback& progress = {});
// -fit_report and -refined_experiment, as the request names them.
void writeRefinementFiles(const RunRequest& request, const refine::FitReport& report,
                          std::ostream& out);
// What -refine refuses before anything is read or rendered (-refined_experiment without
// the -experiment it writes back into).
void checkRefinement(const RunRequest& request);

// -spots: the table read, cut to the spots of the run's image (the -experiment scan's image
// -frame; every spot when there is no scan), before anything is rendered. Throws bv::Error
// for a bad table, or for -spots without -compare or -refine.
std::optional<refine::ObservedSpots> readObservedSpots(const RunRequest& request);

// -compare -spots: the spots of `image` (the run's, panels stacked) against the observed ones
void printObservedSpots(std::ostream& out, const refine::ObservedSpots& spots,
                        const std::vector<float>& image, const io::MeasuredImage& measured,
                        const ResolvedExperiment& resolved);

} // namespace bv::headless
