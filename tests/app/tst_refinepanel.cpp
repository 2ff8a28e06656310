// The Refine panel, driven through its real widgets on a Vulkan device (lavapipe under a
// private Xvfb): a frame the viewer renders from a known truth, with Poisson noise, is the
// measured frame; the detector distance is moved off the truth, the panel's fit brings it back
// while the image follows the fit, and Apply puts the refined distance into the fields.

#include "GuiTestMain.h"
#include "ViewerHarness.h"
#include "app/CompareView.h"
#include "app/RefinePanel.h"
#include "app/RefineRunner.h"
#include "compute/io/CbfImage.h"
#include "compute/model/PanelPlacement.h"

#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <random>

using namespace bv;
using test::ViewerHarness;

namespace {

// the truth of tests/refine (run_refine.sh) on a smaller detector: a still of a
// 50 x 60 x 70 Å cell with spots of tens of photons
// a whole experiment of dials.index: one 128 x 128 panel, a crystal, a scan of 20 images
const QString kIndexedExpt = QStringLiteral(BV_TEST_DATA "/dials/rotation-indexed.expt");

const QString kTruth = QStringLiteral(
    "-cell 50 60 70 90 90 90 -misset 10 20 30 -N 10 -distance 80 -default_F 100 -lambda 1 "
    "-detpixels 128 -pixel 0.2 -phi 0 -osc 0.5 -phisteps 2 -oversample 1 -fluence 1e30 "
    "-seed 3 -precision fast");
constexpr double kTruthDistanceMm = 80.0;
constexpr double kStartDistanceMm = 80.4;

// where the detector's centre lies along the beam (mm): the distance of the image shown
double shownDistanceMm(ViewerHarness& v) {
    const ResolvedExperiment* r = v.controller().resolved();
    return glm::dot(detectorCentre(r->panels), v.document().experiment().axes().beam) * 1e3;
}

// the viewer's image with Poisson noise, as counts in a miniCBF
void writeNoisyFrame(ViewerHarness& v, const QString& path, unsigned seed) {
    std::mt19937 generator(seed);
    std::vector<std::int32_t> counts;
    for (float photons : v.image()) {
        std::poisson_distribution<int> poisson(std::max(1e-9, static_cast<double>(photons)));
        counts.push_back(poisson(generator));
    }
    io::CbfHeader h;
    h.fastPixels = v.fast();
    h.slowPixels = v.slow();
    h.pixelSizeM = 0.2e-3;
    h.wavelengthA = 1.0;
    io::writeCbf(path.toStdString(), h, counts);
}

// runs the panel's fit through its Run button and waits for its end
bool runFit(app::RefinePanel& panel) {
    QSignalSpy finished(&panel, &app::RefinePanel::finished);
    QTest::mouseClick(panel.findChild<QPushButton*>(QStringLiteral("refineRun")), Qt::LeftButton);
    return panel.isRunning() && finished.wait(600000) && panel.report().has_value();
}

} // namespace

class TestRefinePanel : public QObject {
    Q_OBJECT

  private slots:
    void cleanup() { BV_VERIFY_NO_VALIDATION_MESSAGES(); }

    void fitsTheDistanceBackWhileTheImageFollows() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kTruth)));
        QVERIFY(std::fabs(shownDistanceMm(v) - kTruthDistanceMm) < 1e-9);
        // the measured frame: the truth's photons with Poisson noise, as counts
        double brightest = 0.0;
        for (float photons : v.image())
            brightest = std::max(brightest, static_cast<double>(photons));
        QVERIFY2(brightest > 20.0, qPrintable(QString::number(brightest))); // spots to fit
        QTemporaryDir dir;
        const QString frame = dir.path() + QStringLiteral("/truth.cbf");
        writeNoisyFrame(v, frame, 11);
        v.window->openMeasuredImage(frame);
        QVERIFY(v.window->compareView().fit().has_value());

        // the experiment moved off the truth
        v.document().edit([](Experiment& e) { e.detector.distance = kStartDistanceMm * 1e-3; });
        QVERIFY(v.waitImage());
        QVERIFY(std::fabs(shownDistanceMm(v) - kStartDistanceMm) < 1e-9);

        app::RefinePanel& panel = v.window->refinePanel();
        v.window->refineDock()->show();
        panel.setGroups({"distance"});
        QCOMPARE(panel.groups(), std::vector<std::string>{"distance"});
        // the distances of the images shown while the fit runs
        std::vector<double> shownDuringFit;
        QObject::connect(&v.controller(), &app::SimulationController::imageReady, &panel, [&] {
            if (panel.isRunning())
                shownDuringFit.push_back(shownDistanceMm(v));
        });
        QSignalSpy finished(&panel, &app::RefinePanel::finished);
        auto* run = panel.findChild<QPushButton*>(QStringLiteral("refineRun"));
        QTest::mouseClick(run, Qt::LeftButton);
        QVERIFY2(panel.isRunning(), qPrintable(panel.message()));
        QCOMPARE(run->text(), QStringLiteral("Stop"));
        // the GUI thread stays free: events are handled while the fit runs
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 600000);
        QVERIFY2(panel.report().has_value(), qPrintable(panel.message()));
        QCOMPARE(run->text(), QStringLiteral("Run"));

        const refine::FitReport& report = *panel.report();
        QCOMPARE(report.values.front().name, std::string("distance"));
        QCOMPARE(report.values.front().start, kStartDistanceMm);
        const double refined = report.values.front().value;
        QVERIFY2(std::fabs(refined - kTruthDistanceMm) < 0.05, qPrintable(QString::number(refined, 'g', 8)));
        QVERIFY(report.values.front().sigma > 0.0);
        QVERIFY(report.endResidual < report.startResidual);
        QVERIFY(report.endSpotRmsd < report.startSpotRmsd);
        // the table: distance, scale, background with start, current, change and sigma
        QTableWidget* table = panel.table();
        QCOMPARE(table->rowCount(), 3);
        QCOMPARE(table->item(0, 2)->text().toDouble(), std::stod(QString::number(refined, 'g', 7).toStdString()));
        QVERIFY(table->item(0, 4)->text().toDouble() > 0.0);
        QVERIFY(!panel.findChild<QLabel*>(QStringLiteral("refineRmsd"))->text().isEmpty());

        // the image followed the fit: at least one image during it was of a distance the fit
        // had moved to, neither the start's nor yet necessarily the end's
        QVERIFY(panel.stepsShown() >= 1);
        QVERIFY2(!shownDuringFit.empty(), "no image while the fit ran");
        bool moved = false;
        for (double d : shownDuringFit)
            moved = moved || std::fabs(d - kStartDistanceMm) > 1e-6;
        QVERIFY2(moved, qPrintable(QString::number(shownDuringFit.front(), 'g', 8)));
        // after it, the image is the fit's result; the fields still the document's
        QVERIFY(v.waitImage());
        QVERIFY(v.controller().showsOtherExperiment());
        QVERIFY(std::fabs(shownDistanceMm(v) - refined) < 1e-6);
        QCOMPARE(v.document().experiment().detector.distance, kStartDistanceMm * 1e-3);

        // Apply: the refined distance is the experiment's, and the Distance field's
        QTest::mouseClick(panel.findChild<QPushButton*>(QStringLiteral("refineApply")), Qt::LeftButton);
        QVERIFY(!v.controller().showsOtherExperiment());
        QVERIFY(v.waitImage());
        QVERIFY(std::fabs(v.document().experiment().detector.distance * 1e3 - refined) < 1e-6);
        QVERIFY(std::fabs(shownDistanceMm(v) - refined) < 1e-6);

        // Save refined experiment needs the DIALS experiment list the experiment came from
        QSignalSpy errors(v.window.get(), &app::MainWindow::errorShown);
        v.window->saveRefinedExperiment(dir.path() + QStringLiteral("/refined.expt"));
        QCOMPARE(errors.count(), 1);
        QVERIFY2(errors.first().first().toString().contains("experiment list"),
                 qPrintable(errors.first().first().toString()));
        QVERIFY(!QFileInfo::exists(dir.path() + QStringLiteral("/refined.expt")));
    }

    void savesTheRefinedExperiment() {
        // a DIALS experiment list opened whole; the measured frame is its image with the
        // detector 0.3 mm nearer; the fit from 0.2 mm beyond the file's finds it, and File >
        // Save refined experiment writes the file with the detector there: opened again, it
        // shows the refined distance
        ViewerHarness v;
        QVERIFY(v.open(test::words(kTruth)));
        v.window->openExperiment(kIndexedExpt);
        QVERIFY(v.waitImage());
        const double filed = shownDistanceMm(v);
        const Experiment asOpened = v.document().experiment();
        v.document().edit([&](Experiment& e) {
            e.detector.distance = (filed - 0.3) * 1e-3; // moves the file's panels
            e.detector.distanceStated = true;
        });
        QVERIFY(v.waitImage());
        QVERIFY(std::fabs(shownDistanceMm(v) - (filed - 0.3)) < 1e-6);
        QTemporaryDir dir;
        const QString frame = dir.path() + QStringLiteral("/nearer.cbf");
        writeNoisyFrame(v, frame, 5);
        // the fit starts 0.2 mm beyond the file's distance: what is saved is where the fit
        // ends, not the file moved by the fit's change
        v.document().edit([&](Experiment& e) {
            e = asOpened;
            e.detector.distance = (filed + 0.2) * 1e-3;
            e.detector.distanceStated = true;
        });
        QVERIFY(v.waitImage());
        v.window->openMeasuredImage(frame);

        app::RefinePanel& panel = v.window->refinePanel();
        v.window->refineDock()->show();
        panel.setGroups({"distance"});
        QVERIFY2(runFit(panel), qPrintable(panel.message()));
        const double refined = panel.report()->values.front().value;
        QVERIFY2(std::fabs(refined - (filed - 0.3)) < 0.05, qPrintable(QString::number(refined, 'g', 8)));

        const QString saved = dir.path() + QStringLiteral("/refined.expt");
        QSignalSpy errors(v.window.get(), &app::MainWindow::errorShown);
        v.window->saveRefinedExperiment(saved);
        QVERIFY2(errors.isEmpty(), errors.isEmpty() ? "" : qPrintable(errors.first().first().toString()));
        panel.discard();
        v.window->openExperiment(saved);
        QVERIFY(errors.isEmpty());
        QVERIFY(v.waitImage());
        QVERIFY2(std::fabs(shownDistanceMm(v) - refined) < 1e-3,
                 qPrintable(QStringLiteral("%1 against %2").arg(shownDistanceMm(v)).arg(refined)));
    }

    void stopEndsTheFitAtItsNextStep() {
        // Stop before the fit has reached its first step (the worker waits for the GUI
        // thread's first image, which needs the event loop): the fit ends at its start, in one
        // iteration of the first stage, and reports it; the table and Apply work as after a
        // whole fit
        ViewerHarness v;
        QVERIFY(v.open(test::words(kTruth)));
        QTemporaryDir dir;
        const QString frame = dir.path() + QStringLiteral("/truth.cbf");
        writeNoisyFrame(v, frame, 7);
        v.window->openMeasuredImage(frame);
        v.document().edit([](Experiment& e) { e.detector.distance = kStartDistanceMm * 1e-3; });
        QVERIFY(v.waitImage());
        app::RefinePanel& panel = v.window->refinePanel();
        v.window->refineDock()->show();
        panel.setGroups({"distance"});
        QSignalSpy finished(&panel, &app::RefinePanel::finished);
        QVERIFY2(panel.run(), qPrintable(panel.message()));
        panel.stop();
        QVERIFY(finished.wait(600000));
        QVERIFY2(panel.report().has_value(), qPrintable(panel.message()));
        QCOMPARE(panel.report()->iterations, 1);
        QCOMPARE(panel.report()->values.front().value, kStartDistanceMm);
        QCOMPARE(panel.table()->item(0, 2)->text(), QStringLiteral("80.4"));
        QTest::mouseClick(panel.findChild<QPushButton*>(QStringLiteral("refineApply")), Qt::LeftButton);
        QVERIFY(v.waitImage());
        QVERIFY(std::fabs(v.document().experiment().detector.distance * 1e3 - kStartDistanceMm) < 1e-9);
    }

    void warnsOfGroupsOneFrameCannotTellApart() {
        // the detector's turn in its plane with the crystal's orientation: the dock says so
        // from the start of the fit to its end, as the headless program warns
        ViewerHarness v;
        QVERIFY(v.open(test::words(kTruth)));
        QTemporaryDir dir;
        const QString frame = dir.path() + QStringLiteral("/truth.cbf");
        writeNoisyFrame(v, frame, 7);
        v.window->openMeasuredImage(frame);
        QVERIFY(v.waitImage());
        app::RefinePanel& panel = v.window->refinePanel();
        v.window->refineDock()->show();
        panel.setGroups({"detector_rotation", "orientation"});
        QSignalSpy finished(&panel, &app::RefinePanel::finished);
        QVERIFY2(panel.run(), qPrintable(panel.message()));
        QVERIFY2(panel.message().contains("detector_rotation with orientation"),
                 qPrintable(panel.message()));
        panel.stop();
        QVERIFY(finished.wait(600000));
        QVERIFY2(panel.message().contains("detector_rotation with orientation"),
                 qPrintable(panel.message()));
        // a fit of the distance alone: no warning
        panel.setGroups({"distance"});
        QVERIFY2(panel.run(), qPrintable(panel.message()));
        QVERIFY2(!panel.message().contains("Warning"), qPrintable(panel.message()));
        panel.stop();
        QVERIFY(finished.wait(600000));
    }

    void screenshotModeRunsTheFitFirst() {
        // braggview --screenshot ... -measured FRAME -refine distance: the dock's fit runs
        // and the PNG is written after it; a group the fit does not know: an error, no PNG
        QTemporaryDir dir;
        {
            ViewerHarness v;
            QVERIFY(v.open(test::words(kTruth)));
            writeNoisyFrame(v, dir.path() + QStringLiteral("/truth.cbf"), 3);
        }
        const QStringList words = kTruth.split(QLatin1Char(' ')) +
                                  QStringList{QStringLiteral("-distance"), QStringLiteral("80.4"),
                                              QStringLiteral("-measured"),
                                              dir.path() + QStringLiteral("/truth.cbf")};
        const QString png = dir.path() + QStringLiteral("/refine.png");
        QProcess process;
        process.start(QStringLiteral(BRAGGVIEW_BINARY),
                      QStringList{QStringLiteral("--screenshot"), png} + words +
                          QStringList{QStringLiteral("-refine"), QStringLiteral("distance")});
        QVERIFY(process.waitForFinished(600000));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        QVERIFY(!QImage(png).isNull());

        const QString bad = dir.path() + QStringLiteral("/bad.png");
        process.start(QStringLiteral(BRAGGVIEW_BINARY),
                      QStringList{QStringLiteral("--screenshot"), bad} + words +
                          QStringList{QStringLiteral("-refine"), QStringLiteral("wavelength")});
        QVERIFY(process.waitForFinished(600000));
        QVERIFY(process.exitCode() != 0);
        const QByteArray said = process.readAllStandardError();
        QVERIFY2(said.contains("wavelength"), said.constData());
        QVERIFY(!QFileInfo::exists(bad));
    }

    void dialsSpotsBesideTheSimulatedOnes() {
        // tests/data/dials/strong.refl: dials.find_spots on this very frame (its README);
        // headless -compare -spots finds every one of its 226 spots within 0.5 pixel rms
        const QString frame = QStringLiteral(
            "-lambda 1.0 -N 10 -default_F 100 -detpixels 256 -pixel 0.2 -phi 0 -osc 1 "
            "-phisteps 4 -cell 50 60 70 90 90 90 -precision fast ");
        ViewerHarness v;
        QVERIFY(v.open(test::words(frame + QStringLiteral("-misset 10 20 30 -distance 100"))));
        v.window->openObservedSpots(QStringLiteral(BV_TEST_DATA "/dials/strong.refl"));
        const app::CompareView& compare = v.window->compareView();
        QVERIFY(compare.observedSpots() && compare.spotMatch());
        QCOMPARE(compare.observedSpots()->spots.size(), std::size_t(226)); // no measured frame
        QCOMPARE(compare.spotMatch()->all.matched, std::size_t(226));
        const double atTruth = compare.spotMatch()->all.rmsd;
        QVERIFY2(atTruth < 0.5, qPrintable(QString::number(atTruth)));
        // drawn: a cross on each spot (the flat detector's pixels are the image's), a line to
        // its simulated partner
        const auto& marks = v.window->overlays().observedMarks();
        QCOMPARE(marks.size(), std::size_t(226));
        QVERIFY(std::fabs(marks[0].observed.x() - 84.99491) < 1e-4 &&
                std::fabs(marks[0].observed.y() - 1.89017) < 1e-4); // the table's first row
        QVERIFY(std::all_of(marks.begin(), marks.end(), [](const auto& m) { return m.simulated; }));
        const QString summary =
            v.window->findChild<QLabel*>(QStringLiteral("overlayObservedSummary"))->text();
        QVERIFY2(summary.contains(QStringLiteral("226 of 226 matched")), qPrintable(summary));

        // the crystal turned and the detector moved: the match follows the image
        v.document().loadArguments(
            test::words(frame + QStringLiteral("-misset 10.15 19.9 30 -distance 100.8")));
        QVERIFY(v.waitImage());
        QVERIFY(compare.spotMatch());
        QVERIFY2(compare.spotMatch()->all.rmsd > atTruth + 0.3,
                 qPrintable(QString::number(compare.spotMatch()->all.rmsd)));

        // a file that is not a reflection table: a message naming it, the spots kept
        QTemporaryDir dir;
        const QString bad = dir.path() + QStringLiteral("/notes.refl");
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not msgpack");
        file.close();
        QSignalSpy errors(v.window.get(), &app::MainWindow::errorShown);
        v.window->openObservedSpots(bad);
        QCOMPARE(errors.count(), 1);
        QVERIFY2(errors.first().first().toString().contains(QStringLiteral("notes.refl")),
                 qPrintable(errors.first().first().toString()));
        QCOMPARE(compare.observedSpots()->spots.size(), std::size_t(226));

        // the same file named on a screenshot's command line: the reason on stderr, exit 1,
        // no PNG
        const QString png = dir.path() + QStringLiteral("/shot.png");
        QProcess process;
        process.start(QStringLiteral(BRAGGVIEW_BINARY),
                      QStringList{QStringLiteral("--screenshot"), png} + frame.split(QLatin1Char(' '), Qt::SkipEmptyParts) +
                          QStringList{QStringLiteral("-spots"), bad});
        QVERIFY(process.waitForFinished(600000));
        QCOMPARE(process.exitCode(), 1);
        const QByteArray said = process.readAllStandardError();
        QVERIFY2(said.contains("notes.refl"), said.constData());
        QVERIFY(!QFileInfo::exists(png));
    }

    void refusesWithoutAMeasuredFrame() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kTruth)));
        app::RefinePanel& panel = v.window->refinePanel();
        QVERIFY(!panel.run());
        QVERIFY2(panel.message().contains("measured"), qPrintable(panel.message()));
        QVERIFY(!panel.isRunning());
    }
};

BV_GUI_TEST_MAIN(TestRefinePanel)
#include "tst_refinepanel.moc"
