// The detector presets against the published numbers. Every expected value is typed here
// from the source DetectorPresets.cpp cites for it, not taken from the preset: image sizes
// in pixels (gaps included), module counts, pixel sizes and the gaps between modules,
// measured on the placed panels.

#include "compute/core/Error.h"
#include "compute/model/DetectorPresets.h"

#include <QTest>

namespace {
bool near(double a, double b, double tol) { return std::fabs(a - b) <= tol; }
} // namespace

class TestDetectorPresets : public QObject {
    Q_OBJECT
private slots:
    void publishedSizes_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("modulesFast");
        QTest::addColumn<int>("modulesSlow");
        QTest::addColumn<int>("fastPixels"); // the whole image
        QTest::addColumn<int>("slowPixels");
        QTest::addColumn<double>("pixel"); // um
        QTest::addColumn<int>("gapFast");  // pixels between modules
        QTest::addColumn<int>("gapSlow");
        // pyFAI Eiger2_16M MAX_SHAPE (4362, 4148), Eiger2 MODULE_GAP (38, 12); EIGER2 paper
        QTest::newRow("eiger2-16m") << "eiger2-16m" << 4 << 8 << 4148 << 4362 << 75.0 << 12 << 38;
        // pyFAI Eiger2_4M MAX_SHAPE (2162, 2068)
        QTest::newRow("eiger2-4m") << "eiger2-4m" << 2 << 4 << 2068 << 2162 << 75.0 << 12 << 38;
        // PILATUS 6M: 2463 x 2527 pixels of 172 um, pyFAI Pilatus MODULE_GAP (17, 7)
        QTest::newRow("pilatus3-6m") << "pilatus3-6m" << 5 << 12 << 2463 << 2527 << 172.0 << 7 << 17;
        // pyFAI Jungfrau4M MAX_SHAPE (2164, 2068), MODULE_GAP (36, 8); 75 um (XFEL docs)
        QTest::newRow("jungfrau-4m") << "jungfrau-4m" << 2 << 4 << 2068 << 2164 << 75.0 << 8 << 36;
    }
    void publishedSizes() {
        QFETCH(QString, name);
        QFETCH(int, modulesFast);
        QFETCH(int, modulesSlow);
        QFETCH(int, fastPixels);
        QFETCH(int, slowPixels);
        QFETCH(double, pixel);
        QFETCH(int, gapFast);
        QFETCH(int, gapSlow);
        const bv::DetectorPreset* preset = bv::findDetectorPreset(name.toStdString());
        QVERIFY(preset);
        QCOMPARE(preset->fastPixels(), fastPixels);
        QCOMPARE(preset->slowPixels(), slowPixels);

        const double distance = 0.2;
        const bv::PanelDetector d = bv::presetDetector(*preset, distance);
        bv::validatePanels(d, name.toStdString()); // no overlaps, sound axes
        QCOMPARE(int(d.panels.size()), modulesFast * modulesSlow);
        const bv::Panel& first = d.panels.front();
        QVERIFY(near(first.pixelSizeFast, pixel * 1e-6, 1e-15));

        // the gap: from the end of module m0_0 to the start of its neighbours, in pixels
        const double p = pixel * 1e-6;
        const bv::Panel* alongFast = d.find("m0_1");
        const bv::Panel* alongSlow = d.find("m1_0");
        QVERIFY(alongFast && alongSlow);
        const double gapF = glm::dot(alongFast->origin - first.position(first.fastPixels, 0), first.fast);
        const double gapS = glm::dot(alongSlow->origin - first.position(0, first.slowPixels), first.slow);
        QVERIFY2(near(gapF, gapFast * p, 1e-12), qPrintable(QString::number(gapF / p)));
        QVERIFY2(near(gapS, gapSlow * p, 1e-12), qPrintable(QString::number(gapS / p)));

        // the image, end to end, is the published number of pixels wide
        const bv::Panel& last = d.panels.back();
        const glm::dvec3 farCorner = last.position(last.fastPixels, last.slowPixels);
        QVERIFY(near(glm::dot(farCorner - first.origin, first.fast), fastPixels * p, 1e-12));
        QVERIFY(near(glm::dot(farCorner - first.origin, first.slow), slowPixels * p, 1e-12));
        // facing the beam (+x), distance away, the beam through the image's centre
        QVERIFY(near(glm::length(first.normal() - glm::dvec3(1, 0, 0)), 0.0, 1e-15));
        const glm::dvec3 centre = 0.5 * (first.origin + farCorner);
        QVERIFY(near(glm::length(centre - glm::dvec3(distance, 0, 0)), 0.0, 1e-12));
    }

    void epix10k2mHasSixteenModules() {
        // Blaj et al. 2019: modules of 352 x 384 pixels of 100 um; the 2M camera has 16
        const bv::DetectorPreset* preset = bv::findDetectorPreset("epix10k-2m");
        QVERIFY(preset);
        const bv::PanelDetector d = bv::presetDetector(*preset, 0.1);
        bv::validatePanels(d, "epix10k-2m");
        QCOMPARE(int(d.panels.size()), 16);
        QCOMPARE(d.pixelCount(), 16LL * 352 * 384); // 2,162,688 pixels
        QCOMPARE(d.panels[0].slowPixels, 352);
        QCOMPARE(d.panels[0].fastPixels, 384);
        QVERIFY(near(d.panels[0].pixelSizeSlow, 100e-6, 1e-15));
        QVERIFY(!preset->gapPublished); // its gap is a placeholder, and says so
    }

    void sensitivePixelsLeaveOutTheGaps() {
        // EIGER2 X 16M: 32 modules of 1028 x 512 pixels
        const bv::DetectorPreset* eiger = bv::findDetectorPreset("eiger2-16m");
        QCOMPARE(bv::presetDetector(*eiger, 0.1).pixelCount(), 32LL * 1028 * 512);
        QCOMPARE(eiger->sensitivePixels(), 16842752LL);
    }

    void placedForAnotherConvention() {
        // XDS: beam along +z, fast +x, slow +y; the detector still faces the beam
        const bv::DetectorPreset* pilatus = bv::findDetectorPreset("pilatus3-6m");
        const bv::PanelDetector d =
            bv::presetDetector(*pilatus, 0.3, bv::conventionAxes(bv::Convention::Xds));
        QVERIFY(near(glm::length(d.panels[0].normal() - glm::dvec3(0, 0, 1)), 0.0, 1e-15));
        QVERIFY(near(d.panels[0].origin.z, 0.3, 1e-15));
        // the first corner half the image (2463 x 0.172 mm / 2) back along fast
        QVERIFY(near(d.panels[0].origin.x, -0.5 * 2463 * 172e-6, 1e-12));
    }

    void unknownNamesAndBadDistances() {
        QVERIFY(!bv::findDetectorPreset("eiger9000"));
        QVERIFY_THROWS_EXCEPTION(bv::Error,
                                 bv::presetDetector(bv::detectorPresets().front(), 0.0));
    }
};

QTEST_APPLESS_MAIN(TestDetectorPresets)
#include "tst_detectorpresets.moc"
