// The Detector panel's choice of detector, driven through its real widgets on a Vulkan device
// (lavapipe under a private Xvfb): a preset's modules stack into the image and the readout
// names them, a DIALS experiment list opens from File > Open detector geometry with its
// modules listed, a file that cannot be read changes nothing and says why, and the flat
// detector comes back with its own fields. Expected numbers are worked by hand from the
// presets' published module sizes and the test file's geometry.

#include "ExperimentCompare.h"
#include "GuiTestMain.h"
#include "ViewerHarness.h"
#include "app/CompareView.h"
#include "app/DetectorChooser.h"
#include "app/HeadlessCommand.h"
#include "app/ParameterPanels.h"
#include "app/PlotPanel.h"
#include "app/ReadoutPanel.h"
#include "compute/headless/Headless.h"
#include "compute/io/CbfImage.h"
#include "compute/io/FloatImageFile.h"
#include "compute/model/PanelPlacement.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeWidget>

#include <cmath>
#include <sstream>

using namespace bv;
using test::ViewerHarness;

namespace {

// A light still on a small flat detector with a beam centre of its own (-Xbeam 7 mm), which a
// detector of panels cannot take and the flat detector must get back.
const QString kLight = QStringLiteral(
    "-cell 40 40 40 90 90 90 -N 3 -misset 5 10 15 -default_F 100 -lambda 1 -distance 100 "
    "-detpixels 64 -pixel 0.2 -Xbeam 7 -oversample 1 -seed 7 -precision fast");

const QString kTiltedExpt = QStringLiteral(BV_TEST_DATA "/detectors/four-module-tilted.expt");
// a whole experiment of dials.index: one 128 x 128 panel, a crystal, a scan of 20 images
const QString kIndexedExpt = QStringLiteral(BV_TEST_DATA "/dials/rotation-indexed.expt");
const QString kTwoPanelGeom = QStringLiteral(BV_TEST_DATA "/detectors/two-panel.geom");

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

app::ParameterPanel* detectorPanel(ViewerHarness& v) {
    return v.window->panel(QStringLiteral("Detector"));
}

app::DetectorChooser* chooser(ViewerHarness& v) {
    return detectorPanel(v)->findChild<app::DetectorChooser*>();
}

QStringList moduleColumn(ViewerHarness& v, int column) {
    QStringList out;
    QTreeWidget* modules = chooser(v)->modules();
    for (int i = 0; i < modules->topLevelItemCount(); ++i)
        out << modules->topLevelItem(i)->text(column);
    return out;
}

// The float image of the viewer's "Copy headless command" run by the headless mode (empty on
// failure): a detector of panels is written as -floatfile, the panels' rows stacked.
std::vector<float> headlessImage(ViewerHarness& v) {
    QTemporaryDir dir;
    const std::string floatFile = (dir.path() + QStringLiteral("/h.bin")).toStdString();
    std::vector<std::string> args =
        app::headlessArguments(v.document().commandLine(), v.document().precision());
    args.insert(args.end(), {"-floatfile", floatFile, "-nonoise", "-nopgm", "-noprogress"});
    std::ostringstream out, err;
    if (headless::runHeadless(args, out, err) != 0) {
        qWarning("headless: %s", err.str().c_str());
        return {};
    }
    return io::readFloatImage(floatFile);
}

// A measured frame made from the viewer's complete image: 2 x photons + 5 counts, rounded, as
// a CBF in `dir`.
struct OwnFrame {
    bv::io::CbfHeader header;
    std::vector<std::int32_t> counts;
    QString path;
};
OwnFrame writeOwnFrame(ViewerHarness& v, const QTemporaryDir& dir) {
    OwnFrame own;
    own.header.fastPixels = v.fast();
    own.header.slowPixels = v.slow();
    own.header.pixelSizeM = 0.2e-3;
    own.header.wavelengthA = 1.0;
    for (float photons : v.controller().image())
        own.counts.push_back(static_cast<std::int32_t>(std::lround(2.0 * photons + 5.0)));
    own.path = dir.path() + QStringLiteral("/frame_00001.cbf");
    bv::io::writeCbf(own.path.toStdString(), own.header, own.counts);
    return own;
}

// the mean of the panels' centres, m, along the beam (+x)
double centreAlongBeam(const ResolvedExperiment& r) {
    return detectorCentre(r.panels).x;
}

} // namespace

class TestDetectors : public QObject {
    Q_OBJECT

  private slots:
    void cleanup() { BV_VERIFY_NO_VALIDATION_MESSAGES(); }

    void presetStacksItsModulesAndTheFlatDetectorComesBack_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("modules");
        QTest::addColumn<int>("fast");
        QTest::addColumn<int>("slow");
        QTest::addColumn<QPoint>("pixel");   // an image pixel
        QTest::addColumn<QString>("module"); // the module it lies on
        QTest::addColumn<QString>("pixels"); // that module's pixels
        QTest::addColumn<QString>("pixelSize");
        QTest::addColumn<QString>("size"); // the status bar's: the detector's, gaps included
        // ePix10k 2M: 4 x 4 modules of 384 x 352 pixels of 100 um; the image stacks the 16
        // modules' rows: 384 wide, 16 * 352 = 5632 rows. Row 1770 = 5 * 352 + 10 lies on the
        // sixth module, slow index 1, fast index 1: m1_1.
        QTest::newRow("epix10k-2m")
            << "epix10k-2m" << 16 << 384 << 5632 << QPoint(10, 1770) << "m1_1"
            << "384 × 352"
            << "100 µm"
            << "1596 × 1468 pixels, 16 modules"; // 4 * 384 + 3 * 20, 4 * 352 + 3 * 20
        // JUNGFRAU 4M: 2 x 4 modules of 1030 x 514 pixels of 75 um: 1030 x 8 * 514 = 4112;
        // row 4111 is the last module's last: m3_1.
        QTest::newRow("jungfrau-4m")
            << "jungfrau-4m" << 8 << 1030 << 4112 << QPoint(1029, 4111) << "m3_1"
            << "1030 × 514"
            << "75 µm"
            << "2068 × 2164 pixels, 8 modules"; // 2 * 1030 + 8, 4 * 514 + 3 * 36
    }
    void presetStacksItsModulesAndTheFlatDetectorComesBack() {
        QFETCH(QString, preset);
        QFETCH(int, modules);
        QFETCH(int, fast);
        QFETCH(int, slow);
        QFETCH(QPoint, pixel);
        QFETCH(QString, module);
        QFETCH(QString, pixels);
        QFETCH(QString, pixelSize);
        QFETCH(QString, size);
        ViewerHarness v;
        QVERIFY(v.open(test::words(kLight)));
        QCOMPARE(v.fast(), 64);
        app::DetectorChooser* c = chooser(v);
        QVERIFY(c);
        QCOMPARE(c->choice()->currentIndex(), 0);
        QVERIFY(c->modules()->isHidden());
        app::ParameterField* beamX = detectorPanel(v)->field(QStringLiteral("beamX"));
        auto* curved = detectorPanel(v)->findChild<QCheckBox*>(QStringLiteral("curved"));
        auto* pivot = detectorPanel(v)->findChild<QComboBox*>(QStringLiteral("pivot"));
        QVERIFY(beamX->spinBox()->isEnabled() && curved->isEnabled());
        const int recordings = v.controller().simulator()->recordCount();

        // the preset, as picked from the list
        const int index = c->choice()->findData(preset);
        QVERIFY(index > 0);
        c->choose(index);
        QVERIFY(v.waitImage());
        QCOMPARE(v.fast(), fast);
        QCOMPARE(v.slow(), slow);
        // a new image size is a new recording of the command buffer, counted
        QVERIFY(v.controller().simulator()->recordCount() > recordings);
        // facing the beam, its centre at the Distance field's 100 mm
        QVERIFY(std::fabs(centreAlongBeam(*v.controller().resolved()) - 0.100) < 1e-12);
        QCOMPARE(c->choice()->currentIndex(), index);
        QCOMPARE(c->modules()->topLevelItemCount(), modules);
        QVERIFY(!c->modules()->isHidden());
        const qsizetype row = moduleColumn(v, 0).indexOf(module);
        QVERIFY2(row >= 0, qPrintable(moduleColumn(v, 0).join(QLatin1Char(' '))));
        QCOMPARE(moduleColumn(v, 1)[row], pixels);
        QCOMPARE(moduleColumn(v, 2)[row], pixelSize);
        QVERIFY2(c->sourceLabel()->text().contains(preset), qPrintable(c->sourceLabel()->text()));
        // the status bar describes the detector, not the image its modules' rows stack into
        const auto* state = v.window->findChild<QLabel*>(QStringLiteral("state"));
        QVERIFY(state);
        QTRY_VERIFY2(state->text().startsWith(size + QStringLiteral(", ready")),
                     qPrintable(state->text()));

        // the readout names the module under a pixel
        QVERIFY(v.window->geometry().has_value());
        v.window->showReadoutAt(app::toQPointF(v.window->geometry()->centreOf(app::toVec2(pixel))));
        const QString said = v.window->readout().text(QStringLiteral("pixel"));
        QVERIFY2(said.contains(module), qPrintable(said));

        // what a detector of panels cannot use is disabled, saying why (the command line's
        // words); a preset takes a beam centre (its modules move in their plane): its field is
        // on automatic, not refused
        QVERIFY2(!beamX->spinBox()->toolTip().contains(QStringLiteral("Not used")),
                 qPrintable(beamX->spinBox()->toolTip()));
        QVERIFY(!curved->isEnabled());
        QVERIFY(curved->toolTip().contains(QStringLiteral("cannot be curved")));
        QVERIFY(!pivot->isEnabled());
        QVERIFY(!detectorPanel(v)->field(QStringLiteral("fastPixels"))->spinBox()->isEnabled());
        QVERIFY(!v.document().experiment().detector.beamX.has_value());

        // the Distance moves the modules' centre; the copied headless command (-detector NAME)
        // computes the same image, bit for bit
        detectorPanel(v)->field(QStringLiteral("distance"))->setValue(150.0);
        QVERIFY(v.waitImage());
        QVERIFY(std::fabs(centreAlongBeam(*v.controller().resolved()) - 0.150) < 1e-12);
        QVERIFY2(v.window->headlessCommandText().contains(QStringLiteral("-detector ") + preset),
                 qPrintable(v.window->headlessCommandText()));
        QVERIFY(headlessImage(v) == v.image());
        // the beam centre moves the modules in their plane; the command carries it
        const std::vector<float> centred = v.image();
        beamX->setValue(beamX->value() + 3.0);
        QVERIFY(v.waitImage());
        QVERIFY(v.document().experiment().detector.beamX.has_value());
        QVERIFY(beamX->spinBox()->isEnabled());
        QVERIFY(v.image() != centred);
        QVERIFY2(v.window->headlessCommandText().contains(QStringLiteral("-Xbeam")),
                 qPrintable(v.window->headlessCommandText()));
        QVERIFY(headlessImage(v) == v.image());

        // back to the flat detector: its pixels and its beam centre again
        c->choose(0);
        QVERIFY(v.waitImage());
        QCOMPARE(v.fast(), 64);
        QCOMPARE(v.slow(), 64);
        QVERIFY(!v.controller().resolved()->panelsFromSource); // its one flat panel
        QCOMPARE(v.controller().resolved()->panels.size(), std::size_t(1));
        QTRY_VERIFY2(state->text().startsWith(QStringLiteral("64 × 64 pixels, ready")),
                     qPrintable(state->text()));
        QCOMPARE(*v.document().experiment().detector.beamX, 0.007);
        QVERIFY(beamX->spinBox()->isEnabled() && curved->isEnabled() && pivot->isEnabled());
        QVERIFY(c->modules()->isHidden());
        QCOMPARE(v.controller().resolved()->detector.distance, 0.150); // shared with the panels
    }

    void geometryFileOpensWithItsModules_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<int>("fast");
        QTest::addColumn<int>("slow");
        QTest::addColumn<double>("distance"); // mm, the panels' centre along the beam
        // four 200 x 200 modules of 0.1 mm in a group tilted about x (slow (0, -0.8, 0.6), normal
        // (0, -0.6, -0.8) in dxtbx's frame), the group's origin at z = -200 mm. The mean of the
        // modules' local centres is (20.5, 20.5, 0.125) mm, so the centre's z is
        // -200 + 20.5 * 0.6 + 0.125 * -0.8 = -187.8 mm: 187.8 mm down the beam.
        QTest::newRow("DIALS .expt")
            << kTiltedExpt << QStringList{"m0", "m1", "m2", "m3"} << 200 << 800 << 187.8;
        // top: 100 x 50 at clen 100 mm; side: 100 x 50 (fast down the image), 2 mm further
        QTest::newRow("CrystFEL .geom")
            << kTwoPanelGeom << QStringList{"top", "side"} << 100 << 100 << 101.0;
    }
    void geometryFileOpensWithItsModules() {
        QFETCH(QString, file);
        QFETCH(QStringList, names);
        QFETCH(int, fast);
        QFETCH(int, slow);
        QFETCH(double, distance);
        ViewerHarness v;
        QVERIFY(v.open(test::words(kLight)));
        QSignalSpy errors(v.window.get(), &app::MainWindow::errorShown);
        v.window->openDetectorGeometry(file);
        QVERIFY2(errors.isEmpty(),
                 errors.isEmpty() ? "" : qPrintable(errors.first().first().toString()));
        QVERIFY(v.waitImage());
        QCOMPARE(v.fast(), fast);
        QCOMPARE(v.slow(), slow);
        app::DetectorChooser* c = chooser(v);
        QCOMPARE(moduleColumn(v, 0), names);
        QVERIFY(c->choice()->currentText().contains(QFileInfo(file).fileName()));
        // a file's panels are where the file says: no beam centre to set, and the field says so
        app::ParameterField* beamX = detectorPanel(v)->field(QStringLiteral("beamX"));
        QVERIFY(!beamX->spinBox()->isEnabled());
        QVERIFY2(beamX->spinBox()->toolTip().contains(QStringLiteral("no one beam centre")),
                 qPrintable(beamX->spinBox()->toolTip()));
        // the Distance field tells where the file put the panels, which stay there
        const double shown = detectorPanel(v)->field(QStringLiteral("distance"))->value();
        QVERIFY2(std::fabs(shown - distance) < 1e-6, qPrintable(QString::number(shown, 'g', 12)));
        QVERIFY(std::fabs(centreAlongBeam(*v.controller().resolved()) * 1e3 - distance) < 1e-9);
        // the copied headless command reads the same file and leaves its panels where they are
        QVERIFY(headlessImage(v) == v.image());

        // a preset and back to the file, from the list
        c->choose(c->choice()->findData(QStringLiteral("epix10k-2m")));
        QVERIFY(v.waitImage());
        QCOMPARE(v.slow(), 5632);
        c->choose(c->choice()->findData(file));
        QVERIFY(v.waitImage());
        QCOMPARE(v.slow(), slow);
        QCOMPARE(moduleColumn(v, 0), names);
    }

    void experimentOpensWhole() {
        // File > Open experiment: the file's beam, panel, crystal and first image replace the
        // experiment's; the structure factors and crystal size stay; the copied headless
        // command (-experiment FILE ...) makes the same image
        ViewerHarness v;
        QVERIFY(v.open(test::words(kLight)));
        QSignalSpy errors(v.window.get(), &app::MainWindow::errorShown);
        v.window->openExperiment(kIndexedExpt);
        QVERIFY2(errors.isEmpty(),
                 errors.isEmpty() ? "" : qPrintable(errors.first().first().toString()));
        QVERIFY(v.waitImage());
        QCOMPARE(v.fast(), 128);
        QCOMPARE(v.slow(), 128);
        const Experiment& e = v.document().experiment();
        QCOMPARE(e.beam.wavelength, 1.0e-10);
        QVERIFY(e.crystal.mosflmMatrix.has_value());
        QVERIFY(!e.crystal.cell.has_value());
        QCOMPARE(e.beam.kahnFactor, 0.0); // a fraction of 0.5: unpolarized
        QCOMPARE(v.document().commandLine().experimentFile, kIndexedExpt.toStdString());
        QVERIFY(headlessImage(v) == v.image());

        // a file without a crystal's cell vectors changes nothing
        QTemporaryDir dir;
        QByteArray bad = readAll(kIndexedExpt);
        bad.replace("real_space_c", "real_space_d");
        const QString path = dir.path() + QStringLiteral("/bad.expt");
        writeFile(path, bad);
        const Experiment before = v.document().experiment();
        v.window->openExperiment(path);
        QCOMPARE(errors.count(), 1);
        const QString message = errors.first().first().toString();
        QVERIFY2(message.contains("bad.expt") && message.contains("real_space_c"), qPrintable(message));
        QVERIFY(test::ExperimentCompare().difference(before, v.document().experiment()).isEmpty());
    }

    void measuredFrameViews() {
        // File > Open measured image: a frame made from the viewer's own image as 2 x photons
        // + 5 counts; the fit says so, and the four views draw the measured, the difference
        // and the simulated buffers with one colour scale (only the buffer changes)
        ViewerHarness v;
        QVERIFY(v.open(test::words(kLight)));
        QTemporaryDir dir;
        const OwnFrame own = writeOwnFrame(v, dir);
        const bv::io::CbfHeader& h = own.header;
        const std::vector<std::int32_t>& counts = own.counts;
        const QString& path = own.path;
        QSignalSpy errors(v.window.get(), &app::MainWindow::errorShown);
        v.window->openMeasuredImage(path);
        QVERIFY2(errors.isEmpty(), errors.isEmpty() ? "" : qPrintable(errors.first().first().toString()));
        app::CompareView& compare = v.window->compareView();
        QVERIFY(compare.fit().has_value());
        // (the counts are whole: rounding adds up to half a count of noise to each pixel)
        QVERIFY2(std::fabs(compare.fit()->scale - 2.0) < 0.01, qPrintable(QString::number(compare.fit()->scale)));
        QVERIFY(std::fabs(compare.fit()->background - 5.0) < 0.5);
        QCOMPARE(compare.mode(), app::CompareView::Measured); // opening shows the frame
        QCOMPARE(v.window->imageWindow().imageSource().buffer, compare.measuredBuffer());
        compare.setMode(app::CompareView::Difference);
        QCOMPARE(v.window->imageWindow().imageSource().buffer, compare.differenceBuffer());
        compare.setMode(app::CompareView::Simulated);
        QCOMPARE(v.window->imageWindow().imageSource().buffer,
                 v.controller().simulator()->imageBuffer());
        QCOMPARE(compare.measuredAt(3, 2).value_or(-1.0f), static_cast<float>(counts[2 * v.fast() + 3]));

        // the readout: the measured count beside the simulated intensity, and what is left of
        // it after the fit (the rounding to whole counts alone)
        v.window->showReadoutAt(QPointF(3.5, 2.5));
        const QString measuredText = v.window->readout().text(QStringLiteral("measured"));
        QVERIFY2(measuredText.startsWith(QString::number(counts[2 * v.fast() + 3]) + QLatin1Char(' ')),
                 qPrintable(measuredText));
        QVERIFY(v.window->readout().findChild<QLabel*>(QStringLiteral("measured"))->isVisibleTo(
            &v.window->readout()));
        const double left = v.window->readout().text(QStringLiteral("difference")).section(' ', 0, 0).toDouble();
        QVERIFY2(std::fabs(left) < 0.6, qPrintable(v.window->readout().text(QStringLiteral("difference"))));

        // the profiles: a second curve, the measured one, in counts; the simulation's mapped by
        // the fit lies on it: the radial means of 2 x photons + 5 rounded are within half a
        // count of 2 x the simulation's means + 5
        app::PlotPanel& plots = v.window->plots();
        plots.tabs()->setCurrentIndex(0);
        const app::Profile& radial = plots.radialData();
        const app::Profile& radialMeasured = plots.radialMeasured();
        QVERIFY(radial.x.size() > 10);
        QCOMPARE(radialMeasured.x.size(), radial.x.size());
        for (std::size_t i = 0; i < radial.x.size(); ++i) {
            QCOMPARE(radialMeasured.x[i], radial.x[i]);
            QVERIFY2(std::fabs(radialMeasured.y[i] - (2.0 * radial.y[i] + 5.0)) < 0.51,
                     qPrintable(QStringLiteral("bin %1: %2 against %3").arg(i).arg(radialMeasured.y[i]).arg(radial.y[i])));
        }
        QCOMPARE(plots.radialPlot()->graph(1)->dataCount(), static_cast<int>(radial.x.size()));
        QVERIFY(plots.radialPlot()->legend->visible());
        v.window->setProfileLine(QPointF(0.5, 0.5), QPointF(v.fast() - 0.5, v.slow() - 0.5));
        const app::Profile& line = plots.lineData();
        const app::Profile& lineMeasured = plots.lineMeasured();
        QVERIFY(line.x.size() > 10);
        QCOMPARE(lineMeasured.y.size(), line.y.size());
        for (std::size_t i = 0; i < line.y.size(); ++i)
            QVERIFY(std::fabs(lineMeasured.y[i] -
                              static_cast<double>(std::lround(2.0 * line.y[i] + 5.0))) < 1e-3);
        QCOMPARE(plots.linePlot()->graph(1)->dataCount(), static_cast<int>(line.y.size()));

        // a frame of another size is read, and the fit says why there is none
        bv::io::CbfHeader small = h;
        small.fastPixels = 8;
        small.slowPixels = 8;
        const QString other = dir.path() + QStringLiteral("/small.cbf");
        bv::io::writeCbf(other.toStdString(), small, std::vector<std::int32_t>(64, 1));
        v.window->openMeasuredImage(other);
        QVERIFY(!compare.fit().has_value());
        QVERIFY(plots.lineMeasured().y.empty()); // no fit: no second curve
        QCOMPARE(plots.linePlot()->graph(1)->dataCount(), 0);
        QVERIFY2(compare.problem().contains("8 x 8 pixels"), qPrintable(compare.problem()));
        // a file that is no image: an error, the frame before kept
        v.window->openMeasuredImage(dir.path() + QStringLiteral("/missing.cbf"));
        QCOMPARE(errors.count(), 1);
        QVERIFY(errors.first().first().toString().contains("missing.cbf"));
    }

    void theMeasuredFrameFollowsWhatTheSimulationSkips() {
        // a frame of the viewer's own image, then -roi set on the experiment: the pixels the
        // simulation no longer draws (0 in its image) leave the fit and the views, and come
        // back with the whole detector
        ViewerHarness v;
        QVERIFY(v.open(test::words(kLight)));
        const std::size_t pixels = v.controller().image().size();
        QTemporaryDir dir;
        const OwnFrame own = writeOwnFrame(v, dir);
        const std::vector<std::int32_t>& counts = own.counts;
        v.window->openMeasuredImage(own.path);
        app::CompareView& compare = v.window->compareView();
        QVERIFY(compare.fit().has_value());
        QCOMPARE(compare.fit()->pixels, pixels);

        v.document().loadArguments(test::words(kLight + QStringLiteral(" -roi 0 31 0 63")));
        QVERIFY(v.waitImage());
        QVERIFY(compare.fit().has_value());
        QCOMPARE(compare.fit()->pixels, pixels / 2); // the left half
        QVERIFY(!compare.measuredAt(40, 10).has_value());
        QCOMPARE(compare.measuredAt(10, 10).value_or(-1.0f),
                 static_cast<float>(counts[10 * v.fast() + 10]));
        QVERIFY2(std::fabs(compare.fit()->scale - 2.0) < 0.01,
                 qPrintable(QString::number(compare.fit()->scale)));

        v.document().loadArguments(test::words(kLight));
        QVERIFY(v.waitImage());
        QCOMPARE(compare.fit()->pixels, pixels);
        QCOMPARE(compare.measuredAt(40, 10).value_or(-1.0f),
                 static_cast<float>(counts[10 * v.fast() + 40]));
    }

    void aBadGeometryFileChangesNothing_data() {
        QTest::addColumn<QString>("name");     // written into a temporary folder
        QTest::addColumn<QByteArray>("bytes"); // empty: not written (a missing file)
        QTest::addColumn<QString>("said");     // in the message, besides the file's name
        QByteArray expt = readAll(kTiltedExpt);
        QVERIFY(!expt.isEmpty());
        // the first panel's fast axis with two numbers
        const QRegularExpression firstFastAxis(QStringLiteral("\"fast_axis\": \\[[^\\]]*\\]"));
        const QRegularExpressionMatch m = firstFastAxis.match(QString::fromUtf8(expt));
        QVERIFY(m.hasMatch());
        expt.replace(m.capturedStart(), m.capturedLength(), "\"fast_axis\": [1.0, 0.0]");
        QTest::newRow("expt: a bad axis") << "bad.expt" << expt << "panels[0].fast_axis";
        QByteArray geom = readAll(kTwoPanelGeom);
        geom.replace("top/fs = +1.0x +0.0y", "top/fs = sideways");
        QTest::newRow("geom: a bad vector") << "bad.geom" << geom << "bad.geom:20";
        QTest::newRow("missing") << "missing.expt" << QByteArray() << "missing.expt";
        QTest::newRow("not geometry") << "notes.txt" << QByteArray("hello") << ".geom";
    }
    void aBadGeometryFileChangesNothing() {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, said);
        ViewerHarness v;
        QVERIFY(v.open(test::words(kLight)));
        QTemporaryDir dir;
        const QString path = dir.path() + QLatin1Char('/') + name;
        if (!bytes.isEmpty())
            writeFile(path, bytes);
        const Experiment before = v.document().experiment();
        QSignalSpy errors(v.window.get(), &app::MainWindow::errorShown);
        v.window->openDetectorGeometry(path);
        QCOMPARE(errors.count(), 1);
        const QString message = errors.first().first().toString();
        QVERIFY2(message.contains(name) && message.contains(said), qPrintable(message));
        QVERIFY(test::ExperimentCompare().difference(before, v.document().experiment()).isEmpty());
        QVERIFY(v.document().experiment().detector.panels.empty());
        QCOMPARE(v.document().experiment().detector.beamX, before.detector.beamX);
        QVERIFY(v.controller().isComplete());
        QCOMPARE(v.fast(), 64);
        QCOMPARE(chooser(v)->choice()->currentIndex(), 0);
    }
};

BV_GUI_TEST_MAIN(TestDetectors)
#include "tst_detectors.moc"
