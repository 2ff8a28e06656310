#pragma once
// How long a run will take, told before it runs: its work (the pixels it computes times the
// steps each pixel loops over: sensor layers x sub-pixels x sources x orientations) against
// the rate the device showed on the runs before (steps per millisecond of GPU time). The
// viewer warns with it before a setting that will take long (docs/user-guide.md).
//
//     bv::plan::RateEstimate rate;
//     rate.add(bv::plan::runCost(planDone), gpuMilliseconds);   // after each run
//     std::optional<double> ms = rate.milliseconds(bv::plan::runCost(planNext));
//
// The rate is the median of the last few runs' rates, so one run disturbed by other work
// moves it little; runs too small to measure a rate (their time is the dispatch's overhead,
// not the work) are not counted.

#include "compute/plan/Plan.h"

#include <cstdint>
#include <deque>
#include <optional>

namespace bv::plan {

struct RunCost {
    std::uint64_t pixels = 0;        // the ROI's box on the image
    std::uint64_t stepsPerPixel = 0; // layers x sub-pixels^2 x sources x orientations
    double steps() const {
        return static_cast<double>(pixels) * static_cast<double>(stepsPerPixel);
    }
};

// The steps each pixel loops over.
std::uint64_t stepsPerPixel(const Plan& plan);
RunCost runCost(const Plan& plan);

class RateEstimate {
  public:
    // runs of fewer steps than this are not counted (a 64^2 image of one step: the
    // dispatch's fixed cost, not its work)
    static constexpr double kSmallestMeasured = 1e6;
    static constexpr std::size_t kRuns = 5; // the median of this many recent rates

    // A finished run: its cost and its GPU time (ms).
    void add(const RunCost& cost, double gpuMilliseconds);
    // Steps per millisecond, once one run was counted.
    std::optional<double> stepsPerMillisecond() const;
    // How long `cost` will take on the GPU, once the rate is known (ms).
    std::optional<double> milliseconds(const RunCost& cost) const;

  private:
    std::deque<double> m_rates;
};

} // namespace bv::plan
