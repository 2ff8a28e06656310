#pragma once
// What the reference's serial loop carries from one pixel's iteration into the next, and the
// engine must reproduce although every pixel runs on its own.
//
// The phi carry-over (docs/reference-quirks.md): the reference rotates the crystal to each
// phi step with "if (phi != 0) ap = R(phi) a0", so at a step whose phi is exactly 0 the axes
// are whatever the previous step left: within a (pixel, layer, sub-pixel, source) unit the
// step before; at step 0, the last rotated step of the previous unit. Only the very first
// unit the loop executes starts from the unrotated axes. With -phi 0 and several phi steps
// every pixel but the first thus sees the LAST phi step's orientation twice and never the
// unrotated one.
//
// orderOrientations() turns the Plan's table (phi-major, as the physics says) into the table
// the shader loops over (as the reference computes), plus the first unit's exception.

#include "compute/plan/Plan.h"

#include <cstdint>
#include <vector>

namespace bv::engine {

// How the reference's serial loop ran, for what it carries from pixel to pixel: the spindle
// angle of each phi step (engine::phiAngles(resolved); empty: no carry-over) and the
// reference's OpenMP thread count (engine::referenceThreads()).
struct ReferenceLoop {
    std::vector<double> phiAngles;
    int threads = 1;
};

// The spindle angle (rad) of each phi step, as the reference forms it: phi0 + step * t
// (ResolvedExperiment::phiAt; at the step's centre with -phi_sampling centre).
std::vector<double> phiAngles(const ResolvedExperiment& experiment);

struct OrderedOrientations {
    // phiSteps x mosaicDomains rows that every unit but the first sees
    std::vector<plan::Orientation> rows;
    // rows for the first freshSteps phi steps of the first unit (freshSteps x domains rows)
    std::vector<plan::Orientation> freshRows;
    int freshSteps = 0;
    // the units that start from the unrotated axes, the first each thread runs: pixel index
    // (slow * fast + fast) and unit ((layer * oversample + subS) * oversample + subF) *
    // sources + source
    struct Unit {
        long long pixel = -1;
        long long unit = -1;
    };
    std::vector<Unit> freshUnits;
};

// phiAngles empty (or not one per phi step) means "no carry-over": the Plan's rows as they are.
OrderedOrientations orderOrientations(const plan::Plan& plan, const std::vector<double>& phiAngles,
                                      int threads = 1);

// The rows [first, end) each of `threads` threads runs under a static schedule of `rows` rows.
std::vector<std::pair<int, int>> staticRowBlocks(int rows, int threads);

// The reference's thread count as its OpenMP runtime would take it from the environment:
// OMP_NUM_THREADS when it is a positive number (the first of a list), else 1 (a serial run;
// the reference itself would use every core, which makes its images machine-dependent).
int referenceThreads();

} // namespace bv::engine
