// The multi-panel detector model: today's one flat detector as a panel (its pixels where the
// shader puts them), and the checks that refuse impossible panels.

#include "compute/core/Error.h"
#include "compute/model/PanelDetector.h"
#include "compute/model/Resolve.h"
#include "compute/model/Units.h"

#include <QTest>

#include <sstream>

Q_DECLARE_METATYPE(bv::Convention)

namespace {

bv::ResolvedExperiment resolved(const bv::Experiment& e) {
    bv::random::ReferenceRandom rng;
    std::ostringstream log;
    return bv::resolve(e, rng, log);
}

bv::Experiment detector256(bv::Convention convention) {
    bv::Experiment e;
    e.convention = convention;
    e.crystal.cell = {100, 100, 100, M_PI / 2, M_PI / 2, M_PI / 2};
    e.detector.setPixels(256, 256); // 0.1 mm pixels
    e.detector.distance = 100e-3;
    return e;
}

// where the shader puts the centre of pixel (f, s) (shaders/diffraction.glsl, no oversampling)
glm::dvec3 shaderPixel(const bv::DetectorGeometry& g, int f, int s) {
    return g.pix0 + (f + 0.5) * g.pixelSize * g.fdet + (s + 0.5) * g.pixelSize * g.sdet;
}

bool near(const glm::dvec3& a, const glm::dvec3& b, double tol) {
    return glm::length(a - b) <= tol;
}

// a 10 x 20 pixel panel of 1 mm pixels facing the beam (+x) 100 mm away
bv::Panel square(const std::string& name, double y, double z) {
    bv::Panel p;
    p.name = name;
    p.origin = {0.1, y, z};
    p.fast = {0, 0, 1};
    p.slow = {0, -1, 0};
    p.pixelSizeFast = p.pixelSizeSlow = 1e-3;
    p.fastPixels = 10;
    p.slowPixels = 20;
    return p;
}

QString refusal(const bv::PanelDetector& d) {
    try {
        bv::validatePanels(d, "test.expt");
    } catch (const bv::Error& e) {
        return QString::fromStdString(e.what());
    }
    return QString();
}

} // namespace

class TestPanelDetector : public QObject {
    Q_OBJECT

    // the experiment of the current row of pixelsWhereTheShaderPutsThem_data()
    bv::Experiment rowExperiment() {
        QFETCH(bv::Convention, convention);
        QFETCH(bool, sample);
        QFETCH(double, rotX);
        QFETCH(double, twotheta);
        bv::Experiment e = detector256(convention);
        e.detector.pivot = sample ? bv::Pivot::Sample : bv::Pivot::Beam;
        e.detector.rotX = bv::units::radiansFromDegrees(rotX);
        e.detector.twotheta = bv::units::radiansFromDegrees(twotheta);
        return e;
    }

private slots:
    void mosflmDetectorIsOnePanel() {
        // MOSFLM, 256 x 0.1 mm at 100 mm: pix0 = (100, 12.9, -12.9) mm (tst_detector), fast +z,
        // slow -y, so the first pixel's centre is 0.05 mm further along each
        const bv::PanelDetector d = bv::singlePanelDetector(resolved(detector256(bv::Convention::Mosflm)));
        QCOMPARE(d.panels.size(), std::size_t(1));
        const bv::Panel& p = d.panels[0];
        QCOMPARE(p.fastPixels, 256);
        QCOMPARE(p.slowPixels, 256);
        QCOMPARE(d.pixelCount(), 65536LL);
        QVERIFY(near(p.pixelCentre(0, 0), {0.1, 0.01285, -0.01285}, 1e-15));
        QVERIFY(near(p.pixelCentre(255, 255), {0.1, -0.01265, 0.01265}, 1e-15));
        QVERIFY(near(p.normal(), {1, 0, 0}, 1e-15)); // facing the sample along the beam
        QVERIFY(!bv::panelProblem(p));
    }

    void pixelsWhereTheShaderPutsThem_data() {
        QTest::addColumn<bv::Convention>("convention");
        QTest::addColumn<bool>("sample");   // -pivot sample (only CUSTOM honours it)
        QTest::addColumn<double>("rotX");   // degrees
        QTest::addColumn<double>("twotheta");
        QTest::newRow("mosflm") << bv::Convention::Mosflm << false << 0.0 << 0.0;
        QTest::newRow("mosflm rotated") << bv::Convention::Mosflm << false << 5.0 << 0.0;
        QTest::newRow("xds twotheta") << bv::Convention::Xds << true << 0.0 << 20.0;
        QTest::newRow("adxv") << bv::Convention::Adxv << false << 0.0 << 0.0;
        QTest::newRow("dials") << bv::Convention::Dials << true << 3.0 << 0.0;
        QTest::newRow("custom sample pivot") << bv::Convention::Custom << true << 2.0 << 15.0;
    }
    void pixelsWhereTheShaderPutsThem() {
        QFETCH(bv::Convention, convention);
        const bv::Experiment e = rowExperiment();
        const bv::ResolvedExperiment r = resolved(e);
        const bv::Panel p = bv::singlePanelDetector(r).panels.at(0);
        for (const auto& [f, s] : {std::pair{0, 0}, std::pair{17, 200}, std::pair{255, 255}})
            QVERIFY(near(p.pixelCentre(f, s), shaderPixel(r.detector, f, s), 1e-15));
        // the panel's normal is the reference's odet, but for ADXV: its fast (+x) and slow
        // (-y) axes make fast x slow = -z, while its odet is +z (the image is mirrored)
        const double sign = convention == bv::Convention::Adxv ? -1.0 : 1.0;
        QVERIFY(near(p.normal(), sign * r.detector.odet, 1e-12));
        // a second route: the foot of the normal from the sample lies Fclose, Sclose from
        // pix0, at the close distance
        const glm::dvec3 foot = p.position(r.detector.Fclose / p.pixelSizeFast,
                                           r.detector.Sclose / p.pixelSizeSlow);
        QVERIFY(near(foot, r.detector.closeDistance * r.detector.odet, 1e-12));
    }

    // resolve() always makes panels: nanoBragg's flat detector is its one panel, with the
    // very pix0, axes, pixel size and counts of the DetectorGeometry the summary prints
    void resolvedFlatDetectorIsOnePanel_data() { pixelsWhereTheShaderPutsThem_data(); }
    void resolvedFlatDetectorIsOnePanel() {
        const bv::Experiment e = rowExperiment();
        const bv::ResolvedExperiment r = resolved(e);
        QVERIFY(!r.panelsFromSource);
        QCOMPARE(r.panels.size(), std::size_t(1));
        const bv::PanelGeometry& p = r.panels[0];
        const bv::DetectorGeometry& d = r.detector;
        QVERIFY(p.pix0 == d.pix0 && p.fdet == d.fdet && p.sdet == d.sdet && p.odet == d.odet);
        QCOMPARE(p.pixelSize, d.pixelSize);
        QCOMPARE(p.fastPixels, d.fastPixels);
        QCOMPARE(p.slowPixels, d.slowPixels);
        QCOMPARE(p.closeDistance(), d.closeDistance);
        QVERIFY(bv::placesPanelsOf(r, e.detector));
    }

    // a panel takes no more pixels than -detpixels does (32768 along an axis), and the image
    // of the panels stacked no more than the engine's image (kMaxImagePixels)
    void panelsKeepTheFlatDetectorsLimits() {
        bv::Panel huge = square("huge", 0, 0);
        huge.fastPixels = huge.slowPixels = 1000000;
        QVERIFY(refusal({{huge}}).contains(
            "test.expt: panel 'huge': the pixel count along fast is 1000000; expected 1 to 32768"));
        huge.fastPixels = huge.slowPixels = bv::kMaxPixelsPerSide;
        QVERIFY(refusal({{huge}}).contains("panel 'huge': it has 1073741824 pixels"));
        // three panels of 32768 x 16000, each within the limits, in planes of their own (no
        // overlap): stacked, 32768 x 48000 pixels; two of them, 32768 x 32000, fit
        bv::PanelDetector tall;
        for (int i = 0; i < 3; ++i) {
            bv::Panel p = square("p" + std::to_string(i), 0, 0);
            p.origin.x = 0.1 + 0.01 * i;
            p.pixelSizeFast = p.pixelSizeSlow = 10e-6;
            p.fastPixels = 32768;
            p.slowPixels = 16000;
            QVERIFY(!bv::panelProblem(p));
            tall.panels.push_back(p);
        }
        QVERIFY(refusal(tall).contains(
            "test.expt: the panels' rows stacked make an image of 32768 x 48000 pixels"));
        tall.panels.pop_back();
        QVERIFY2(refusal(tall).isEmpty(), qPrintable(refusal(tall)));
    }

    void sensorComesAlong() {
        bv::Experiment e = detector256(bv::Convention::Mosflm);
        e.detector.thickness.range = 450e-6;
        e.detector.attenuationDepth = 200e-6;
        const bv::Panel p = bv::singlePanelDetector(resolved(e)).panels.at(0);
        QCOMPARE(p.thickness.value_or(0), 450e-6);
        QCOMPARE(p.mu.value_or(0), 1.0 / 200e-6);
    }

    void curvedDetectorIsNoPanel() {
        bv::Experiment e = detector256(bv::Convention::Mosflm);
        e.detector.curved = true;
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::singlePanelDetector(resolved(e)));
    }

    void badPanelsAreRefused_data() {
        QTest::addColumn<int>("what");
        QTest::addColumn<QString>("message");
        QTest::newRow("zero fast axis") << 0 << "panel 'a': the fast axis is zero";
        QTest::newRow("not orthogonal") << 1 << "are not orthogonal (they make 45";
        QTest::newRow("not unit") << 2 << "the slow axis is not a unit vector";
        QTest::newRow("zero pixel size") << 3 << "the pixel size along fast is 0";
        QTest::newRow("no pixels") << 4 << "the pixel count along slow is 0";
        QTest::newRow("duplicate name") << 5 << "two panels are named 'a'";
        QTest::newRow("no name") << 6 << "a panel has no name";
        QTest::newRow("NaN origin") << 7 << "panel 'a': the origin is not a position";
    }
    void badPanelsAreRefused() {
        QFETCH(int, what);
        QFETCH(QString, message);
        bv::PanelDetector d{{square("a", 0.0, 0.0), square("b", 0.0, 0.05)}};
        bv::Panel& a = d.panels[0];
        switch (what) {
        case 0: a.fast = {0, 0, 0}; break;
        case 1: a.slow = glm::normalize(glm::dvec3(0, -1, 1)); break;
        case 2: a.slow = {0, -2, 0}; break;
        case 3: a.pixelSizeFast = 0; break;
        case 4: a.slowPixels = 0; break;
        case 5: d.panels[1].name = "a"; break;
        case 6: a.name.clear(); break;
        case 7: a.origin.y = std::nan(""); break;
        }
        const QString got = refusal(d);
        QVERIFY2(got.startsWith("test.expt: ") && got.contains(message), qPrintable(got));
    }

    void overlapsAreRefused() {
        // b starts 5 mm along a's fast axis: the two share 5 x 20 mm of one plane
        bv::PanelDetector d{{square("a", 0.0, 0.0), square("b", 0.0, 0.005)}};
        const QString got = refusal(d);
        QVERIFY2(got.contains("panels 'a' and 'b' overlap"), qPrintable(got));
        // b shifted by one pixel along slow as well: still 5 x 19 mm in common
        d.panels[1].origin.y = -0.001;
        QVERIFY(!refusal(d).isEmpty());
    }

    void neighboursThatTouchOrShadowAreFine() {
        // a is 10 mm wide along z: b starting at z = 10 mm touches its edge
        bv::PanelDetector d{{square("a", 0.0, 0.0), square("b", 0.0, 0.010)}};
        QCOMPARE(refusal(d), QString());
        // b in a parallel plane 1 mm further down the beam, over a: a shadow, not an overlap
        d.panels[1].origin = {0.101, 0.0, 0.002};
        QCOMPARE(refusal(d), QString());
        // b tilted by 1 degree about the slow axis, its corner in a's plane: not coplanar
        const double t = bv::units::radiansFromDegrees(1);
        d.panels[1].origin = {0.1, 0.0, 0.002};
        d.panels[1].fast = {std::sin(t), 0, std::cos(t)};
        QCOMPARE(refusal(d), QString());
    }
};

QTEST_APPLESS_MAIN(TestPanelDetector)
#include "tst_paneldetector.moc"
