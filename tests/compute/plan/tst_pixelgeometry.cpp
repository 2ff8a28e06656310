// The detector's geometry at an image point (compute/plan/PixelGeometry.h), Qt-free: the
// beam centre, the readout's 2θ, d, |q| and h k l at a pixel, predicted spots that read back
// their own indices, resolution rings as conics on a tilted detector, and a detector of two
// modules read where they are (view points, gaps, the stacked image's rows).

#include "compute/plan/PixelGeometry.h"
#include "tests/TestResolve.h"

#include <QTest>

#include <glm/geometric.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace bv;

namespace {

const std::vector<std::string> kCubic = {"-cell", "40", "40", "40", "90", "90", "90", "-N", "10",
                                         "-default_F", "100", "-lambda", "1", "-distance", "100",
                                         "-detpixels", "200", "-pixel", "0.2"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

} // namespace

class TestPixelGeometry : public QObject {
    Q_OBJECT

  private slots:
    void flatDetectorIsItsPixels() {
        const ResolvedExperiment r = testing::resolvedOf(kCubic);
        const plan::PixelGeometry g(r);
        QVERIFY(!g.projected());
        QCOMPARE(g.fastPixels(), 200);
        QCOMPARE(g.imageFastPixels(), 200);
        const auto pixel = g.pixelAt({10.5, 30.5});
        QVERIFY(pixel && pixel->fast == 10 && pixel->slow == 30 && pixel->panel == -1);
        QVERIFY(!g.pixelAt({-0.5, 3.0}));
        QVERIFY(g.centreOf({10, 30}) == glm::dvec2(10.5, 30.5));
        const std::vector<glm::dvec2> outline = g.outlineOf({10, 30});
        QCOMPARE(outline.size(), std::size_t(4));
        QVERIFY(outline[0] == glm::dvec2(10, 30) && outline[2] == glm::dvec2(11, 31));
        // a DIALS spot on nanoBragg's one detector (panel 0) is where its pixels say
        QVERIFY(g.panelPoint(0, {10.25, 30.75}) == glm::dvec2(10.25, 30.75));
        QVERIFY(!g.panelPoint(1, {10.25, 30.75}));
    }

    void beamCentreIsWhereTheBeamHits_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::newRow("mosflm") << QStringList{};
        QTest::newRow("beam centre given") << QStringList{"-Xbeam", "12.3", "-Ybeam", "8.9"};
        QTest::newRow("rotated, beam pivot") << QStringList{"-detector_rotx", "3", "-detector_roty", "-4", "-detector_rotz", "10"};
        QTest::newRow("xds") << QStringList{"-xds", "-ORGX", "80", "-ORGY", "120"};
    }
    void beamCentreIsWhereTheBeamHits() {
        QFETCH(QStringList, extra);
        std::vector<std::string> args = kCubic;
        for (const QString& word : extra)
            args.push_back(word.toStdString());
        const ResolvedExperiment r = testing::resolvedOf(args);
        const plan::PixelGeometry g(r);
        const std::optional<glm::dvec2> beam = g.beamCentre();
        QVERIFY(beam);
        if (r.detector.pivot == Pivot::Beam) {
            // the beam pivot keeps the beam spot at (Fbeam, Sbeam) from pix0, whatever the rotations
            QVERIFY2(std::fabs(beam->x - r.detector.Fbeam / r.detector.pixelSize) < 1e-9, qPrintable(QString::number(beam->x)));
            QVERIFY(std::fabs(beam->y - r.detector.Sbeam / r.detector.pixelSize) < 1e-9);
        }
        // and there the scattering angle is zero
        QVERIFY(g.at(beam->x, beam->y).twoTheta < 1e-9);
    }
    void readoutGeometryAtAPixel() {
        // flat detector at 100 mm, beam centre at the middle (pixel 100, 100 edges): the centre
        // of pixel (150, 100) is 50.5 pixels = 10.1 mm from the beam along fast
        const ResolvedExperiment r = testing::resolvedOf(with(kCubic, {"-Xbeam", "20", "-Ybeam", "20"}));
        const plan::PixelGeometry g(r);
        const std::optional<glm::dvec2> beam = g.beamCentre();
        QVERIFY(beam);
        const double dx = (150.5 - beam->x) * 0.2, dy = (100.5 - beam->y) * 0.2; // mm
        const double twoTheta = std::atan(std::hypot(dx, dy) / 100.0);
        const plan::PixelInfo p = g.atPixelCentre(150, 100);
        QCOMPARE(p.fast, 150);
        QCOMPARE(p.slow, 100);
        QVERIFY(std::fabs(p.twoTheta - twoTheta) < 1e-12);
        const double d = 1.0 / (2.0 * std::sin(twoTheta / 2.0)); // lambda 1 A
        QVERIFY(std::fabs(p.dSpacing - d) < 1e-9);
        QVERIFY(std::fabs(p.q - 2.0 * M_PI / d) < 1e-9);
        // h k l: the scattering vector in units of the reciprocal cell (a = 40 A along x ...)
        QVERIFY(std::fabs(glm::length(p.hkl) * (1.0 / 40.0) - 1.0 / d) < 1e-9);
    }
    void predictedSpotsHaveIntegralIndicesNearTheSphere() {
        const ResolvedExperiment r = testing::resolvedOf(with(kCubic, {"-misset", "5", "10", "15"}));
        const plan::PixelGeometry g(r);
        const std::vector<plan::PredictedSpot> spots = g.predictedSpots();
        QVERIFY(spots.size() > 10);
        for (const plan::PredictedSpot& s : spots) {
            // the readout at the predicted point gives back h k l, to within the spot's reach
            const plan::PixelInfo p = g.at(s.point);
            QVERIFY2(std::fabs(p.hkl.x - s.hkl.x) < 0.2 && std::fabs(p.hkl.y - s.hkl.y) < 0.2 &&
                         std::fabs(p.hkl.z - s.hkl.z) < 0.2,
                     qPrintable(QStringLiteral("%1 %2 %3 read %4 %5 %6").arg(s.hkl.x).arg(s.hkl.y).arg(s.hkl.z)
                                    .arg(p.hkl.x).arg(p.hkl.y).arg(p.hkl.z)));
        }
    }
    void ringsAreConicsOnATiltedDetector() {
        const ResolvedExperiment r = testing::resolvedOf(with(kCubic, {"-twotheta", "20"}));
        const plan::PixelGeometry g(r);
        const double d = 5.0;
        const double twoTheta = 2.0 * std::asin(1.0 / (2.0 * d));
        const auto lines = g.ring(d, 360);
        QVERIFY(!lines.empty());
        int points = 0;
        for (const auto& line : lines)
            for (const glm::dvec2& p : line) {
                QVERIFY(std::fabs(g.at(p).twoTheta - twoTheta) < 1e-9);
                ++points;
            }
        QVERIFY(points > 100);
        // not a circle about the beam centre: the distance to it varies along the ring
        const glm::dvec2 beam = *g.beamCentre();
        double nearest = 1e9, farthest = 0.0;
        for (const auto& line : lines)
            for (const glm::dvec2& p : line) {
                const double distance = glm::length(p - beam);
                nearest = std::min(nearest, distance);
                farthest = std::max(farthest, distance);
            }
        // flat: the near and far sides of a 11.5° cone on a plane tilted by 20° are
        // cos(2θ - τ)/cos(2θ + τ) = 1.16 apart in distance from the beam
        QVERIFY2(farthest > 1.1 * nearest, qPrintable(QStringLiteral("%1 .. %2").arg(nearest).arg(farthest)));
    }

    // Two modules side by side with a 4 mm gap (the kCubic detector's frame, 0.2 mm pixels):
    // view points name the panel and pixel behind them, a gap names none; the pinned pixel's
    // centre reads back the same pixel; the beam centre has 2θ 0.
    void panelsAreReadWhereTheyAre() {
        const plan::PixelGeometry g(testing::twoModules(testing::resolvedOf(kCubic)));
        QVERIFY(g.projected());
        QCOMPARE(g.imageFastPixels(), 50);
        QCOMPARE(g.imageSlowPixels(), 200);
        QCOMPARE(g.fastPixels(), 110); // 22 mm / 0.2 mm
        QCOMPARE(g.slowPixels(), 100);
        // view x 0..50 left, 50..70 the gap, 70..110 right
        const auto left = g.pixelAt({10.5, 30.5});
        QVERIFY(left && left->panel == 0 && left->fast == 10 && left->slow == 30);
        QVERIFY(!g.pixelAt({60.0, 30.0}));
        const auto right = g.pixelAt({75.5, 20.5});
        QVERIFY(right && right->panel == 1 && right->panelFast == 5 && right->panelSlow == 20);
        QCOMPARE(right->slow, 120); // the right panel's rows follow the left's in the image
        const glm::dvec2 centre = g.centreOf({right->fast, right->slow});
        QVERIFY(std::fabs(centre.x - 75.5) < 1e-9 && std::fabs(centre.y - 20.5) < 1e-9);
        const plan::PixelInfo info = g.at(centre);
        QCOMPARE(info.panel, 1);
        QCOMPARE(info.panelName, std::string("right"));
        QCOMPARE(info.fast, 5);
        // the beam (+x through the middle of the gap) at view (60, 50)
        const auto beam = g.beamCentre();
        QVERIFY(beam && std::fabs(beam->x - 60.0) < 1e-9 && std::fabs(beam->y - 50.0) < 1e-9);
        QVERIFY(g.at(*beam).twoTheta < 1e-12);
        // 2θ of right-panel pixel (5, 20): its centre 3.1 mm along fast and 5.9 mm along slow from
        // the beam, 100 mm away
        const double twoTheta = std::atan(std::hypot(3.1, 5.9) / 100.0);
        QVERIFY(std::fabs(g.twoThetaOfPixel(5, 120) - twoTheta) < 1e-12);
        QVERIFY(std::isnan(g.twoThetaOfPixel(45, 150))); // beyond the right panel's 40 pixels
        // a point given in a panel's own pixels (a DIALS spot): the right panel's (5.5, 20.5)
        // is the centre of its pixel (5, 20), at view (75.5, 20.5); a third panel is none
        const auto spot = g.panelPoint(1, {5.5, 20.5});
        QVERIFY(spot && std::fabs(spot->x - 75.5) < 1e-9 && std::fabs(spot->y - 20.5) < 1e-9);
        QVERIFY(!g.panelPoint(2, {5.5, 20.5}));
    }
};

QTEST_APPLESS_MAIN(TestPixelGeometry)
#include "tst_pixelgeometry.moc"
