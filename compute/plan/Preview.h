#pragma once
// The viewer's preview: while a value moves, an image computed within a frame budget from a
// lighter sampling of the same experiment; when it rests, the exact image follows
// (app/SimulationController.h, docs/numerics/preview.md).
//
//     const plan::SamplingCounts exact = plan::samplingCounts(resolved);
//     const plan::SamplingCounts light =
//         plan::previewCounts(exact, pixels, rate.stepsPerMillisecond().value(), 100.0);
//     if (light != exact)
//         simulator.setPlan(plan::makePlan(plan::reduceSampling(resolved, light), mask));
//
// Only the sampling of the loops each pixel sums over is reduced, in this fixed order, each
// loop down to one before the next is touched, the last one reduced just as far as needed
// (to a count of the ladder 1, 2, 3, 4, 6, 8, 12, 16, ..., so that a drag's counts repeat and
// their pipelines are built once):
//   1. sub-pixels per pixel edge (oversample), 2. mosaic domains, 3. phi steps,
//   4. sources (divergence and dispersion), 5. sensor layers.
// What is reduced keeps its extent (the same oscillation, the same sensor thickness, domains
// and sources taken evenly from the same lists) and the reference's divisor follows the
// counts, so a preview is the same physics, sampled more coarsely: same pixels, same
// geometry, same scale. Coarser pixels (binning) are not used: they would change the image's
// size, and the window, readout and overlays would need a second geometry.

#include "compute/model/Resolve.h"

#include <cstdint>
#include <optional>
#include <string>

namespace bv::plan {

// How many samples each pixel's loops take (the reference's loop nest, Plan's tables).
struct SamplingCounts {
    int oversample = 1; // sub-pixels per pixel edge (the loop runs over its square)
    int domains = 1;    // mosaic domains
    int phiSteps = 1;
    int sources = 1; // divergence x dispersion grid, or the source file's lines
    int layers = 1;  // sensor layers

    // steps per pixel: layers x oversample^2 x sources x phi steps x domains (RunCost.h)
    std::uint64_t stepsPerPixel() const;
    bool operator==(const SamplingCounts& o) const {
        return oversample == o.oversample && domains == o.domains && phiSteps == o.phiSteps &&
               sources == o.sources && layers == o.layers;
    }
    bool operator!=(const SamplingCounts& o) const { return !(*this == o); }
};

SamplingCounts samplingCounts(const ResolvedExperiment& resolved);

// The counts of a preview of `exact` whose expected time, `pixels` x steps per pixel at
// `stepsPerMillisecond`, fits `budgetMilliseconds`: `exact` itself when it fits; else reduced
// in the order above. When even one sample per pixel does not fit, every count is 1.
SamplingCounts previewCounts(const SamplingCounts& exact, std::uint64_t pixels,
                             double stepsPerMillisecond, double budgetMilliseconds);

// `resolved` sampled with `counts` (each at most the resolved one): `oversample` sub-pixels
// per edge spanning the pixel; domains and sources taken evenly spaced from their lists
// (entry floor(i n / k) of n, for i < k); phi steps and sensor layers from the same start
// with a step of step x n / k, which keeps the oscillation and the sensor thickness (n
// samples of one step each stand for n x step).
ResolvedExperiment reduceSampling(const ResolvedExperiment& resolved, const SamplingCounts& counts);

// What a preview leaves out, for the status bar: "oversample 1 of 3, 2 of 8 mosaic domains";
// empty when `preview` is `exact`.
std::string describePreview(const SamplingCounts& exact, const SamplingCounts& preview);

// The GPU time a preview may take at the measured rate (ms): a frame of a 60 Hz display, less
// the draw and the round trip through the GUI thread, on a GPU; 60 ms on a CPU device
// (lavapipe), where even one sample per pixel of a large image takes longer than a frame. A
// value that arrives while a preview runs waits for it (a preview is never cancelled: under a
// 60 Hz drag none would finish), so change -> image is up to twice the budget: 60 ms keeps
// lavapipe's p95 under 150 ms (100 ms did not: 159-178 ms; docs/performance.md).
double previewBudgetMilliseconds(bool cpuDevice);

// What decides the next image's sampling (app/SimulationController, braggview-bench-preview).
struct RunSituation {
    SamplingCounts exact;                 // the experiment's own counts
    std::uint64_t pixels = 0;             // computed pixels (RunCost::pixels)
    std::optional<double> stepsPerMillisecond; // the measured rate; nullopt before one
    bool moving = false;                  // the value is still moving (a preview may do)
    double budgetMilliseconds = 0.0;      // previewBudgetMilliseconds(); 0: never preview
};
// The counts of the next run: `situation.exact` (the exact image) unless the value moves, a
// rate is known and the exact image would take longer than the budget; then previewCounts().
// The slices stay the Simulator's own: runs were cut finer by the rate while previews were on,
// so that a new value could stop them at a slice's end; a new value now stops a run inside its
// slice, through the shader's cancel word, and the finer slices only cost round trips (the
// demo's exact image after a drag came 100-150 ms later).
SamplingCounts chooseRun(const RunSituation& situation);

} // namespace bv::plan
