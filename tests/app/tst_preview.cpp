// The adaptive preview (issue 14): while values change in quick succession on a heavy
// setting, the viewer shows a lighter sampling of the same experiment, marked as a preview;
// when they rest, the exact image follows and equals the headless image bit for bit; a new
// value stops an exact run at the end of a slice; exports wait for the exact image. On
// lavapipe under Xvfb, with the validation layer on.
//
// The budget is set from the rate the device showed (a tenth of the setting's expected time),
// so the tests ask for a preview on any device without depending on its speed.

#include "GuiTestMain.h"
#include "HeadlessImage.h"
#include "ViewerHarness.h"
#include "app/MainWindow.h"
#include "app/Viewer.h"
#include "compute/io/FloatImageFile.h"

#include <QLabel>
#include <QTemporaryDir>
#include <QTest>

using namespace bv;
using test::headlessImage;
using test::ViewerHarness;

namespace {

// 200 x 200 pixels x (2 x 2 sub-pixels x 20 mosaic domains x 3 phi steps = 240 steps):
// 9.6 M pixel-steps, a few hundred ms on lavapipe
const QString kHeavy = QStringLiteral(
    "-cell 40 40 40 90 90 90 -N 6 -misset 5 10 15 -default_F 100 -lambda 1 -distance 100 "
    "-detpixels 200 -pixel 0.2 -oversample 2 -round_xtal -seed 7 -precision fast "
    "-mosaic 0.5 -mosaic_dom 20 -mosaic_seed 2 -phi 0 -osc 1 -phisteps 3");

// Opens kHeavy and sets the preview budget to a tenth of its expected time: a preview of
// at most 24 of its 240 steps per pixel (oversample 1, then at most 8 of the 20 domains).
bool openHeavy(ViewerHarness& v) {
    if (!v.open(test::words(kHeavy)))
        return false;
    const std::optional<double> ms = v.controller().expectedMilliseconds();
    if (!ms)
        return false; // no rate measured
    v.controller().setPreviewBudget(*ms / 10.0);
    return true;
}

// Distances 101, 102, ... mm, one every 20 ms: each arrives while the run of the one before
// is in flight (or within the moving window), as a dragged slider's values do.
void burst(ViewerHarness& v, int changes, double fromMm = 100.0) {
    for (int i = 1; i <= changes; ++i) {
        v.document().edit([&](Experiment& e) { e.detector.distance = (fromMm + i) * 1e-3; });
        QTest::qWait(20);
    }
}

// What the window said when an image came.
struct Shown {
    bool preview = false;
    bool complete = false;
    QString leftOut, state, marker;
};

} // namespace

class TestPreview : public QObject {
    Q_OBJECT
  private slots:
    void cleanup() { BV_VERIFY_NO_VALIDATION_MESSAGES(); }

    void aSingleChangeIsComputedExactly() {
        ViewerHarness v;
        QVERIFY(openHeavy(v));
        // long after the last change and nothing in flight: not a movement
        QTest::qWait(2 * app::SimulationController::kMovingMilliseconds);
        v.document().edit([](Experiment& e) { e.detector.distance = 0.105; });
        QVERIFY(v.waitImage());
        QCOMPARE(v.controller().previewRuns(), 0);
        QVERIFY(!v.controller().isPreview());
    }

    void aBurstShowsAMarkedPreviewThenTheExactImage() {
        ViewerHarness v;
        QVERIFY(openHeavy(v));
        auto* state = v.window->findChild<QLabel*>(QStringLiteral("state"));
        QVERIFY(state);
        std::vector<Shown> shown;
        connect(&v.controller(), &app::SimulationController::imageReady, this, [&] {
            shown.push_back({v.controller().isPreview(), v.controller().isComplete(),
                             v.controller().previewDescription(), state->text(),
                             v.window->overlays().preview()});
        });
        burst(v, 6);
        QVERIFY(v.waitImage());
        QVERIFY(v.controller().previewRuns() > 0);
        const auto preview =
            std::find_if(shown.begin(), shown.end(), [](const Shown& s) { return s.preview; });
        QVERIFY(preview != shown.end());
        // marked: not complete, the status bar and the marker on the image say what it leaves
        // out (a tenth of the budget: one sub-pixel where there were 2 x 2)
        QVERIFY(!preview->complete);
        QVERIFY2(preview->leftOut.startsWith(QStringLiteral("oversample 1 of 2")),
                 qPrintable(preview->leftOut));
        QVERIFY2(preview->state.contains(QStringLiteral("preview (oversample 1 of 2")),
                 qPrintable(preview->state));
        QCOMPARE(preview->marker, preview->leftOut);
        // the last image is exact, unmarked, of the last value, and the headless mode's
        QVERIFY(!shown.back().preview);
        QVERIFY(shown.back().complete);
        QVERIFY(shown.back().marker.isEmpty());
        QVERIFY2(shown.back().state.contains(QStringLiteral("ready")),
                 qPrintable(shown.back().state));
        QCOMPARE(v.controller().resolved()->detector.distance, 0.106);
        QCOMPARE(v.controller().resolved()->oversample, 2);
        QVERIFY(headlessImage(v) == v.image());
        // for docs/user-guide.md, when asked for
        if (const QString dir = qEnvironmentVariable("BRAGGVIEW_SCREENSHOT_DIR"); !dir.isEmpty()) {
            QVERIFY(v.waitFrame());
            app::grabMainWindow(*v.window).save(dir + QStringLiteral("/viewer-preview-exact.png"),
                                                "PNG");
        }
    }

    // A run of ONE slice (which no slice boundary could stop) is stopped by a new value inside
    // that slice: the shader's cancel word. The newest value's image is then the headless one.
    void aNewValueStopsARunInsideItsOnlySlice() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kHeavy)));
        v.controller().setWorkPerSlice(std::uint64_t(1) << 40); // one slice on any device
        QVERIFY(v.waitImage()); // a new Simulator: its rate measured again
        QVERIFY(v.controller().expectedMilliseconds().has_value());
        v.controller().setPreviewBudget(*v.controller().expectedMilliseconds() / 10.0);
        QTest::qWait(300); // past the moving window: the next change runs the exact setting
        bool changed = false;
        const int interruptedBefore = v.controller().interruptedRuns();
        const QMetaObject::Connection watcher = connect(
            &v.controller(), &app::SimulationController::runStarted, this,
            [&] {
                if (changed)
                    return;
                changed = true; // the exact run of 0.120 is on the device: a newer value
                v.document().edit([](Experiment& e) { e.detector.distance = 0.130; });
            },
            Qt::QueuedConnection);
        v.document().edit([](Experiment& e) { e.detector.distance = 0.120; });
        QVERIFY(v.waitImage());
        disconnect(watcher);
        QVERIFY(changed);
        QCOMPARE(v.controller().interruptedRuns(), interruptedBefore + 1);
        QCOMPARE(v.controller().lastInterruption().plannedSlices, 1);
        QCOMPARE(v.controller().lastInterruption().submittedSlices, 1); // inside it
        QCOMPARE(v.controller().resolved()->detector.distance, 0.130);
        QVERIFY(!v.controller().isPreview());
        QVERIFY(headlessImage(v) == v.image());
    }

    void aNewValueInterruptsTheExactRunAfterAPreview() {
        // slices of 2^20 pixel-steps (about ten for the exact run, whatever the device's speed)
        ViewerHarness v;
        QVERIFY(v.open(test::words(kHeavy)));
        v.controller().setWorkPerSlice(1u << 20);
        QVERIFY(v.waitImage()); // a new Simulator: its rate measured again
        QVERIFY(v.controller().expectedMilliseconds().has_value());
        v.controller().setPreviewBudget(*v.controller().expectedMilliseconds() / 10.0);
        // the exact run after a preview, once its first slice is on screen: a new distance
        bool changed = false;
        int plannedSlices = 0;
        int interruptedBefore = 0;
        const QMetaObject::Connection watcher =
            connect(&v.controller(), &app::SimulationController::progress, this,
                    [&](int finished, int total) {
                        if (changed || finished < 1 || !v.controller().isPreview() ||
                            v.controller().isPreviewRunning())
                            return;
                        changed = true;
                        plannedSlices = total;
                        interruptedBefore = v.controller().interruptedRuns();
                        v.document().edit([](Experiment& e) { e.detector.distance = 0.120; });
                    });
        burst(v, 3);
        QVERIFY(v.waitImage());
        disconnect(watcher);
        QVERIFY(changed);
        // stopped at the end of a slice
        QVERIFY2(plannedSlices > 1, qPrintable(QString::number(plannedSlices)));
        QCOMPARE(v.controller().interruptedRuns(), interruptedBefore + 1);
        QCOMPARE(v.controller().lastInterruption().plannedSlices, plannedSlices);
        QVERIFY(v.controller().lastInterruption().submittedSlices < plannedSlices);
        QCOMPARE(v.controller().resolved()->detector.distance, 0.120);
        QVERIFY(!v.controller().isPreview());
        QVERIFY(headlessImage(v) == v.image());
    }

    void anExportDuringABurstWritesTheExactImage() {
        ViewerHarness v;
        QVERIFY(openHeavy(v));
        burst(v, 4);
        // the last value is in flight: the export waits for its exact image
        QVERIFY(!v.controller().isComplete());
        QTemporaryDir dir;
        const QString file = dir.path() + QStringLiteral("/v.bin");
        v.window->exportImage(app::ExportFormat::Float, file);
        QVERIFY(v.controller().previewRuns() > 0);
        QVERIFY(!v.controller().isPreview());
        QCOMPARE(v.controller().resolved()->detector.distance, 0.104);
        QVERIFY(io::readFloatImage(file.toStdString()) == headlessImage(v));
    }

    void aBudgetOfZeroTurnsPreviewsOff() {
        // braggview-bench-viewer --no-preview: the viewer as before previews
        ViewerHarness v;
        QVERIFY(openHeavy(v));
        v.controller().setPreviewBudget(0.0);
        burst(v, 4);
        QVERIFY(v.waitImage());
        QCOMPARE(v.controller().previewRuns(), 0);
        QCOMPARE(v.controller().resolved()->detector.distance, 0.104);
        QVERIFY(headlessImage(v) == v.image());
    }

    void screenshotOfAPreview() {
        // for docs/user-guide.md: a preview as the window shows it, when asked for
        const QString dir = qEnvironmentVariable("BRAGGVIEW_SCREENSHOT_DIR");
        if (dir.isEmpty())
            QSKIP("BRAGGVIEW_SCREENSHOT_DIR not set");
        ViewerHarness v;
        QVERIFY(v.open(test::words(kHeavy)));
        v.controller().setPreviewBudget(*v.controller().expectedMilliseconds() / 10.0);
        bool saved = false;
        connect(&v.controller(), &app::SimulationController::imageReady, this, [&] {
            if (!v.controller().isPreview())
                return;
            saved = true; // each preview: the last one stays
            // the window as it shows the preview (the exact run starts after this frame)
            app::grabMainWindow(*v.window).save(dir + QStringLiteral("/viewer-preview.png"), "PNG");
        });
        burst(v, 4);
        QVERIFY(v.waitImage());
        QVERIFY(saved);
    }
};

BV_GUI_TEST_MAIN(TestPreview)
#include "tst_preview.moc"
