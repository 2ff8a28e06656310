// The proof that the reciprocal-space view and the image tell one story (issue 15): a lattice
// point that the Ewald construction (compute/plan/EwaldScene.h) puts on the sphere is the one
// whose spot the diffraction shader draws at the pixel the construction predicts, and the
// pinned pixel's ray ends on that pixel and names that node.
//
// The image is the headless program's (tests/app/HeadlessImage.h): the real shader, on
// lavapipe here. Small cubic cells in several orientations (misset, and a phi turn, which the
// scene must turn the same way as the shader), a small detector, one source, no mosaic,
// -oversample 1 so that a pixel is sampled at its centre as the readout reads it. No GUI.
//
// Where the spot's brightest pixel is: the sphere's point nearest a node r is along
// k0 + r, the predicted direction, and there the node's lattice factor is largest when it
// falls off alike in every direction: so for a round crystal (-round_xtal: a function of
// N |h - h0|, whose main lobe reaches past 1/(N a)) every node in reach. A square crystal's
// factor is a product of one per axis, zero where any one is: a node near the edge of its
// reach 1/(N a) has the foot on (or near) the zero of one axis' factor, a spot 50 to 100
// times fainter split into lobes beside the predicted point (the physics, not an error);
// its brightest pixel is still its own h k l, but it is located only for nodes within half
// the reach, where the main lobe's top is at the foot to within a pixel.

#include "HeadlessImage.h"
#include "app/PixelGeometry.h"
#include "compute/request/RunRequest.h"
#include "compute/plan/EwaldScene.h"
#include "tests/TestResolve.h"

#include <QTest>

#include <glm/geometric.hpp>

#include <cmath>

using namespace bv;

namespace {

using bv::testing::resolvedOf;
using bv::testing::words;

// 20 A cubic cell, 10 cells a side: spots about 1/(N a) / (1/lambda) = 5 mrad wide, 3 pixels
// of 0.1 mm at 60 mm; nodes 0.05 1/A apart, spots some 30 pixels apart
const QString kBase = QStringLiteral("-cell 20 20 20 90 90 90 -N 10 -default_F 100 -lambda 1 "
                                     "-distance 60 -detpixels 256 -pixel 0.1 -oversample 1");

// a spot's window: how far from the predicted point its brightest pixel is looked for
constexpr int kWindow = 3;

} // namespace

class TestEwaldSpots : public QObject {
    Q_OBJECT

  private slots:
    void spotsAreWhereTheSceneSays_data() {
        QTest::addColumn<QString>("orientation");
        QTest::addColumn<bool>("round");
        const QString rows[][2] = {{"misset 5 10 15", "-misset 5 10 15"},
                                   {"misset -20 33 7", "-misset -20 33 7"},
                                   {"misset 40 -12 25", "-misset 40 -12 25"},
                                   {"misset 12 3 -31, phi 20", "-misset 12 3 -31 -phi 20"},
                                   {"misset 0, phi -75, xds", "-phi -75 -xds"}};
        for (const auto& row : rows) {
            QTest::newRow(qPrintable(row[0] + QStringLiteral(", square"))) << row[1] << false;
            QTest::newRow(qPrintable(row[0] + QStringLiteral(", round")))
                << row[1] + QStringLiteral(" -round_xtal") << true;
        }
    }
    // For every node of the scene in reach that lands on the detector: the readout at the
    // brightest pixel of the image within kWindow pixels of the predicted point rounds to the
    // node's h k l, and the pinned pixel's ray (its sphere point S) projects back onto the
    // pixel's centre and names the node; that pixel is within one pixel of the predicted
    // point (round crystal: every node; square: within half the reach, above).
    void spotsAreWhereTheSceneSays() {
        QFETCH(QString, orientation);
        QFETCH(bool, round);
        const std::vector<std::string> args = words(kBase + QLatin1Char(' ') + orientation);
        const ResolvedExperiment resolved = resolvedOf(args);
        const app::PixelGeometry geometry(resolved);
        const plan::EwaldScene scene = plan::ewaldScene(resolved, nullptr, resolved.phi0, {});
        const std::vector<float> image = test::headlessImage(args);
        const int width = geometry.imageFastPixels(), height = geometry.imageSlowPixels();
        QCOMPARE(image.size(), std::size_t(width) * std::size_t(height));
        const glm::dvec3 k0 = -scene.sphereCentre;

        int checked = 0, located = 0;
        for (std::size_t i = 0; i < scene.nodes.size(); ++i) {
            const plan::ReciprocalNode& node = scene.nodes[i];
            if (!node.inReach())
                continue;
            const std::optional<QPointF> predicted = app::toQPointF(geometry.project(node.diffracted));
            if (!predicted || predicted->x() < kWindow || predicted->y() < kWindow ||
                predicted->x() > width - kWindow || predicted->y() > height - kWindow)
                continue; // off the detector, or its window would leave it
            const QString name = QStringLiteral("%1 %2 %3 at (%4, %5)")
                                     .arg(node.hkl.x)
                                     .arg(node.hkl.y)
                                     .arg(node.hkl.z)
                                     .arg(predicted->x())
                                     .arg(predicted->y());
            // the brightest pixel near the predicted point
            const int f0 = static_cast<int>(std::floor(predicted->x()));
            const int s0 = static_cast<int>(std::floor(predicted->y()));
            QPoint brightest(-1, -1);
            float peak = -1.0f;
            for (int s = s0 - kWindow; s <= s0 + kWindow; ++s)
                for (int f = f0 - kWindow; f <= f0 + kWindow; ++f) {
                    const float v = image[std::size_t(s) * std::size_t(width) + std::size_t(f)];
                    if (v > peak) {
                        peak = v;
                        brightest = QPoint(f, s);
                    }
                }
            QVERIFY2(peak > 0.0f, qPrintable(name));
            const QPointF centre(brightest.x() + 0.5, brightest.y() + 0.5);
            const double off = std::hypot(centre.x() - predicted->x(), centre.y() - predicted->y());
            if (round || std::fabs(node.excitation) <= node.reach / 2.0) {
                QVERIFY2(off <= 1.0,
                         qPrintable(name + QStringLiteral(": brightest pixel (%1, %2), %3 px off")
                                               .arg(brightest.x())
                                               .arg(brightest.y())
                                               .arg(off)));
                ++located;
            }
            // the readout at that pixel: the node's h k l
            const app::PixelInfo info = geometry.at(app::toVec2(centre));
            const glm::ivec3 read(static_cast<int>(std::lround(info.hkl.x)),
                                  static_cast<int>(std::lround(info.hkl.y)),
                                  static_cast<int>(std::lround(info.hkl.z)));
            QVERIFY2(read == node.hkl, qPrintable(name + QStringLiteral(" read %1 %2 %3")
                                                             .arg(info.hkl.x)
                                                             .arg(info.hkl.y)
                                                             .arg(info.hkl.z)));
            // the pinned pixel's ray: its sphere point S, back along S + k0 onto the detector
            const glm::dvec3 s = scene.spherePoint(glm::normalize(info.position));
            const std::optional<QPointF> back = app::toQPointF(geometry.project(glm::normalize(s + k0)));
            QVERIFY(back);
            QVERIFY2(std::hypot(back->x() - centre.x(), back->y() - centre.y()) < 1e-6,
                     qPrintable(name));
            QCOMPARE(scene.nearestNode(s), std::optional<std::size_t>(i));
            ++checked;
        }
        // a still of a 20 A cell on this detector shows a handful of spots: at least three
        QVERIFY2(located >= 3, qPrintable(QString::number(located)));
        qInfo("%d spots in reach, %d located", checked, located);
    }
};

QTEST_GUILESS_MAIN(TestEwaldSpots)
#include "tst_ewaldspots.moc"
