#pragma once
// A start for -refine ncells where the experiment states no crystal size (nanoBragg's default
// of one cell: every reflection spread over the whole frame, from which a fit does not find
// the spots): the size, alike along a, b and c, whose image correlates best with the measured
// frame, among a few sizes a factor of two apart (docs/refinement.md, "The start").

#include "compute/io/MeasuredImage.h"
#include "compute/model/Experiment.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bv::refine {

// The candidate sizes, in cells along each axis.
const std::vector<double>& startSizeCandidates();

struct StartSize {
    double cells = 0.0;              // the chosen size
    std::vector<double> correlations; // one per candidate, in order
};

// `render` makes the image of an experiment, fast-major, the measured frame's size. The
// candidates are rendered with one sub-pixel where the experiment does not set -oversample
// (they only have to tell a size from another twice or half as big).
StartSize searchStartSize(const Experiment& experiment, const io::MeasuredImage& measured,
                          const std::function<std::vector<float>(const Experiment&)>& render);

// Whether the experiment states no size: one cell along every axis and no crystal size.
bool statesNoSize(const Experiment& experiment);

// What a fit of `groups` (-refine's names) starts from: where they include ncells and the
// experiment states no size, the searched size is set in `experiment` and returned; otherwise
// nothing changes. The headless fit and the viewer's Refine dock both call it.
std::optional<StartSize> chooseStartSize(Experiment& experiment, const std::vector<std::string>& groups,
                                         const io::MeasuredImage& measured,
                                         const std::function<std::vector<float>(const Experiment&)>& render);

} // namespace bv::refine
