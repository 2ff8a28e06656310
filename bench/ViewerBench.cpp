// braggview-bench-viewer: the real viewer's latency, on a display (Xvfb will do). Opens the
// MainWindow on a case and measures
//   - launch: process start -> the first complete image drawn in the window, and
//   - latency: a parameter change -> the new image complete and a frame drawn after it,
//     over N changes (bench/ParameterChanges.h, the same as braggview-bench-latency's),
// printing median, p95 and maximum. Numbers go to docs/performance.md, never into tests.
//
//   xvfb-run -s "-screen 0 1920x1080x24" braggview-bench-viewer [--changes N]
//       [--precision fast|precise] [--since NANOSECONDS] (--case NAME | -- <nanoBragg arguments>)
//
// --since: the CLOCK_REALTIME of the exec in ns (`date +%s%N` just before the program starts),
// so that launch includes loading the program and its libraries; without it launch is
// counted from main().

#include "app/ExperimentDocument.h"
#include "app/MainWindow.h"
#include "app/SimulationController.h"
#include "bench/BenchSupport.h"
#include "bench/ParameterChanges.h"
#include "render/ImageWindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QThread>
#include <QVersionNumber>
#include <QVulkanInstance>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

// Processes events until done() or the limit; false on the limit.
bool waitFor(const std::function<bool()>& done, int limitMs) {
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > limitMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
    }
    return true;
}

// The window shows the controller's newest complete image: wait for it, then for a frame
// drawn after it.
bool waitImageDrawn(bv::app::MainWindow& window, int limitMs) {
    bv::app::SimulationController& controller = window.controller();
    if (!waitFor([&] { return controller.isComplete(); }, limitMs))
        return false;
    const auto frames = window.imageWindow().framesRendered();
    window.imageWindow().scheduleRender();
    return waitFor([&] { return window.imageWindow().framesRendered() > frames; }, limitMs);
}

double realtimeMilliseconds() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

int usage() {
    std::fprintf(stderr, "usage: braggview-bench-viewer [--changes N] [--precision fast|precise] "
                         "[--since NS] (--case NAME | -- <nanoBragg arguments>)\n");
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    const double mainAt = realtimeMilliseconds();
    QApplication application(argc, argv);
    int changes = 200;
    double since = mainAt;
    std::string precision = "fast";
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (a == "--changes" && hasValue)
            changes = std::atoi(argv[++i]);
        else if (a == "--precision" && hasValue)
            precision = argv[++i];
        else if (a == "--since" && hasValue)
            since = std::atof(argv[++i]) / 1e6;
        else if (a == "--case" && hasValue) {
            const std::string text = bv::bench::caseArguments(argv[++i]);
            if (text.empty()) {
                std::fprintf(stderr, "braggview-bench-viewer: no case named %s\n", argv[i]);
                return 2;
            }
            args = bv::bench::words(text);
        } else if (a == "--") {
            args.assign(argv + i + 1, argv + argc);
            break;
        } else
            return usage();
    }
    if (args.empty() || changes < 1)
        return usage();
    args.push_back("-precision");
    args.push_back(precision);

    QVulkanInstance instance;
    instance.setApiVersion(QVersionNumber(1, 1));
    if (!instance.create()) {
        std::fprintf(stderr, "braggview-bench-viewer: no Vulkan instance (VkResult %d)\n",
                     instance.errorCode());
        return 1;
    }
    try {
        bv::app::MainWindow window(&instance);
        window.setQuietErrors(true);
        window.document().loadArguments(args);
        window.resize(1500, 950);
        window.show();
        constexpr int kLimitMs = 600000;
        if (!waitImageDrawn(window, kLimitMs)) {
            std::fprintf(stderr, "braggview-bench-viewer: no image: %s\n",
                         qPrintable(window.controller().lastError()));
            return 1;
        }
        const double launchMs = realtimeMilliseconds() - since;
        const double fromMainMs = realtimeMilliseconds() - mainAt;

        const bv::Experiment start = window.document().experiment();
        std::mt19937 random(20261122);
        std::vector<double> latency;
        bv::bench::LatencyByParameter byParameter;
        const int runsBefore = window.controller().completedRuns();
        for (int i = 0; i < changes; ++i) {
            QElapsedTimer clock;
            clock.start();
            std::string parameter;
            window.document().edit([&](bv::Experiment& e) {
                parameter = bv::bench::randomChange(e, start, random, i);
            });
            if (!waitImageDrawn(window, kLimitMs)) {
                std::fprintf(stderr, "braggview-bench-viewer: change %d (%s) gave no image: %s\n",
                             i, parameter.c_str(), qPrintable(window.controller().lastError()));
                return 1;
            }
            latency.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
            byParameter.add(parameter, latency.back());
        }
        const bv::bench::Stats l = bv::bench::stats(latency);
        const auto* simulator = window.controller().simulator();
        std::printf("device: %s\n", qPrintable(window.controller().deviceDescription()));
        std::printf("case: %dx%d, %s precision\n", window.controller().fastPixels(),
                    window.controller().slowPixels(),
                    simulator ? bv::precisionName(simulator->precision()) : "?");
        std::printf("launch -> first image drawn: %.0f ms (%.0f ms from main())\n", launchMs,
                    fromMainMs);
        std::printf("latency over %d changes, change -> image complete and drawn: median %.2f ms, "
                    "p95 %.2f ms, min %.2f, max %.2f; %d runs completed, GPU %.2f ms last\n",
                    changes, l.median, bv::bench::percentile(latency, 0.95), l.min, l.max,
                    window.controller().completedRuns() - runsBefore,
                    window.controller().lastGpuMilliseconds());
        byParameter.print();
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "braggview-bench-viewer: %s\n", e.what());
        return 1;
    }
}
