#include "compute/plan/Preview.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

namespace bv::plan {

namespace {

// k of the n entries, evenly spaced (index floor(i n / k)); all of them when k >= n
template <typename T> std::vector<T> evenlyTaken(const std::vector<T>& all, int k) {
    const std::size_t n = all.size();
    if (k <= 0 || static_cast<std::size_t>(k) >= n)
        return all;
    std::vector<T> taken;
    taken.reserve(static_cast<std::size_t>(k));
    for (std::size_t i = 0; i < static_cast<std::size_t>(k); ++i)
        taken.push_back(all[i * n / static_cast<std::size_t>(k)]);
    return taken;
}

// `steps` samples from the same start standing for the same extent: each of the sweep's
// samples stands for one step (phi: [phi0, phi0 + steps x step), the oscillation; layers: the
// absorption of steps x step of sensor), so steps x step is kept
Sweep coarser(const Sweep& sweep, int steps) {
    if (steps >= sweep.steps || steps < 1)
        return sweep;
    return Sweep{sweep.range, sweep.step * sweep.steps / steps, steps};
}

// The largest of 1, 2, 3, 4, 6, 8, 12, 16, 24, ... (2^k and 3 x 2^k) not above n (n >= 1).
// A preview's reduced count is taken from this ladder so that the counts of a drag repeat:
// each count is a shape of its own (a specialised pipeline: a compile, on lavapipe on the
// queue before the run; on a GPU the generic pipeline meanwhile, 1.4x slower on the H100).
int ladderAtMost(int n) {
    int best = 1;
    for (int p = 1; p > 0 && p <= n; p *= 2) {
        best = std::max(best, p);
        if (p <= n / 3)
            best = std::max(best, 3 * p);
    }
    return best;
}

std::uint64_t u(int n) {
    return static_cast<std::uint64_t>(std::max(n, 1));
}

} // namespace

std::uint64_t SamplingCounts::stepsPerPixel() const {
    return u(layers) * u(oversample) * u(oversample) * u(sources) * u(phiSteps) * u(domains);
}

SamplingCounts samplingCounts(const ResolvedExperiment& r) {
    SamplingCounts c;
    c.oversample = r.oversample;
    c.domains = static_cast<int>(r.mosaicDomains.size());
    c.phiSteps = r.phi.steps;
    c.sources = static_cast<int>(r.sources.size());
    c.layers = r.thickness.steps;
    return c;
}

SamplingCounts previewCounts(const SamplingCounts& exact, std::uint64_t pixels,
                             double stepsPerMillisecond, double budgetMilliseconds) {
    if (pixels == 0 || !(stepsPerMillisecond > 0.0) || !(budgetMilliseconds > 0.0))
        return exact;
    // the steps per pixel the budget affords
    const double affordable =
        std::floor(stepsPerMillisecond * budgetMilliseconds / static_cast<double>(pixels));
    SamplingCounts c = exact;
    const auto fits = [&] { return static_cast<double>(c.stepsPerPixel()) <= affordable; };
    if (fits())
        return c;
    // The largest count of one loop that fits with the others as they are (at least 1).
    // `perUnit` is the steps per pixel of one unit of that loop.
    const auto largest = [&](int current, std::uint64_t perUnit) {
        const double n = std::floor(affordable / static_cast<double>(perUnit));
        const int count = std::clamp(static_cast<int>(std::min(n, 1e9)), 1, std::max(current, 1));
        return count < current ? ladderAtMost(count) : count;
    };
    // 1. sub-pixels: oversample^2 of them
    {
        const std::uint64_t rest = c.stepsPerPixel() / (u(c.oversample) * u(c.oversample));
        int o = std::max(c.oversample, 1);
        while (o > 1 && static_cast<double>(u(o) * u(o) * rest) > affordable)
            --o;
        c.oversample = o;
    }
    if (fits())
        return c;
    c.domains = largest(c.domains, c.stepsPerPixel() / u(c.domains));
    if (fits())
        return c;
    c.phiSteps = largest(c.phiSteps, c.stepsPerPixel() / u(c.phiSteps));
    if (fits())
        return c;
    c.sources = largest(c.sources, c.stepsPerPixel() / u(c.sources));
    if (fits())
        return c;
    c.layers = largest(c.layers, c.stepsPerPixel() / u(c.layers));
    return c;
}

ResolvedExperiment reduceSampling(const ResolvedExperiment& resolved, const SamplingCounts& c) {
    ResolvedExperiment r = resolved;
    if (c.oversample >= 1 && c.oversample < r.oversample)
        r.oversample = c.oversample;
    r.mosaicDomains = evenlyTaken(r.mosaicDomains, c.domains);
    r.phi = coarser(r.phi, c.phiSteps);
    r.sources = evenlyTaken(r.sources, c.sources);
    r.thickness = coarser(r.thickness, c.layers);
    return r;
}

std::string describePreview(const SamplingCounts& exact, const SamplingCounts& preview) {
    std::ostringstream out;
    const auto part = [&](int kept, int of, const char* what) {
        if (kept >= of)
            return;
        if (out.tellp() > 0)
            out << ", ";
        out << kept << " of " << of << ' ' << what;
    };
    if (preview.oversample < exact.oversample)
        out << "oversample " << preview.oversample << " of " << exact.oversample;
    part(preview.domains, exact.domains, "mosaic domains");
    part(preview.phiSteps, exact.phiSteps, "phi steps");
    part(preview.sources, exact.sources, "sources");
    part(preview.layers, exact.layers, "sensor layers");
    return out.str();
}

double previewBudgetMilliseconds(bool cpuDevice) {
    return cpuDevice ? 60.0 : 10.0;
}

SamplingCounts chooseRun(const RunSituation& s) {
    const std::optional<double>& rate = s.stepsPerMillisecond;
    if (!s.moving || s.budgetMilliseconds <= 0.0 || !rate || *rate <= 0.0)
        return s.exact;
    const double exactMilliseconds =
        static_cast<double>(s.pixels) * static_cast<double>(s.exact.stepsPerPixel()) / *rate;
    if (exactMilliseconds <= s.budgetMilliseconds)
        return s.exact;
    return previewCounts(s.exact, s.pixels, *rate, s.budgetMilliseconds);
}

} // namespace bv::plan
