// The viewer driven through its real widgets, on a Vulkan device (lavapipe under a private
// Xvfb here and in CI): the image follows the sliders the way the physics says it must, the
// screen shows the simulator's buffer through the same colours as the CPU path, the readout
// and the exports give the headless mode's numbers, and a bad value never costs the image.

#include "ExperimentCompare.h"
#include "GuiTestMain.h"
#include "HeadlessImage.h"
#include "ViewerHarness.h"
#include "app/DisplayPanel.h"
#include "app/HeadlessCommand.h"
#include "app/ParameterPanels.h"
#include "app/PlotPanel.h"
#include "app/PixelGeometry.h"
#include "app/Profiles.h"
#include "app/ReadoutPanel.h"
#include "app/TracePanel.h"
#include "compute/headless/Headless.h"
#include "compute/io/FloatImageFile.h"
#include "compute/io/Smv.h"
#include "compute/model/Units.h"
#include "compute/plan/Plan.h"

#include <QCheckBox>
#include <QLabel>
#include <QPushButton>
#include <QVulkanDeviceFunctions>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QWheelEvent>

#include <sstream>

using namespace bv;
using test::ViewerHarness;
using test::headlessImage;
using test::runHeadless;

namespace {

// A still of a small cubic crystal: sharp, isolated spots on a 200 x 200 detector.
const QString kSpots = QStringLiteral(
    "-cell 40 40 40 90 90 90 -N 6 -misset 5 10 15 -default_F 100 -lambda 1 -distance 100 "
    "-detpixels 200 -pixel 0.2 -oversample 2 -round_xtal -seed 7 -precision fast");

// A powder: 400 randomly turned domains of a 5 A cubic cell give Debye-Scherrer rings.
const QString kPowder = QStringLiteral(
    "-cell 5 5 5 90 90 90 -N 5 -mosaic 90 -mosaic_dom 400 -mosaic_seed 3 -default_F 100 "
    "-lambda 1 -distance 100 -detpixels 256 -pixel 0.25 -oversample 1 -seed 1 -precision fast");

QByteArray readAll(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

// An ADSC-style SMV file whose header states a detector: 160 x 120 pixels of 0.25 mm at
// 80 mm, beam centre (18, 16) mm, 1.3 A; `extra` lines go into the header too.
void writeDetectorHeader(const QString& path, const QByteArray& extra = {}) {
    QByteArray header = "{\nHEADER_BYTES=512;\nDIM=2;\nBYTE_ORDER=little_endian;\nTYPE=unsigned_short;\n"
                        "SIZE1=160;\nSIZE2=120;\nPIXEL_SIZE=0.25;\nDISTANCE=80;\nWAVELENGTH=1.3;\n"
                        "BEAM_CENTER_X=18;\nBEAM_CENTER_Y=16;\n" + extra + "}\f";
    header.append(QByteArray(512 - header.size(), ' '));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(header);
    file.write(QByteArray(160 * 120 * 2, '\0'));
}

// 2θ (degrees) of the centroid of the radial profile's peak within [from, to] degrees
double ringPosition(const app::Profile& profile, double from, double to) {
    double peak = 0.0, base = 1e300;
    for (std::size_t i = 0; i < profile.x.size(); ++i)
        if (profile.x[i] >= from && profile.x[i] <= to) {
            peak = std::max(peak, profile.y[i]);
            base = std::min(base, profile.y[i]);
        }
    const double half = base + 0.5 * (peak - base);
    double sum = 0.0, weighted = 0.0;
    for (std::size_t i = 0; i < profile.x.size(); ++i)
        if (profile.x[i] >= from && profile.x[i] <= to && profile.y[i] > half) {
            sum += profile.y[i] - half;
            weighted += (profile.y[i] - half) * profile.x[i];
        }
    return sum > 0.0 ? weighted / sum : -1.0;
}

} // namespace

class TestViewer : public QObject {
    Q_OBJECT

  private slots:
    void cleanup() { BV_VERIFY_NO_VALIDATION_MESSAGES(); }

    void screenShowsTheGpuBufferThroughTheCpuColours() {
        // the screen's pixels, read back from the swap chain, against render::colourImage
        // of the host copy: overloads red, skipped (ROI) pixels blue, the rest the table
        ViewerHarness v;
        QVERIFY(v.open(test::words(kSpots + QStringLiteral(" -roi 0 149 0 199"))));
        app::DisplayPanel& display = v.window->displayPanel();
        display.setOverlays({false, false, false, false});
        render::DisplaySettings s = display.settings();
        s.colormap = render::Colormap::Viridis;
        s.scaling = render::Scaling::Sqrt;
        s.black = 1.0f;
        const float brightest = *std::max_element(v.image().begin(), v.image().end());
        s.white = 0.3f * brightest;
        s.overload = 0.6f * brightest;
        display.setSettings(s);
        render::ViewTransform view;
        view.set(QPointF(3.0, 5.0), 1.0);
        v.window->imageWindow().setView(view);
        QVERIFY(v.waitFrame());
        const QImage screen = v.window->imageWindow().grabView();
        QVERIFY(!screen.isNull());
        const QImage cpu = render::colourImage(v.image(), v.fast(), v.slow(), v.controller().skipped(), s);
        int compared = 0, different = 0, overloads = 0, skipped = 0;
        for (int y = 0; y < v.slow(); ++y)
            for (int x = 0; x < v.fast(); ++x) {
                const QRgb a = screen.pixel(x + 3, y + 5), b = cpu.pixel(x, y);
                ++compared;
                if (std::abs(qRed(a) - qRed(b)) > 1 || std::abs(qGreen(a) - qGreen(b)) > 1 ||
                    std::abs(qBlue(a) - qBlue(b)) > 1)
                    ++different;
                overloads += b == s.overloadColour.rgb();
                skipped += b == s.maskedColour.rgb();
            }
        QCOMPARE(compared, 200 * 200);
        QCOMPARE(skipped, 50 * 200);
        QVERIFY(overloads > 0);
        // an index can differ by one where float log/sqrt differ by an ulp at a table edge
        QVERIFY2(different <= compared / 1000, qPrintable(QString::number(different)));
        // outside the image: the background colour
        QCOMPARE(screen.pixel(1, 1), s.backgroundColour.rgb());
    }

    void distanceSliderMovesASpotRadially() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kSpots)));
        const app::PixelGeometry geometry(*v.controller().resolved());
        const QPointF beam = app::toQPointF(*geometry.beamCentre());
        // the brightest spot at least 20 pixels from the beam and 15 from the edges
        QPoint peak(-1, -1);
        float best = 0.0f;
        for (int s = 15; s < v.slow() - 15; ++s)
            for (int f = 15; f < v.fast() - 15; ++f)
                if (std::hypot(f + 0.5 - beam.x(), s + 0.5 - beam.y()) > 20.0 &&
                    test::at(v.image(), v.fast(), f, s) > best) {
                    best = test::at(v.image(), v.fast(), f, s);
                    peak = QPoint(f, s);
                }
        QVERIFY(peak.x() >= 0);
        const QPointF before = test::centroid(v.image(), v.fast(), v.slow(), peak, 4);
        const double d1 = v.document().experiment().detector.distance;
        const int recordings = v.controller().simulator()->recordCount();

        app::ParameterField* distance = v.window->panel(QStringLiteral("Detector"))->field(QStringLiteral("distance"));
        QVERIFY(distance);
        distance->slider()->setValue(distance->slider()->value() + 60); // about 37 % further
        QVERIFY(v.waitImage());
        const double d2 = v.document().experiment().detector.distance;
        QVERIFY(d2 > 1.3 * d1);
        QCOMPARE(distance->value(), QString::number(d2 * 1000.0, 'f', 2).toDouble());

        // central projection onto a parallel plane: every point moves away from the beam
        // centre by D2/D1
        const QPointF predicted = beam + (before - beam) * (d2 / d1);
        const QPoint moved = test::brightestNear(v.image(), v.fast(), v.slow(), predicted, 3);
        const QPointF after = test::centroid(v.image(), v.fast(), v.slow(), moved, 6);
        const double miss = std::hypot(after.x() - predicted.x(), after.y() - predicted.y());
        qInfo("distance %.2f -> %.2f mm: spot (%.3f, %.3f) -> (%.3f, %.3f), predicted (%.3f, %.3f), off by %.3f px",
              d1 * 1e3, d2 * 1e3, before.x(), before.y(), after.x(), after.y(), predicted.x(), predicted.y(), miss);
        QVERIFY2(miss < 0.3, qPrintable(QStringLiteral("spot at (%1, %2), predicted (%3, %4)")
                                            .arg(after.x()).arg(after.y()).arg(predicted.x()).arg(predicted.y())));
        // a slider re-submits the recorded commands: no new recording, no orientation upload
        QCOMPARE(v.controller().simulator()->recordCount(), recordings);
        QCOMPARE(v.controller().simulator()->lastUploadedParts() & plan::OrientationsChanged, 0u);
    }

    void aNewValueSupersedesTheQueuedOnes() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kSpots)));
        app::ParameterField* distance = v.window->panel(QStringLiteral("Detector"))->field(QStringLiteral("distance"));
        const int runs = v.controller().completedRuns();
        const int start = distance->slider()->value();
        for (int step = 1; step <= 8; ++step) // faster than the GPU: one run in flight at most
            distance->slider()->setValue(start + 5 * step);
        QVERIFY(v.waitImage());
        // the image is the last value's, and the values in between were never all computed
        QCOMPARE(v.controller().resolved()->detector.distance, v.document().experiment().detector.distance);
        QVERIFY(v.controller().completedRuns() - runs < 8);
        QVERIFY(v.controller().skippedStates() > 0);
    }

    void wavelengthMovesARingPerBraggsLaw() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kPowder)));
        const auto profile = [&] {
            const app::PixelGeometry g(*v.controller().resolved());
            return app::radialProfile(v.image(), v.controller().skipped(), g, 600);
        };
        // the (100) ring of the 5 A cell: 2θ = 11.48° at 1 A
        const double first = ringPosition(profile(), 9.0, 13.5);
        QVERIFY2(std::fabs(first - 11.48) < 0.15, qPrintable(QString::number(first)));

        app::ParameterField* wavelength = v.window->panel(QStringLiteral("Beam"))->field(QStringLiteral("wavelength"));
        QVERIFY(wavelength);
        wavelength->spinBox()->setValue(1.15);
        QVERIFY(v.waitImage());
        QCOMPARE(v.controller().resolved()->wavelength, 1.15e-10);
        const double expected = 2.0 * std::asin(1.15 * std::sin(first / 2.0 * M_PI / 180.0)) * 180.0 / M_PI;
        const double second = ringPosition(profile(), expected - 2.0, expected + 2.0);
        // Bragg's law: sin θ grows with λ at fixed d
        const double ratio = std::sin(second / 2.0 * M_PI / 180.0) / std::sin(first / 2.0 * M_PI / 180.0);
        qInfo("(100) ring at 2θ = %.3f° for 1 Å, %.3f° for 1.15 Å (Bragg: %.3f°); sin θ ratio %.5f",
              first, second, expected, ratio);
        QVERIFY2(std::fabs(ratio - 1.15) < 0.005,
                 qPrintable(QStringLiteral("ring at %1° then %2° (expected %3°), ratio %4").arg(first).arg(second).arg(expected).arg(ratio)));
    }

    void readoutEqualsTheHeadlessImage_data() {
        QTest::addColumn<QString>("precision");
        QTest::newRow("fast") << QStringLiteral("fast");
        QTest::newRow("precise") << QStringLiteral("precise");
    }
    void readoutEqualsTheHeadlessImage() {
        QFETCH(QString, precision);
        QString args = kSpots;
        args.replace(QStringLiteral("-precision fast"), QStringLiteral("-precision ") + precision);
        ViewerHarness v;
        QVERIFY(v.open(test::words(args)));
        QCOMPARE(QLatin1String(engine::precisionName(v.controller().simulator()->precision())), precision);
        QTemporaryDir dir;
        const std::string floatFile = (dir.path() + QStringLiteral("/h.bin")).toStdString();
        std::vector<std::string> headlessArgs = test::words(args);
        for (const char* extra : {"-nonoise", "-nopgm", "-noprogress"})
            headlessArgs.emplace_back(extra);
        headlessArgs.insert(headlessArgs.end(), {"-floatfile", floatFile, "-intfile",
                                                 (dir.path() + QStringLiteral("/h.img")).toStdString()});
        QCOMPARE(runHeadless(headlessArgs), 0);
        const std::vector<float> headless = io::readFloatImage(floatFile);
        QCOMPARE(headless.size(), v.image().size());

        const QPoint brightest = test::brightestNear(v.image(), v.fast(), v.slow(), QPointF(100, 100), 100);
        const QPoint pixels[] = {brightest, {0, 0}, {199, 199}, {37, 151}, {120, 64}};
        for (const QPoint& p : pixels) {
            v.window->showReadoutAt(QPointF(p.x() + 0.5, p.y() + 0.5));
            const float expected = test::at(headless, v.fast(), p.x(), p.y());
            QCOMPARE(v.window->readout().text(QStringLiteral("intensity")),
                     app::ReadoutPanel::formatIntensity(expected));
            QCOMPARE(v.window->readout().text(QStringLiteral("pixel")),
                     QStringLiteral("%1, %2").arg(p.x()).arg(p.y()));
            QCOMPARE(*v.controller().valueAt(p.x(), p.y()), expected); // the same float, bit for bit
        }
        // and the whole image
        QVERIFY(headless == v.image());
    }

    void exportsEqualTheHeadlessFiles() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kSpots)));
        // moved away from the command line first: the exports follow the panels
        app::ParameterField* phi = v.window->panel(QStringLiteral("Crystal"))->field(QStringLiteral("phi"));
        phi->spinBox()->setValue(2.5);
        QVERIFY(v.waitImage());
        QTemporaryDir dir;
        const QString d = dir.path();
        v.window->exportImage(app::ExportFormat::Float, d + QStringLiteral("/v.bin"));
        v.window->exportImage(app::ExportFormat::IntImage, d + QStringLiteral("/v.img"));
        v.window->exportImage(app::ExportFormat::NoiseImage, d + QStringLiteral("/v_noise.img"));
        v.window->exportImage(app::ExportFormat::Pgm, d + QStringLiteral("/v.pgm"));
        // the NeXus file's start time is $SOURCE_DATE_EPOCH's for both, so its bytes compare
        qputenv("SOURCE_DATE_EPOCH", "1700000000");
        v.window->exportImage(app::ExportFormat::Nexus, d + QStringLiteral("/v.h5"));
        v.window->exportImage(app::ExportFormat::Png, d + QStringLiteral("/v.png"));

        // the "Copy headless command" line, run headless
        std::vector<std::string> args =
            app::headlessArguments(v.document().commandLine(), v.document().precision());
        for (const auto& [flag, name] : {std::pair{"-floatfile", "/h.bin"}, std::pair{"-intfile", "/h.img"},
                                         std::pair{"-noisefile", "/h_noise.img"}, std::pair{"-pgmfile", "/h.pgm"},
                                         std::pair{"-nexusfile", "/h.h5"}}) {
            args.emplace_back(flag);
            args.push_back((d + QLatin1String(name)).toStdString());
        }
        args.emplace_back("-noprogress");
        QCOMPARE(runHeadless(args), 0);
        qunsetenv("SOURCE_DATE_EPOCH");
        for (const auto& [viewer, headless] : {std::pair{"/v.bin", "/h.bin"}, std::pair{"/v.img", "/h.img"},
                                               std::pair{"/v_noise.img", "/h_noise.img"}, std::pair{"/v.pgm", "/h.pgm"},
                                               std::pair{"/v.h5", "/h.h5"}}) {
            const QByteArray a = readAll(d + QLatin1String(viewer)), b = readAll(d + QLatin1String(headless));
            QVERIFY2(!a.isEmpty(), viewer);
            QVERIFY2(a == b, qPrintable(QStringLiteral("%1 differs from %2").arg(QLatin1String(viewer), QLatin1String(headless))));
        }
        const QImage png(d + QStringLiteral("/v.png"));
        QCOMPARE(png.size(), QSize(200, 200));
    }

    void mouseZoomsPansDrawsAndPins() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kSpots)));
        render::ImageWindow& w = v.window->imageWindow();
        const double ratio = w.devicePixelRatio();
        // the wheel zooms about the cursor
        const QPointF cursor(150.0, 120.0);
        const QPointF under = w.view().toImage(cursor * ratio);
        const double scale = w.view().scale();
        QWheelEvent wheel(cursor, w.mapToGlobal(cursor), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(&w, &wheel);
        QVERIFY(std::fabs(w.view().scale() - 1.25 * scale) < 1e-12);
        const QPointF still = w.view().toImage(cursor * ratio);
        QVERIFY(std::hypot(still.x() - under.x(), still.y() - under.y()) < 1e-9);
        // a drag pans
        const QPointF origin = w.view().origin();
        QTest::mousePress(&w, Qt::LeftButton, {}, QPoint(100, 100));
        QTest::mouseMove(&w, QPoint(130, 110));
        QTest::mouseRelease(&w, Qt::LeftButton, {}, QPoint(130, 110));
        QVERIFY(std::hypot(w.view().origin().x() - origin.x() - 30 * ratio,
                           w.view().origin().y() - origin.y() - 10 * ratio) < 1e-9);
        // Shift + drag draws the line of the line profile
        const QPoint from = (w.view().toView(QPointF(20.0, 100.0)) / ratio).toPoint();
        const QPoint to = (w.view().toView(QPointF(120.0, 100.0)) / ratio).toPoint();
        QTest::mousePress(&w, Qt::LeftButton, Qt::ShiftModifier, from);
        QTest::mouseMove(&w, to);
        QTest::mouseRelease(&w, Qt::LeftButton, Qt::ShiftModifier, to);
        QVERIFY(v.window->overlays().profileLine().has_value());
        const QLineF line = *v.window->overlays().profileLine();
        QVERIFY2(!v.window->plots().lineData().x.empty(),
                 qPrintable(QStringLiteral("%1,%2 - %3,%4").arg(line.x1()).arg(line.y1()).arg(line.x2()).arg(line.y2())));
        // a click pins the pixel under it
        const QPoint click = (w.view().toView(QPointF(77.5, 60.5)) / ratio).toPoint();
        QTest::mouseClick(&w, Qt::LeftButton, {}, click);
        const QPointF at = w.view().toImage(QPointF(click) * ratio);
        QCOMPARE(v.window->readout().text(QStringLiteral("pixel")),
                 QStringLiteral("%1, %2").arg(int(std::floor(at.x()))).arg(int(std::floor(at.y()))));
        // F fits the whole image again
        QTest::keyClick(&w, Qt::Key_F);
        QVERIFY(w.view().toView(QPointF(0, 0)).x() >= -1e-9 && w.view().toView(QPointF(0, 0)).y() >= -1e-9);
        QVERIFY(v.waitFrame());
    }

    void keyboardStepsTheFocusedParameter() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kSpots)));
        app::ParameterField* distance = v.window->panel(QStringLiteral("Detector"))->field(QStringLiteral("distance"));
        v.window->parameterTabs()->setCurrentIndex(1);
        distance->slider()->setFocus();
        const double start = v.document().experiment().detector.distance;
        QTest::keyClick(distance->slider(), Qt::Key_Up);
        QCOMPARE(v.document().experiment().detector.distance, start + 0.001);
        QTest::keyClick(distance->slider(), Qt::Key_Right, Qt::ShiftModifier);
        QVERIFY(std::fabs(v.document().experiment().detector.distance - (start + 0.011)) < 1e-12);
        QTest::keyClick(distance->spinBox(), Qt::Key_Down);
        QVERIFY(std::fabs(v.document().experiment().detector.distance - (start + 0.010)) < 1e-12);
        QTest::keyClick(distance->slider(), Qt::Key_PageDown);
        QVERIFY(std::fabs(v.document().experiment().detector.distance - start) < 1e-12);
        QVERIFY(v.waitImage());
    }

    void aBadValueKeepsTheLastImage() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kSpots)));
        const std::vector<float> good = v.image();
        QSignalSpy failures(&v.controller(), &app::SimulationController::failed);
        // a mask of the wrong size: the plan is refused
        v.document().edit([](Experiment& e) { e.mask.assign(10, 1); });
        QTRY_VERIFY_WITH_TIMEOUT(failures.count() > 0, 30000);
        QVERIFY(failures.front().front().toString().contains(QStringLiteral("mask")));
        QVERIFY(v.image() == good);
        QVERIFY(v.waitFrame()); // the window still draws (the last good image)
        // and a good value brings it back to life
        v.document().edit([](Experiment& e) { e.mask.clear(); });
        QVERIFY(v.waitImage());
        QVERIFY(v.image() == good);
        // a resolve() error (no cell at all) is reported the same way
        const auto before = failures.count();
        v.document().edit([](Experiment& e) { e.crystal.cell->a = -1.0; });
        QTRY_VERIFY_WITH_TIMEOUT(failures.count() > before || v.controller().isComplete(), 30000);
        v.document().edit([](Experiment& e) { e.crystal.cell->a = 40.0; });
        QVERIFY(v.waitImage());
    }

    void phiAnimationAdvancesWithEachImage() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kSpots)));
        const double start = v.document().experiment().crystal.phi0;
        const int runs = v.controller().completedRuns();
        v.window->setPhiAnimation(true);
        QTRY_VERIFY_WITH_TIMEOUT(v.controller().completedRuns() >= runs + 3, 60000);
        v.window->setPhiAnimation(false);
        QVERIFY(v.waitImage());
        // one degree (the default step) per image
        const double turned = units::degreesFromRadians(v.document().experiment().crystal.phi0 - start);
        QVERIFY2(turned >= 3.0 - 1e-9 && std::fabs(turned - std::round(turned)) < 1e-9, qPrintable(QString::number(turned)));
        QCOMPARE(v.controller().resolved()->phi0, v.document().experiment().crystal.phi0);
    }

    void inputFilesOpenFromTheMenuActions() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kSpots)));
        const QString inputs = QStringLiteral(BV_TEST_DATA "/inputs/");
        app::ParameterField* cellA = v.window->panel(QStringLiteral("Crystal"))->field(QStringLiteral("cella"));
        QVERIFY(cellA->spinBox()->isEnabled());

        v.document().openHkl((inputs + QStringLiteral("P1.hkl")).toStdString());
        QVERIFY(v.waitImage());
        QVERIFY(v.document().experiment().structureFactors.hasTable());

        // a MOSFLM matrix gives the cell: the cell fields are not in use then
        v.document().openMatrix((inputs + QStringLiteral("A.mat")).toStdString());
        QVERIFY(v.waitImage());
        QVERIFY(v.document().experiment().crystal.mosflmMatrix.has_value());
        QVERIFY(!cellA->spinBox()->isEnabled());

        v.document().openSourceFile((inputs + QStringLiteral("sources.txt")).toStdString());
        QVERIFY(v.waitImage());
        QVERIFY(v.controller().resolved()->sources.size() > 1);

        // a mask: its zero pixels are skipped, drawn in the masked colour, read as such
        QTemporaryDir dir;
        const QString mask = dir.path() + QStringLiteral("/mask.img");
        io::SmvHeader header;
        header.fpixels = v.fast();
        header.spixels = v.slow();
        std::vector<std::uint16_t> pixels(static_cast<std::size_t>(v.fast() * v.slow()), 1);
        for (int f = 0; f < 40; ++f)
            pixels[static_cast<std::size_t>(10 * v.fast() + f)] = 0; // row 10, first 40 pixels
        io::writeSmv(mask.toStdString(), header, pixels);
        v.document().openMask(mask.toStdString());
        QVERIFY(v.waitImage());
        QCOMPARE(std::count(v.controller().skipped().begin(), v.controller().skipped().end(), 1), 40);
        QCOMPARE(*v.controller().valueAt(5, 10), 0.0f);
        v.window->showReadoutAt(QPointF(5.5, 10.5));
        QVERIFY(v.window->readout().text(QStringLiteral("intensity")).contains(QStringLiteral("not simulated")));
        // a file that is not one: an error naming it, nothing changed
        try {
            v.document().openHkl((inputs + QStringLiteral("sources.txt")).toStdString());
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("sources.txt")), e.what());
        }
        QVERIFY(v.controller().isComplete());
    }

    void precisionSwitchBuildsANewSimulator() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kSpots)));
        auto* precision = v.window->panel(QStringLiteral("Sampling"))->findChild<QComboBox*>(QStringLiteral("precision"));
        QVERIFY(precision);
        precision->setCurrentIndex(1);
        QVERIFY(v.waitImage());
        QCOMPARE(v.controller().simulator()->precision(), engine::Precision::Precise);
    }

    void screenshotModeWritesThePng() {
        QTemporaryDir dir;
        const QString png = dir.path() + QStringLiteral("/shot.png");
        QProcess process;
        process.setProcessChannelMode(QProcess::SeparateChannels);
        process.start(QStringLiteral(BRAGGVIEW_BINARY),
                      QStringList{QStringLiteral("--screenshot"), png} + kSpots.split(QLatin1Char(' ')));
        QVERIFY(process.waitForFinished(kScreenshotTimeoutMs));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        const QImage shot(png);
        QVERIFY(shot.width() >= 800 && shot.height() >= 500);

        // errors: a message and a non-zero status, no file
        const QString bad = dir.path() + QStringLiteral("/bad.png");
        process.start(QStringLiteral(BRAGGVIEW_BINARY),
                      {QStringLiteral("--screenshot"), bad, QStringLiteral("-cell"), QStringLiteral("10"),
                       QStringLiteral("-hkl"), QStringLiteral("/nonexistent.hkl")});
        QVERIFY(process.waitForFinished(kScreenshotTimeoutMs));
        QVERIFY(process.exitCode() != 0);
        QVERIFY(process.readAllStandardError().contains("nonexistent.hkl"));
        QVERIFY(!QFile::exists(bad));
        process.start(QStringLiteral(BRAGGVIEW_BINARY), {QStringLiteral("--screenshot")});
        QVERIFY(process.waitForFinished(kScreenshotTimeoutMs));
        QVERIFY(process.exitCode() != 0);
    }

    void aChangeInterruptsAHeavyRunThatRefinesOnScreen() {
        // 20 mosaic domains x 3 phi steps x 4 sub-pixels: 240 steps per pixel, 9.6 M
        // pixel-steps, cut into slices of 2^20 (about ten)
        ViewerHarness v;
        QVERIFY(v.open(test::words(kSpots + QStringLiteral(
            " -mosaic 0.5 -mosaic_dom 20 -mosaic_seed 2 -phi 0 -osc 1 -phisteps 3"))));
        v.controller().setWorkPerSlice(1u << 20);
        QVERIFY(v.waitImage());
        const int slices = v.controller().simulator()->sliceCount();
        QVERIFY2(slices >= 6, qPrintable(QString::number(slices)));
        QVERIFY(v.controller().partialFrames() > 0); // it refined on screen

        // a new distance while the run of another one is in flight, as soon as its first
        // slice is on screen: that run stops there and the newest value starts
        auto* state = v.window->findChild<QLabel*>(QStringLiteral("state"));
        QString progressShown;
        const QMetaObject::Connection watcher = connect(
            &v.controller(), &app::SimulationController::progress, this, [&](int finished, int total) {
                if (finished < 1 || !progressShown.isEmpty())
                    return;
                progressShown = state->text();
                QCOMPARE(total, slices);
                v.document().edit([](Experiment& e) { e.detector.distance = 0.120; });
            });
        v.document().edit([](Experiment& e) { e.detector.distance = 0.110; });
        QVERIFY(v.waitImage());
        disconnect(watcher);
        QCOMPARE(progressShown, QStringLiteral("computing… step 1/%1").arg(slices));
        QCOMPARE(v.controller().interruptedRuns(), 1);
        QCOMPARE(v.controller().lastInterruption().plannedSlices, slices);
        QVERIFY(v.controller().lastInterruption().submittedSlices < slices);
        // the image is the last value's, the headless mode's to the bit
        QCOMPARE(v.controller().resolved()->detector.distance, 0.120);
        QVERIFY(headlessImage(v) == v.image());
    }

    void autoContrastReadsTheGpuHistogram() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kSpots + QStringLiteral(" -roi 0 149 0 199"))));
        const render::ImageHistogram& h = v.controller().histogram();
        QCOMPARE(h.count(), std::uint64_t(150 * 200)); // the ROI's pixels
        const render::DisplaySettings s = v.window->displayPanel().settings();
        QCOMPARE(s.black, h.percentile(app::DisplayPanel::kBlackPercentile));
        QCOMPARE(s.white, h.percentile(app::DisplayPanel::kWhitePercentile));
        // within one bin of the exact percentile of the host copy
        const float host = app::percentile(v.image(), v.controller().skipped(), app::DisplayPanel::kWhitePercentile);
        const auto [low, high] = h.binEdges(h.binOf(host));
        QVERIFY2(std::fabs(s.white - host) <= 1.01f * (high - low),
                 qPrintable(QStringLiteral("white %1, host %2").arg(s.white).arg(host)));
    }

    void detectorHeaderOpensLikeImg() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kSpots)));
        QTemporaryDir dir;
        const QString img = dir.path() + QStringLiteral("/detector.img");
        writeDetectorHeader(img);
        v.document().openImageHeader(img.toStdString());
        QVERIFY(v.waitImage());
        QCOMPARE(v.fast(), 160);
        QCOMPARE(v.slow(), 120);
        QCOMPARE(v.controller().resolved()->detector.distance, 0.080);
        QCOMPARE(v.controller().resolved()->wavelength, 1.3e-10);
        // nanoBragg's -img with the same crystal: the same image, to the bit
        std::vector<std::string> args = test::words(QStringLiteral(
            "-cell 40 40 40 90 90 90 -N 6 -misset 5 10 15 -default_F 100 -oversample 2 -round_xtal -seed 7 -precision fast"));
        args.insert(args.end(), {"-img", img.toStdString()});
        QVERIFY(headlessImage(args) == v.image());

        // errors: the reader's message, nothing changed
        const Experiment before = v.document().experiment();
        const QString bad = dir.path() + QStringLiteral("/bad.img");
        writeDetectorHeader(bad, "PIXEL_SIZE=-1;\n");
        for (const QString& path : {bad, dir.path() + QStringLiteral("/missing.img")}) {
            try {
                v.document().openImageHeader(path.toStdString());
                QFAIL("no error");
            } catch (const Error& e) {
                QVERIFY2(QString::fromUtf8(e.what()).contains(path), e.what());
            }
        }
        QVERIFY(test::ExperimentCompare().difference(before, v.document().experiment()).isEmpty());
        QVERIFY(v.controller().isComplete());
    }

    void restartEngineAfterALostDevice() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kSpots)));
        const int device = v.window->imageWindow().deviceGeneration();
        QSignalSpy stopped(&v.controller(), &app::SimulationController::engineStopped);
        QSignalSpy shown(v.window.get(), &app::MainWindow::errorShown);
        v.controller().simulateDeviceLoss();
        v.document().edit([](Experiment& e) { e.detector.distance = 0.110; });
        QTRY_VERIFY_WITH_TIMEOUT(v.controller().isEngineStopped(), 30000);
        // reported, not a crash: a message with the way out, a button for it
        QCOMPARE(stopped.count(), 1);
        QVERIFY(stopped.front().front().toString().contains(QStringLiteral("VK_ERROR_DEVICE_LOST")));
        QCOMPARE(shown.count(), 1);
        QVERIFY(shown.front().front().toString().contains(QStringLiteral("Restart engine")));
        auto* button = v.window->findChild<QPushButton*>(QStringLiteral("restartEngine"));
        QVERIFY(button && button->isVisible());
        QVERIFY(!v.waitImage());
        // a change meanwhile waits for the new engine
        v.document().edit([](Experiment& e) { e.detector.distance = 0.120; });

        v.window->restartEngineAction()->trigger();
        QVERIFY(v.waitImage());
        QVERIFY(v.window->imageWindow().deviceGeneration() > device); // a new device
        QVERIFY(!button->isVisible());
        QCOMPARE(v.controller().resolved()->detector.distance, 0.120);
        QVERIFY(headlessImage(v) == v.image());
        QVERIFY(v.waitFrame()); // and it is drawn
    }

    // A pinned pixel shows why it has its value: the trace (the shader's trace variant, on the
    // window's device, in the precision of the image) ends in the value the image holds there,
    // follows a new image, and goes with the pin.
    void pinnedPixelShowsItsTrace() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kSpots)));
        app::TracePanel& panel = v.window->tracePanel();
        QVERIFY(!panel.isVisible());
        const auto brightest = std::max_element(v.image().begin(), v.image().end()) - v.image().begin();
        const QPoint pixel(int(brightest % v.fast()), int(brightest / v.fast()));
        v.window->pinPixel(pixel);
        QVERIFY(panel.isVisible());
        QVERIFY2(panel.trace().has_value(), qPrintable(panel.statusText()));
        QCOMPARE(panel.trace()->imageValue, test::at(v.image(), v.fast(), pixel.x(), pixel.y()));
        QVERIFY(panel.trace()->precision == engine::Precision::Fast); // kSpots: -precision fast
        QVERIFY(panel.trace()->stepsAdded > 0);
        QStringList top;
        for (int i = 0; i < panel.tree()->topLevelItemCount(); ++i)
            top << panel.tree()->topLevelItem(i)->text(0);
        QVERIFY2(top.contains(QStringLiteral("value")) && top.contains(QStringLiteral("unit 0")),
                 qPrintable(top.join(QLatin1Char(','))));

        // a new image: the trace follows it
        v.document().edit([](Experiment& e) { e.crystal.phi0 += 0.01; });
        QVERIFY(v.waitImage());
        QVERIFY2(panel.trace().has_value(), qPrintable(panel.statusText()));
        QCOMPARE(panel.trace()->imageValue, test::at(v.image(), v.fast(), pixel.x(), pixel.y()));

        // off the detector: a message, not a crash; unpinned: gone
        v.window->pinPixel(QPoint(v.fast() + 5, 3));
        QVERIFY(!panel.trace().has_value());
        QVERIFY2(panel.statusText().contains(QStringLiteral("not on the")), qPrintable(panel.statusText()));
        v.window->pinPixel(std::nullopt);
        QVERIFY(!panel.isVisible());
        QVERIFY(!panel.trace().has_value());
    }

    void validationLayerReportsIntoTheTestLog() {
        // the suites' cleanup() checks mean something: a call the layer refuses is caught
        ViewerHarness v;
        QVERIFY(v.open(test::words(kSpots)));
        if (!v.validating())
            QSKIP("BRAGGVIEW_VALIDATION=1 is not set, or the validation layer is not installed");
        const VkDevice device = v.window->imageWindow().device();
        QVulkanDeviceFunctions* f = v.vulkanInstance().deviceFunctions(device);
        VkBufferCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
        info.size = 16;
        info.usage = 0; // must not be 0
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
        VkBuffer buffer = VK_NULL_HANDLE;
        if (f->vkCreateBuffer(device, &info, nullptr, &buffer) == VK_SUCCESS)
            f->vkDestroyBuffer(device, buffer, nullptr);
        QVERIFY(!test::takeValidationMessages().isEmpty());
    }

  private:
    static constexpr int kScreenshotTimeoutMs = 240000;
};

BV_GUI_TEST_MAIN(TestViewer)
#include "tst_viewer.moc"
