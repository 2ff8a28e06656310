// braggview-soak: the real viewer (MainWindow on its Vulkan window, under a private Xvfb)
// driven for a while with random parameter changes, as a user moving sliders would, with the
// Vulkan validation layer on; the process's resident memory is sampled throughout.
//
//     braggview-soak [--seconds 600] [--warmup 60] [--max-growth 5] [--seed N] [--samples FILE]
//                    [--verbose] [--no-validation] [--only slider|domains|detector|colormap|zoom]
//
// Changes: the sliders of distance, wavelength, cell edges, misset angles, mosaic spread and
// phi (set to a random tick, as a drag would leave them); now and then the mosaic domain
// count, the detector's pixel counts, the colormap, and the zoom (in, out, fit). Every kind
// of change is made once at the start, so that the warm-up has built every pipeline variant
// and cache the rest of the run meets; the warm-up ends at --warmup seconds.
//
// Report: the resident memory (VmRSS) after the warm-up and at the end, both taken with no
// image in flight, the growth between them in %, the numbers of changes and of completed
// images, and every validation message. Exit status 0; 1 when the layer said anything, the
// memory grew by more than --max-growth %, the engine stopped, the GUI thread stalled (20 s
// without coming back to the soak), or no image completed; 2 when
// the soak could not run (no X server, no Vulkan, no validation layer, a field missing).

#include "tests/app/GuiTestMain.h"
#include "tests/app/ViewerHarness.h"

#include "app/DisplayPanel.h"
#include "app/ParameterField.h"
#include "app/ParameterPanels.h"

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QSlider>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <malloc.h>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Options {
    double seconds = 600.0;
    double warmup = 60.0;
    double maxGrowthPercent = 5.0;
    unsigned seed = 1;
    std::string samplesFile;
    bool verbose = false;   // every change on stdout
    bool validation = true; // --no-validation: to tell the layer's memory from the viewer's
    int only = -1;          // --only KIND: one kind of change after the first round (diagnosis)
};

const char* const kKindNames[] = {"slider", "domains", "detector", "colormap", "zoom"};

// The experiment the soak starts from: a few hundred spots on a small detector, so that
// lavapipe completes several images a second.
// clang-format off
const std::vector<std::string> kStart = {
    "-cell", "70", "80", "90", "90", "90", "90", "-misset", "10", "20", "30", "-lambda", "1",
    "-N", "5", "-default_F", "100", "-distance", "100", "-detpixels", "256", "-mosaic", "0.2",
    "-mosaic_domains", "4", "-phi", "0", "-osc", "0.5", "-phisteps", "2", "-oversample", "1",
    "-seed", "1"};
// clang-format on

const char* const kSliders[] = {"distance", "wavelength", "cella",   "cellb",  "cellc",
                                "missetX",  "missetY",    "missetZ", "mosaic", "phi"};

// VmRSS of this process, KiB (0 if unreadable), after glibc has given back the free memory it
// keeps (malloc_trim), so that only memory in use counts
long residentKiB() {
    malloc_trim(0);
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stol(line.substr(6));
    return 0;
}

std::string mib(long kib) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(kib) / 1024.0);
    return text;
}

std::optional<Options> parseOptions(const QStringList& args) {
    Options o;
    for (int i = 1; i < args.size(); ++i) {
        const QString& a = args[i];
        const bool hasValue = i + 1 < args.size();
        bool ok = true;
        if (a == "--seconds" && hasValue)
            o.seconds = args[++i].toDouble(&ok);
        else if (a == "--warmup" && hasValue)
            o.warmup = args[++i].toDouble(&ok);
        else if (a == "--max-growth" && hasValue)
            o.maxGrowthPercent = args[++i].toDouble(&ok);
        else if (a == "--seed" && hasValue)
            o.seed = args[++i].toUInt(&ok);
        else if (a == "--samples" && hasValue)
            o.samplesFile = args[++i].toStdString();
        else if (a == "--verbose")
            o.verbose = true;
        else if (a == "--no-validation")
            o.validation = false;
        else if (a == "--only" && hasValue) {
            const QString kind = args[++i];
            o.only = -1;
            for (int k = 0; k < 5; ++k)
                if (kind == QLatin1String(kKindNames[k]))
                    o.only = k;
            ok = o.only >= 0;
        } else
            ok = false;
        if (!ok) {
            std::fprintf(stderr,
                         "braggview-soak: bad argument %s\nusage: braggview-soak "
                         "[--seconds S] [--warmup S] [--max-growth PERCENT] [--seed N] "
                         "[--samples FILE] [--verbose] [--no-validation] [--only KIND]\n",
                         qPrintable(a));
            return std::nullopt;
        }
    }
    if (!(o.seconds > 0.0) || !(o.warmup >= 0.0) || o.warmup >= o.seconds) {
        std::fprintf(stderr, "braggview-soak: need 0 <= --warmup < --seconds\n");
        return std::nullopt;
    }
    return o;
}

class Soak {
  public:
    Soak(bv::test::ViewerHarness& viewer, const Options& options)
        : m_viewer(viewer), m_options(options), m_random(options.seed) {}

    // the fields the soak moves; false (and a message) when one is missing
    bool findFields() {
        for (const char* name : kSliders)
            if (!(m_sliders[name] = field(name)))
                return missing(name);
        for (const char* name : {"mosaicDomains", "fastPixels", "slowPixels"})
            if (!(m_spins[name] = field(name)))
                return missing(name);
        return true;
    }

    int run() {
        bv::app::SimulationController& controller = m_viewer.controller();
        QObject::connect(&controller, &bv::app::SimulationController::failed,
                         [this](const QString& message) { note(m_failures, message); });
        QObject::connect(&controller, &bv::app::SimulationController::engineStopped,
                         [this](const QString& message) { note(m_stops, message); });

        QElapsedTimer clock;
        clock.start();
        auto now = [&] { return static_cast<double>(clock.elapsed()) / 1000.0; };
        std::ofstream samples;
        if (!m_options.samplesFile.empty())
            samples.open(m_options.samplesFile);
        samples << "# seconds rss_kib changes completed_images\n";
        auto sample = [&] {
            const long rss = residentKiB();
            samples << now() << " " << rss << " " << m_changes << " " << controller.completedRuns()
                    << "\n"
                    << std::flush;
            return rss;
        };

        // every kind of change once, then random ones until the end of the warm-up
        for (int kind = 0; kind < kKinds; ++kind) {
            const std::string what = change(kind);
            if (m_options.verbose)
                std::printf("%8.2f s  change %d: %s\n", now(), m_changes, what.c_str());
        }
        long warmRss = 0;
        int warmImages = 0, warmChanges = 0;
        double nextSample = 0.0;
        long minRss = 0, maxRss = 0;
        bool warm = false;
        while (now() < m_options.seconds && m_stops.empty()) {
            const double before = now();
            const std::string what = change(randomKind());
            if (m_options.verbose)
                std::printf("%8.2f s  change %d: %s\n", before, m_changes, what.c_str());
            QTest::qWait(std::uniform_int_distribution<int>(80, 500)(m_random));
            // the GUI thread should never be away this long: a hang, reported as one
            if (now() - before > kStallSeconds) {
                std::printf("soak: the GUI thread did not come back for %.1f s after change %d "
                            "(%s); images completed: %d, busy: %s\n",
                            now() - before, m_changes, what.c_str(), controller.completedRuns(),
                            controller.isBusy() ? "yes" : "no");
                ++m_stalls;
            }
            std::fflush(stdout);
            if (!warm && now() >= m_options.warmup) {
                if (!m_viewer.waitImage()) // no image in flight: a state the end can repeat
                    std::printf("soak: no complete image at the end of the warm-up (busy: %s, "
                                "%d images, %d interrupted runs)\n",
                                controller.isBusy() ? "yes" : "no", controller.completedRuns(),
                                controller.interruptedRuns());
                warmRss = sample();
                minRss = maxRss = warmRss;
                warmImages = controller.completedRuns();
                warmChanges = m_changes;
                warm = true;
                std::printf("soak: warm-up over at %.0f s: %s resident, %d changes, %d images\n",
                            now(), mib(warmRss).c_str(), m_changes, warmImages);
                std::fflush(stdout);
            }
            if (now() >= nextSample) {
                const long rss = sample();
                if (warm) {
                    minRss = std::min(minRss, rss);
                    maxRss = std::max(maxRss, rss);
                }
                nextSample = now() + 2.0;
            }
        }
        const bool lastImage = m_viewer.waitImage();
        QTest::qWait(500); // its frame drawn
        const long endRss = sample();
        const double seconds = now();
        const int images = controller.completedRuns();
        const QStringList validation = bv::test::takeValidationMessages();

        const double growth = warmRss > 0 ? 100.0 * static_cast<double>(endRss - warmRss) /
                                                static_cast<double>(warmRss)
                                          : 0.0;
        std::printf("soak: %.0f s, %d changes (%d after the warm-up): %d sliders, %d mosaic domain "
                    "counts, %d detector sizes, %d colormaps, %d zooms\n",
                    seconds, m_changes, m_changes - warmChanges, m_counts[0], m_counts[1],
                    m_counts[2], m_counts[3], m_counts[4]);
        std::printf("soak: %d images completed (%d after the warm-up), %d parameter states "
                    "superseded before they were rendered, %d failed runs\n",
                    images, images - warmImages, controller.skippedStates(),
                    static_cast<int>(m_failures.size()));
        std::printf("soak: resident memory after the warm-up %s, at the end %s: %+.2f %% (limit "
                    "%.1f %%); %s to %s between\n",
                    mib(warmRss).c_str(), mib(endRss).c_str(), growth, m_options.maxGrowthPercent,
                    mib(minRss).c_str(), mib(maxRss).c_str());
        std::printf("soak: %d validation messages\n", static_cast<int>(validation.size()));
        for (const QString& message : validation)
            std::printf("  validation: %s\n", qPrintable(message));
        for (const auto& [message, count] : m_failures)
            std::printf("  failed run (%dx): %s\n", count, qPrintable(message));
        for (const auto& [message, count] : m_stops)
            std::printf("  engine stopped: %s\n", qPrintable(message));

        bool ok = true;
        auto fail = [&](const char* why) {
            std::printf("soak: FAILED: %s\n", why);
            ok = false;
        };
        if (!validation.isEmpty())
            fail("the validation layer reported problems");
        if (growth > m_options.maxGrowthPercent)
            fail("resident memory grew more than the limit after the warm-up");
        if (!m_stops.empty())
            fail("the engine stopped");
        if (m_stalls > 0)
            fail("the GUI thread stalled");
        if (!lastImage)
            fail("the last image did not complete");
        if (images - warmImages < 1)
            fail("no image completed after the warm-up");
        if (ok)
            std::printf("soak: passed\n");
        std::fflush(stdout);
        return ok ? 0 : 1;
    }

  private:
    static constexpr int kKinds = 5; // slider, domains, detector, colormap, zoom
    static constexpr double kStallSeconds = 20.0;

    bv::app::ParameterField* field(const char* name) {
        for (bv::app::ParameterPanel* p : m_viewer.window->panels())
            if (bv::app::ParameterField* f = p->field(QLatin1String(name)))
                return f;
        return nullptr;
    }
    bool missing(const char* name) {
        std::fprintf(stderr, "braggview-soak: the viewer has no parameter field \"%s\"\n", name);
        return false;
    }
    static void note(std::map<QString, int>& messages, const QString& message) {
        ++messages[message];
    }

    // mostly sliders; the costlier changes now and then
    int randomKind() {
        if (m_options.only >= 0)
            return m_options.only;
        const int roll = std::uniform_int_distribution<int>(0, 99)(m_random);
        return roll < 70 ? 0 : roll < 76 ? 1 : roll < 80 ? 2 : roll < 90 ? 3 : 4;
    }

    template <typename T> T pick(std::initializer_list<T> values) {
        const auto i = std::uniform_int_distribution<std::size_t>(0, values.size() - 1)(m_random);
        return *(values.begin() + i);
    }

    // makes one change of the kind; says what it did
    std::string change(int kind) {
        ++m_changes;
        ++m_counts[kind];
        std::ostringstream what;
        switch (kind) {
        case 0: { // a slider dragged somewhere
            const char* name = kSliders[std::uniform_int_distribution<std::size_t>(
                0, std::size(kSliders) - 1)(m_random)];
            bv::app::ParameterField* field = m_sliders[name];
            QSlider* slider = field->slider();
            slider->setValue(
                std::uniform_int_distribution<int>(slider->minimum(), slider->maximum())(m_random));
            what << name << " = " << field->value();
            break;
        }
        case 1: {
            const int domains = pick({1, 2, 4, 6, 9});
            m_spins["mosaicDomains"]->spinBox()->setValue(domains);
            what << "mosaicDomains = " << domains;
            break;
        }
        case 2: { // the detector's pixels: new buffers, a new recording
            const int fast = pick({192, 256, 320}), slow = pick({192, 256, 320});
            m_spins["fastPixels"]->spinBox()->setValue(fast);
            m_spins["slowPixels"]->spinBox()->setValue(slow);
            what << "detector " << fast << "x" << slow;
            break;
        }
        case 3: {
            QComboBox* box = m_viewer.window->displayPanel().colormapBox();
            box->setCurrentIndex(std::uniform_int_distribution<int>(0, box->count() - 1)(m_random));
            what << "colormap " << box->currentText().toStdString();
            break;
        }
        case 4: {
            bv::render::ImageWindow& view = m_viewer.window->imageWindow();
            if (std::uniform_int_distribution<int>(0, 3)(m_random) == 0) {
                view.fitToWindow();
                what << "zoom to fit";
            } else {
                const double factor = pick({0.5, 0.8, 1.25, 2.0});
                view.zoomBy(factor);
                what << "zoom by " << factor;
            }
            break;
        }
        }
        return what.str();
    }

    bv::test::ViewerHarness& m_viewer;
    Options m_options;
    std::mt19937 m_random;
    std::map<std::string, bv::app::ParameterField*> m_sliders, m_spins;
    int m_changes = 0;
    int m_stalls = 0;
    int m_counts[kKinds] = {};
    std::map<QString, int> m_failures, m_stops;
};

} // namespace

int main(int argc, char** argv) {
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    const std::optional<Options> options = parseOptions(arguments);
    if (!options)
        return 2;
    bv::test::PrivateXServer server;
    if (!server.start())
        return 2;
    bv::app::setCommandReader(
        [](const std::vector<std::string>& words) { return bv::cli::parseCommandLine(words); });
    qputenv("BRAGGVIEW_VALIDATION", options->validation ? "1" : "0");
    QApplication application(argc, argv);

    bv::test::ViewerHarness viewer;
    if (options->validation && !viewer.validating()) {
        std::fprintf(stderr, "braggview-soak: the Vulkan validation layer is not available "
                             "(Debian package vulkan-validationlayers)\n");
        return 2;
    }
    if (!viewer.open(kStart)) {
        std::fprintf(stderr, "braggview-soak: the viewer did not show its first image\n");
        return 2;
    }
    Soak soak(viewer, *options);
    if (!soak.findFields())
        return 2;
    std::printf("soak: %.0f s of random changes (warm-up %.0f s, seed %u), validation %s, "
                "first image at %s resident\n",
                options->seconds, options->warmup, options->seed,
                options->validation ? "on" : "OFF", mib(residentKiB()).c_str());
    std::fflush(stdout);
    return soak.run();
}
