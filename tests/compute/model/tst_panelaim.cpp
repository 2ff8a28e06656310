// Aiming a detector preset with nanoBragg's beam-centre options, and where the beam falls by
// default. Expected pixels are worked by hand from the presets' published layouts (the same
// numbers tst_detectorpresets types): PILATUS3 6M, 2463 x 2527 pixels of 172 um in modules of
// 487 x 195 with gaps of 7 (fast) and 17 (slow) pixels; EIGER2 X 16M, 4148 x 4362 pixels of
// 75 um in modules of 1028 x 512 with gaps of 12 and 38.

#include "compute/core/Error.h"
#include "compute/model/DetectorPresets.h"
#include "compute/model/PanelAim.h"
#include "compute/model/Resolve.h"

#include "TwoModules.h"

#include <QTest>

namespace {

bv::Experiment presetExperiment(const std::string& name) {
    bv::Experiment e;
    const bv::DetectorPreset* preset = bv::findDetectorPreset(name);
    e.detector.panels = bv::presetDetector(*preset, 0.1).panels;
    e.detector.panelsSource = name;
    return e;
}

} // namespace

class TestPanelAim : public QObject {
    Q_OBJECT
private slots:
    // Without a beam centre the beam meets the image's centre, which on these two presets is
    // a gap: PILATUS row 5 ends at 5 * 212 + 195 = 1255, the next starts at 1272 > 1263.5;
    // EIGER column 1 ends at 1040 + 1028 = 2068 < 2074 < 2080.
    void theDefaultBeamFallsInAGap_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<double>("fast");
        QTest::addColumn<double>("slow");
        QTest::newRow("pilatus3-6m") << "pilatus3-6m" << 1231.5 << 1263.5;
        QTest::newRow("eiger2-16m") << "eiger2-16m" << 2074.0 << 2181.0;
    }
    void theDefaultBeamFallsInAGap() {
        QFETCH(QString, preset);
        QFETCH(double, fast);
        QFETCH(double, slow);
        const bv::Experiment e = presetExperiment(preset.toStdString());
        const auto placed = bv::resolveStatedPanels(e, e.axes());
        const std::optional<bv::BeamHit> hit = bv::beamHit(placed, e.axes().beam);
        QVERIFY(hit);
        QCOMPARE(hit->fastPixel, fast);
        QCOMPARE(hit->slowPixel, slow);
        QCOMPARE(hit->panel, std::string());
        const QString text = QString::fromStdString(
            bv::beamHitText(preset.toStdString(), placed, e.axes().beam));
        QVERIFY2(text.contains("in a gap between modules"), qPrintable(text));
        QVERIFY2(text.contains(QString("pixel (%1, %2)").arg(fast, 0, 'f', 1).arg(slow, 0, 'f', 1)),
                 qPrintable(text));
    }

    // -Xbeam 210 -Ybeam 220 on the PILATUS: MOSFLM puts the beam 220 + 0.086 mm along fast and
    // 210 + 0.086 along slow (its first pixel's centre is at half a pixel), DENZO at 220 and
    // 210; both on module row 5 (1060 to 1255), column 2 (988 to 1475): m5_2.
    void aBeamCentreMovesThePresetInItsPlane_data() {
        QTest::addColumn<int>("convention");
        QTest::addColumn<double>("fastMm");
        QTest::addColumn<double>("slowMm");
        QTest::newRow("mosflm") << int(bv::Convention::Mosflm) << 220.086 << 210.086;
        QTest::newRow("denzo") << int(bv::Convention::Denzo) << 220.0 << 210.0;
        // ADXV: Xbeam along fast, Ybeam up from the last row: 434.644 - 220 mm along slow
        QTest::newRow("adxv") << int(bv::Convention::Adxv) << 210.0 << 214.644;
    }
    void aBeamCentreMovesThePresetInItsPlane() {
        QFETCH(int, convention);
        QFETCH(double, fastMm);
        QFETCH(double, slowMm);
        bv::Experiment e = presetExperiment("pilatus3-6m");
        e.convention = bv::Convention(convention);
        e.detector.beamX = 0.210;
        e.detector.beamY = 0.220;
        const auto placed = bv::resolveStatedPanels(e, e.axes());
        const std::optional<bv::BeamHit> hit = bv::beamHit(placed, e.axes().beam);
        QVERIFY(hit);
        QVERIFY2(std::fabs(hit->fastPixel - fastMm / 0.172) < 1e-9, qPrintable(QString::number(hit->fastPixel)));
        QVERIFY2(std::fabs(hit->slowPixel - slowMm / 0.172) < 1e-9, qPrintable(QString::number(hit->slowPixel)));
        QCOMPARE(hit->panel, std::string("m5_2"));
        // moved in its plane only: still 100 mm down the beam, facing it
        for (const bv::PanelGeometry& p : placed) {
            QVERIFY(std::fabs(glm::dot(p.pix0, e.axes().beam) - 0.1) < 1e-12);
            QVERIFY(std::fabs(glm::dot(p.odet, e.axes().beam) - 1.0) < 1e-12);
        }
        // and -distance then moves the aimed detector along the beam, the beam where it was
        e.detector.distance = 0.3;
        e.detector.distanceStated = true;
        const auto far = bv::resolveStatedPanels(e, e.axes());
        const std::optional<bv::BeamHit> again = bv::beamHit(far, e.axes().beam);
        QVERIFY(again && std::fabs(again->fastPixel - hit->fastPixel) < 1e-9 &&
                std::fabs(again->slowPixel - hit->slowPixel) < 1e-9);
        QVERIFY(std::fabs(glm::dot(far[0].pix0, e.axes().beam) - 0.3) < 1e-12);
    }

    // XDS's origin, in pixels: the beam (along +z in its frame, which the preset then faces)
    // meets the image at ORGX - 0.5, ORGY - 0.5 pixels from its corner.
    void xdsOriginInPixels() {
        bv::Experiment e = presetExperiment("eiger2-16m");
        e.convention = bv::Convention::Xds;
        e.detector.orgX = 1000.0;
        e.detector.orgY = 1200.0;
        const auto placed = bv::resolveStatedPanels(e, e.axes());
        const std::optional<bv::BeamHit> hit = bv::beamHit(placed, e.axes().beam);
        QVERIFY(hit);
        QVERIFY2(std::fabs(hit->fastPixel - 999.5) < 1e-9, qPrintable(QString::number(hit->fastPixel)));
        QVERIFY(std::fabs(hit->slowPixel - 1199.5) < 1e-9);
        // column 0 ends at 1028, row 2 spans 1100 to 1612 (modules of 512 + 38)
        QCOMPARE(hit->panel, std::string("m2_0"));
        // and without the origin, the preset faces XDS's beam with it at the centre
        e.detector.orgX.reset();
        e.detector.orgY.reset();
        const std::optional<bv::BeamHit> centre =
            bv::beamHit(bv::resolveStatedPanels(e, e.axes()), e.axes().beam);
        QVERIFY(centre);
        QCOMPARE(centre->fastPixel, 2074.0);
        QCOMPARE(centre->slowPixel, 2181.0);
    }

    // An option left out takes nanoBragg's default for the image: MOSFLM's Ybeam defaults to
    // (423.636 + 0.172) / 2 mm, which puts the beam at 211.904 + 0.086 = 211.99 mm along fast.
    void aMissingOptionTakesTheFlatDefault() {
        bv::Experiment e = presetExperiment("pilatus3-6m");
        e.detector.beamX = 0.100;
        const auto placed = bv::resolveStatedPanels(e, e.axes());
        const std::optional<bv::BeamHit> hit = bv::beamHit(placed, e.axes().beam);
        QVERIFY(hit);
        QVERIFY(std::fabs(hit->fastPixel * 0.172 - 211.99) < 1e-9);
        QVERIFY(std::fabs(hit->slowPixel * 0.172 - 100.086) < 1e-9);
    }

    // Case does not matter to a preset's name; a file's panels keep refusing a beam centre.
    void presetNamesInAnyCase() {
        QVERIFY(bv::findDetectorPreset("Pilatus3-6M") == bv::findDetectorPreset("pilatus3-6m"));
        QVERIFY(bv::findDetectorPreset("EIGER2-16M"));
        QCOMPARE(bv::suggestDetectorPresets("pilatus6m"), std::vector<std::string>{"pilatus3-6m"});
        QCOMPARE(bv::suggestDetectorPresets("Eiger2"),
                 (std::vector<std::string>{"eiger2-16m", "eiger2-4m"}));
        QCOMPARE(bv::suggestDetectorPresets("jungfrau-4k"), std::vector<std::string>{"jungfrau-4m"});
        QVERIFY(bv::suggestDetectorPresets("mar345").empty());
    }
    void aFilesPanelsRefuseABeamCentre() {
        bv::Experiment e;
        for (const bv::PanelGeometry& g : bv::testing::twoModules()) {
            bv::Panel p;
            p.name = g.name;
            p.origin = g.pix0;
            p.fast = g.fdet;
            p.slow = g.sdet;
            p.pixelSizeFast = p.pixelSizeSlow = g.pixelSize;
            p.fastPixels = g.fastPixels;
            p.slowPixels = g.slowPixels;
            e.detector.panels.push_back(p);
        }
        e.detector.panelsSource = "two.expt";
        const auto placed = bv::resolveStatedPanels(e, e.axes());
        // the beam along +x meets the plane at y = z = 0: 10 mm down the left module's rows
        // and 12 mm along them, past its 10 mm: the 4 mm gap
        const std::optional<bv::BeamHit> hit = bv::beamHit(placed, e.axes().beam);
        QVERIFY(hit && hit->panel.empty());
        QCOMPARE(hit->fastPixel, 12.0);
        QCOMPARE(hit->slowPixel, 10.0);
        e.detector.beamX = 0.01;
        try {
            (void)bv::resolveStatedPanels(e, e.axes());
            QFAIL("accepted");
        } catch (const bv::Error& error) {
            QVERIFY2(QString(error.what()).contains("-Xbeam/-Ybeam: a detector of several panels "
                                                    "from a file"),
                     error.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestPanelAim)
#include "tst_panelaim.moc"
