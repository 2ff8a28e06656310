// The Ewald construction of an experiment (compute/plan/EwaldScene.h): nodes, their distance
// from the sphere and reach, the sphere's points, the detector's outline, the shell's
// thickness. Numbers worked by hand (or with Python's math module where a square root has
// too many digits), never read off the code.
//
// The frame of most rows: MOSFLM's (beam along +x, spindle +z), a cubic cell of 10 A with
// a* = (0.1, 0, 0), b* = (0, 0.1, 0), c* = (0, 0, 0.1) 1/A, lambda 1 A: k0 = (1, 0, 0), the
// sphere of radius 1 about (-1, 0, 0), through the origin. N = 10: the lattice factor's
// width 1/(N a) = 1/100 = 0.01 1/A.

#include "compute/request/RunRequest.h"
#include "compute/model/Units.h"
#include "compute/plan/EwaldScene.h"
#include "tests/TestResolve.h"

#include <QTest>

#include <glm/geometric.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace {

using bv::plan::EwaldOptions;
using bv::plan::EwaldScene;
using bv::plan::ReciprocalNode;

const char* const kCubic = "-cell 10 10 10 90 90 90 -N 10 -default_F 100 -lambda 1 "
                           "-distance 50 -detpixels 100 -pixel 0.1 -Xbeam 5 -Ybeam 5";

bv::ResolvedExperiment resolvedOf(const std::string& options) {
    return bv::testing::resolvedOf(QString::fromStdString(options));
}

EwaldScene sceneOf(const std::string& options, double phi = 0.0, double dMin = 1.0,
                   std::size_t limit = 20000) {
    EwaldOptions o;
    o.dMin = dMin;
    o.nodeLimit = limit;
    return bv::plan::ewaldScene(resolvedOf(options), nullptr, phi, o);
}

bool near(const glm::dvec3& x, const glm::dvec3& y, double tolerance) {
    return glm::length(x - y) <= tolerance;
}

QString text(const glm::dvec3& v) {
    return QStringLiteral("(%1, %2, %3)")
        .arg(v.x, 0, 'g', 12)
        .arg(v.y, 0, 'g', 12)
        .arg(v.z, 0, 'g', 12);
}

} // namespace

Q_DECLARE_METATYPE(glm::ivec3)
Q_DECLARE_METATYPE(glm::dvec3)

class TestEwaldScene : public QObject {
    Q_OBJECT
  private slots:
    // A node r diffracts when |k0 + r| = 1/lambda; its excitation is |k0 + r| - 1/lambda.
    void excitationIsTheDistanceFromTheSphere_data() {
        QTest::addColumn<double>("phiDegrees");
        QTest::addColumn<glm::ivec3>("hkl");
        QTest::addColumn<glm::dvec3>("r");
        QTest::addColumn<double>("excitation");
        QTest::addColumn<bool>("inReach");
        // r = (-0.2, 0.6, 0): k0 + r = (0.8, 0.6, 0), |.| = 1 exactly: on the sphere
        QTest::newRow("on the sphere")
            << 0.0 << glm::ivec3(-2, 6, 0) << glm::dvec3(-0.2, 0.6, 0.0) << 0.0 << true;
        // (1, 0, 0.1): sqrt(1.01) - 1 = 0.00498756, inside the width 0.01
        QTest::newRow("just outside") << 0.0 << glm::ivec3(0, 0, 1) << glm::dvec3(0.0, 0.0, 0.1)
                                      << 0.00498756211208895 << true;
        // (1.1, 0, 0): 0.1 beyond the sphere, ten widths
        QTest::newRow("far outside")
            << 0.0 << glm::ivec3(1, 0, 0) << glm::dvec3(0.1, 0.0, 0.0) << 0.1 << false;
        // phi 90 deg about +z turns x to y and y to -x: a* = (0, 0.1, 0), b* = (-0.1, 0, 0),
        // so (-2, 6, 0) moves to (-0.6, -0.2, 0), k0 + r = (0.4, -0.2, 0):
        // sqrt(0.2) - 1 = -0.5527864, deep inside
        QTest::newRow("turned by phi")
            << 90.0 << glm::ivec3(-2, 6, 0) << glm::dvec3(-0.6, -0.2, 0.0) << -0.5527864045000421
            << false;
    }
    void excitationIsTheDistanceFromTheSphere() {
        QFETCH(double, phiDegrees);
        QFETCH(glm::ivec3, hkl);
        QFETCH(glm::dvec3, r);
        QFETCH(double, excitation);
        QFETCH(bool, inReach);
        const EwaldScene scene = sceneOf(kCubic, bv::units::radiansFromDegrees(phiDegrees));
        const std::optional<std::size_t> i = scene.find(hkl);
        QVERIFY(i);
        const ReciprocalNode& node = scene.nodes[*i];
        QVERIFY2(near(node.r, r, 1e-12), qPrintable(text(node.r)));
        QVERIFY2(std::fabs(node.excitation - excitation) < 1e-12,
                 qPrintable(QString::number(node.excitation, 'g', 17)));
        QCOMPARE(node.inReach(), inReach);
        QVERIFY(std::fabs(node.dSpacing - 1.0 / glm::length(r)) < 1e-12);
        // its spot lies along k0 + r
        QVERIFY(near(node.diffracted, glm::normalize(glm::dvec3(1, 0, 0) + r), 1e-12));
        // one source, no mosaic: the reach is the lattice factor's width alone
        QVERIFY(std::fabs(node.reach - 0.01) < 1e-15);
    }

    // The sphere, its centre and the beam; a direction's sphere point; back to h k l.
    void spherePointsAndIndices() {
        const EwaldScene scene = sceneOf(kCubic);
        QVERIFY(near(scene.sphereCentre, {-1, 0, 0}, 1e-15));
        QCOMPARE(scene.radius, 1.0);
        QCOMPARE(scene.thickness, 0.0); // one source
        // the beam's own direction is the origin: the sphere passes through it
        QVERIFY(near(scene.spherePoint({1, 0, 0}), {0, 0, 0}, 1e-15));
        // straight back: the far end of the diameter, (-2, 0, 0)
        QVERIFY(near(scene.spherePoint({-1, 0, 0}), {-2, 0, 0}, 1e-15));
        // the direction (0.8, 0.6, 0) is the node (-2, 6, 0)'s: S = (0.8, 0.6, 0) - k0
        const glm::dvec3 s = scene.spherePoint({0.8, 0.6, 0.0});
        QVERIFY2(near(s, {-0.2, 0.6, 0.0}, 1e-15), qPrintable(text(s)));
        QVERIFY(near(scene.fractionalHkl(s), {-2, 6, 0}, 1e-12));
        // a point a third of the spacing off the node still names it; the origin is no node
        QCOMPARE(scene.nearestNode(s + glm::dvec3(0.03, -0.03, 0.03)), scene.find({-2, 6, 0}));
        QVERIFY(scene.find({-2, 6, 0}));
        QVERIFY(!scene.nearestNode({0.01, 0.0, -0.02}));
    }

    // In any orientation and cell, a node's r reads back as its indices (the real axes are the
    // reciprocal ones' dual), and is its own nearest node.
    void fractionalIndicesOfANodeAreItsIndices_data() {
        QTest::addColumn<QString>("options");
        QTest::newRow("cubic") << QString::fromLatin1(kCubic);
        QTest::newRow("triclinic, misset") << QStringLiteral(
            "-cell 10 12 15 80 95 100 -misset 10 20 30 -N 5 -default_F 1 -lambda 1.3 "
            "-distance 50 -detpixels 100 -pixel 0.1");
        QTest::newRow("turned about a dials spindle") << QStringLiteral(
            "-cell 20 20 30 90 90 120 -misset -5 40 12 -dials -phi 33 -N 5 -default_F 1 "
            "-distance 80 -detpixels 100 -pixel 0.1");
    }
    void fractionalIndicesOfANodeAreItsIndices() {
        QFETCH(QString, options);
        const bv::ResolvedExperiment r = resolvedOf(options.toStdString());
        EwaldOptions o;
        o.dMin = 3.0;
        const EwaldScene scene = bv::plan::ewaldScene(r, nullptr, r.phi0, o);
        QVERIFY(scene.nodes.size() > 20);
        for (std::size_t i = 0; i < scene.nodes.size(); ++i) {
            const ReciprocalNode& node = scene.nodes[i];
            QVERIFY(near(scene.fractionalHkl(node.r), glm::dvec3(node.hkl), 1e-9));
            QCOMPARE(scene.nearestNode(node.r), std::optional<std::size_t>(i));
            QVERIFY(node.dSpacing >= 3.0 - 1e-12);
        }
    }

    // Nodes within dMin, nearest to the origin first, at most nodeLimit.
    void nodesAreNearestFirstWithinTheResolution() {
        // 1/dMin = 1/2.5 = 0.4 1/A: h^2 + k^2 + l^2 <= 16 holds 257 integer points (counted
        // with Python), 256 without the origin
        EwaldScene scene = sceneOf(kCubic, 0.0, 2.5);
        QCOMPARE(scene.nodes.size(), std::size_t(256));
        QCOMPARE(scene.dMin, 2.5);
        for (std::size_t i = 1; i < scene.nodes.size(); ++i)
            QVERIFY(glm::length(scene.nodes[i - 1].r) <= glm::length(scene.nodes[i].r));
        // at most 7: the six at 0.1 1/A, then (-1, -1, 0), the first of the twelve at 0.1414
        // in ascending h, k, l
        scene = sceneOf(kCubic, 0.0, 2.5, 7);
        QCOMPARE(scene.nodes.size(), std::size_t(7));
        for (std::size_t i = 0; i < 6; ++i)
            QVERIFY(std::fabs(glm::length(scene.nodes[i].r) - 0.1) < 1e-15);
        QVERIFY(scene.nodes[6].hkl == glm::ivec3(-1, -1, 0));
        // a limit far below the ball's count (4/3 pi 10^3 = 4189 nodes within 1 1/A): the
        // nearest still come first: 6 at 0.1, 12 at sqrt(0.02), then the 8 (+-1, +-1, +-1)
        // at sqrt(0.03) = 0.1732051, of which two are the 19th and 20th
        scene = sceneOf(kCubic, 0.0, 1.0, 20);
        QCOMPARE(scene.nodes.size(), std::size_t(20));
        QVERIFY(std::fabs(glm::length(scene.nodes[17].r) - std::sqrt(0.02)) < 1e-15);
        QVERIFY(std::fabs(glm::length(scene.nodes.back().r) - std::sqrt(0.03)) < 1e-15);
    }

    // The default resolution is the finest the detector reaches. -Xbeam 5 -Ybeam 5 on a
    // 10 mm detector: in the MOSFLM convention nanoBragg puts the beam half a pixel further,
    // 5.05 mm from pix0 (the first pixel's corner) along both axes, so pix0 is the farthest
    // corner, 5.05 sqrt(2) = 7.1417785 mm off the beam at 50 mm:
    // 2theta = atan(7.1417785/50), d = 1 / (2 sin(theta)) = 7.0543278 A (Python).
    void defaultResolutionIsTheDetectorsCorner() {
        const EwaldScene scene = sceneOf(kCubic, 0.0, 0.0);
        QVERIFY2(std::fabs(scene.dMin - 7.054327763108738) < 1e-9,
                 qPrintable(QString::number(scene.dMin, 'g', 17)));
        for (const ReciprocalNode& node : scene.nodes)
            QVERIFY(node.dSpacing >= scene.dMin);
        // 1/d = 0.1417570 1/A: the six nodes at 0.1 and the twelve at sqrt(0.02) = 0.1414214
        // are within it, the eight next at sqrt(0.03) = 0.1732051 beyond
        QCOMPARE(scene.nodes.size(), std::size_t(18));
    }

    // The detector's outline: sphere points (on the sphere), closed, outlineSamples per edge.
    void outlineLiesOnTheSphere() {
        const EwaldScene scene = sceneOf(kCubic);
        QCOMPARE(scene.detectorOutline.size(), std::size_t(1));
        const std::vector<glm::dvec3>& outline = scene.detectorOutline.front();
        QCOMPARE(outline.size(), std::size_t(4 * 16 + 1));
        QVERIFY(outline.front() == outline.back());
        for (const glm::dvec3& p : outline)
            QVERIFY(std::fabs(glm::length(p - scene.sphereCentre) - scene.radius) < 1e-12);
        // the first point is pix0, the corner 7.1417785 mm off the beam (above); its sphere
        // point is d - k0 for d the unit vector to it, |S| = 2 sin(theta) / lambda = 1/7.0543278
        QVERIFY(std::fabs(glm::length(outline.front()) - 1.0 / 7.054327763108738) < 1e-12);
        // with panels: one outline each (a preset of several modules)
        EwaldOptions o;
        o.outlineSamples = 3;
        const bv::ResolvedExperiment panels =
            resolvedOf("-cell 10 10 10 90 90 90 -N 10 -default_F 1 "
                       "-detector eiger2-4m -distance 100");
        const EwaldScene panelScene = bv::plan::ewaldScene(panels, nullptr, 0.0, o);
        QVERIFY(panels.panels.size() > 1);
        QCOMPARE(panelScene.detectorOutline.size(), panels.panels.size());
        for (const std::vector<glm::dvec3>& panel : panelScene.detectorOutline) {
            QCOMPARE(panel.size(), std::size_t(4 * 3 + 1));
            for (const glm::dvec3& p : panel)
                QVERIFY(std::fabs(glm::length(p - panelScene.sphereCentre) - panelScene.radius) <
                        1e-12);
        }
    }

    // The shell swept by the sources' spheres. Dispersion 10 % in 3 steps: lambda 0.95, 1,
    // 1.05 A; every sphere passes through the origin, centred on -x. Straight back (u = -x)
    // source i's sphere lies at 2/lambda_i - 1 from the centre: 2/0.95 - 2 = 0.1052632
    // outside, 2 - 2/1.05 = 0.0952381 inside, the width 2 (1/0.95 - 1/1.05) = 0.2005013,
    // the widest anywhere. Towards the origin (u = +x): no width.
    void dispersionGivesTheSphereAThickness() {
        const EwaldScene scene = sceneOf(std::string(kCubic) + " -dispersion 10 -dispsteps 3");
        QCOMPARE(scene.sources.size(), std::size_t(3));
        QVERIFY2(std::fabs(scene.thickness - 0.20050125313283207) < 1e-12,
                 qPrintable(QString::number(scene.thickness, 'g', 17)));
        const glm::dvec2 back = scene.shellAt({-1, 0, 0});
        QVERIFY(std::fabs(back.x - 0.09523809523809534) < 1e-12);
        QVERIFY(std::fabs(back.y - 0.10526315789473673) < 1e-12);
        const glm::dvec2 forward = scene.shellAt({1, 0, 0});
        QCOMPARE(forward.x, 0.0);
        QCOMPARE(forward.y, 0.0);
        // At u = (0.8, 0.6, 0), towards the node (-2, 6, 0), the ray from the centre meets
        // source i's sphere (centre -x/lambda_i) at t = sqrt((u.d)^2 - |d|^2 + 1/lambda_i^2)
        // - u.d, d = (1/lambda_i - 1) x: 0.95 A at 1.0100525, 1.05 A at 0.9900475 (Python)
        const glm::dvec2 side = scene.shellAt({0.8, 0.6, 0.0});
        QVERIFY(std::fabs(side.x - 0.009952477424369666) < 1e-12);
        QVERIFY(std::fabs(side.y - 0.010052524952012698) < 1e-12);
        // (0, 0, 1) is outside the sphere (excitation 0.0049876): its reach is the width 0.01
        // plus the shell outside along (1, 0, 0.1)/sqrt(1.01), 0.00024817 (Python)
        const ReciprocalNode& node = scene.nodes[*scene.find({0, 0, 1})];
        QVERIFY(node.excitation > 0.0);
        QVERIFY2(std::fabs(node.reach - (0.01 + 0.00024817281609501585)) < 1e-12,
                 qPrintable(QString::number(node.reach, 'g', 17)));
    }

    // Horizontal divergence of 2 mrad in 3 steps: incident directions tilted by -1, 0, +1
    // mrad in the beam-polarization plane (x, z): the centres -k_i lie 2 sin(1 mrad) =
    // 0.0020000 1/A apart across the beam, and the shell is widest across the beam, where
    // the spheres are shifted by that much (to 1e-6 of it along the probed directions).
    void divergenceGivesTheSphereAThickness() {
        const EwaldScene scene = sceneOf(std::string(kCubic) + " -hdivrange 2 -hdivsteps 3");
        QCOMPARE(scene.sources.size(), std::size_t(3));
        QVERIFY2(scene.thickness > 0.002 * 0.998 && scene.thickness < 0.002 * 1.001,
                 qPrintable(QString::number(scene.thickness, 'g', 17)));
        // along z, 1 mrad on either side
        const glm::dvec2 across = scene.shellAt({0, 0, 1});
        QVERIFY(std::fabs(across.x - 0.001) < 1e-9 && std::fabs(across.y - 0.001) < 1e-9);
    }

    // The mosaic spread widens a node's reach by |r| x spread: 1 degree at |r| = 0.1 1/A is
    // 0.1 x 0.0174533 = 0.00174533, the reach 0.01174533
    void mosaicWidensTheReach() {
        const EwaldScene scene = sceneOf(std::string(kCubic) + " -mosaic 1 -mosaic_domains 2");
        const ReciprocalNode& node = scene.nodes[*scene.find({1, 0, 0})];
        QVERIFY(std::fabs(node.reach - 0.01174532925199433) < 1e-12);
    }

    // Amplitudes from the structure factors, weights against the largest in view.
    void weightsFollowTheStructureFactors() {
        bv::StructureFactors f;
        f.hMin = f.kMin = f.lMin = -1;
        f.hMax = f.kMax = f.lMax = 1;
        f.F.assign(27, 10.0);
        f.F[f.index(1, 0, 0)] = 50.0;
        f.defaultF = 5.0;
        f.reflectionCount = 27;
        EwaldOptions o;
        o.dMin = 2.0;
        const EwaldScene scene = bv::plan::ewaldScene(resolvedOf(kCubic), &f, 0.0, o);
        const auto amplitude = [&](glm::ivec3 hkl) { return scene.nodes[*scene.find(hkl)]; };
        QCOMPARE(amplitude({1, 0, 0}).amplitude, 50.0);
        QCOMPARE(amplitude({1, 0, 0}).weight, 1.0);
        QCOMPARE(amplitude({0, 1, 0}).weight, 0.2);    // 10 / 50
        QCOMPARE(amplitude({2, 0, 0}).amplitude, 5.0); // off the grid: the default F
        QCOMPARE(amplitude({2, 0, 0}).weight, 0.1);
        // without structure factors every weight is 1
        for (const ReciprocalNode& node : sceneOf(kCubic, 0.0, 2.0).nodes)
            QCOMPARE(node.weight, 1.0);
    }

    // The viewer may ask before an experiment is resolved (all zero, no wavelength): nothing
    // to draw, and no crash (robustness.md A1 was such a case in the overlay).
    void anUnresolvedExperimentHasNoNodes() {
        const bv::ResolvedExperiment nothing;
        const EwaldScene scene = bv::plan::ewaldScene(nothing, nullptr, 0.0, {});
        QVERIFY(scene.nodes.empty());
        QVERIFY(!scene.nearestNode({0.1, 0.0, 0.0}));
    }
};

QTEST_APPLESS_MAIN(TestEwaldScene)
#include "tst_ewaldscene.moc"
