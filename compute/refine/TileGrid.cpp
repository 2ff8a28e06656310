#include "compute/refine/TileGrid.h"

#include <algorithm>

namespace bv::refine {

namespace {

std::vector<double> centres(int length, int tile) {
    std::vector<double> c;
    for (int a = 0; a < length; a += tile)
        c.push_back(0.5 * (a + std::min(length, a + tile)));
    return c;
}

// Where pixel coordinate p lies between the centres.
TileGrid::Between between(const std::vector<double>& c, double p, TileGrid::Edge edge) {
    const int n = static_cast<int>(c.size());
    if (n < 2)
        return {0, 0, 0.0};
    int i = 0;
    if (p >= c.back())
        i = n - 2;
    else if (p > c.front())
        i = static_cast<int>(std::upper_bound(c.begin(), c.end(), p) - c.begin()) - 1;
    double w = (p - c[i]) / (c[i + 1] - c[i]);
    if (edge == TileGrid::Edge::Hold)
        w = std::clamp(w, 0.0, 1.0);
    return {i, i + 1, w};
}

} // namespace

TileGrid::TileGrid(int width, int rows, int tile)
    : width_(std::max(width, 0)), rows_(std::max(rows, 0)), tile_(std::max(tile, 1)),
      xs_(centres(width_, tile_)), ys_(centres(rows_, tile_)) {}

TileGrid::Span TileGrid::span(std::size_t t) const {
    const int tx = static_cast<int>(t % xs_.size()), ty = static_cast<int>(t / xs_.size());
    return {tx * tile_, std::min(width_, (tx + 1) * tile_), ty * tile_,
            std::min(rows_, (ty + 1) * tile_)};
}

std::vector<TileGrid::Between> TileGrid::columns(Edge edge) const {
    std::vector<Between> c(static_cast<std::size_t>(width_));
    for (int x = 0; x < width_; ++x)
        c[static_cast<std::size_t>(x)] = between(xs_, x + 0.5, edge);
    return c;
}

TileGrid::Between TileGrid::row(int y, Edge edge) const {
    return between(ys_, y + 0.5, edge);
}

} // namespace bv::refine
