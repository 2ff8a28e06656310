// Panels drawn as the sample sees them (DetectorProjection). Positions worked out by hand for
// two modules facing the beam with a gap, and a third turned about its own fast axis.

#include "compute/core/Error.h"
#include "tests/compute/model/TwoModules.h"
#include "compute/model/DetectorProjection.h"
#include "compute/model/Units.h"

#include <QTest>

#include <glm/geometric.hpp>

using bv::DetectorProjection;
using bv::PanelGeometry;
using bv::PanelPixel;

namespace {

using bv::testing::module;
// twoModules(): the plane is x = 100 mm, view x along +z, view y along -y, origin at
// (z, y) = (-12, 10) mm: left covers view x 0..10, the gap 10..14, right 14..24; both view
// y 0..20.
using bv::testing::twoModules;

} // namespace

class TestDetectorProjection : public QObject {
    Q_OBJECT

  private slots:
    void theViewShowsThePanelsAndTheGap() {
        const DetectorProjection view(twoModules(), {1, 0, 0});
        QCOMPARE(view.size().x, 24.0);
        QCOMPARE(view.size().y, 20.0);
        const auto left = view.pixelAt({3.5, 7.25});
        QVERIFY(left && left->panel == 0);
        QCOMPARE(left->fast, 3.5);
        QCOMPARE(left->slow, 7.25);
        QVERIFY(!view.pixelAt({12.0, 5.0})); // the gap
        const auto right = view.pixelAt({14.5, 19.5});
        QVERIFY(right && right->panel == 1);
        QVERIFY(std::abs(right->fast - 0.5) < 1e-9 && std::abs(right->slow - 19.5) < 1e-9);
        QVERIFY(!view.pixelAt({-0.5, 5.0}));
    }

    // the beam (+x) meets the plane at (z, y) = (0, 0): view point (12, 10)
    void theBeamCentreIsWhereTheBeamMeetsThePlane() {
        const DetectorProjection view(twoModules(), {1, 0, 0});
        const auto centre = view.viewPointOf({1, 0, 0});
        QVERIFY(centre);
        QVERIFY(std::abs(centre->x - 12.0) < 1e-9 && std::abs(centre->y - 10.0) < 1e-9);
        QVERIFY(!view.viewPointOf({-1, 0, 0})); // away from the detector
    }

    // A module at 100 mm and one of 60 x 60 mm at 300 mm: the plane lies at the mean of their
    // centres' distances, 200 mm, where the far module's 60 mm edge looks 60 * 200/300 = 40
    // view units long.
    void fartherPanelsLookSmaller() {
        std::vector<PanelGeometry> panels = {module(0.010, -0.010), module(0.010, -0.010)};
        panels[1].pix0 = {0.3, 0.030, -0.030};
        panels[1].fastPixels = panels[1].slowPixels = 60;
        const DetectorProjection view(panels, {1, 0, 0});
        const glm::dvec2 a = view.viewPoint({1, 0.0, 0.0}), b = view.viewPoint({1, 60.0, 0.0});
        QVERIFY2(std::abs(glm::length(b - a) - 40.0) < 1e-9, qPrintable(QString::number(glm::length(b - a))));
    }

    // The homography a shader uses is the same map as pixelAt, also for a tilted panel.
    void theHomographyIsTheSameMap() {
        std::vector<PanelGeometry> panels = twoModules();
        PanelGeometry tilted = module(0.010, 0.020);
        const double a = bv::units::radiansFromDegrees(25);
        // turned about its fast axis (z): slow and normal turn in the x-y plane
        tilted.sdet = {std::sin(a), -std::cos(a), 0};
        tilted.odet = glm::cross(tilted.fdet, tilted.sdet);
        QVERIFY(tilted.closeDistance() > 0.0);
        panels.push_back(tilted);
        const DetectorProjection view(panels, {1, 0, 0});
        int hits = 0;
        for (double x = 0.25; x < view.size().x; x += 0.75)
            for (double y = 0.25; y < view.size().y; y += 0.75) {
                const auto pixel = view.pixelAt({x, y});
                if (!pixel)
                    continue;
                ++hits;
                const auto h = view.homography(pixel->panel);
                const double F = h[0] * x + h[1] * y + h[2];
                const double S = h[3] * x + h[4] * y + h[5];
                const double W = h[6] * x + h[7] * y + h[8];
                QVERIFY(W > 0.0);
                QVERIFY(std::abs(F / W - pixel->fast) < 1e-9);
                QVERIFY(std::abs(S / W - pixel->slow) < 1e-9);
                const glm::dvec2 back = view.viewPoint(*pixel);
                QVERIFY(std::abs(back.x - x) < 1e-9 && std::abs(back.y - y) < 1e-9);
            }
        QVERIFY(hits > 300);
    }

    void refusesWhatItCannotShow() {
        QVERIFY_THROWS_EXCEPTION(bv::Error, DetectorProjection({}, {1, 0, 0}));
        std::vector<PanelGeometry> panels = twoModules();
        panels[1].odet = -panels[1].odet; // normal towards the sample
        QVERIFY_THROWS_EXCEPTION(bv::Error, DetectorProjection(panels, {1, 0, 0}));
    }
};

QTEST_APPLESS_MAIN(TestDetectorProjection)
#include "tst_detectorprojection.moc"
