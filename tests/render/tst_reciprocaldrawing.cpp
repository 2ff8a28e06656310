// ReciprocalDrawing without a device: how strongly a node is drawn against its distance from
// the sphere, what the drawing holds for a scene and its highlights, and in which order.

#include "render/scene/ReciprocalDrawing.h"

#include <QTest>

#include <cmath>

using namespace bv;

namespace {

plan::ReciprocalNode node(double excitation, double reach) {
    plan::ReciprocalNode n;
    n.excitation = excitation;
    n.reach = reach;
    n.weight = 1.0;
    return n;
}

// lambda 1 along +x; three nodes: on the sphere, just out of reach, far
plan::EwaldScene threeNodes(double thickness = 0.0) {
    plan::EwaldScene s;
    s.sphereCentre = {-1, 0, 0};
    s.thickness = thickness;
    plan::ReciprocalNode on = node(0.0, 0.01), near = node(0.012, 0.01), far = node(0.3, 0.01);
    on.r = {-1, 1, 0};
    near.r = {0.1, 0.2, 0.3};
    far.r = {0.3, 0, 0};
    s.nodes = {on, far, near};
    return s;
}

bool sameColour(const scene::SceneVertex& v, const float (&c)[4]) {
    for (int i = 0; i < 4; ++i)
        if (std::fabs(v.colour[i] - c[i]) > 1e-6f)
            return false;
    return true;
}

} // namespace

class TestReciprocalDrawing : public QObject {
    Q_OBJECT

  private slots:
    void closeness_data() {
        QTest::addColumn<double>("excitation");
        QTest::addColumn<double>("reach");
        QTest::addColumn<double>("closeness");
        QTest::addColumn<double>("emphasis");
        QTest::newRow("on the sphere") << 0.0 << 0.01 << 1.0 << 1.0;
        // at the edge of the reach: exp(-ln 2) = 0.5, still in reach
        QTest::newRow("edge of the reach") << 0.01 << 0.01 << 0.5 << 1.0;
        QTest::newRow("edge, other side") << -0.01 << 0.01 << 0.5 << 1.0;
        // twice the reach: exp(-4 ln 2) = 1/16, out of reach: squared, 1/256
        QTest::newRow("twice the reach") << 0.02 << 0.01 << 0.0625 << 0.00390625;
        QTest::newRow("no reach, on") << 0.0 << 0.0 << 1.0 << 1.0;
        QTest::newRow("no reach, off") << 0.001 << 0.0 << 0.0 << 0.0;
    }
    void closeness() {
        QFETCH(double, excitation);
        QFETCH(double, reach);
        QFETCH(double, closeness);
        QFETCH(double, emphasis);
        const plan::ReciprocalNode n = node(excitation, reach);
        QVERIFY(std::fabs(scene::closeness(n) - closeness) < 1e-12);
        QVERIFY(std::fabs(scene::emphasis(n) - emphasis) < 1e-12);
    }

    void nodesNearestTheSphereComeLast() {
        const scene::SceneDrawing d = scene::drawScene(threeNodes(), {});
        // the three nodes then the origin's dot; the node on the sphere is the last node
        QCOMPARE(d.points.size(), std::size_t(4));
        QCOMPARE(d.points[0].position[0], 0.3f);  // far
        QCOMPARE(d.points[1].position[0], 0.1f);  // just out of reach
        QCOMPARE(d.points[2].position[0], -1.0f); // on the sphere
        QVERIFY(sameColour(d.points[2], scene::SceneColours::inReach));
        QVERIFY(d.points[2].size > d.points[1].size && d.points[1].size > d.points[0].size);
        QVERIFY(d.overlayLines.empty());
    }

    void theShellAddsTwoCircles() {
        const std::size_t thin = scene::drawScene(threeNodes(0.0), {}).lines.size();
        const std::size_t thick = scene::drawScene(threeNodes(0.02), {}).lines.size();
        QCOMPARE(thick - thin, std::size_t(2 * 96 * 2)); // two circles of 96 segments
    }

    void highlightsAreDrawnOnTop() {
        scene::SceneHighlights h;
        h.hoveredNode = 1;
        h.pinnedPoint = glm::dvec3(-1, -1, 0);
        h.pinnedNode = 0;
        const scene::SceneDrawing d = scene::drawScene(threeNodes(), h);
        // the ray from the centre (-1, 0, 0) to S over everything else
        QCOMPARE(d.overlayLines.size(), std::size_t(2));
        QCOMPARE(d.overlayLines[0].position[0], -1.0f);
        QCOMPARE(d.overlayLines[1].position[1], -1.0f);
        QVERIFY(sameColour(d.overlayLines[0], scene::SceneColours::ray));
        // S, the pinned node's and the hovered node's halos after the nodes, hovered last
        QVERIFY(sameColour(d.points.back(), scene::SceneColours::hovered));
        QCOMPARE(d.points.back().position[0], 0.3f); // node 1
        QVERIFY(sameColour(d.points[d.points.size() - 2], scene::SceneColours::pinnedNode));
        // out-of-range indices draw nothing rather than crash
        h.hoveredNode = 99;
        h.pinnedNode = 99;
        QCOMPARE(scene::drawScene(threeNodes(), h).points.size(), d.points.size() - 2);
    }

    // A 50 x 40 x 20 Angstrom cell: spacings 0.02, 0.025 and 0.05 per Angstrom; the shell
    // shown about the sphere reaches kShellSpacings (2.5) x 0.02 = 0.05 from it.
    void onlyTheNodesNearTheSphereAreDrawn_data() {
        QTest::addColumn<double>("excitation");
        QTest::addColumn<double>("reach");
        QTest::addColumn<bool>("shown");
        QTest::newRow("on the sphere") << 0.0 << 0.001 << true;
        QTest::newRow("two spacings outside") << 0.04 << 0.001 << true;
        QTest::newRow("two spacings inside") << -0.04 << 0.001 << true;
        QTest::newRow("three spacings outside") << 0.06 << 0.001 << false;
        QTest::newRow("three spacings inside") << -0.06 << 0.001 << false;
        QTest::newRow("far but in its broad reach") << 0.3 << 0.5 << true;
    }
    void onlyTheNodesNearTheSphereAreDrawn() {
        QFETCH(double, excitation);
        QFETCH(double, reach);
        QFETCH(bool, shown);
        plan::EwaldScene s = threeNodes();
        s.aStar = {0.025, 0, 0};
        s.bStar = {0, 0.02, 0};
        s.cStar = {0, 0, 0.05};
        QVERIFY(std::fabs(scene::latticeSpacing(s) - 0.02) < 1e-12);
        plan::ReciprocalNode n = node(excitation, reach);
        n.r = {0.5, 0.5, 0.5};
        QCOMPARE(scene::nodeShown(s, n), shown);
        // the drawing: the one node (or none), then the origin; nodePoints counts the nodes
        s.nodes = {n};
        const scene::SceneDrawing d = scene::drawScene(s, {});
        QCOMPARE(d.nodePoints, std::size_t(shown ? 1 : 0));
        QCOMPARE(d.points.size(), d.nodePoints + 1);
        // without lattice axes (threeNodes alone) every node is drawn
        QCOMPARE(scene::drawScene(threeNodes(), {}).nodePoints, std::size_t(3));
    }

    // The largest dot (7.5 px) at most 0.6 of the spacing on screen: a spacing of 0.02 per
    // Angstrom at 250 pixels per unit is 5 pixels, so dots of 3 pixels, a scale of 0.4.
    void dotsFitTheirSpacingOnScreen_data() {
        QTest::addColumn<double>("pixelsPerUnit");
        QTest::addColumn<double>("scale");
        QTest::newRow("close: as drawn") << 1000.0 << 1.0;    // 20 px apart: 12 > 7.5
        QTest::newRow("0.6 x 5 px / 7.5 px") << 250.0 << 0.4; // 5 px apart
        QTest::newRow("never below 0.2") << 50.0 << 0.2;      // 1 px apart: 0.08
    }
    void dotsFitTheirSpacingOnScreen() {
        QFETCH(double, pixelsPerUnit);
        QFETCH(double, scale);
        plan::EwaldScene s = threeNodes();
        s.aStar = {0.025, 0, 0};
        s.bStar = {0, 0.02, 0};
        s.cStar = {0, 0, 0.05};
        QVERIFY(std::fabs(scene::nodeScale(s, pixelsPerUnit) - scale) < 1e-12);
        QCOMPARE(scene::nodeScale(threeNodes(), pixelsPerUnit), 1.0); // no spacing known
    }

    void boundsHoldTheSphereAndTheNodes() {
        const scene::SceneBounds b = scene::sceneBounds(threeNodes());
        // centred half-way to -k0: (-0.5, 0, 0), out to the sphere's far rim: 0.5 + 1
        QVERIFY(glm::length(b.centre - glm::dvec3(-0.5, 0, 0)) < 1e-12);
        QVERIFY(std::fabs(b.radius - 1.5) < 1e-12);
    }
};

QTEST_GUILESS_MAIN(TestReciprocalDrawing)
#include "tst_reciprocaldrawing.moc"
