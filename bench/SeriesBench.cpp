// braggview-bench-series: frames per second of a rotation series through the real batch path
// (compute/headless/Batch.h: one device, one Simulator, each frame's files computed and
// written), repeated, with median and spread. Numbers go to docs/performance.md, never into
// tests.
//
//   braggview-bench-series [--repeats N] [--dir DIR] [--json FILE] [-- <nanoBragg arguments>]
//
// Without arguments it runs the issue's 20-frame series with SMV noise images:
//   -cell 50 60 70 90 90 90 -misset 10 20 30 -lambda 1.0 -N 10 -default_F 100 -distance 100
//   -detpixels 512 -phi 0 -osc 1 -phisteps 4 -series 20 -noisefile sim_#####.img -seed 1
// Each repeat is a whole series: device and Simulator created, the pipeline taken from the
// pipeline cache (warm after the first, unmeasured, run), every frame rendered and written
// into DIR (default: a fresh directory under $TMPDIR, removed afterwards).

#include "bench/BenchSupport.h"
#include "compute/vk/Instance.h"
#include "compute/headless/Batch.h"
#include "compute/core/Error.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using bv::bench::Stats;
using bv::bench::stats;
using bv::bench::words;

const char* kIssueSeries =
    "-cell 50 60 70 90 90 90 -misset 10 20 30 -lambda 1.0 -N 10 -default_F 100 -distance 100 "
    "-detpixels 512 -phi 0 -osc 1 -phisteps 4 -series 20 -noisefile sim_#####.img -seed 1";

std::string shown(const Stats& s, int precision = 2) {
    std::ostringstream o;
    o.setf(std::ios::fixed);
    o.precision(precision);
    o << s.median << " (" << s.min << "-" << s.max << ")";
    return o.str();
}

int usage() {
    std::cerr << "usage: braggview-bench-series [--repeats N] [--dir DIR] [--json FILE] "
                 "[-- <nanoBragg arguments with -series>]\n";
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    bv::vk::skipMesaDeviceSelectLayer(); // as the headless mode does
    int repeats = 5;
    std::string dir, jsonFile;
    std::vector<std::string> args = words(kIssueSeries);
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--repeats" && i + 1 < argc) {
            repeats = std::max(1, std::atoi(argv[++i]));
        } else if (a == "--dir" && i + 1 < argc) {
            dir = argv[++i];
        } else if (a == "--json" && i + 1 < argc) {
            jsonFile = argv[++i];
        } else if (a == "--") {
            args.assign(argv + i + 1, argv + argc);
            break;
        } else {
            return usage();
        }
    }
    args.push_back("-noprogress");

    namespace fs = std::filesystem;
    const bool scratch = dir.empty();
    try {
        if (scratch) {
            dir = (fs::temp_directory_path() /
                   ("braggview-bench-series-" + std::to_string(::getpid())))
                      .string();
        }
        fs::create_directories(dir);
        const fs::path previous = fs::current_path();
        fs::current_path(dir);

        std::vector<double> seriesSeconds, framesPerSecond, renderMs, gpuMs, filesMs;
        int frames = 0, records = 0;
        for (int r = 0; r <= repeats; ++r) { // run 0 warms the pipeline cache and the disk
            std::ostringstream out, err;
            const auto start = std::chrono::steady_clock::now();
            const bv::headless::BatchReport report = bv::headless::runBatch(args, out, err);
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (r == 0)
                continue;
            frames = report.rendered;
            records = report.recordCount;
            seriesSeconds.push_back(seconds);
            framesPerSecond.push_back(report.rendered / seconds);
            for (const auto& t : report.timings) {
                renderMs.push_back(t.renderMs);
                gpuMs.push_back(t.gpuMs);
                filesMs.push_back(t.filesMs);
            }
        }
        fs::current_path(previous);
        if (scratch)
            fs::remove_all(dir);

        const Stats fps = stats(framesPerSecond), wall = stats(seriesSeconds);
        const Stats render = stats(renderMs), gpu = stats(gpuMs), files = stats(filesMs);
        std::cout << "series: braggview --headless";
        for (const std::string& a : args)
            std::cout << " " << a;
        std::cout << "\n"
                  << frames << " frames, " << repeats << " repeats (after one warm-up), " << records
                  << " command buffer recording per series\n"
                  << "frames/s (whole series, device creation included): " << shown(fps) << "\n"
                  << "series wall s: " << shown(wall, 3) << "\n"
                  << "per frame, ms: render (upload + dispatch + read-back) " << shown(render)
                  << "; GPU " << shown(gpu) << "; files (noise, statistics, write) " << shown(files)
                  << "\n";
        if (!jsonFile.empty()) {
            std::ofstream json(jsonFile);
            json << "{\"frames\": " << frames << ", \"repeats\": " << repeats
                 << ", \"records\": " << records
                 << ", \"frames_per_second\": {\"median\": " << fps.median
                 << ", \"min\": " << fps.min << ", \"max\": " << fps.max
                 << "}, \"series_s\": {\"median\": " << wall.median << ", \"min\": " << wall.min
                 << ", \"max\": " << wall.max << "}, \"render_ms_median\": " << render.median
                 << ", \"gpu_ms_median\": " << gpu.median
                 << ", \"files_ms_median\": " << files.median << "}\n";
        }
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "braggview-bench-series: " << e.what() << "\n";
        return 1;
    }
}
