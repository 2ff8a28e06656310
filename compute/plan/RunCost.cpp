#include "compute/plan/RunCost.h"

#include <algorithm>
#include <vector>

namespace bv::plan {

std::uint64_t stepsPerPixel(const Plan& p) {
    const auto count = [](int n) { return static_cast<std::uint64_t>(std::max(n, 0)); };
    return count(p.thickSteps) * count(p.oversample) * count(p.oversample) * p.sources.size() *
           p.orientations.size();
}

RunCost runCost(const Plan& p) {
    // the ROI's bounding box, clipped to the image: what the dispatches cover
    const int x0 = std::max(0, p.roi.xmin), x1 = std::min(p.fastPixels - 1, p.roi.xmax);
    const int y0 = std::max(0, p.roi.ymin), y1 = std::min(p.slowPixels - 1, p.roi.ymax);
    RunCost c;
    c.pixels = x1 >= x0 && y1 >= y0 ? static_cast<std::uint64_t>(x1 - x0 + 1) *
                                          static_cast<std::uint64_t>(y1 - y0 + 1)
                                    : 0;
    c.stepsPerPixel = stepsPerPixel(p);
    return c;
}

void RateEstimate::add(const RunCost& cost, double gpuMilliseconds) {
    if (cost.steps() < kSmallestMeasured || !(gpuMilliseconds > 0.0))
        return;
    m_rates.push_back(cost.steps() / gpuMilliseconds);
    if (m_rates.size() > kRuns)
        m_rates.pop_front();
}

std::optional<double> RateEstimate::stepsPerMillisecond() const {
    if (m_rates.empty())
        return std::nullopt;
    std::vector<double> sorted(m_rates.begin(), m_rates.end());
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    return n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

std::optional<double> RateEstimate::milliseconds(const RunCost& cost) const {
    const std::optional<double> rate = stepsPerMillisecond();
    if (!rate)
        return std::nullopt;
    return cost.steps() / *rate;
}

} // namespace bv::plan
