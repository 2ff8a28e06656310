// The viewer's pure parts, without a window: the colour transfer function and tables, the
// zoom/pan arithmetic, the host-side geometry of the readout and the overlays, the profiles,
// the headless command (parsed back, it states the same experiment), and the GPU histogram
// of auto-contrast (on a device of its own).

#include "ExperimentCompare.h"
#include "app/HeadlessCommand.h"
#include "app/MainWindow.h"
#include "app/Overlays.h"
#include "app/PixelGeometry.h"
#include "app/Profiles.h"
#include "app/DisplayPanel.h"
#include "compute/cli/CommandLine.h"
#include "compute/model/Resolve.h"
#include "compute/model/Units.h"
#include "compute/vk/Buffer.h"
#include "compute/vk/Device.h"
#include "tests/TestResolve.h"
#include "render/Colormap.h"
#include "render/GpuHistogram.h"
#include "render/ViewTransform.h"

#include <QApplication>
#include <QPainter>
#include <QTest>

#include <charconv>
#include <cmath>
#include <random>
#include <sstream>

using namespace bv;

namespace {

const std::vector<std::string> kCubic = {"-cell", "40", "40", "40", "90", "90", "90", "-N", "10",
                                         "-default_F", "100", "-lambda", "1", "-distance", "100",
                                         "-detpixels", "200", "-pixel", "0.2"};

// kCubic without its flat detector's pixels, for the detectors of modules
const std::vector<std::string> kCrystal = {"-cell", "40", "40", "40", "90", "90", "90", "-N", "10",
                                           "-default_F", "100", "-lambda", "1", "-distance", "100"};

} // namespace

class TestViewerParts : public QObject {
    Q_OBJECT

  private slots:
    // ---- colours ------------------------------------------------------------------------------
    void transferFunction_data() {
        QTest::addColumn<int>("scaling");
        QTest::addColumn<float>("value");
        QTest::addColumn<int>("index");
        // black 10, white 110: x = (v - 10)/100
        QTest::newRow("linear below black") << 0 << 5.0f << 0;
        QTest::newRow("linear at black") << 0 << 10.0f << 0;
        QTest::newRow("linear middle") << 0 << 60.0f << 128;
        QTest::newRow("linear at white") << 0 << 110.0f << 255;
        QTest::newRow("linear above white") << 0 << 1e6f << 255;
        QTest::newRow("sqrt quarter") << 1 << 35.0f << 128;      // sqrt(0.25) = 0.5
        QTest::newRow("log 1/1000") << 2 << 10.1f << 25;          // log(2)/log(1001) = 0.1003
        QTest::newRow("log middle") << 2 << 60.0f << 230;         // log(501)/log(1001) = 0.8998
    }
    void transferFunction() {
        QFETCH(int, scaling);
        QFETCH(float, value);
        QFETCH(int, index);
        render::DisplaySettings s;
        s.black = 10.0f;
        s.white = 110.0f;
        s.scaling = static_cast<render::Scaling>(scaling);
        QCOMPARE(render::colourIndex(value, s), index);
    }
    void tablesRunFromTheirEnds() {
        const auto& table = render::colourTable();
        const auto entry = [&](render::Colormap map, int i) {
            return table[static_cast<std::size_t>(static_cast<int>(map) * 256 + i)];
        };
        QCOMPARE(int(entry(render::Colormap::Grey, 0)[0]), 0);
        QCOMPARE(int(entry(render::Colormap::Grey, 255)[0]), 255);
        QCOMPARE(int(entry(render::Colormap::InvertedGrey, 0)[1]), 255);
        QCOMPARE(int(entry(render::Colormap::InvertedGrey, 255)[1]), 0);
        QCOMPARE(int(entry(render::Colormap::Viridis, 0)[0]), 0x44); // viridis starts dark purple
        QCOMPARE(int(entry(render::Colormap::Viridis, 255)[1]), 0xe7); // and ends yellow
        QCOMPARE(int(entry(render::Colormap::Heat, 0)[0]), 0);
        QCOMPARE(int(entry(render::Colormap::Heat, 255)[2]), 255);
    }
    void overloadAndMaskedColours() {
        render::DisplaySettings s;
        s.overload = 1000.0f;
        QCOMPARE(render::colourFor(1000.0f, false, s), s.overloadColour.rgb());
        QCOMPARE(render::colourFor(5.0f, true, s), s.maskedColour.rgb());
        s.overloadOn = false;
        QVERIFY(render::colourFor(1e9f, false, s) != s.overloadColour.rgb());
        const QImage image = render::colourImage({0.0f, 50.0f, 2000.0f, 7.0f}, 2, 2, {0, 0, 0, 1}, s);
        QCOMPARE(image.size(), QSize(2, 2));
        QCOMPARE(image.pixel(1, 1), s.maskedColour.rgb()); // fast 1, slow 1 is the 4th value
        QCOMPARE(image.pixel(0, 0), qRgb(255, 255, 255)); // inverted grey: 0 photons is white
    }

    // ---- view ---------------------------------------------------------------------------------
    void zoomKeepsThePointUnderTheCursor() {
        render::ViewTransform view;
        view.set(QPointF(13.0, -7.0), 1.5);
        const QPointF cursor(200.0, 150.0);
        const QPointF under = view.toImage(cursor);
        view.zoomAbout(cursor, 1.25);
        QCOMPARE(view.scale(), 1.875);
        const QPointF after = view.toImage(cursor);
        QVERIFY(std::fabs(after.x() - under.x()) < 1e-12 && std::fabs(after.y() - under.y()) < 1e-12);
    }
    void fitAndOneToOne() {
        render::ViewTransform view;
        view.fit(QSizeF(800, 600), QSizeF(200, 100));
        QCOMPARE(view.scale(), 4.0);
        QCOMPARE(view.origin(), QPointF(0.0, 100.0));
        view.oneToOne(QSizeF(800, 600));
        QCOMPARE(view.scale(), 1.0);
        // the image point at the view's centre stays there, on whole pixels
        QCOMPARE(view.toImage(QPointF(400, 300)), QPointF(100.0, 50.0));
        view.zoomAbout(QPointF(0, 0), 1e9);
        QCOMPARE(view.scale(), render::ViewTransform::kMaxScale);
    }

    // ---- geometry -----------------------------------------------------------------------------
    // (the geometry itself: tests/compute/plan/tst_pixelgeometry.cpp)
    // The radial profile of two modules with a gap skips the narrower panel's missing pixels.
    void radialProfileOfPanels() {
        const app::PixelGeometry g(testing::twoModules(testing::resolvedOf(kCubic)));
        std::vector<float> image(50 * 200, 1.0f);
        const app::Profile radial = app::radialProfile(image, {}, g, 20);
        QVERIFY(!radial.y.empty());
        for (double v : radial.y)
            QCOMPARE(v, 1.0);
    }
    // The Qt points the viewer draws are the geometry's points.
    void qtPointsAreTheGeometrysPoints() {
        const app::PixelGeometry g(testing::resolvedOf(kCubic));
        const std::optional<QPointF> beam = app::toQPointF(g.beamCentre());
        QVERIFY(beam && beam->x() == g.beamCentre()->x && beam->y() == g.beamCentre()->y);
        QCOMPARE(app::toQPointF(g.centreOf(app::toVec2(QPoint(3, 4)))), QPointF(3.5, 4.5));
        QVERIFY(!app::toQPointF(std::optional<glm::dvec2>()));
    }

    // ---- overlays -----------------------------------------------------------------------------
    // The predicted spots' rings leave the spots in sight: drawn on a white view, a ring is
    // thin and lies outside its spot and clear of its neighbours'. A spot here: the disc of
    // 1.5 image pixels about its point (a spot of about three pixels). An 80 A cell puts the
    // spots about 6 pixels apart, as the rotation lesson's; the rings drawn at the projector's
    // scale as at the window's once covered the neighbours (9.5 view pixels out, 3 wide).
    void spotRingsLeaveTheSpotsInSight_data() {
        QTest::addColumn<double>("overlayScale");
        QTest::addColumn<double>("viewScale");
        QTest::newRow("window, 2 view pixels a pixel") << 1.0 << 2.0;
        QTest::newRow("presenting, 2 view pixels a pixel") << 2.5 << 2.0;
        QTest::newRow("presenting, 4 view pixels a pixel") << 2.5 << 4.0;
    }
    void spotRingsLeaveTheSpotsInSight() {
        QFETCH(double, overlayScale);
        QFETCH(double, viewScale);
        std::vector<std::string> args = kCubic;
        std::fill(args.begin() + 1, args.begin() + 4, "80");
        app::Overlays overlays;
        overlays.setSettings({false, false, true, false}); // the spots alone, no labels
        overlays.setGeometry(app::PixelGeometry(testing::resolvedOf(args)));
        overlays.setScale(overlayScale);
        const std::vector<app::PredictedSpot>& spots = overlays.spots();
        QVERIFY2(spots.size() > 100, qPrintable(QString::number(spots.size())));
        QVERIFY2(overlays.spotSpacing() > 4.0 && overlays.spotSpacing() < 9.0,
                 qPrintable(QString::number(overlays.spotSpacing())));
        render::ViewTransform view;
        view.set(QPointF(0, 0), viewScale);
        QImage shot(QSize(200, 200) * viewScale, QImage::Format_RGB32);
        shot.fill(Qt::white);
        {
            QPainter painter(&shot);
            painter.setRenderHint(QPainter::Antialiasing); // as the window draws it
            overlays.paint(painter, view, shot.size());
        }
        // each spot's disc: untouched (white); a ring about it: painted
        int covered = 0, ringed = 0;
        for (const app::PredictedSpot& s : spots) {
            const QPointF c = view.toView(app::toQPointF(s.point));
            const double disc = 1.5 * viewScale, ring = overlays.spotRingRadius(viewScale);
            bool clear = true, painted = false;
            for (int y = int(c.y() - ring - 2); y <= int(c.y() + ring + 2); ++y)
                for (int x = int(c.x() - ring - 2); x <= int(c.x() + ring + 2); ++x) {
                    if (!shot.rect().contains(x, y))
                        continue;
                    const double r = QLineF(c, QPointF(x + 0.5, y + 0.5)).length();
                    const bool white = shot.pixel(x, y) == qRgb(255, 255, 255);
                    if (r <= disc && !white)
                        clear = false;
                    if (std::fabs(r - ring) <= 1.0 && !white)
                        painted = true;
                }
            covered += !clear;
            ringed += painted;
        }
        // a handful may meet a ring where two spots fall closer than the pattern's spacing
        QVERIFY2(covered <= int(spots.size()) / 20,
                 qPrintable(QStringLiteral("%1 of %2 spots covered").arg(covered).arg(spots.size())));
        QCOMPARE(ringed, int(spots.size()));
        QVERIFY(overlays.spotRingWidth() <= 1.5); // thin, also on a projector
    }

    // ---- profiles -----------------------------------------------------------------------------
    void profiles() {
        const std::vector<float> image = {0, 1, 2, 3, 4, 5, 6, 7, 8};
        const app::Profile row = app::lineProfile(image, 3, 3, QPointF(0.5, 1.5), QPointF(2.5, 1.5));
        QCOMPARE(row.y, (std::vector<double>{3, 4, 5})); // unit steps along the line
        const app::Profile diagonal = app::lineProfile(image, 3, 3, QPointF(0.5, 0.5), QPointF(2.5, 2.5));
        QCOMPARE(diagonal.y, (std::vector<double>{0, 4, 4})); // at 0, 1 and 2 pixels from the start
        const app::Profile h = app::histogram(image, {}, 3, 0.0, 9.0);
        QCOMPARE(h.y, (std::vector<double>{3, 3, 3}));
        QCOMPARE(app::percentile(image, {}, 50.0), 4.0f);
        QCOMPARE(app::percentile(image, {1, 1, 1, 1, 1, 1, 1, 1, 0}, 0.0), 8.0f);
    }

    // ---- headless command ---------------------------------------------------------------------
    void headlessCommandStatesTheSameExperiment_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("demo") << QStringLiteral("-cell 79.1 79.1 38.4 90 90 90 -misset 10 25 5 -lambda 1.0 -N 20 -default_F 100 -distance 200 -detpixels 512 -pixel 0.2 -round_xtal -mosaic 0.3 -mosaic_dom 8 -mosaic_seed 1 -seed 1")
                                      .split(QLatin1Char(' '));
        QTest::newRow("everything") << QStringLiteral(
            "-cell 51.2 62.3 73.4 88 92 101 -misset 1 2 3 -Na 3 -Nb 4 -Nc 5 -gauss_xtal -fudge 1.5 "
            "-mosaic 0.7 -mosaic_dom 12 -mosaic_seed 99 -phi 12.5 -osc 0.5 -phisteps 4 "
            "-lambda 1.3 -dispersion 0.2 -dispsteps 3 -hdivrange 0.5 -vdivrange 0.25 -divsteps 3 -square_div "
            "-polar 0.9 -fluence 1e30 -pixel 0.172 -detpixels_f 300 -detpixels_s 200 -distance 150 "
            "-Xbeam 25 -Ybeam 18 -detector_rotx 1 -detector_roty 2 -detector_rotz 3 -twotheta 5 "
            "-point_pixel -detector_thick 450 -detector_abs 320 -thicksteps 3 -oversample 2 "
            "-oversample_omega -roi 10 200 20 150 -dmin 2.5 -nointerpolate -water 50 -default_F 10 "
            "-seed 42 -adc 10 -scale 2").split(QLatin1Char(' '));
        QTest::newRow("xds close distance") << QStringLiteral(
            "-cell 30 30 30 -default_F 1 -xds -close_distance 120 -ORGX 90 -ORGY 110 -detpixels 180 -nopolar -curved_det -seed 3")
                                                    .split(QLatin1Char(' '));
        QTest::newRow("custom vectors, random misset") << QStringLiteral(
            "-cell 30 40 50 -default_F 1 -beam_vector 0 0 1 -polar_vector 0 1 0 -spindle_axis 1 0 0 "
            "-twotheta_axis 0 1 0 -fdet_vector 1 0 0 -sdet_vector 0 -1 0 -odet_vector 0 0 1 "
            "-pivot sample -twotheta 7 -misset random -misset_seed 77 -detpixels 64 -seed 5")
                                                               .split(QLatin1Char(' '));
        QTest::newRow("background and response") << QStringLiteral(
            "-cell 30 30 30 -default_F 1 -detpixels 64 -seed 4 -background water "
            "-background_thickness 0.02 -background_density 0.92 -background_MW 18.02 "
            "-response_psf fiber -response_psf_fwhm 120 -response_psf_radius 4 "
            "-response_flicker 0.01 -response_calibration 0.02 -response_calib_seed 7 "
            "-response_readout 3 -response_gain 2.5")
                                                      .split(QLatin1Char(' '));
        QTest::newRow("flux and size") << QStringLiteral(
            "-cell 30 30 30 -default_F 1 -flux 1e12 -exposure 2 -beamsize 0.05 -xtal_size 0.001 -detpixels 64 -seed 9 -precision precise")
                                               .split(QLatin1Char(' '));
    }
    void headlessCommandStatesTheSameExperiment() {
        QFETCH(QStringList, args);
        std::vector<std::string> words;
        for (const QString& w : args)
            words.push_back(w.toStdString());
        const RunRequest original = cli::parseCommandLine(words);
        const std::vector<std::string> emitted =
            app::headlessArguments(original, original.precision == Precision::Fast
                                                 ? engine::Precision::Fast
                                                 : engine::Precision::Precise);
        const RunRequest again = cli::parseCommandLine(emitted);
        test::ExperimentCompare compare(1e-12);
        const QString difference = compare.difference(original.experiment, again.experiment);
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
        QCOMPARE(again.outputs.adcOffset, original.outputs.adcOffset);
        QCOMPARE(again.outputs.intScale, original.outputs.intScale);
        QCOMPARE(int(again.precision), int(original.precision));
        // no surprises on the way: only the notices the reference's rules give for what is
        // stated on purpose (a close distance wins over the distance; -twotheta_axis is also
        // read as -twotheta, which is given again after it)
        for (const std::string& notice : again.notices)
            QVERIFY2(notice.find("close distance") != std::string::npos ||
                         notice.find("-twotheta_axis") != std::string::npos,
                     notice.c_str());
        const QString line = app::headlessCommand(original, engine::Precision::Fast);
        QVERIFY(line.startsWith(QStringLiteral("braggview --headless ")));
    }
    // ---- the status bar -------------------------------------------------------------------
    // The detector as its maker gives it, not the stacked image the modules' rows make (the
    // PILATUS3 6M's is 487 x 11700): 5 x 12 modules of 487 x 195 pixels, gaps of 7 and 17
    // pixels, 5 * 487 + 4 * 7 = 2463 by 12 * 195 + 11 * 17 = 2527 (DetectorPresets.cpp).
    void statusBarNamesTheDetector_data() {
        QTest::addColumn<QString>("detector"); // after kCrystal; empty: kCubic's flat one
        QTest::addColumn<QString>("text");
        QTest::newRow("flat") << "" << "200 × 200 pixels";
        QTest::newRow("pilatus3-6m") << "-detector pilatus3-6m"
                                     << "2463 × 2527 pixels, 60 modules";
        // turned as one body: the same face, the same size
        QTest::newRow("pilatus3-6m turned")
            << "-detector pilatus3-6m -detector_rotx 10 -twotheta 20"
            << "2463 × 2527 pixels, 60 modules";
        // 4 x 8 modules of 1028 x 512, gaps 12 and 38: 4148 x 4362
        QTest::newRow("eiger2-16m") << "-detector eiger2-16m"
                                    << "4148 × 4362 pixels, 32 modules";
        // four modules of 200 x 200 pixels tilted apart: no one face, their count and pixels
        QTest::newRow("tilted expt")
            << "-detector " BV_TEST_DATA "/detectors/four-module-tilted.expt"
            << "4 modules, 160000 pixels";
    }
    void statusBarNamesTheDetector() {
        QFETCH(QString, detector);
        QFETCH(QString, text);
        std::vector<std::string> args = kCubic;
        if (!detector.isEmpty()) {
            args = kCrystal;
            for (const QString& word : detector.split(QLatin1Char(' ')))
                args.push_back(word.toStdString());
        }
        QCOMPARE(app::detectorSizeText(testing::resolvedOf(args)), text);
    }

    void shortestTextReadsBack() {
        for (double v : {0.1, 1.0 / 3.0, 1e-10 * 1.2345678901234567, 12398.42, -0.0, 123456789.0}) {
            const std::string text = app::shortestText(v);
            double back = 0.0;
            std::from_chars(text.data(), text.data() + text.size(), back); // locale-independent
            QCOMPARE(back, v);
        }
        QCOMPARE(QString::fromStdString(app::shortestText(0.2)), QStringLiteral("0.2"));
    }
};

// A histogram counted on the GPU (lavapipe here) gives the host's percentiles to within one
// of its bins: the images are uploaded as they are (the viewer counts the simulator's buffer).
class TestGpuHistogram : public QObject {
    Q_OBJECT

    struct Image {
        std::vector<float> pixels;
        std::vector<std::uint8_t> skipped;
    };

  private slots:
    void percentilesEqualTheHostsWithinABin_data() {
        QTest::addColumn<int>("kind");
        QTest::newRow("like a simulated image, with skipped pixels") << 0;
        QTest::newRow("all zero") << 1;
        QTest::newRow("one value") << 2;
        QTest::newRow("negative values too") << 3;
    }
    void percentilesEqualTheHostsWithinABin() {
        QFETCH(int, kind);
        const Image image = make(kind);
        vk::Device device; // BRAGGVIEW_VALIDATION=1 (CMake) puts the layer on it
        if (qEnvironmentVariableIntValue("BRAGGVIEW_VALIDATION") == 1)
            QVERIFY(device.validationEnabled());
        vk::Buffer buffer(device, image.pixels.size() * sizeof(float),
                          VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, vk::MemoryUse::Upload, "the test image");
        buffer.write(image.pixels.data(), image.pixels.size() * sizeof(float));
        render::GpuHistogram counter(device);
        const render::ImageHistogram h = counter.compute(buffer.handle(), image.pixels.size(), image.skipped);

        const auto counted = static_cast<std::uint64_t>(
            image.skipped.empty() ? image.pixels.size()
                                  : std::count(image.skipped.begin(), image.skipped.end(), 0));
        QCOMPARE(h.count(), counted);
        for (double percent : {0.0, 10.0, 50.0, 90.0, 99.9, 100.0}) {
            const float host = app::percentile(image.pixels, image.skipped, percent);
            const float gpu = h.percentile(percent);
            // one bin: a log-spaced one for a positive value, [minimum, 0] for the others
            float width = -h.minimum;
            if (host > 0.0f) {
                const auto [low, high] = h.binEdges(h.binOf(host));
                width = 1.01f * (high - low); // the next bin up is 0.5 % wider
            }
            QVERIFY2(std::fabs(gpu - host) <= width,
                     qPrintable(QStringLiteral("%1th percentile: GPU %2, host %3, bin width %4")
                                    .arg(percent).arg(gpu).arg(host).arg(width)));
        }
        QVERIFY(device.validationMessages().empty());
    }

  private:
    static Image make(int kind) {
        Image image;
        image.pixels.assign(300 * 200, 0.0f);
        std::mt19937 random(11);
        std::uniform_real_distribution<double> decades(-3.0, 2.0);
        for (std::size_t i = 0; i < image.pixels.size(); ++i) {
            switch (kind) {
            case 0:
                // a third zero (outside the crystal's reach), a background over five decades,
                // one spot in a thousand bright
                if (i % 3 != 0)
                    image.pixels[i] = static_cast<float>(std::pow(10.0, decades(random)));
                if (i % 1000 == 1)
                    image.pixels[i] = 5e4f + static_cast<float>(i);
                break;
            case 2: image.pixels[i] = 42.5f; break;
            case 3: image.pixels[i] = static_cast<float>(std::pow(10.0, decades(random))) * (i % 2 ? 1.0f : -1.0f); break;
            default: break;
            }
        }
        if (kind == 0) {
            // every seventh pixel skipped, and brighter than anything counted
            image.skipped.assign(image.pixels.size(), 0);
            for (std::size_t i = 0; i < image.pixels.size(); i += 7) {
                image.skipped[i] = 1;
                image.pixels[i] = 1e9f;
            }
        }
        return image;
    }
};

int main(int argc, char** argv) {
    QApplication application(argc, argv);
    TestViewerParts parts;
    TestGpuHistogram histogram;
    return QTest::qExec(&parts, argc, argv) | QTest::qExec(&histogram, argc, argv);
}

#include "tst_viewerparts.moc"
