// A setting that will take long says so before its image is there (issue "Live at any
// setting"): the Parameters dock's warning line, from the work of the new setting (pixels x
// steps) against the rate the device showed on the runs before (compute/plan/RunCost.h).
// On lavapipe under Xvfb, with the validation layer on.

#include "GuiTestMain.h"
#include "ViewerHarness.h"
#include "app/MainWindow.h"
#include "app/Viewer.h"

#include <QLabel>
#include <QTest>

#include <cmath>

using namespace bv;
using test::ViewerHarness;

namespace {

// 128 x 128 pixels x 8 x 8 sub-pixels: about a million pixel-steps, enough for a rate
const QString kLight = QStringLiteral(
    "-cell 40 40 40 90 90 90 -N 6 -misset 5 10 15 -default_F 100 -lambda 1 -distance 100 "
    "-detpixels 128 -pixel 0.2 -oversample 8 -seed 7 -precision fast");

} // namespace

class TestCostWarning : public QObject {
    Q_OBJECT
  private slots:
    void theTextSaysHowLongAndWhy() {
        const plan::RunCost cost{1000000, 400}; // 4e8 steps
        // 4e8 steps at 2e5 steps/ms: 2000 ms
        const QString text = app::costWarningText(cost, 2000.0, 2e5, QStringLiteral("llvmpipe"));
        QVERIFY2(text.contains(QStringLiteral("about 2.0 s")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("llvmpipe")));
        QVERIFY2(text.contains(QStringLiteral("1000000 pixels × 400 steps")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("at the 200 M steps/s")), qPrintable(text));
        // minutes past 90 s
        QVERIFY(app::costWarningText(cost, 150000.0, 2e5, QStringLiteral("x"))
                    .contains(QStringLiteral("2.5 min")));
        // nothing below the bar, nothing before a rate
        QVERIFY(app::costWarningText(cost, 999.0, 2e5, QStringLiteral("x")).isEmpty());
        QVERIFY(app::costWarningText(cost, std::nullopt, 0.0, QStringLiteral("x")).isEmpty());
    }

    // A wrapped warning never ends a line on an option's hyphen: the hyphens that start an
    // option become U+2011; a minus in a number or a hyphen inside a word stays.
    void optionsStayWholeWhereTheLabelWraps() {
        const QString nb(QChar(0x2011));
        QCOMPARE(app::withOptionsWhole(QStringLiteral("use -precision precise (or -N 10)")),
                 QStringLiteral("use ") + nb + QStringLiteral("precision precise (or ") + nb +
                     QStringLiteral("N 10)"));
        QCOMPARE(app::withOptionsWhole(QStringLiteral("-misset at -5 deg, a 1e-3 bar, well-known")),
                 nb + QStringLiteral("misset at -5 deg, a 1e-3 bar, well-known"));
    }

    void aHeavySettingIsAnnouncedBeforeItsImage() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kLight)));
        // small slices, so that the change back below interrupts the heavy run at once (a new
        // Simulator: the light image again, and its rate)
        v.controller().setWorkPerSlice(1u << 18);
        QVERIFY(v.waitImage());
        auto* warning = v.window->findChild<QLabel*>(QStringLiteral("costWarning"));
        QVERIFY(warning);
        QVERIFY(v.controller().rate().stepsPerMillisecond().has_value());
        QVERIFY2(warning->isHidden(), qPrintable(warning->text()));

        // mosaic domains enough for about 20 s at the rate just measured
        const double rate = *v.controller().rate().stepsPerMillisecond();
        const double lightSteps = 128.0 * 128.0 * 64.0;
        const int domains = static_cast<int>(std::ceil(20000.0 * rate / lightSteps));
        v.document().edit([&](Experiment& e) {
            e.crystal.mosaicSpread = 0.01;
            e.crystal.mosaicDomains = domains;
        });
        QTRY_VERIFY_WITH_TIMEOUT(v.controller().isBusy(), 10000);
        QVERIFY2(!warning->isHidden(),
                 qPrintable(QString::number(domains) + " " + warning->text() + " " +
                            QString::number(v.controller().expectedMilliseconds().value_or(-1)) +
                            " " + QString::number(v.controller().currentCost().stepsPerPixel)));
        QVERIFY2(warning->text().contains(QStringLiteral(" s an image")) ||
                     warning->text().contains(QStringLiteral(" min an image")),
                 qPrintable(warning->text()));
        // for docs/user-guide.md: the window as the warning shows, when asked for
        if (const QString dir = qEnvironmentVariable("BRAGGVIEW_SCREENSHOT_DIR"); !dir.isEmpty()) {
            QTest::qWait(300); // a partial image on screen
            app::grabMainWindow(*v.window).save(dir + QStringLiteral("/viewer-cost-warning.png"),
                                                "PNG");
        }
        const double expected = *v.controller().expectedMilliseconds();
        QVERIFY2(expected > 10000.0 && expected < 40000.0, qPrintable(QString::number(expected)));

        // back to the light setting: the warning goes with it
        v.document().edit([](Experiment& e) {
            e.crystal.mosaicDomains.reset();
            e.crystal.mosaicSpread.reset();
        });
        QVERIFY(v.waitImage());
        QVERIFY2(warning->isHidden(), qPrintable(warning->text()));
    }

    // A slip of units (compute/run/RunNotices.h): the distance typed in metres, 0.1 mm, which
    // makes the automatic oversampling 3 x 240 A / (1 A x 0.1 mm / 0.2 mm) = 1440-fold. The
    // warning line names the slip, and the cost, as soon as the run starts; the distance put
    // right, both go with the next image.
    void aUnitSlipIsSaidAsItsRunStarts() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kLight)));
        auto* warning = v.window->findChild<QLabel*>(QStringLiteral("costWarning"));
        QVERIFY(warning);
        QVERIFY2(warning->isHidden(), qPrintable(warning->text()));
        v.document().edit([](Experiment& e) {
            e.detector.distance = 1e-4;
            e.sampling.oversample.reset();
        });
        QTRY_VERIFY_WITH_TIMEOUT(!warning->isHidden(), 10000);
        QVERIFY2(warning->text().startsWith(QStringLiteral(
                     "Warning: the detector distance 0.1 mm is under 1 mm: metres typed as mm?")),
                 qPrintable(warning->text()));
        QVERIFY2(warning->text().contains(QStringLiteral(" an image")) ||
                     warning->text().contains(QStringLiteral("this run will take")),
                 qPrintable(warning->text()));
        v.document().edit([](Experiment& e) {
            e.detector.distance = 0.1;
            e.sampling.oversample = 8;
        });
        QVERIFY(v.waitImage());
        QVERIFY2(warning->isHidden(), qPrintable(warning->text()));
    }
};

BV_GUI_TEST_MAIN(TestCostWarning)
#include "tst_costwarning.moc"
