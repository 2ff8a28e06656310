#pragma once
// What every front end says before a run starts (the headless program on stderr, the viewer
// in its cost line, Python as warnings): values that look like a slip of units, and the cost
// of a run that will take more than a few seconds, with the reason for it. Notices, not
// errors: the run goes on, with the reference's meaning of every value.
//
//     const run::PreparedRun prepared = run::prepare(experiment, rng, log);
//     for (const std::string& notice : run::runNotices(prepared, device.info(), precision))
//         err << "braggview: warning: " << notice << "\n";
//     // "the detector distance 0.1 mm is under 1 mm: metres typed as mm? (0.1 m is 100 mm)"
//     // "this run will take about 2 h on llvmpipe (CPU): 1048576 pixels x 562500 steps each
//     //  (750 x 750 sub-pixels: the automatic oversampling, 3 x the crystal's 0.5 um over the
//     //  reciprocal pixel ...)"
//
// The rate: a run's cost is known before it runs (its steps, plan::runCost), its rate is
// not. The figure is per kind of device (assumedStepsPerMillisecond: a CPU's per core, a
// GPU's), the fast end of what was measured (docs/performance.md), so the time told is a
// floor: a notice is never a false alarm, and a device slower than the figure takes longer.

#include "compute/run/PreparedRun.h"
#include "compute/vk/DeviceChoice.h"

#include <optional>
#include <string>
#include <vector>

namespace bv::run {

// A run told about before it starts: longer than this at the assumed rate.
inline constexpr double kNoticeSeconds = 3.0;

// The values of `resolved` outside their plausible range (PhysicalLimits.h): the detector
// distance, the pixel size, the wavelength (an energy under 100 eV).
std::vector<std::string> unitSlips(const ResolvedExperiment& resolved);

// Steps per millisecond a device of this kind gives at least as fast as (see above).
double assumedStepsPerMillisecond(const vk::DeviceInfo& device, Precision precision);

// Why each pixel takes the steps it takes, in words: the loops and their counts, and where
// the automatic oversampling chose many sub-pixels, the values that chose it.
std::string stepsReason(const ResolvedExperiment& resolved, const plan::Plan& plan);

// The run's cost at `stepsPerMillisecond` on `deviceName`, when it is over kNoticeSeconds.
std::optional<std::string> costNotice(const ResolvedExperiment& resolved, const plan::Plan& plan,
                                      double stepsPerMillisecond, const std::string& deviceName);

// How sharp the crystal's spots are for the Miller indices the detector reaches: the
// largest cell count N and h_max = |S|max x the longest cell edge, |S|max from the panels'
// corners and every source.
struct LatticeReach {
    double cells = 0.0;    // N, the largest of Na, Nb, Nc
    double maxIndex = 0.0; // h_max
    double sharpness() const { return cells * maxIndex; }
};
LatticeReach latticeReach(const ResolvedExperiment& resolved);

// In fast precision, where the spots are too sharp for float's h: N h_max over
// kFastLatticeLimit. The lattice factor's relative error near a spot grows as about 12 x
// float's half-ulp x N h_max of the brightest pixel (docs/numerics/precision-modes.md, "Sharp
// spots in fast precision", measured against the reference), so past the limit fast may leave
// the 1e-3 bar of the parity suite; the notice names precise.
inline constexpr double kFastLatticeLimit = 700.0;
std::optional<std::string> fastLatticeNotice(const ResolvedExperiment& resolved,
                                             Precision precision);

// What is said of the experiment itself, whatever the device: unitSlips() and
// fastLatticeNotice(). The viewer shows them as warnings beside its own cost line.
std::vector<std::string> experimentWarnings(const ResolvedExperiment& resolved,
                                            Precision precision);

// experimentWarnings() and costNotice() at the assumed rate of `device`.
std::vector<std::string> runNotices(const ResolvedExperiment& resolved, const plan::Plan& plan,
                                    const vk::DeviceInfo& device, Precision precision);
inline std::vector<std::string> runNotices(const PreparedRun& prepared,
                                           const vk::DeviceInfo& device, Precision precision) {
    return runNotices(prepared.resolved, prepared.plan, device, precision);
}

} // namespace bv::run
