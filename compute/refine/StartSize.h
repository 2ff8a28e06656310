#pragma once
// A crystal size for a fit where the experiment states none (nanoBragg's default of one cell:
// every reflection spread over the whole frame, from which a fit finds no spots, whether the
// size is fitted or held): the size, alike along a, b and c, whose image correlates best with
// the measured frame, among a few sizes a factor of two apart (docs/numerics/fit-sampling.md).

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

// The groups a fit of `groups` fits: ncells added where the experiment states no size.
std::vector<std::string> fittedGroups(const Experiment& experiment, std::vector<std::string> groups);

// What a fit starts from: where the experiment states no size, the searched size is set in
// `experiment`, ncells is added to `groups` (-refine's names: a size held at a guess moves the
// distance to answer it; -N holds a size the user knows) and the search is returned;
// otherwise nothing changes. The headless fit and the viewer's Refine dock call it.
std::optional<StartSize> chooseStartSize(Experiment& experiment, std::vector<std::string>& groups,
                                         const io::MeasuredImage& measured,
                                         const std::function<std::vector<float>(const Experiment&)>& render);

} // namespace bv::refine
