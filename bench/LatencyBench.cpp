// braggview-bench-latency: what a slider costs. Repeats the viewer's work for one parameter
// change (app/SimulationController: run::prepare, setPlan, start, poll isFinished until
// the image is complete, copy the image to the host for the readout) for a series of random
// changes, and prints the median, p95 and maximum of change -> finished image. Also the cold
// start: the Simulator's construction and its first setPlan (pipeline from the cache).
// Numbers go to docs/performance.md, never into tests.
//
//   braggview-bench-latency [--changes N] [--precision fast|precise] [--json FILE]
//                           [--device D] (--case NAME | -- <nanoBragg arguments>)
//
// No window is drawn: on the GPU machine (no Qt, no display) this is the compute side of the
// viewer's latency; drawing the finished buffer adds one textured quad (braggview-bench-viewer
// measures the real window). The changes are bench/ParameterChanges.h's, from a fixed seed.

#include "bench/BenchSupport.h"
#include "bench/ParameterChanges.h"
#include "compute/cli/CommandLine.h"
#include "compute/request/Inputs.h"
#include "compute/engine/Simulator.h"
#include "compute/core/Error.h"
#include "compute/run/PreparedRun.h"
#include "compute/vk/Device.h"
#include "compute/vk/Instance.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
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
    std::fprintf(stderr, "usage: braggview-bench-latency [--changes N] [--precision fast|precise] "
                         "[--json FILE] [--device D] (--case NAME | -- <nanoBragg arguments>)\n");
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    bv::vk::skipMesaDeviceSelectLayer(); // as the headless mode does
    int changes = 200;
    std::string precisionName = "fast", jsonPath, device, args;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (a == "--changes" && hasValue)
            changes = std::atoi(argv[++i]);
        else if (a == "--precision" && hasValue)
            precisionName = argv[++i];
        else if (a == "--json" && hasValue)
            jsonPath = argv[++i];
        else if (a == "--device" && hasValue)
            device = argv[++i];
        else if (const int taken = bv::bench::caseWords(i, argc, argv, "braggview-bench-latency", args)) {
            if (taken < 0)
                return 2;
        } else
            return usage();
    }
    if (args.empty() || changes < 1)
        return usage();

    try {
        const auto precision = bv::precisionFromName(precisionName);
        if (!precision)
            throw bv::Error("--precision: fast or precise, not " + precisionName);
        bv::RunRequest cl = bv::cli::parseCommandLine(bv::bench::words(args));
        std::ostringstream quiet;
        bv::request::loadInputs(cl, quiet);

        auto begin = Clock::now();
        bv::vk::DeviceOptions deviceOptions;
        deviceOptions.deviceOverride = device;
        bv::vk::Device vulkan(deviceOptions);
        const double deviceMs = millisecondsSince(begin);

        bv::engine::SimulatorOptions options;
        options.precision = *precision;
        begin = Clock::now();
        bv::engine::Simulator simulator(vulkan, options);
        const double constructMs = millisecondsSince(begin);

        // the viewer's work for one state of the document
        const bv::Experiment start = cl.experiment;
        bv::Experiment experiment = start;
        std::vector<float> hostImage;
        auto render = [&] {
            bv::run::setPlan(simulator, bv::run::prepareQuietly(experiment));
            simulator.start();
            while (!simulator.isFinished())
                std::this_thread::sleep_for(std::chrono::microseconds(50));
            simulator.finish(); // reads the timestamps, as the viewer's finishRun does
            hostImage = simulator.image();
        };
        begin = Clock::now();
        render();
        const double firstMs = millisecondsSince(begin);
        std::vector<bv::vk::PhaseTime> firstPlan = simulator.lastPlanTimes();
        const auto cacheUse = simulator.pipelineCacheUse();
        const char* cacheWord = cacheUse == bv::vk::ComputePipeline::CacheUse::Hit    ? "hit"
                                : cacheUse == bv::vk::ComputePipeline::CacheUse::Miss ? "miss"
                                                                                      : "unknown";
        double pipelineMs = 0;
        for (const auto& phase : firstPlan)
            if (phase.name == "pipeline")
                pipelineMs = phase.milliseconds;

        std::mt19937 random(20261122);
        std::vector<double> latency, gpu;
        bv::bench::LatencyByParameter byParameter;
        for (int i = 0; i < changes; ++i) {
            const auto t0 = Clock::now();
            const std::string parameter = bv::bench::randomChange(experiment, start, random, i);
            render();
            latency.push_back(millisecondsSince(t0));
            byParameter.add(parameter, latency.back());
            gpu.push_back(simulator.gpuMilliseconds());
        }
        const bv::bench::Stats l = bv::bench::stats(latency), g = bv::bench::stats(gpu);
        const double p95 = bv::bench::percentile(latency, 0.95);

        std::printf("device: %s\n", simulator.deviceDescription().c_str());
        std::printf("case: %s (%dx%d, %s)\n", args.c_str(), simulator.fastPixels(),
                    simulator.slowPixels(), bv::precisionName(simulator.precision()));
        std::printf("cold start: device %.1f ms, Simulator %.1f ms (pipeline cache %zu bytes "
                    "read), first image %.1f ms of which pipeline %.2f ms (cache %s)\n",
                    deviceMs, constructMs, simulator.pipelineCacheLoadedBytes(), firstMs,
                    pipelineMs, cacheWord);
        std::printf("latency over %d changes, change -> image on the host: median %.2f ms, "
                    "p95 %.2f ms, min %.2f, max %.2f; GPU median %.3f ms; recordings %d\n",
                    changes, l.median, p95, l.min, l.max, g.median, simulator.recordCount());
        byParameter.print();
        if (!jsonPath.empty()) {
            std::ofstream out(jsonPath);
            out << "{\"device\": \"" << simulator.deviceDescription() << "\", \"pixels\": ["
                << simulator.fastPixels() << ", " << simulator.slowPixels()
                << "], \"precision\": \"" << bv::precisionName(simulator.precision())
                << "\", \"changes\": " << changes << ", \"median_ms\": " << l.median
                << ", \"p95_ms\": " << p95 << ", \"max_ms\": " << l.max
                << ", \"gpu_median_ms\": " << g.median << ", \"device_ms\": " << deviceMs
                << ", \"simulator_ms\": " << constructMs << ", \"first_image_ms\": " << firstMs
                << ", \"pipeline_ms\": " << pipelineMs << "}\n";
            if (!out)
                throw bv::Error("cannot write " + jsonPath);
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "braggview-bench-latency: %s\n", e.what());
        return 1;
    }
}
