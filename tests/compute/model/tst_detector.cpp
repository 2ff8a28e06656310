// Where the detector ends up, worked out by hand for the conventions and pivots, and checked
// against the numbers the reference printed (tests/data/golden/*/stdout.txt).

#include "compute/model/Resolve.h"
#include "compute/model/Units.h"

#include <QTest>

using bv::units::radiansFromDegrees;

namespace {
bv::Experiment detector256(bv::Convention convention) {
    bv::Experiment e;
    e.convention = convention;
    e.detector.setPixels(256, 256); // 0.1 mm pixels: 25.6 mm square
    e.detector.distance = 100e-3;
    return e;
}
bv::DetectorGeometry geometry(const bv::Experiment& e) { return bv::resolveDetector(e, e.axes()); }
bool near(double got, double want, double tol = 1e-12) { return std::fabs(got - want) <= tol; }
#define QVERIFY_NEAR(got, want, tol) \
    QVERIFY2(near((got), (want), (tol)), qPrintable(QString("%1 = %2, expected %3").arg(#got).arg(double(got), 0, 'g', 12).arg(double(want), 0, 'g', 12)))
} // namespace

class TestDetector : public QObject {
    Q_OBJECT
private slots:
    void mosflmCentresTheBeamBetweenPixels() {
        // MOSFLM: the default beam centre is (size + pixel)/2 = 12.85 mm, and its pixel
        // centres sit at half-pixels, so the beam spot is 12.9 mm from the detector corner
        const bv::DetectorGeometry g = geometry(detector256(bv::Convention::Mosflm));
        QCOMPARE(g.pivot, bv::Pivot::Beam);
        QVERIFY_NEAR(g.Xbeam, 12.85e-3, 1e-15);
        QVERIFY_NEAR(g.Fbeam, 12.9e-3, 1e-15);
        QVERIFY_NEAR(g.Sbeam, 12.9e-3, 1e-15);
        // pix0 = -Fbeam*fdet - Sbeam*sdet + distance*beam, with fdet = z, sdet = -y, beam = x
        QVERIFY_NEAR(g.pix0.x, 0.1, 1e-15);
        QVERIFY_NEAR(g.pix0.y, 12.9e-3, 1e-15);
        QVERIFY_NEAR(g.pix0.z, -12.9e-3, 1e-15);
        // simple_cubic's stdout: "dials origin= -12.9 12.9 -100"
        QVERIFY_NEAR(g.dialsOrigin.x, -12.9, 1e-12);
        QVERIFY_NEAR(g.dialsOrigin.y, 12.9, 1e-12);
        QVERIFY_NEAR(g.dialsOrigin.z, -100, 1e-12);
    }

    void xdsPivotsAboutTheSample() {
        // XDS: the near point defaults to the centre (12.8 mm), the beam centre to it
        const bv::DetectorGeometry g = geometry(detector256(bv::Convention::Xds));
        QCOMPARE(g.pivot, bv::Pivot::Sample);
        QVERIFY_NEAR(g.Fclose, 12.8e-3, 1e-15);
        QVERIFY_NEAR(g.Fbeam, 12.8e-3, 1e-15);
        QVERIFY_NEAR(g.orgX, 128.5, 1e-9);
        QVERIFY_NEAR(g.pix0.z, 0.1, 1e-15);
    }

    void orgxPlacesTheNearPoint() {
        // ORGX 100 means the near point is at pixel 100 in XDS's 1-based, pixel-centred count:
        // (100 - 0.5) pixels from the corner
        bv::Experiment e = detector256(bv::Convention::Xds);
        e.detector.orgX = 100;
        e.detector.orgY = 120;
        const bv::DetectorGeometry g = geometry(e);
        QVERIFY_NEAR(g.Fclose, 9.95e-3, 1e-15);
        QVERIFY_NEAR(g.Sclose, 11.95e-3, 1e-15);
        QVERIFY_NEAR(g.orgX, 100, 1e-9);
    }

    void twothetaSwingsDetectorAndOrigin() {
        // twotheta_xds: 20 degrees about x at 80 mm. Hand calculation:
        // sdet = (0, cos 20, sin 20); pix0 = R(-12.8 fdet - 12.8 sdet + 80 odet) mm
        //      = (-12.8, -12.8 cos20 - 80 sin20, -12.8 sin20 + 80 cos20) = (-12.8, -39.3897, 70.7976)
        bv::Experiment e = detector256(bv::Convention::Xds);
        e.detector.distance = 80e-3;
        e.detector.twotheta = radiansFromDegrees(20);
        const bv::DetectorGeometry g = geometry(e);
        QVERIFY_NEAR(g.sdet.y, std::cos(radiansFromDegrees(20)), 1e-15);
        QVERIFY_NEAR(g.sdet.z, std::sin(radiansFromDegrees(20)), 1e-15);
        QVERIFY_NEAR(g.dialsOrigin.x, 70.7976, 1e-4);
        QVERIFY_NEAR(g.dialsOrigin.y, -39.3897, 1e-4);
        QVERIFY_NEAR(g.dialsOrigin.z, 12.8, 1e-12);
        // the detector did not move towards the sample: still 80 mm along its normal
        QVERIFY_NEAR(g.closeDistance, 80e-3, 1e-15);
        // stdout: "Fbeam=0.0128 Sbeam=0.0401616"
        QVERIFY_NEAR(g.Sbeam, 0.0401616, 1e-7);
    }

    void closeDistanceWithTiltedDetector() {
        // close_distance case: 90 mm to the plane, detector rotated 4 degrees about x (MOSFLM
        // beam along x: the normal stays along the beam, ratio = 1, distance = 90 mm)
        bv::Experiment e = detector256(bv::Convention::Mosflm);
        e.detector.closeDistance = 90e-3;
        e.detector.rotX = radiansFromDegrees(4);
        const bv::DetectorGeometry g = geometry(e);
        QVERIFY_NEAR(g.distance, 90e-3, 1e-15);
        QVERIFY_NEAR(g.closeDistance, 90e-3, 1e-15);
        // a rotation about y tilts the normal away from the beam: distance = close/cos
        e.detector.rotX = 0;
        e.detector.rotY = radiansFromDegrees(30);
        const bv::DetectorGeometry tilted = geometry(e);
        QVERIFY_NEAR(tilted.distance, 90e-3 / std::cos(radiansFromDegrees(30)), 1e-15);
    }

    void conventionImposesPivotCustomFollowsUser() {
        bv::Experiment e = detector256(bv::Convention::Mosflm);
        e.detector.pivot = bv::Pivot::Sample; // e.g. -twotheta given: MOSFLM still pivots on the beam
        QCOMPARE(e.effectivePivot(), bv::Pivot::Beam);
        e.convention = bv::Convention::Custom;
        QCOMPARE(e.effectivePivot(), bv::Pivot::Sample);
    }

    void beamCentreMovesTheSpot() {
        // MOSFLM Xbeam runs along slow, Ybeam along fast; each gets half a pixel added
        bv::Experiment e = detector256(bv::Convention::Mosflm);
        e.detector.beamX = 10e-3;
        e.detector.beamY = 20e-3;
        const bv::DetectorGeometry g = geometry(e);
        QVERIFY_NEAR(g.Sbeam, 10.05e-3, 1e-15);
        QVERIFY_NEAR(g.Fbeam, 20.05e-3, 1e-15);
        // ADXV: Y measured from the other edge
        e.convention = bv::Convention::Adxv;
        const bv::DetectorGeometry a = geometry(e);
        QVERIFY_NEAR(a.Fbeam, 10e-3, 1e-15);
        QVERIFY_NEAR(a.Sbeam, 25.6e-3 - 20e-3, 1e-15);
    }
};

QTEST_APPLESS_MAIN(TestDetector)
#include "tst_detector.moc"
