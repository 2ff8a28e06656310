#include "compute/refine/SpotCentroids.h"

#include <algorithm>
#include <cmath>

namespace bv::refine {

SpotRegions spotRegions(const std::vector<float>& image, int width, int height,
                        const std::vector<std::uint8_t>& hasData) {
    SpotRegions r;
    const std::size_t n = image.size();
    r.grown.assign(n, 0);
    r.label.assign(n, -1);
    std::vector<float> sorted;
    for (std::size_t i = 0; i < n; ++i)
        if (hasData[i])
            sorted.push_back(image[i]);
    if (sorted.empty())
        return r;
    const std::size_t at = std::min(sorted.size() - 1, static_cast<std::size_t>(0.999 * static_cast<double>(sorted.size())));
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<long>(at), sorted.end());
    const float threshold = 0.01f * sorted[at];
    std::vector<std::uint8_t> core(n, 0);
    for (std::size_t i = 0; i < n; ++i)
        core[i] = hasData[i] && image[i] > threshold && threshold > 0.0f;
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
    constexpr int kGrow = 3;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            if (!core[static_cast<std::size_t>(y) * width + x])
                continue;
            for (int v = std::max(0, y - kGrow); v <= std::min(height - 1, y + kGrow); ++v)
                for (int u = std::max(0, x - kGrow); u <= std::min(width - 1, x + kGrow); ++u)
                    r.grown[static_cast<std::size_t>(v) * width + u] = 1;
        }
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
