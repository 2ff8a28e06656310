// braggview-bench-viewer: the real viewer's latency, on a display (Xvfb will do). Opens the
// MainWindow on a case and measures
//   - launch: process start -> the first complete image drawn in the window, and
//   - latency: a parameter change -> the new image complete and a frame drawn after it,
//     over N changes (bench/ParameterChanges.h, the same as braggview-bench-latency's),
// printing median, p95 and maximum. Numbers go to docs/performance.md, never into tests.
// With --drag N: a slider dragged instead, N distance values 0.1 mm apart, one every 16 ms
// (60 Hz) whatever the viewer does, measuring each image shown during the drag (preview or
// exact) from the change whose value it shows to the image ready, and the exact image after
// the last change (drawn); --no-preview runs the same with previews off (the viewer as it was
// before them).
//
//   xvfb-run -s "-screen 0 1920x1080x24" braggview-bench-viewer [--changes N | --drag N]
//       [--no-preview] [--precision fast|precise] [--since NANOSECONDS]
//       (--case NAME | -- <nanoBragg arguments>)
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
#include <map>
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

// A slider dragged: `changes` distances 0.1 mm apart, one every 16 ms. Prints the latency of
// the images shown meanwhile and of the exact image after the last change.
int drag(bv::app::MainWindow& window, int changes, int limitMs) {
    bv::app::SimulationController& controller = window.controller();
    QElapsedTimer clock;
    std::map<double, double> changedAt; // distance -> ms on the clock
    std::vector<double> previews, exacts;
    int shown = 0;
    QString leftOut; // what the last preview left out
    const QMetaObject::Connection watch =
        QObject::connect(&controller, &bv::app::SimulationController::imageReady, [&] {
            // the change whose distance the image shows (resolve() may round it)
            const bv::ResolvedExperiment* r = controller.resolved();
            if (!r)
                return;
            const double d = r->detector.distance;
            auto at = changedAt.lower_bound(d - 1e-9);
            if (at == changedAt.end() || at->first > d + 1e-9)
                return; // an image of before the drag
            ++shown;
            const double ms = static_cast<double>(clock.nsecsElapsed()) / 1e6 - at->second;
            (controller.isPreview() ? previews : exacts).push_back(ms);
            if (controller.isPreview())
                leftOut = controller.previewDescription();
        });
    const double start = window.document().experiment().detector.distance;
    const int previewsBefore = controller.previewRuns();
    clock.start();
    double last = 0.0;
    for (int i = 1; i <= changes; ++i) {
        while (clock.elapsed() < 16 * (i - 1))
            QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
        const double d = start + 1e-4 * i;
        last = static_cast<double>(clock.nsecsElapsed()) / 1e6;
        changedAt[d] = last;
        window.document().edit([d](bv::Experiment& e) { e.detector.distance = d; });
    }
    std::vector<double> duringDrag = previews;
    duringDrag.insert(duringDrag.end(), exacts.begin(), exacts.end());
    const int shownDuringDrag = shown;
    if (!waitImageDrawn(window, limitMs)) {
        std::fprintf(stderr, "braggview-bench-viewer: no image after the drag: %s\n",
                     qPrintable(controller.lastError()));
        return 1;
    }
    const double exactMs = static_cast<double>(clock.nsecsElapsed()) / 1e6 - last;
    QObject::disconnect(watch);
    std::printf("drag: %d changes at 60 Hz over %.0f ms; %d images shown during it (%d previews)\n",
                changes, last, shownDuringDrag, controller.previewRuns() - previewsBefore);
    if (!duringDrag.empty()) {
        const bv::bench::Stats d = bv::bench::stats(duringDrag);
        std::printf("images during the drag, change -> image ready: median %.1f ms, p95 %.1f ms, "
                    "max %.1f\n",
                    d.median, bv::bench::percentile(duringDrag, 0.95), d.max);
    }
    if (!previews.empty()) {
        const bv::bench::Stats p = bv::bench::stats(previews);
        std::printf("  of them previews: %zu, median %.1f ms, p95 %.1f ms (%s)\n", previews.size(),
                    p.median, bv::bench::percentile(previews, 0.95), qPrintable(leftOut));
    }
    std::printf("last change -> exact image complete and drawn: %.1f ms (GPU %.1f ms last)\n",
                exactMs, controller.lastGpuMilliseconds());
    return 0;
}

double realtimeMilliseconds() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

int usage() {
    std::fprintf(stderr, "usage: braggview-bench-viewer [--changes N | --drag N] [--no-preview] "
                         "[--precision fast|precise] [--since NS] "
                         "(--case NAME | -- <nanoBragg arguments>)\n");
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    const double mainAt = realtimeMilliseconds();
    QApplication application(argc, argv);
    int changes = 200;
    int dragChanges = 0;
    bool previews = true;
    double since = mainAt;
    std::string precision = "fast";
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (a == "--changes" && hasValue)
            changes = std::atoi(argv[++i]);
        else if (a == "--drag" && hasValue)
            dragChanges = std::atoi(argv[++i]);
        else if (a == "--no-preview")
            previews = false;
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
        if (!previews)
            window.controller().setPreviewBudget(0.0);
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

        if (dragChanges > 0) {
            std::printf("device: %s\n", qPrintable(window.controller().deviceDescription()));
            std::printf("launch -> first image drawn: %.0f ms; previews %s\n", launchMs,
                        previews ? "on" : "off");
            // a few single changes first: the rate of the device, as after a while of use
            for (int i = 0; i < 3; ++i) {
                window.document().edit([](bv::Experiment& e) { e.detector.distance += 1e-3; });
                if (!waitImageDrawn(window, kLimitMs))
                    return 1;
                QThread::msleep(300); // apart: single changes, not a movement
            }
            return drag(window, dragChanges, kLimitMs);
        }
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
