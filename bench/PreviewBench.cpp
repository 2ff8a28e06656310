// braggview-bench-preview: the viewer's preview on a device without a window. A drag of
// random parameter changes (bench/ParameterChanges.h) is run the way app/SimulationController
// runs it, through the same decision (plan::chooseRun): each moving change runs the counts
// chosen for the budget at the rate measured so far, and its time from the change to the
// finished image on the device is recorded (the viewer draws that buffer where it lies).
// After the drag the value rests: the exact image runs in the device's slices, and the time
// to each slice (each refinement the viewer shows) and to the exact image are printed.
//
//   braggview-bench-preview [--changes N] [--precision fast|precise] [--budget MS]
//                           [--detpixels N] [--soak SECONDS] [--device D]
//                           (--case NAME | -- <nanoBragg arguments>)
//
// --soak keeps dragging for that long after the measured drag (every sixth change is the
// crystal size, whose oversampling rule changes the loop counts, so the pipelines of several
// shapes are made) and prints the resident memory each minute: it must stay flat.
//
// --budget defaults to plan::previewBudgetMilliseconds() of the device; --detpixels replaces
// the case's detector size (heavy_1024 at 4096^2: --case heavy_1024 --detpixels 4096, with
// the heavier sampling given after --, e.g. -- -mosaic_dom 100 -phisteps 10 -oversample 3).
// Numbers go to docs/performance.md, never into tests.

#include "bench/BenchSupport.h"
#include "bench/ParameterChanges.h"
#include "compute/cli/CommandLine.h"
#include "compute/request/Inputs.h"
#include "compute/core/Error.h"
#include "compute/engine/Simulator.h"
#include "compute/plan/Plan.h"
#include "compute/plan/Preview.h"
#include "compute/plan/RunCost.h"
#include "compute/run/PreparedRun.h"
#include "compute/vk/Device.h"

#include <chrono>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

int usage() {
    std::fprintf(stderr, "usage: braggview-bench-preview [--changes N] [--precision fast|precise] "
                         "[--budget MS] [--detpixels N] [--device D] "
                         "(--case NAME [-- <more arguments>] | -- <nanoBragg arguments>)\n");
    return 2;
}

double residentMiB() {
    return static_cast<double>(bv::bench::residentKiB()) / 1024.0;
}

} // namespace

int main(int argc, char** argv) {
    bv::vk::skipMesaDeviceSelectLayer();
    int changes = 100, detpixels = 0, soakSeconds = 0;
    double budget = -1.0;
    std::string precisionName = "fast", device, args;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (a == "--changes" && hasValue)
            changes = std::atoi(argv[++i]);
        else if (a == "--precision" && hasValue)
            precisionName = argv[++i];
        else if (a == "--budget" && hasValue)
            budget = std::atof(argv[++i]);
        else if (a == "--soak" && hasValue)
            soakSeconds = std::atoi(argv[++i]);
        else if (a == "--detpixels" && hasValue)
            detpixels = std::atoi(argv[++i]);
        else if (a == "--device" && hasValue)
            device = argv[++i];
        else if (const int taken = bv::bench::caseWords(i, argc, argv, "braggview-bench-preview", args)) {
            if (taken < 0)
                return 2;
        } else
            return usage();
    }
    if (detpixels > 0)
        args += " -detpixels " + std::to_string(detpixels);
    if (args.empty() || changes < 1)
        return usage();

    try {
        const auto precision = bv::precisionFromName(precisionName);
        if (!precision)
            throw bv::Error("--precision: fast or precise, not " + precisionName);
        // later words win, as on nanoBragg's command line: the case, then what follows --
        bv::RunRequest cl = bv::cli::parseCommandLine(bv::bench::words(args));
        std::ostringstream quiet;
        bv::request::loadInputs(cl, quiet);

        bv::vk::DeviceOptions deviceOptions;
        deviceOptions.deviceOverride = device;
        bv::vk::Device vulkan(deviceOptions);
        const bool cpuDevice = vulkan.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU;
        if (budget < 0.0)
            budget = bv::plan::previewBudgetMilliseconds(cpuDevice);
        bv::engine::SimulatorOptions options;
        options.precision = *precision;
        options.specialisation = bv::engine::interactiveSpecialisation(vulkan); // as the viewer
        bv::engine::Simulator simulator(vulkan, options);

        const bv::Experiment start = cl.experiment;
        bv::Experiment experiment = start;
        bv::plan::RateEstimate rate;
        bool previewed = false;
        std::string leftOut;
        // One image of the current experiment; returns ms from the call to the finished
        // image on the device, and calls onSlice(ms) as each slice finishes.
        auto render = [&](bool moving, std::vector<double>* sliceTimes) {
            const auto t0 = Clock::now();
            const bv::run::PreparedRun exact = bv::run::prepareQuietly(experiment);
            bv::plan::RunSituation s;
            s.exact = bv::plan::samplingCounts(exact.resolved);
            s.pixels = bv::plan::runCost(exact.plan).pixels;
            s.stepsPerMillisecond = rate.stepsPerMillisecond();
            s.moving = moving;
            s.budgetMilliseconds = budget;
            const bv::plan::SamplingCounts counts = bv::plan::chooseRun(s);
            previewed = counts != s.exact;
            leftOut = previewed ? bv::plan::describePreview(s.exact, counts) : "";
            std::optional<bv::run::PreparedRun> preview; // the viewer's lighter sampling
            if (previewed)
                preview = bv::run::preparePreview(experiment, exact, counts);
            const bv::plan::Plan& plan = preview ? preview->plan : exact.plan;
            bv::run::setPlan(simulator, preview ? *preview : exact);
            simulator.start();
            int seen = 0;
            while (!simulator.isFinished()) {
                const int done = simulator.finishedSlices();
                for (; sliceTimes && seen < done; ++seen)
                    sliceTimes->push_back(millisecondsSince(t0));
                std::this_thread::sleep_for(std::chrono::microseconds(50));
            }
            const double ms = millisecondsSince(t0);
            for (; sliceTimes && seen < simulator.sliceCount(); ++seen)
                sliceTimes->push_back(ms);
            simulator.finish();
            rate.add(bv::plan::runCost(plan), simulator.gpuMilliseconds());
            return ms;
        };

        // the first image of a setting: a preview needs a rate, which a first light run gives
        // (the viewer's first image is exact; here the drag starts from a measured rate)
        std::vector<double> firstSlices;
        const double firstMs = render(false, &firstSlices);
        std::printf("device: %s (%s)\n", simulator.deviceDescription().c_str(),
                    cpuDevice ? "CPU device" : "GPU");
        std::printf("case: %s (%dx%d, %s)\n", args.c_str(), simulator.fastPixels(),
                    simulator.slowPixels(), bv::precisionName(simulator.precision()));
        std::printf("exact image at rest: %.1f ms in %zu slices, first slice after %.1f ms\n",
                    firstMs, firstSlices.size(), firstSlices.empty() ? 0.0 : firstSlices.front());

        std::mt19937 random(20261125);
        std::vector<double> previews, exacts, gpu;
        for (int i = 0; i < changes; ++i) {
            bv::bench::randomChange(experiment, start, random, i);
            const double ms = render(true, nullptr);
            (previewed ? previews : exacts).push_back(ms);
            if (previewed)
                gpu.push_back(simulator.gpuMilliseconds());
        }
        std::printf("budget %.1f ms; %d moving changes: %zu previews, %zu exact\n", budget, changes,
                    previews.size(), exacts.size());
        if (!previews.empty()) {
            const bv::bench::Stats p = bv::bench::stats(previews), g = bv::bench::stats(gpu);
            std::printf("preview change -> image on the device: median %.2f ms, p95 %.2f ms, max "
                        "%.2f ms; GPU median %.2f ms; last preview: %s\n",
                        p.median, bv::bench::percentile(previews, 0.95), p.max, g.median,
                        leftOut.c_str());
        }
        std::vector<double> restSlices;
        const double restMs = render(false, &restSlices);
        std::printf("exact image after the last change: %.1f ms in %zu slices (refinements at",
                    restMs, restSlices.size());
        for (std::size_t i = 0; i < restSlices.size() && i < 12; ++i)
            std::printf(" %.0f", restSlices[i]);
        std::printf("%s ms)\n", restSlices.size() > 12 ? " ..." : "");
        if (soakSeconds > 0) {
            const auto soakStart = Clock::now();
            std::printf("soak: resident %.1f MiB at the start\n", residentMiB());
            int minute = 0, i = changes;
            for (; millisecondsSince(soakStart) < soakSeconds * 1000.0; ++i) {
                bv::bench::randomChange(experiment, start, random, i);
                render(true, nullptr);
                if (millisecondsSince(soakStart) >= (minute + 1) * 60000.0) {
                    ++minute;
                    std::printf("soak: %d min, %d changes, resident %.1f MiB\n", minute,
                                i - changes + 1, residentMiB());
                    std::fflush(stdout);
                }
            }
            std::printf("soak: %d changes in %.0f s, resident %.1f MiB at the end\n", i - changes,
                        millisecondsSince(soakStart) / 1000.0, residentMiB());
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "braggview-bench-preview: %s\n", e.what());
        return 1;
    }
}
