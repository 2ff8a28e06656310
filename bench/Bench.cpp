// braggview-bench: GPU time (timestamp queries) and wall time of the Simulator for named cases
// or any nanoBragg command line, repeated, with median and spread. Numbers go to
// docs/performance.md, never into tests.
//
//   braggview-bench [--repeats N] [--precision fast|precise|both] [--json FILE] [--device D]
//                   [--shader FILE.spv] [--label TEXT] [--local-size WxH] [--slice-work N]
//                   [--statistics] [--pipeline generic|specialised|both] [--cancel-after MS]
//                   [--no-readback] (--case NAME ... | -- <nanoBragg arguments>)
//   braggview-bench --shape-soak N [--precision fast|precise] [-- <nanoBragg arguments>]
//   braggview-bench --list
//
// --shader runs a SPIR-V variant of the diffraction shader instead of the built-in one (give
// --precision to match it) and --label names the variant in the output; --local-size and
// --slice-work set the workgroup shape and the pixel-steps per dispatch (SimulatorOptions);
// --statistics prints what the driver says about each pipeline (registers, spills, ...)
// where it implements VK_KHR_pipeline_executable_properties. --pipeline runs the generic
// pipeline (shape read from the parameter block), the one specialised to the case's shape
// (the default; its build time is printed as "compile"), or both, one after the other
// (Simulator.h, docs/performance.md "Pipelines per shape"). --cancel-after MS starts each
// timed run, calls requestCancel() MS ms later and times from there to the run's end (the
// run's slices forced into one, so the request lands inside it); "cancel" is that latency's
// median. --no-readback leaves each run's image on the device (Simulator::setImageReadback, as
// a fit does): the runs follow each other with microseconds between them instead of the
// host's copy of the frame, so the GPU stays at the clock it works at in a series, rather than
// the one it drops to while idle (docs/performance.md, session 10). --shape-soak runs N plans of
// changing shape (oversample 1..5 x mosaic domains 1..7 x sources 1..3, a new pipeline for each
// of the 105 shapes it meets first, then ones let go and built again) on one Simulator that
// builds them as the viewer does (at once on a CPU device, in the background on a GPU), and
// prints the resident memory every
// N/10 runs: it must stay flat (at most Simulator::kSpecialisedPipelines are kept).

#include "bench/BenchSupport.h"
#include "compute/cli/CommandLine.h"
#include "compute/request/Inputs.h"
#include "compute/core/Error.h"
#include "compute/engine/Simulator.h"
#include "compute/run/PreparedRun.h"
#include "compute/plan/Plan.h"
#include "compute/vk/Device.h"
#include "compute/vk/Instance.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using bv::bench::namedCases;
using bv::bench::Stats;
using bv::bench::stats;
using bv::bench::words;

using Clock = std::chrono::steady_clock;

// What a run of the benchmark varies besides the case and the precision.
struct Setup {
    std::string label = "built-in";
    std::vector<std::uint32_t> shaderCode;
    std::uint32_t localSizeX = bv::engine::SimulatorOptions{}.localSizeX;
    std::uint32_t localSizeY = bv::engine::SimulatorOptions{}.localSizeY;
    std::uint64_t workPerSlice = 0; // 0: the Simulator's default
    bool statistics = false;
    bool specialised = true;
    double cancelAfter = -1; // ms; < 0: no cancel measurement
    bool readback = true;
};

std::vector<std::uint32_t> readSpirv(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw bv::Error("--shader: cannot read " + path);
    const std::vector<char> bytes{std::istreambuf_iterator<char>(in),
                                  std::istreambuf_iterator<char>()};
    if (bytes.empty() || bytes.size() % 4 != 0)
        throw bv::Error("--shader: " + path + " is not SPIR-V (size " +
                        std::to_string(bytes.size()) + ")");
    std::vector<std::uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), bytes.size());
    return words;
}

struct Result {
    std::string name, args, precision, device, label;
    long pixels = 0, stepsPerPixel = 0;
    int repeats = 0, dispatches = 0;
    Stats gpu, wall;
    double firstRunWall = 0;
    double compileMilliseconds = 0; // the specialised pipeline's build (0: generic)
    Stats cancel;                   // requestCancel() -> run finished, ms
    std::vector<std::string> statistics;
};

Result runCase(const bv::vk::Device& device, const std::string& name, const std::string& args,
               bv::engine::Precision precision, int repeats, const Setup& setup) {
    bv::RunRequest cl = bv::cli::parseCommandLine(words(args));
    std::ostringstream quiet;
    bv::request::loadInputs(cl, quiet);
    const bv::run::PreparedRun prepared = bv::run::prepareQuietly(cl.experiment);
    const bv::plan::Plan& plan = prepared.plan;

    bv::engine::SimulatorOptions options;
    options.precision = precision;
    options.shaderCode = setup.shaderCode;
    options.localSizeX = setup.localSizeX;
    options.localSizeY = setup.localSizeY;
    if (setup.workPerSlice > 0)
        options.workPerSlice = setup.workPerSlice;
    if (setup.cancelAfter >= 0)
        options.workPerSlice = std::uint64_t(1) << 62; // one slice: cancel inside it
    options.specialisation = setup.specialised
                                 ? bv::engine::SimulatorOptions::Specialisation::Wait
                                 : bv::engine::SimulatorOptions::Specialisation::Generic;
    bv::engine::Simulator simulator(device, options);
    bv::run::setPlan(simulator, prepared);
    simulator.setImageReadback(setup.readback);

    Result out;
    out.name = name;
    out.args = args;
    out.precision = bv::engine::precisionName(simulator.precision());
    out.device = device.description();
    out.label = setup.label + " " + std::to_string(setup.localSizeX) + "x" +
                std::to_string(setup.localSizeY) +
                (setup.specialised ? " specialised" : " generic");
    out.compileMilliseconds = simulator.lastBuildMilliseconds();
    out.statistics = simulator.pipelineStatistics();
    out.pixels = static_cast<long>(plan.fastPixels) * plan.slowPixels;
    out.stepsPerPixel = static_cast<long>(simulator.stepsPerPixel());
    out.repeats = repeats;
    const auto t0 = Clock::now();
    simulator.run(); // first run: pipeline already built in setPlan; caches warm up
    out.firstRunWall = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    std::vector<double> gpu, wall;
    for (int i = 0; i < repeats; ++i) {
        const auto start = Clock::now();
        simulator.run();
        wall.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        gpu.push_back(simulator.gpuMilliseconds());
    }
    out.dispatches = simulator.sliceCount();
    if (setup.cancelAfter >= 0) {
        std::vector<double> latency;
        for (int i = 0; i < repeats; ++i) {
            simulator.start();
            std::this_thread::sleep_for(
                std::chrono::duration<double, std::milli>(setup.cancelAfter));
            const auto request = Clock::now();
            simulator.requestCancel();
            simulator.cancel(); // waits for the slice on the device, now stopping
            latency.push_back(
                std::chrono::duration<double, std::milli>(Clock::now() - request).count());
        }
        out.cancel = stats(latency);
    }
    out.gpu = stats(gpu);
    out.wall = stats(wall);
    return out;
}

void shapeSoak(const bv::vk::Device& device, int runs, bv::engine::Precision precision,
               const std::string& args) {
    bv::engine::SimulatorOptions options;
    options.precision = precision;
    // as the viewer (app/SimulationController.cpp)
    const bool cpu = device.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    options.specialisation = bv::engine::interactiveSpecialisation(device);
    std::printf("pipelines built %s, as the viewer does on this device\n",
                cpu ? "at once" : "in the background");
    bv::engine::Simulator simulator(device, options);
    const auto start = Clock::now();
    int specialisedRuns = 0;
    for (int i = 0; i < runs; ++i) {
        const std::string line = args + " -oversample " + std::to_string(1 + i % 5) +
                                 " -mosaic 0.5 -mosaic_dom " + std::to_string(1 + (i / 5) % 7) +
                                 " -dispsteps " + std::to_string(1 + (i / 35) % 3) +
                                 " -dispersion 0.5";
        bv::RunRequest cl = bv::cli::parseCommandLine(words(line));
        std::ostringstream quiet;
        bv::request::loadInputs(cl, quiet);
        bv::run::setPlan(simulator, bv::run::prepareQuietly(cl.experiment));
        specialisedRuns += simulator.specialised() ? 1 : 0;
        simulator.run();
        if (i % std::max(1, runs / 10) == 0 || i + 1 == runs)
            std::printf("run %5d: %7ld KiB resident, %3d pipelines built, %d held, %d of the runs "
                        "so far specialised, %.1f s\n",
                        i + 1, bv::bench::residentKiB(), simulator.pipelineCount(), simulator.pipelinesHeld(),
                        specialisedRuns,
                        std::chrono::duration<double>(Clock::now() - start).count());
    }
}

std::string jsonEscape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '"' || c == '\\')
            o += '\\';
        o += c;
    }
    return o;
}

void printJson(std::ostream& o, const std::vector<Result>& results) {
    o << "[\n";
    for (std::size_t i = 0; i < results.size(); ++i) {
        const Result& r = results[i];
        o << "  {\"case\": \"" << r.name << "\", \"variant\": \"" << jsonEscape(r.label)
          << "\", \"precision\": \"" << r.precision << "\", \"device\": \"" << jsonEscape(r.device)
          << "\", \"args\": \"" << r.args << "\", \"pixels\": " << r.pixels
          << ", \"steps_per_pixel\": " << r.stepsPerPixel << ", \"repeats\": " << r.repeats
          << ", \"dispatches\": " << r.dispatches << ", \"gpu_ms\": {\"median\": " << r.gpu.median
          << ", \"min\": " << r.gpu.min << ", \"max\": " << r.gpu.max
          << "}, \"run_ms\": {\"median\": " << r.wall.median << ", \"min\": " << r.wall.min
          << ", \"max\": " << r.wall.max << "}, \"first_run_ms\": " << r.firstRunWall
          << ", \"compile_ms\": " << r.compileMilliseconds << "}"
          << (i + 1 < results.size() ? "," : "") << "\n";
    }
    o << "]\n";
}

int usage() {
    std::cerr
        << "usage: braggview-bench [--repeats N] [--precision fast|precise|both] [--json FILE]\n"
           "                       [--device D] [--shader FILE.spv] [--label TEXT]\n"
           "                       [--local-size WxH] [--slice-work N] [--statistics]\n"
           "                       [--pipeline generic|specialised|both]\n"
           "                       [--no-readback] (--case NAME ... | -- <nanoBragg arguments>)\n"
           "       braggview-bench --list\n";
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    bv::vk::skipMesaDeviceSelectLayer(); // as the headless mode does
    std::vector<std::string> args(argv + 1, argv + argc);
    int repeats = 10;
    std::string precisionText = "both", jsonPath, deviceChoice, pipelineText = "specialised";
    int soakRuns = 0;
    Setup setup;
    std::string shaderPath;
    bool labelGiven = false;
    std::vector<std::pair<std::string, std::string>> cases;
    try {
        for (std::size_t i = 0; i < args.size(); ++i) {
            const std::string& a = args[i];
            auto value = [&]() -> const std::string& {
                if (i + 1 >= args.size())
                    throw bv::Error(a + ": missing value");
                return args[++i];
            };
            if (a == "--list") {
                for (const auto& [name, line] : namedCases())
                    std::cout << name << ": " << line << "\n";
                return 0;
            } else if (a == "--repeats") {
                repeats = std::stoi(value());
                if (repeats < 1)
                    throw bv::Error("--repeats: expected 1 or more");
            } else if (a == "--precision") {
                precisionText = value();
            } else if (a == "--json") {
                jsonPath = value();
            } else if (a == "--device") {
                deviceChoice = value();
            } else if (a == "--shader") {
                shaderPath = value();
                setup.shaderCode = readSpirv(shaderPath);
            } else if (a == "--label") {
                setup.label = value();
                labelGiven = true;
            } else if (a == "--local-size") {
                const std::string size = value();
                const auto x = size.find('x');
                if (x == std::string::npos)
                    throw bv::Error("--local-size: expected WxH, e.g. 16x8");
                setup.localSizeX = static_cast<std::uint32_t>(std::stoul(size.substr(0, x)));
                setup.localSizeY = static_cast<std::uint32_t>(std::stoul(size.substr(x + 1)));
            } else if (a == "--slice-work") {
                setup.workPerSlice = std::stoull(value());
            } else if (a == "--pipeline") {
                pipelineText = value();
                if (pipelineText != "generic" && pipelineText != "specialised" &&
                    pipelineText != "both")
                    throw bv::Error("--pipeline: expected generic, specialised or both");
            } else if (a == "--cancel-after") {
                setup.cancelAfter = std::stod(value());
            } else if (a == "--shape-soak") {
                soakRuns = std::stoi(value());
            } else if (a == "--no-readback") {
                setup.readback = false;
            } else if (a == "--statistics") {
                setup.statistics = true;
            } else if (a == "--case") {
                const std::string name = value();
                const auto it = namedCases().find(name);
                if (it == namedCases().end())
                    throw bv::Error("--case: unknown case " + name + " (--list shows them)");
                cases.emplace_back(name, it->second);
            } else if (a == "--") {
                std::string line;
                for (++i; i < args.size(); ++i)
                    line += (line.empty() ? "" : " ") + args[i];
                cases.emplace_back("custom", line);
            } else {
                return usage();
            }
        }
        if (!shaderPath.empty() && !labelGiven) // a variant is named by its file unless labelled
            setup.label = shaderPath.substr(shaderPath.find_last_of('/') + 1);
        if (soakRuns > 0) {
            const bv::vk::Device device(bv::vk::DeviceOptions{});
            const std::string base =
                cases.empty() ? "-cell 100 100 100 90 90 90 -lambda 6.2 -N 5 -default_F 100 "
                                "-distance 100 -detpixels 128"
                              : cases.front().second;
            shapeSoak(device, soakRuns,
                      precisionText == "precise" ? bv::engine::Precision::Precise
                                                 : bv::engine::Precision::Fast,
                      base);
            std::printf("device: %s\n", device.description().c_str());
            return 0;
        }
        if (cases.empty())
            return usage();
        std::vector<bv::engine::Precision> precisions;
        if (precisionText == "both")
            precisions = {bv::engine::Precision::Fast, bv::engine::Precision::Precise};
        else if (auto p = bv::engine::precisionFromName(precisionText))
            precisions = {*p};
        else
            throw bv::Error("--precision: expected fast, precise or both");

        bv::vk::DeviceOptions deviceOptions;
        deviceOptions.deviceOverride = deviceChoice;
        deviceOptions.pipelineStatistics = setup.statistics;
        const bv::vk::Device device(deviceOptions);
        std::vector<Result> results;
        std::printf("%-17s %-8s %10s %10s %10s %10s %10s  %s\n", "case", "mode", "gpu_med",
                    "gpu_min", "gpu_max", "run_med", "first", "(ms; device below)");
        if (!setup.shaderCode.empty() || setup.label != "built-in")
            std::printf("variant: %s, workgroup %ux%u\n", setup.label.c_str(), setup.localSizeX,
                        setup.localSizeY);
        std::vector<bool> pipelines;
        if (pipelineText != "specialised")
            pipelines.push_back(false);
        if (pipelineText != "generic")
            pipelines.push_back(true);
        for (const auto& [name, line] : cases) {
            for (bv::engine::Precision p : precisions) {
                for (bool specialised : pipelines) {
                    Setup s = setup;
                    s.specialised = specialised;
                    const Result r = runCase(device, name, line, p, repeats, s);
                    std::printf("%-17s %-8s %10.3f %10.3f %10.3f %10.3f %10.3f  %ld px x %ld "
                                "steps, %d dispatches, %s",
                                r.name.c_str(), r.precision.c_str(), r.gpu.median, r.gpu.min,
                                r.gpu.max, r.wall.median, r.firstRunWall, r.pixels, r.stepsPerPixel,
                                r.dispatches, specialised ? "specialised" : "generic");
                    if (specialised)
                        std::printf(" (compile %.1f ms)", r.compileMilliseconds);
                    if (s.cancelAfter >= 0)
                        std::printf("; cancelled %.0f ms in: stopped %.1f ms later (median; "
                                    "%.1f-%.1f)",
                                    s.cancelAfter, r.cancel.median, r.cancel.min, r.cancel.max);
                    std::printf("\n");
                    if (setup.statistics)
                        for (const std::string& statistic : r.statistics)
                            std::printf("    %s\n", statistic.c_str());
                    results.push_back(r);
                }
            }
        }
        std::printf("device: %s; %d repeats after one warm-up run\n", device.description().c_str(),
                    repeats);
        if (!jsonPath.empty()) {
            std::ofstream json(jsonPath);
            printJson(json, results);
        }
    } catch (const std::exception& e) {
        std::cerr << "braggview-bench: error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
