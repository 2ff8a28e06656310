#include "compute/run/RunNotices.h"

#include "compute/model/PhysicalLimits.h"
#include "compute/plan/RunCost.h"

#include <glm/glm.hpp>

#include <algorithm>
#include <limits>
#include <locale>
#include <sstream>
#include <thread>

namespace bv::run {

namespace {

// three significant digits, in the C locale
std::string shown(double value) {
    std::ostringstream s;
    s.imbue(std::locale::classic());
    s.precision(3);
    s << value;
    return s.str();
}

std::string duration(double seconds) {
    if (seconds < 90.0)
        return shown(seconds) + " s";
    if (seconds < 90.0 * 60.0)
        return shown(seconds / 60.0) + " min";
    if (seconds < 48.0 * 3600.0)
        return shown(seconds / 3600.0) + " h";
    return shown(seconds / 86400.0) + " days";
}

// One loop of the pixel's steps, "750 x 750 sub-pixels", when it is more than one.
void loop(std::vector<std::string>& loops, std::uint64_t count, const std::string& what) {
    if (count > 1)
        loops.push_back(std::to_string(count) + " " + what);
}

} // namespace

std::vector<std::string> unitSlips(const ResolvedExperiment& r) {
    std::vector<std::string> out;
    if (const auto slip = unitSlip(Quantity::DetectorLength, r.detector.distance * 1e3))
        out.push_back("the detector distance " + shown(r.detector.distance * 1e3) + " mm is " +
                      *slip);
    if (const auto slip = unitSlip(Quantity::PixelSize, r.detector.pixelSize * 1e3))
        out.push_back("the pixel size " + shown(r.detector.pixelSize * 1e3) + " mm is " + *slip);
    if (const auto slip = unitSlip(Quantity::Wavelength, r.wavelength * 1e10))
        out.push_back("the wavelength " + shown(r.wavelength * 1e10) + " A is " + *slip);
    return out;
}

double assumedStepsPerMillisecond(const vk::DeviceInfo& device, Precision precision) {
    const bool fast = precision == Precision::Fast;
    if (device.type == VK_PHYSICAL_DEVICE_TYPE_CPU) {
        // lavapipe: 0.9e4 (precise) and 2.1e4 (fast) steps/ms per core on a 2-core machine
        // (docs/performance.md); twice that per core, on every core the process may use
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        return (fast ? 4e4 : 2e4) * cores;
    }
    // an H100: 2.2e8 (fast) and 1.5e8 (precise) steps/ms on the heavy case
    return fast ? 2.2e8 : 1.5e8;
}

std::string stepsReason(const ResolvedExperiment& r, const plan::Plan& plan) {
    std::vector<std::string> loops;
    loop(loops, static_cast<std::uint64_t>(std::max(plan.thickSteps, 1)), "sensor layers");
    if (plan.oversample > 1) {
        std::string sub = std::to_string(plan.oversample) + " x " +
                          std::to_string(plan.oversample) + " sub-pixels";
        if (r.oversample == r.recommendedOversample) {
            // resolve()'s rule: 3 x the crystal's largest size over the reciprocal pixel
            const double size = std::max({r.crystalSize.x, r.crystalSize.y, r.crystalSize.z});
            sub += " (the oversampling the crystal asks for: 3 x its size " + shown(size * 1e10) +
                   " A / (wavelength " + shown(r.wavelength * 1e10) + " A x distance " +
                   shown(r.detector.distance * 1e3) + " mm / pixel " +
                   shown(r.detector.pixelSize * 1e3) +
                   " mm), rounded up; -oversample N sets it)";
        }
        loops.push_back(sub);
    }
    loop(loops, plan.sources.size(), "sources");
    loop(loops, plan.orientations.size(),
         "orientations (" + std::to_string(r.phi.steps) + " phi steps x " +
             std::to_string(r.mosaicDomains.size()) + " mosaic domains)");
    if (loops.empty())
        return "one step";
    std::string text;
    for (const std::string& l : loops)
        text += (text.empty() ? "" : " x ") + l;
    return text;
}

std::optional<std::string> costNotice(const ResolvedExperiment& resolved, const plan::Plan& plan,
                                      double stepsPerMillisecond, const std::string& deviceName) {
    const plan::RunCost cost = plan::runCost(plan);
    if (!(stepsPerMillisecond > 0.0))
        return std::nullopt;
    const double seconds = cost.steps() / stepsPerMillisecond / 1e3;
    if (seconds < kNoticeSeconds)
        return std::nullopt;
    return "this run will take at least about " + duration(seconds) + " on " + deviceName + ": " +
           std::to_string(cost.pixels) + " pixels x " + std::to_string(cost.stepsPerPixel) +
           " steps each, at " + shown(stepsPerMillisecond) +
           " steps/ms (a figure for the kind of device); each pixel's steps: " +
           stepsReason(resolved, plan);
}

LatticeReach latticeReach(const ResolvedExperiment& resolved) {
    double widestS = 0.0; // 1/A
    for (const PanelGeometry& panel : resolved.panels)
        for (const double f : {0.0, panel.sizeFast()})
            for (const double s : {0.0, panel.sizeSlow()}) {
                const glm::dvec3 corner = panel.pix0 + f * panel.fdet + s * panel.sdet;
                if (glm::length(corner) <= 0.0)
                    continue;
                const glm::dvec3 diffracted = glm::normalize(corner);
                for (const Source& source : resolved.sources) {
                    if (!(source.wavelength > 0.0))
                        continue;
                    // S = (d - i) / lambda, the incident beam i = -direction (towards the sample)
                    widestS = std::max(widestS, glm::length(diffracted + source.direction) /
                                                    (source.wavelength * 1e10));
                }
            }
    const double longestEdge = std::max({glm::length(resolved.cell.a), glm::length(resolved.cell.b),
                                         glm::length(resolved.cell.c)});
    return {std::max({resolved.cells.x, resolved.cells.y, resolved.cells.z}),
            widestS * longestEdge};
}

std::optional<std::string> fastLatticeNotice(const ResolvedExperiment& resolved,
                                             Precision precision) {
    if (precision != Precision::Fast)
        return std::nullopt;
    const LatticeReach reach = latticeReach(resolved);
    if (!(reach.sharpness() > kFastLatticeLimit))
        return std::nullopt;
    const double halfUlp = std::numeric_limits<float>::epsilon() / 2.0;
    const double percent = std::min(100.0, 12.0 * halfUlp * reach.sharpness() * 100.0);
    return "fast precision: spots of " + shown(reach.cells) + " cells at Miller indices up to " +
           shown(reach.maxIndex) + " are sharper than float arithmetic resolves h (N x h = " +
           shown(reach.sharpness()) + ", over " + shown(kFastLatticeLimit) +
           "): pixels near spots may differ from the reference by about " + shown(percent) +
           " % of the brightest; -precision precise computes h in double";
}

std::vector<std::string> experimentWarnings(const ResolvedExperiment& resolved,
                                            Precision precision) {
    std::vector<std::string> out = unitSlips(resolved);
    if (auto sharp = fastLatticeNotice(resolved, precision))
        out.push_back(std::move(*sharp));
    return out;
}

std::vector<std::string> runNotices(const ResolvedExperiment& resolved, const plan::Plan& plan,
                                    const vk::DeviceInfo& device, Precision precision) {
    std::vector<std::string> out = experimentWarnings(resolved, precision);
    if (auto cost = costNotice(resolved, plan, assumedStepsPerMillisecond(device, precision),
                               vk::describeDevice(device)))
        out.push_back(std::move(*cost));
    return out;
}

} // namespace bv::run
