#pragma once
// Square tiles over an image of `width` × `rows` pixels (the last row and column of tiles cut
// short where the image ends), and the smooth map through one value per tile: the value
// belongs to the tile's centre, and a pixel's is interpolated bilinearly between the four
// nearest centres. Beyond the outer centres (half a tile at most) the map either goes on
// along the line of the outer two (Edge::Extend: a background rising toward the edge) or
// holds the outer value (Edge::Hold: a floor that must not overshoot).
// Used by the local background (LocalBackground.h) and the spot regions' floor
// (SpotCentroids.h).
//
//     bv::refine::TileGrid grid(width, rows, 32);
//     std::vector<double> level(grid.count());         // one value per tile, row by row
//     const auto columns = grid.columns(bv::refine::TileGrid::Edge::Extend);
//     const auto row = grid.row(y, bv::refine::TileGrid::Edge::Extend);
//     double at = grid.map(level, columns[x], row);

#include <cstddef>
#include <vector>

namespace bv::refine {

class TileGrid {
  public:
    enum class Edge { Extend, Hold };

    // A pixel's place between two neighbouring tile centres along one axis.
    struct Between {
        int lower = 0, upper = 0; // tile indices (equal on a one-tile axis)
        double weight = 0.0;      // of the upper one
    };
    // The pixels of one tile: [x0, x1) × [y0, y1).
    struct Span {
        int x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    };

    TileGrid(int width, int rows, int tile);

    int across() const { return static_cast<int>(xs_.size()); }
    int down() const { return static_cast<int>(ys_.size()); }
    std::size_t count() const { return xs_.size() * ys_.size(); }
    // tile t counts row by row: t = ty * across() + tx
    Span span(std::size_t t) const;

    // Each column's place (the same on every row), and one row's.
    std::vector<Between> columns(Edge edge) const;
    Between row(int y, Edge edge) const;

    // The map of `values` (one per tile, row by row) at a pixel.
    template <typename T>
    double map(const std::vector<T>& values, const Between& column, const Between& row) const {
        const auto at = [&](int tx, int ty) {
            return static_cast<double>(
                values[static_cast<std::size_t>(ty) * xs_.size() + static_cast<std::size_t>(tx)]);
        };
        const double lower = (1 - column.weight) * at(column.lower, row.lower) +
                             column.weight * at(column.upper, row.lower);
        const double upper = (1 - column.weight) * at(column.lower, row.upper) +
                             column.weight * at(column.upper, row.upper);
        return (1 - row.weight) * lower + row.weight * upper;
    }

  private:
    int width_ = 0, rows_ = 0, tile_ = 1;
    std::vector<double> xs_, ys_; // the tiles' centres, pixel coordinates (pixel i's at i + 0.5)
};

} // namespace bv::refine
