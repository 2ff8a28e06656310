#pragma once
// braggview --headless ... -refine GROUPS: the experiment fitted to the measured frame with
// the GPU as the forward model (compute/refine), the fit printed, and -fit_report and
// -refined_experiment written. The request's inputs are loaded; the measured image read.
// -spots FILE.refl: DIALS's observed spots against the simulated spot centroids, with
// -refine before and after the fit, with -compare for the run's image.

#include "compute/io/MeasuredImage.h"
#include "compute/model/Resolve.h"
#include "compute/refine/ObservedSpots.h"
#include "compute/request/RunRequest.h"

#include <optional>
#include <ostream>
#include <vector>

namespace bv::headless {

void runRefinement(const RunRequest& request, const io::MeasuredImage& measured,
                   const refine::ObservedSpots* spots, std::ostream& out, std::ostream& err);

// -spots: the table read, cut to the spots of the run's image (the -experiment scan's image
// -frame; every spot when there is no scan), before anything is rendered. Throws bv::Error
// for a bad table, or for -spots without -compare or -refine.
std::optional<refine::ObservedSpots> readObservedSpots(const RunRequest& request);

// -compare -spots: the spots of `image` (the run's, panels stacked) against the observed ones
void printObservedSpots(std::ostream& out, const refine::ObservedSpots& spots,
                        const std::vector<float>& image, const io::MeasuredImage& measured,
                        const ResolvedExperiment& resolved);

} // namespace bv::headless
