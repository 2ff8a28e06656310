// The viewer's Background and Detector response sections (app/DetectorSignal.h), driven
// through their widgets: the image shown is the headless run's float image with its
// -background, the radial profile carries the layer, a point spread function spreads the
// photons shown (not the exported float image), and switching them off gives the Bragg image
// back, bit for bit.

#include "GuiTestMain.h"
#include "HeadlessImage.h"
#include "ViewerHarness.h"
#include "app/Exporter.h"
#include "app/ParameterPanels.h"
#include "app/PixelGeometry.h"
#include "app/Profiles.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QTemporaryDir>

#include <cmath>

using namespace bv;
using test::headlessImage;
using test::ViewerHarness;

namespace {

// sharp spots on a small detector, fast precision (the viewer's own)
const QString kSpots = QStringLiteral(
    "-cell 40 40 40 90 90 90 -N 6 -misset 5 10 15 -default_F 100 -lambda 1 -distance 100 "
    "-detpixels 96 -pixel 0.2 -oversample 1 -round_xtal -seed 7 -precision fast");

} // namespace

class TestDetectorSignal : public QObject {
    Q_OBJECT

    static app::ParameterPanel* sampling(ViewerHarness& v) {
        return v.window->panel(QStringLiteral("Sampling"));
    }
    template <class T> static T* editor(ViewerHarness& v, const char* name) {
        return sampling(v)->findChild<T*>(QLatin1String(name));
    }

  private slots:
    void cleanup() { BV_VERIFY_NO_VALIDATION_MESSAGES(); }

    void backgroundIsTheHeadlessRunsAndInTheProfile() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kSpots)));
        const std::vector<float> bragg = v.image();
        const app::PixelGeometry geometry(*v.controller().resolved());
        const app::Profile before =
            app::radialProfile(bragg, v.controller().skipped(), geometry, 50);
        // the fields wait for a material
        app::ParameterField* thickness = sampling(v)->field(QStringLiteral("backgroundThickness"));
        QVERIFY(thickness);
        QVERIFY(!thickness->isEnabled() || !thickness->spinBox()->isEnabled());

        auto* material = editor<QComboBox>(v, "backgroundMaterial");
        QVERIFY(material);
        material->setCurrentIndex(material->findText(QStringLiteral("water")));
        QVERIFY(v.waitImage());
        QCOMPARE(v.document().experiment().background.material, std::string("water"));
        // 10 nm: thin enough that the spots still show in float beside the layer (a layer of
        // microns outshines this 0.02 um crystal by 1e7)
        thickness->spinBox()->setValue(0.01); // um
        QVERIFY(v.waitImage());
        QCOMPARE(v.document().experiment().background.thickness, 0.01e-6);

        // the headless run of "Copy headless command" (-background water ...), to the float
        const std::vector<float> headless = headlessImage(v);
        QCOMPARE(headless.size(), v.image().size());
        for (std::size_t i = 0; i < headless.size(); ++i)
            QVERIFY2(std::fabs(v.image()[i] - headless[i]) <= 1e-6f * std::fabs(headless[i]),
                     qPrintable(QStringLiteral("pixel %1: %2 vs %3")
                                    .arg(i)
                                    .arg(v.image()[i])
                                    .arg(headless[i])));
        // no PSF: the exported float image is the one shown
        QCOMPARE(v.controller().floatImage(), v.image());
        // the layer is everywhere: every pixel gained, and so did every ring of the profile
        std::size_t gained = 0;
        for (std::size_t i = 0; i < bragg.size(); ++i)
            gained += v.image()[i] > bragg[i];
        QCOMPARE(gained, bragg.size());
        const app::Profile after =
            app::radialProfile(v.image(), v.controller().skipped(), geometry, 50);
        QCOMPARE(after.x, before.x);
        for (std::size_t i = 0; i < after.y.size(); ++i)
            QVERIFY(after.y[i] > before.y[i]);

        // the crystal turns: the layer is the one computed before (it depends on the
        // detector, beam and sources alone), and the image is still the headless one
        const int layers = v.controller().detectorSignal()->backgroundsComputed();
        const glm::dvec3 misset = v.document().experiment().crystal.missetAngles;
        const double distance = v.document().experiment().detector.distance;
        v.document().edit([](Experiment& e) { e.crystal.missetAngles.x += 0.01; });
        QVERIFY(v.waitImage());
        QCOMPARE(v.controller().detectorSignal()->backgroundsComputed(), layers);
        QVERIFY(v.image() != headless);
        const std::vector<float> turned = headlessImage(v);
        for (std::size_t i = 0; i < turned.size(); ++i)
            QVERIFY(std::fabs(v.image()[i] - turned[i]) <= 1e-6f * std::fabs(turned[i]));
        // the distance moves: a new layer
        v.document().edit([](Experiment& e) { e.detector.distance *= 1.1; });
        QVERIFY(v.waitImage());
        QCOMPARE(v.controller().detectorSignal()->backgroundsComputed(), layers + 1);

        // none again: the Bragg image, bit for bit
        v.document().edit([&](Experiment& e) {
            e.crystal.missetAngles = misset;
            e.detector.distance = distance;
        });
        material->setCurrentIndex(0);
        QVERIFY(v.waitImage());
        QCOMPARE(v.image(), bragg);
    }

    void pointSpreadSpreadsTheImageShown() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kSpots)));
        const std::vector<float> bragg = v.image();
        auto* psf = editor<QComboBox>(v, "psf");
        QVERIFY(psf);
        QVERIFY(!psf->isEnabled()); // the response is off
        editor<QCheckBox>(v, "response")->setChecked(true);
        QVERIFY(v.waitImage());
        QVERIFY(psf->isEnabled());
        QCOMPARE(v.image(), bragg); // on, without a PSF: nothing to show
        psf->setCurrentIndex(psf->findText(QStringLiteral("gauss")));
        QVERIFY(v.waitImage());
        app::ParameterField* width = sampling(v)->field(QStringLiteral("psfFwhm"));
        QVERIFY(width);
        width->spinBox()->setValue(400.0); // 2 pixels
        QVERIFY(v.waitImage());
        QCOMPARE(v.document().experiment().response.psfFwhm, 400e-6);

        // the float image (what the exports write) is the Bragg image; the one shown is it
        // convolved with the Gaussian integrated over each pixel, g(dx) g(dy), g(d) =
        // (erf(a(d + 1/2)) - erf(a(d - 1/2))) / 2, a = sqrt(ln 16) / fwhm, out to 3 fwhm, the
        // light beyond the edges lost (docs/detector-response.md)
        QCOMPARE(v.controller().floatImage(), bragg);
        const std::vector<float>& shown = v.image();
        const double fwhm = 2.0, a = std::sqrt(std::log(16.0)) / fwhm;
        const int r = 6, w = v.fast(), h = v.slow();
        std::vector<double> g(2 * r + 1);
        for (int d = -r; d <= r; ++d)
            g[d + r] = 0.5 * (std::erf(a * (d + 0.5)) - std::erf(a * (d - 0.5)));
        const double peak = *std::max_element(bragg.begin(), bragg.end());
        double worst = 0.0;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                double expected = 0.0;
                for (int dy = -r; dy <= r; ++dy)
                    for (int dx = -r; dx <= r; ++dx)
                        if (x - dx >= 0 && x - dx < w && y - dy >= 0 && y - dy < h)
                            expected += g[dx + r] * g[dy + r] * test::at(bragg, w, x - dx, y - dy);
                worst = std::max(worst, std::fabs(test::at(shown, w, x, y) - expected));
            }
        QVERIFY2(worst <= 1e-5 * peak, qPrintable(QStringLiteral("%1 of %2").arg(worst).arg(peak)));
        // and it did spread: the peak is lower
        QVERIFY(*std::max_element(shown.begin(), shown.end()) < 0.9 * peak);

        // the response off: the Bragg image again
        editor<QCheckBox>(v, "response")->setChecked(false);
        QVERIFY(v.waitImage());
        QCOMPARE(v.image(), bragg);
    }

    // the exports: the float image with its layer and before the PSF, the noise image through
    // the response's chain, the headless run's files of "Copy headless command" byte for byte
    void exportsAreTheHeadlessFiles() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kSpots + QStringLiteral(
            " -background water -background_thickness 0.00001 -response_psf gauss "
            "-response_psf_fwhm 400 -response_readout 2 -response_gain 3"))));
        QVERIFY(v.controller().floatImage() != v.image()); // the PSF is shown
        QTemporaryDir dir;
        const QString d = dir.path();
        v.window->exportImage(app::ExportFormat::Float, d + QStringLiteral("/v.bin"));
        v.window->exportImage(app::ExportFormat::NoiseImage, d + QStringLiteral("/v_noise.img"));
        std::vector<std::string> args =
            app::headlessArguments(v.document().commandLine(), v.document().precision());
        for (const char* word : {"-floatfile", "/h.bin", "-noisefile", "/h_noise.img"})
            args.push_back(word[0] == '/' ? (d + QLatin1String(word)).toStdString() : word);
        args.insert(args.end(), {"-nopgm", "-noprogress", "-intfile",
                                 (d + QStringLiteral("/h.img")).toStdString()});
        QCOMPARE(test::runHeadless(args), 0);
        const auto bytes = [&](const char* name) {
            QFile f(d + QLatin1String(name));
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        QVERIFY(!bytes("/v.bin").isEmpty());
        QVERIFY(bytes("/v.bin") == bytes("/h.bin"));
        QVERIFY(!bytes("/v_noise.img").isEmpty());
        QVERIFY(bytes("/v_noise.img") == bytes("/h_noise.img"));
    }
};

BV_GUI_TEST_MAIN(TestDetectorSignal)
#include "tst_detectorsignal.moc"
