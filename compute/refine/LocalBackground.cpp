#include "compute/refine/LocalBackground.h"

#include "compute/core/HostThreads.h"
#include "compute/refine/TileGrid.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace bv::refine {

namespace {

constexpr int kMinimumPixels = 32; // of a tile's own, for a level of its own
constexpr double kClip = 3.0;      // standard deviations
constexpr double kWide = 5.0;      // standard deviations, for the variance

struct TileLevel {
    double mean = std::nan(""), variance = std::nan(""); // NaN when too few pixels
};

// The clipped mean and variance of one tile's values (reordered).
TileLevel clippedLevel(std::vector<float>& values) {
    if (values.size() < static_cast<std::size_t>(kMinimumPixels))
        return {};
    // start from the median and the median absolute deviation (robust when spots are many)
    const auto median = [](std::vector<float>& v) {
        const auto mid = v.begin() + static_cast<long>(v.size() / 2);
        std::nth_element(v.begin(), mid, v.end());
        return static_cast<double>(*mid);
    };
    double centre = median(values);
    std::vector<float> deviations(values.size());
    for (std::size_t i = 0; i < values.size(); ++i)
        deviations[i] = static_cast<float>(std::abs(values[i] - centre));
    double spread = 1.4826 * median(deviations);
    if (spread <= 0.0)
        spread = std::sqrt(std::max(std::abs(centre), 1.0)); // counts of a few photons
    // the mean and sample variance of the values within `reach` of `around`
    struct Moments {
        std::size_t n = 0;
        double mean = 0.0, variance = 0.0;
    };
    const auto within = [&values](double around, double reach) {
        double sum = 0.0, squares = 0.0;
        Moments m;
        for (float v : values)
            if (std::abs(v - around) <= reach) {
                sum += v;
                squares += double(v) * v;
                ++m.n;
            }
        if (m.n > 0)
            m.mean = sum / double(m.n);
        if (m.n > 1)
            m.variance = std::max(0.0, (squares - sum * m.mean) / double(m.n - 1));
        return m;
    };
    // a standard deviation, never quite 0 (a tile of one value)
    const auto deviation = [](const Moments& m) {
        return std::max(std::sqrt(m.variance), 1e-6 * std::max(std::abs(m.mean), 1.0));
    };
    std::size_t kept = values.size() + 1;
    Moments m;
    for (int pass = 0; pass < 20; ++pass) {
        m = within(centre, kClip * spread);
        if (m.n < static_cast<std::size_t>(kMinimumPixels))
            return {};
        if (m.n == kept)
            break;
        kept = m.n;
        centre = m.mean;
        spread = deviation(m);
    }
    // The variance again within kWide of the mean: clipping at 3 takes 3 % of a normal
    // spread's variance (5 % of 40 photons' counts, whose tail is long), which the pedestal
    // would keep; spots and hot pixels still lie beyond.
    const Moments wide = within(m.mean, kWide * deviation(m));
    return {m.mean, wide.n > 1 ? wide.variance : m.variance};
}

// The middle of `values` (reordered), NaN when empty.
double middle(std::vector<double>& values) {
    if (values.empty())
        return std::nan("");
    const auto mid = values.begin() + static_cast<long>(values.size() / 2);
    std::nth_element(values.begin(), mid, values.end());
    return *mid;
}

} // namespace

LocalBackground localBackground(const io::MeasuredImage& measured,
                                const std::vector<std::uint8_t>& excluded,
                                const std::vector<int>& panelRows, int tile) {
    LocalBackground result;
    result.tile = tile;
    const int width = measured.width;
    result.level.assign(measured.pixels.size(), 0.0f);
    std::vector<int> bands = panelRows;
    if (bands.empty() || std::accumulate(bands.begin(), bands.end(), 0) != measured.height)
        bands = {measured.height};

    struct Band {
        int firstRow = 0, rows = 0;
        TileGrid grid{0, 0, 1};
        std::vector<double> level; // per tile (NaN: none of its own)
    };
    std::vector<Band> tiled;
    std::vector<double> quiet; // per tile with a level of its own: its mean less its variance
    double lowest = std::numeric_limits<double>::infinity(); // the quietest such tile's level
    double sum = 0.0;
    int own = 0;
    int firstRow = 0;
    for (int rows : bands) {
        Band b;
        b.firstRow = firstRow;
        b.rows = rows;
        firstRow += rows;
        if (rows <= 0 || width <= 0)
            continue;
        b.grid = TileGrid(width, rows, tile);
        b.level.assign(b.grid.count(), std::nan(""));
        std::vector<double> variance(b.level.size(), std::nan(""));
        // each tile's level on its own (the host's threads share the tiles out)
        forEachOnHostThreads(b.level.size(), [&](std::size_t t) {
            const TileGrid::Span span = b.grid.span(t);
            std::vector<float> values;
            for (int y = span.y0; y < span.y1; ++y)
                for (int x = span.x0; x < span.x1; ++x) {
                    const std::size_t i = static_cast<std::size_t>(b.firstRow + y) * width + x;
                    if (measured.hasData[i] && !excluded[i] && std::isfinite(measured.pixels[i]))
                        values.push_back(measured.pixels[i]);
                }
            const TileLevel level = clippedLevel(values);
            b.level[t] = level.mean;
            variance[t] = level.variance;
        });
        for (std::size_t t = 0; t < b.level.size(); ++t) // in tile order: the same sum whatever the threads did
            if (std::isfinite(b.level[t])) {
                sum += b.level[t];
                ++own;
                quiet.push_back(b.level[t] - variance[t]);
                lowest = std::min(lowest, b.level[t]);
            }
        result.tiles += static_cast<int>(b.grid.count());
        tiled.push_back(std::move(b));
    }
    const double overall = own > 0 ? sum / own : 0.0;
    // counts beyond their noise: an ADC's offset (readout noise takes from it); never below 0
    // (a gain above one count a photon) nor above the quietest tile's level
    const double pedestal = middle(quiet);
    result.pedestal = std::isfinite(pedestal) ? std::clamp(pedestal, 0.0, std::max(lowest, 0.0)) : 0.0;

    for (Band& b : tiled) {
        const int nx = b.grid.across(), ny = b.grid.down();
        // tiles without a level of their own: the mean of the nearest ring that has some
        std::vector<double> filled = b.level;
        for (int ty = 0; ty < ny; ++ty)
            for (int tx = 0; tx < nx; ++tx) {
                if (std::isfinite(b.level[static_cast<std::size_t>(ty) * nx + tx]))
                    continue;
                ++result.tilesFromNeighbours;
                double ringSum = 0.0;
                int ringCount = 0;
                for (int r = 1; ringCount == 0 && r < std::max(nx, ny); ++r)
                    for (int v = std::max(0, ty - r); v <= std::min(ny - 1, ty + r); ++v)
                        for (int u = std::max(0, tx - r); u <= std::min(nx - 1, tx + r); ++u) {
                            if (std::max(std::abs(u - tx), std::abs(v - ty)) != r)
                                continue;
                            const double l = b.level[static_cast<std::size_t>(v) * nx + u];
                            if (std::isfinite(l)) {
                                ringSum += l;
                                ++ringCount;
                            }
                        }
                filled[static_cast<std::size_t>(ty) * nx + tx] = ringCount > 0 ? ringSum / ringCount : overall;
            }
        const std::vector<TileGrid::Between> columns = b.grid.columns(TileGrid::Edge::Extend);
        forEachOnHostThreads(static_cast<std::size_t>(b.rows), [&](std::size_t row) {
            const int y = static_cast<int>(row);
            const TileGrid::Between along = b.grid.row(y, TileGrid::Edge::Extend);
            for (int x = 0; x < width; ++x)
                result.level[static_cast<std::size_t>(b.firstRow + y) * width + x] =
                    static_cast<float>(
                        b.grid.map(filled, columns[static_cast<std::size_t>(x)], along));
        }, 0, 16);
    }
    return result;
}

} // namespace bv::refine
