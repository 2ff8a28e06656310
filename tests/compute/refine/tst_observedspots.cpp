// DIALS's observed spots against a simulated image's spots: a made-up image of two stacked
// panels with a symmetric spot on each (centroids worked out by hand: the centre pixel's
// middle), observed spots placed at known offsets from them; the matches, the RMSD per
// experiment id and panel and over all, the frame's spots by their z, and the refusal of a
// spot on a panel the detector lacks.

#include "compute/core/Error.h"
#include "compute/refine/ObservedSpots.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>

namespace {

constexpr int kWidth = 40;

// panel 0: 30 rows, panel 1: 20 rows, stacked; a 3 x 3 spot (100 at the centre, 50 beside,
// 25 at the corners) centred on pixel (10, 10) of panel 0 and (20, 5) of panel 1
std::vector<float> image() {
    std::vector<float> pixels(static_cast<std::size_t>(kWidth) * 50, 0.0f);
    const auto spot = [&](int x, int y) {
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
                pixels[static_cast<std::size_t>(y + dy) * kWidth + static_cast<std::size_t>(x + dx)] =
                    100.0f / static_cast<float>((1 << std::abs(dx)) * (1 << std::abs(dy)));
    };
    spot(10, 10);
    spot(20, 30 + 5);
    return pixels;
}

std::vector<bv::PanelGeometry> panels() {
    bv::PanelGeometry a, b;
    a.fastPixels = b.fastPixels = kWidth;
    a.slowPixels = 30;
    b.slowPixels = 20;
    return {a, b};
}

bv::io::DialsSpot observed(double x, double y, double z, std::size_t panel, int id) {
    bv::io::DialsSpot s;
    s.xyz = {x, y, z};
    s.panel = panel;
    s.experimentId = id;
    return s;
}

} // namespace

class TestObservedSpots : public QObject {
    Q_OBJECT
  private slots:
    void simulatedCentroids() {
        const std::vector<std::uint8_t> hasData(static_cast<std::size_t>(kWidth) * 50, 1);
        const auto spots = bv::refine::simulatedSpots(image(), kWidth, 50, hasData, panels());
        QCOMPARE(spots.size(), std::size_t(2));
        // each spot symmetric about its centre pixel, whose middle is at .5
        QCOMPARE(spots[0].panel, std::size_t(0));
        QVERIFY(std::fabs(spots[0].xy.x - 10.5) < 1e-12 && std::fabs(spots[0].xy.y - 10.5) < 1e-12);
        QCOMPARE(spots[1].panel, std::size_t(1));
        QVERIFY(std::fabs(spots[1].xy.x - 20.5) < 1e-12 && std::fabs(spots[1].xy.y - 5.5) < 1e-12);
    }

    void matchesAndRmsd() {
        bv::io::DialsReflections table;
        table.spots = {observed(10.8, 10.9, 0.5, 0, 0),   // 0.3, 0.4 off: 0.5
                       observed(19.9, 6.3, 0.4, 1, 0),    // -0.6, 0.8 off: 1.0
                       observed(30.0, 25.0, 0.5, 0, 0),   // nothing within 5 pixels
                       observed(10.5, 10.5, 0.6, 0, 1),   // experiment 1, on the spot
                       observed(10.5, 10.5, 1.5, 0, 0)};  // image 2
        const bv::refine::ObservedSpots spots = bv::refine::observedSpots("x.refl", table, 1);
        QCOMPARE(spots.spots.size(), std::size_t(4)); // image 1's: z from 0 to 1
        QCOMPARE(spots.rows, std::size_t(5));
        const std::vector<std::uint8_t> hasData(static_cast<std::size_t>(kWidth) * 50, 1);
        const bv::refine::SpotMatch m = bv::refine::matchSpots(
            spots, bv::refine::simulatedSpots(image(), kWidth, 50, hasData, panels()), 2);
        QCOMPARE(m.groups.size(), std::size_t(3));
        // by id, then panel: (0, 0), (0, 1), (1, 0)
        QCOMPARE(m.groups[0].observed, std::size_t(2));
        QCOMPARE(m.groups[0].matched, std::size_t(1));
        QVERIFY(std::fabs(m.groups[0].rmsd - 0.5) < 1e-12);
        QCOMPARE(m.groups[1].panel, std::size_t(1));
        QVERIFY(std::fabs(m.groups[1].rmsd - 1.0) < 1e-12);
        QCOMPARE(m.groups[2].experimentId, 1);
        QVERIFY(std::fabs(m.groups[2].rmsd) < 1e-12);
        QCOMPARE(m.all.observed, std::size_t(4));
        QCOMPARE(m.all.matched, std::size_t(3));
        QVERIFY(std::fabs(m.all.rmsd - std::sqrt((0.25 + 1.0) / 3.0)) < 1e-12);
        // each observed spot's partner, for drawing the pairs: the centroid it was matched to
        const auto at = [](const std::optional<glm::dvec2>& p, double x, double y) {
            return p && std::fabs(p->x - x) < 1e-12 && std::fabs(p->y - y) < 1e-12;
        };
        QCOMPARE(m.nearest.size(), std::size_t(4));
        QVERIFY(at(m.nearest[0], 10.5, 10.5));
        QVERIFY(at(m.nearest[1], 20.5, 5.5));
        QVERIFY(!m.nearest[2]);
        QVERIFY(at(m.nearest[3], 10.5, 10.5));

        std::ostringstream out;
        bv::refine::printSpotMatch(out, spots, m, &m);
        QVERIFY2(QString::fromStdString(out.str()).contains("1 of 2 matched within 5 pixels"),
                 out.str().c_str());
        const nlohmann::ordered_json j = bv::refine::spotMatchJson(spots, m, &m);
        QCOMPARE(j["groups"].size(), std::size_t(3));
        QCOMPARE(j["all"]["end"]["matched"].get<int>(), 3);
    }

    void everySpotWithoutAnImage() {
        bv::io::DialsReflections table;
        table.spots = {observed(1, 1, 0.5, 0, 0), observed(1, 1, 7.5, 0, 0)};
        QCOMPARE(bv::refine::observedSpots("x.refl", table, std::nullopt).spots.size(), std::size_t(2));
    }

    void aPanelTheDetectorLacks() {
        bv::io::DialsReflections table;
        table.spots = {observed(1, 1, 0.5, 2, 0)};
        try {
            bv::refine::matchSpots(bv::refine::observedSpots("x.refl", table, std::nullopt), {}, 2);
            QFAIL("no error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).contains("x.refl: a spot on panel 2, but the detector has 2 panels"),
                     e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestObservedSpots)
#include "tst_observedspots.moc"
