// The tiles under the local background and the spot regions' floor (compute/refine/
// TileGrid.h): a plane's values at the tiles' centres give the plane back at every pixel
// when the map goes on past the outer centres, and the outer values when it holds them; a
// short last tile's centre is its own middle, not where a whole tile's would be.

#include "compute/refine/TileGrid.h"

#include <QTest>

using bv::refine::TileGrid;

namespace {

// a plane over the pixel coordinates (pixel i's centre at i + 0.5)
double plane(double x, double y) {
    return 3.0 + 0.5 * x - 0.25 * y;
}

// the plane at each tile's centre, from the tile's own pixels
std::vector<double> planeAtCentres(const TileGrid& grid) {
    std::vector<double> v(grid.count());
    for (std::size_t t = 0; t < grid.count(); ++t) {
        const TileGrid::Span s = grid.span(t);
        v[t] = plane(0.5 * (s.x0 + s.x1), 0.5 * (s.y0 + s.y1));
    }
    return v;
}

} // namespace

class TileGridTest : public QObject {
    Q_OBJECT
  private slots:
    void tilesCoverTheImageOnce() {
        const TileGrid grid(100, 70, 32); // 4 x 3 tiles, the last of each 4 and 6 pixels
        QCOMPARE(grid.across(), 4);
        QCOMPARE(grid.down(), 3);
        std::vector<int> covered(100 * 70, 0);
        for (std::size_t t = 0; t < grid.count(); ++t) {
            const TileGrid::Span s = grid.span(t);
            for (int y = s.y0; y < s.y1; ++y)
                for (int x = s.x0; x < s.x1; ++x)
                    ++covered[static_cast<std::size_t>(y) * 100 + x];
        }
        QVERIFY(std::all_of(covered.begin(), covered.end(), [](int c) { return c == 1; }));
        const TileGrid::Span last = grid.span(grid.count() - 1);
        QCOMPARE(last.x0, 96);
        QCOMPARE(last.x1, 100);
        QCOMPARE(last.y0, 64);
        QCOMPARE(last.y1, 70);
    }

    void extendedMapIsThePlaneEverywhere() {
        const TileGrid grid(100, 70, 32);
        const std::vector<double> values = planeAtCentres(grid);
        const auto columns = grid.columns(TileGrid::Edge::Extend);
        for (int y = 0; y < 70; ++y) {
            const TileGrid::Between row = grid.row(y, TileGrid::Edge::Extend);
            for (int x = 0; x < 100; ++x)
                QVERIFY(std::abs(grid.map(values, columns[static_cast<std::size_t>(x)], row) -
                                 plane(x + 0.5, y + 0.5)) < 1e-9);
        }
    }

    void heldMapStopsAtTheOuterCentres() {
        const TileGrid grid(100, 70, 32);
        const std::vector<double> values = planeAtCentres(grid);
        const auto columns = grid.columns(TileGrid::Edge::Hold);
        // the first tile's centre is (16, 16): the corner pixel takes its value
        const TileGrid::Between top = grid.row(0, TileGrid::Edge::Hold);
        QCOMPARE(grid.map(values, columns[0], top), plane(16, 16));
        // the short last column of tiles has its centre at x = 98: pixels beyond it hold
        const TileGrid::Between middle = grid.row(40, TileGrid::Edge::Hold);
        QCOMPARE(grid.map(values, columns[99], middle), grid.map(values, columns[98], middle));
        QVERIFY(std::abs(grid.map(values, columns[97], middle) - plane(97.5, 40.5)) < 1e-9);
    }

    void oneTileIsFlat() {
        const TileGrid grid(20, 10, 32);
        QCOMPARE(int(grid.count()), 1);
        const std::vector<float> values{7.0f};
        const auto columns = grid.columns(TileGrid::Edge::Extend);
        QCOMPARE(grid.map(values, columns[0], grid.row(9, TileGrid::Edge::Extend)), 7.0);
        QCOMPARE(grid.map(values, columns[19], grid.row(0, TileGrid::Edge::Extend)), 7.0);
    }
};

QTEST_APPLESS_MAIN(TileGridTest)
#include "tst_tilegrid.moc"
