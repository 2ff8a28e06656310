#include "compute/refine/SpotCentroids.h"

#include "compute/core/HostThreads.h"
#include "compute/refine/TileGrid.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace bv::refine {

namespace {

// A float's bits as an unsigned key in the floats' order (negative values below positive).
std::uint32_t orderKey(float v) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
}

// The value nth_element would put at `rank` among the image's pixels with data (0-based,
// below their count), exactly: a histogram of the keys' upper 16 bits finds the bin that
// holds it, and only that bin's values are sorted. The host's threads share the passes out;
// their counts are whole numbers, so the answer does not depend on them.
float valueOfRank(const std::vector<float>& image, const std::vector<std::uint8_t>& hasData,
                  std::size_t rank) {
    const std::size_t n = image.size();
    const std::size_t parts = std::min<std::size_t>(hostThreads(), (n + 65535) / 65536 + 1);
    const auto range = [&](std::size_t part) {
        return std::pair<std::size_t, std::size_t>{n * part / parts, n * (part + 1) / parts};
    };
    std::vector<std::vector<std::size_t>> counts(parts);
    forEachOnHostThreads(parts, [&](std::size_t part) {
        std::vector<std::size_t>& c = counts[part];
        c.assign(65536, 0);
        const auto [first, last] = range(part);
        for (std::size_t i = first; i < last; ++i)
            if (hasData[i])
                ++c[orderKey(image[i]) >> 16];
    });
    std::size_t below = 0, bin = 0;
    for (; bin < 65536; ++bin) {
        std::size_t inBin = 0;
        for (const std::vector<std::size_t>& c : counts)
            inBin += c[bin];
        if (below + inBin > rank)
            break;
        below += inBin;
    }
    std::vector<std::vector<float>> found(parts);
    forEachOnHostThreads(parts, [&](std::size_t part) {
        const auto [first, last] = range(part);
        for (std::size_t i = first; i < last; ++i)
            if (hasData[i] && (orderKey(image[i]) >> 16) == bin)
                found[part].push_back(image[i]);
    });
    std::vector<float> values;
    for (const std::vector<float>& f : found)
        values.insert(values.end(), f.begin(), f.end());
    const auto at = values.begin() + static_cast<long>(rank - below);
    std::nth_element(values.begin(), at, values.end());
    return *at;
}

// The image less its smooth background: the 25th percentile of the pixels with data in each
// 32 x 32 tile (the background there while spots cover under three quarters of the tile; 0
// between the sparse spots of a model without amorphous scattering), interpolated linearly
// between the tiles' centres so that a background rising across a tile is followed. Pixels
// without data are left as they are.
std::vector<float> lessSmoothBackground(const std::vector<float>& image, int width, int height,
                                        const std::vector<std::uint8_t>& hasData) {
    const TileGrid grid(width, height, 32);
    const auto index = [width](int x, int y) {
        return static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
               static_cast<std::size_t>(x);
    };
    // each tile's floor; NaN for a tile without data, filled from its row or the rows beside
    std::vector<float> floor(grid.count());
    forEachOnHostThreads(floor.size(), [&](std::size_t t) {
        const TileGrid::Span span = grid.span(t);
        std::vector<float> values;
        for (int y = span.y0; y < span.y1; ++y)
            for (int x = span.x0; x < span.x1; ++x)
                if (hasData[index(x, y)])
                    values.push_back(image[index(x, y)]);
        if (values.empty()) {
            floor[t] = std::numeric_limits<float>::quiet_NaN();
            return;
        }
        const auto quarter = values.begin() + static_cast<long>(values.size() / 4);
        std::nth_element(values.begin(), quarter, values.end());
        floor[t] = *quarter;
    });
    float known = 0.0f; // a tile without data takes the last tile's floor that had some
    for (float& f : floor) {
        if (std::isnan(f))
            f = known;
        else
            known = f;
    }
    // held flat beyond the outer tiles' centres: the floor keeps the spots' cores apart, and
    // need not follow a slope out to the edge
    const std::vector<TileGrid::Between> columns = grid.columns(TileGrid::Edge::Hold);
    std::vector<float> out = image;
    forEachOnHostThreads(
        static_cast<std::size_t>(height),
        [&](std::size_t row) {
            const int y = static_cast<int>(row);
            const TileGrid::Between along = grid.row(y, TileGrid::Edge::Hold);
            for (int x = 0; x < width; ++x)
                if (hasData[index(x, y)])
                    out[index(x, y)] = static_cast<float>(
                        image[index(x, y)] -
                        grid.map(floor, columns[static_cast<std::size_t>(x)], along));
        },
        0, 64);
    return out;
}

} // namespace

SpotRegions spotRegions(const std::vector<float>& image, int width, int height,
                        const std::vector<std::uint8_t>& hasData) {
    SpotRegions r;
    const std::size_t n = image.size();
    r.grown.assign(n, 0);
    r.label.assign(n, -1);
    const auto withData = static_cast<std::size_t>(
        std::count_if(hasData.begin(), hasData.end(), [](std::uint8_t h) { return h != 0; }));
    if (withData == 0)
        return r;
    const std::size_t at = std::min(withData - 1, static_cast<std::size_t>(0.999 * static_cast<double>(withData)));
    // A model with a smooth scattering of its own (-water, -background) can put most pixels
    // over 1% of the spots' brightness, and the cores would join into one: they are sought
    // above the image's smooth background (0 for a model without one).
    const std::vector<float> above = lessSmoothBackground(image, width, height, hasData);
    const float threshold = 0.01f * valueOfRank(above, hasData, at);
    std::vector<std::uint8_t> core(n, 0);
    for (std::size_t i = 0; i < n; ++i)
        core[i] = hasData[i] && above[i] > threshold && threshold > 0.0f;
    // connected groups of the cores
    std::vector<std::size_t> stack;
    for (std::size_t i = 0; i < n; ++i) {
        if (!core[i] || r.label[i] >= 0)
            continue;
        const int id = r.spots++;
        stack.push_back(i);
        r.label[i] = id;
        while (!stack.empty()) {
            const std::size_t p = stack.back();
            stack.pop_back();
            const int x = static_cast<int>(p % width), y = static_cast<int>(p / width);
            const int dx[] = {1, -1, 0, 0}, dy[] = {0, 0, 1, -1};
            for (int k = 0; k < 4; ++k) {
                const int nx = x + dx[k], ny = y + dy[k];
                if (nx < 0 || ny < 0 || nx >= width || ny >= height)
                    continue;
                const std::size_t q = static_cast<std::size_t>(ny) * width + nx;
                if (core[q] && r.label[q] < 0) {
                    r.label[q] = id;
                    stack.push_back(q);
                }
            }
        }
    }
    // the cores grown by kGrow pixels every way (a square): along the rows, then the columns
    constexpr int kGrow = 3;
    std::vector<std::uint8_t> along(n, 0);
    const auto rowAt = [&](std::size_t y) { return y * static_cast<std::size_t>(width); };
    forEachOnHostThreads(static_cast<std::size_t>(height), [&](std::size_t y) {
        for (int x = 0; x < width; ++x)
            if (core[rowAt(y) + x])
                for (int u = std::max(0, x - kGrow); u <= std::min(width - 1, x + kGrow); ++u)
                    along[rowAt(y) + u] = 1;
    }, 0, 64);
    forEachOnHostThreads(static_cast<std::size_t>(height), [&](std::size_t y) {
        const int row = static_cast<int>(y);
        for (int v = std::max(0, row - kGrow); v <= std::min(height - 1, row + kGrow); ++v)
            for (int x = 0; x < width; ++x)
                r.grown[rowAt(y) + x] |= along[rowAt(static_cast<std::size_t>(v)) + x];
    }, 0, 64);
    return r;
}

double spotRmsd(const SpotRegions& regions, const std::vector<float>& simulated,
                const io::MeasuredImage& measured, double background, int width,
                std::size_t* count) {
    struct Sums {
        double s = 0, sx = 0, sy = 0, m = 0, mx = 0, my = 0;
    };
    std::vector<Sums> sums(static_cast<std::size_t>(regions.spots));
    for (std::size_t i = 0; i < regions.label.size(); ++i) {
        const int id = regions.label[i];
        if (id < 0)
            continue;
        const double x = static_cast<double>(i % width) + 0.5, y = static_cast<double>(i / width) + 0.5;
        Sums& t = sums[static_cast<std::size_t>(id)];
        const double s = simulated[i], m = std::max(0.0, measured.pixels[i] - background);
        t.s += s;
        t.sx += s * x;
        t.sy += s * y;
        t.m += m;
        t.mx += m * x;
        t.my += m * y;
    }
    double sum = 0;
    std::size_t used = 0;
    for (const Sums& t : sums) {
        if (t.s <= 0 || t.m <= 0)
            continue;
        const double dx = t.sx / t.s - t.mx / t.m, dy = t.sy / t.s - t.my / t.m;
        sum += dx * dx + dy * dy;
        ++used;
    }
    if (count)
        *count = used;
    return used ? std::sqrt(sum / static_cast<double>(used)) : 0.0;
}

} // namespace bv::refine
