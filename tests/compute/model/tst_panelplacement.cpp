// nanoBragg's detector options on a multi-panel detector: the panels move as one rigid body.
// Two modules side by side facing the beam (+x), 100 mm away, moved and turned; every
// expected position is worked out by hand in the comments.

#include "compute/core/Error.h"
#include "tests/compute/model/TwoModules.h"
#include "compute/model/PanelPlacement.h"
#include "compute/model/Units.h"

#include <QTest>

#include <glm/geometric.hpp>

using bv::PanelGeometry;

namespace {

using bv::testing::module;
using bv::testing::twoModules;

bool near(const glm::dvec3& a, const glm::dvec3& b) { return glm::length(a - b) < 1e-12; }

QString text(const glm::dvec3& v) {
    return QString("(%1, %2, %3)").arg(v.x, 0, 'g', 15).arg(v.y, 0, 'g', 15).arg(v.z, 0, 'g', 15);
}

} // namespace

class TestPanelPlacement : public QObject {
    Q_OBJECT

  private slots:
    void centresAndPlanes() {
        const auto panels = twoModules();
        // left: pix0 + 5 mm along z + 10 mm along -y = (0.1, 0, -0.007)
        QVERIFY2(near(panels[0].centre(), {0.1, 0.0, -0.007}), qPrintable(text(panels[0].centre())));
        QVERIFY(near(bv::detectorCentre(panels), {0.1, 0.0, 0.0}));
        QCOMPARE(panels[1].closeDistance(), 0.1);
    }

    // -distance 250: the centre moves from 100 mm to 250 mm along the beam; nothing else
    void distanceMovesAlongTheBeam() {
        bv::DetectorMove move;
        move.distance = 0.25;
        const auto placed = bv::placePanels(twoModules(), {1, 0, 0}, move);
        QVERIFY(near(placed[0].pix0, {0.25, 0.010, -0.012}));
        QVERIFY(near(placed[1].pix0, {0.25, 0.010, 0.002}));
        QVERIFY(near(placed[1].fdet, {0, 0, 1}));
        QCOMPARE(placed[0].name, std::string("left"));
    }

    // -twotheta 90 about (0, 0, -1): the detector swings about the sample; the point at 250 mm
    // along x goes to (0, -250 mm, 0) (x -> -y for a right-handed turn about -z); the axes turn
    // with it: odet (1,0,0) -> (0,-1,0), sdet (0,-1,0) -> (-1,0,0), fdet (0,0,1) unchanged
    void twothetaSwingsTheDetectorAboutTheSample() {
        bv::DetectorMove move;
        move.distance = 0.25;
        move.twotheta = bv::units::radiansFromDegrees(90);
        const auto placed = bv::placePanels(twoModules(), {1, 0, 0}, move);
        QVERIFY2(near(bv::detectorCentre(placed), {0, -0.25, 0}),
                 qPrintable(text(bv::detectorCentre(placed))));
        QVERIFY(near(placed[0].odet, {0, -1, 0}));
        QVERIFY(near(placed[0].sdet, {-1, 0, 0}));
        QVERIFY(near(placed[0].fdet, {0, 0, 1}));
        QVERIFY(std::abs(placed[0].closeDistance() - 0.25) < 1e-12);
    }

    // Rigid: every distance between the panels' pixel corners stays as it was, whatever the
    // move; the gap of 4 mm between the modules too.
    void theDetectorMovesAsOneBody() {
        bv::DetectorMove move;
        move.distance = 0.3;
        move.rotations = {0.1, -0.2, 0.3};
        move.twotheta = 0.4;
        move.twothetaAxis = glm::normalize(glm::dvec3{0, 1, -1});
        const auto before = twoModules();
        const auto after = bv::placePanels(before, {1, 0, 0}, move);
        auto corners = [](const std::vector<PanelGeometry>& panels) {
            std::vector<glm::dvec3> points;
            for (const PanelGeometry& p : panels)
                for (int f : {0, 10})
                    for (int s : {0, 20})
                        points.push_back(p.pix0 + double(f) * p.pixelSize * p.fdet +
                                         double(s) * p.pixelSize * p.sdet);
            return points;
        };
        const auto a = corners(before), b = corners(after);
        for (std::size_t i = 0; i < a.size(); ++i)
            for (std::size_t j = 0; j < a.size(); ++j)
                QVERIFY(std::abs(glm::length(a[i] - a[j]) - glm::length(b[i] - b[j])) < 1e-12);
        // left's right edge (z = -2 mm) to right's left edge (z = 2 mm)
        QVERIFY(std::abs(glm::length(b[2] - b[4]) - 0.004) < 1e-12);
        QVERIFY(std::abs(glm::dot(after[1].fdet, after[1].sdet)) < 1e-15);
    }

    // From the panels as stated (a preset or a file) to the panels as simulated.
    void resolvedPanelsFaceAwayFromTheSample() {
        bv::Panel stated;
        stated.name = "mirrored";
        stated.origin = {0.1, 0.01, -0.01};
        stated.fast = {0, 0, 1};
        stated.slow = {0, 1, 0}; // fast x slow = (-1, 0, 0): towards the sample
        stated.pixelSizeFast = stated.pixelSizeSlow = 1e-3;
        stated.fastPixels = stated.slowPixels = 20;
        bv::Detector options;
        const bv::LabAxes axes; // MOSFLM's: beam +x, two-theta axis -z
        const auto placed = bv::resolvePanels({stated}, options, false, axes);
        QVERIFY(near(placed[0].odet, {1, 0, 0}));
        QCOMPARE(placed[0].closeDistance(), 0.1);
        QVERIFY(near(placed[0].pix0, stated.origin)); // -distance not stated: where it is
        options.distance = 0.2;
        const auto moved = bv::resolvePanels({stated}, options, true, axes);
        QVERIFY(std::abs(moved[0].closeDistance() - 0.2) < 1e-15);
    }

    void resolveRefusesWhatPanelsCannotDo() {
        bv::Panel p;
        p.origin = {0.1, 0.0, 0.0};
        p.fast = {0, 0, 1};
        p.slow = {0, -1, 0};
        p.pixelSizeFast = p.pixelSizeSlow = 1e-3;
        p.fastPixels = p.slowPixels = 10;
        const bv::LabAxes axes;
        bv::Detector beamCentre;
        beamCentre.beamX = 0.05;
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::resolvePanels({p}, beamCentre, false, axes));
        bv::Detector curved;
        curved.curved = true;
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::resolvePanels({p}, curved, false, axes));
        bv::Panel oblong = p;
        oblong.pixelSizeSlow = 2e-3;
        try {
            bv::resolvePanels({oblong}, bv::Detector{}, false, axes);
            QFAIL("non-square pixels were taken");
        } catch (const bv::Error& error) {
            QVERIFY2(QString(error.what()).contains("square"), error.what());
        }
        bv::Panel edgeOn = p;
        edgeOn.origin = {0.0, 0.0, 0.0};
        edgeOn.fast = {1, 0, 0}; // the plane x-y... through the sample
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::resolvePanels({edgeOn}, bv::Detector{}, false, axes));
    }

    void refusesWhatCannotBePlaced() {
        bv::DetectorMove move;
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::placePanels({}, {1, 0, 0}, move));
        move.distance = 0.0;
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::placePanels(twoModules(), {1, 0, 0}, move));
    }
};

QTEST_APPLESS_MAIN(TestPanelPlacement)
#include "tst_panelplacement.moc"
