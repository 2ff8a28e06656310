#include "app/Profiles.h"

#include "compute/model/Units.h"

#include <algorithm>
#include <cmath>

namespace bv::app {

Profile radialProfile(const std::vector<float>& image, const std::vector<std::uint8_t>& skipped,
                      const PixelGeometry& g, int bins) {
    Profile p;
    const int fast = g.imageFastPixels(), slow = g.imageSlowPixels();
    if (bins < 1 || image.size() != static_cast<std::size_t>(fast) * static_cast<std::size_t>(slow))
        return p;
    std::vector<double> twoTheta(image.size());
    double largest = 0.0;
    for (int s = 0; s < slow; ++s)
        for (int f = 0; f < fast; ++f) {
            const double t = g.twoThetaOfPixel(f, s); // NaN beyond a narrower panel
            twoTheta[static_cast<std::size_t>(s) * static_cast<std::size_t>(fast) + static_cast<std::size_t>(f)] = t;
            if (std::isfinite(t))
                largest = std::max(largest, t);
        }
    if (!(largest > 0.0))
        return p;
    std::vector<double> sum(static_cast<std::size_t>(bins), 0.0);
    std::vector<long> count(static_cast<std::size_t>(bins), 0);
    const bool haveSkipped = skipped.size() == image.size();
    for (std::size_t i = 0; i < image.size(); ++i) {
        if ((haveSkipped && skipped[i]) || !std::isfinite(twoTheta[i]))
            continue;
        const int bin = std::min(bins - 1, static_cast<int>(twoTheta[i] / largest * bins));
        sum[static_cast<std::size_t>(bin)] += image[i];
        ++count[static_cast<std::size_t>(bin)];
    }
    for (int b = 0; b < bins; ++b)
        if (count[static_cast<std::size_t>(b)] > 0) {
            p.x.push_back(units::degreesFromRadians((b + 0.5) * largest / bins));
            p.y.push_back(sum[static_cast<std::size_t>(b)] / static_cast<double>(count[static_cast<std::size_t>(b)]));
        }
    return p;
}

Profile lineProfile(const std::vector<float>& image, int fast, int slow, QPointF from, QPointF to,
                    const PixelGeometry* geometry) {
    Profile p;
    if (image.size() != static_cast<std::size_t>(fast) * static_cast<std::size_t>(slow))
        return p;
    const QPointF delta = to - from;
    const double length = std::hypot(delta.x(), delta.y());
    const int samples = static_cast<int>(std::floor(length)) + 1;
    for (int i = 0; i < samples; ++i) {
        const double t = length > 0.0 ? i / length : 0.0;
        const QPointF at = from + delta * t;
        int f = static_cast<int>(std::floor(at.x())), s = static_cast<int>(std::floor(at.y()));
        if (geometry && geometry->projected()) { // a view point: the image pixel behind it
            const std::optional<ImagePixel> pixel = geometry->pixelAt(toVec2(at));
            if (!pixel)
                continue; // a gap
            f = pixel->fast;
            s = pixel->slow;
        }
        if (f < 0 || s < 0 || f >= fast || s >= slow)
            continue;
        p.x.push_back(i);
        p.y.push_back(image[static_cast<std::size_t>(s) * static_cast<std::size_t>(fast) + static_cast<std::size_t>(f)]);
    }
    return p;
}

Profile histogram(const std::vector<float>& image, const std::vector<std::uint8_t>& skipped,
                  int bins, double low, double high) {
    Profile p;
    if (bins < 1 || !(high > low))
        return p;
    std::vector<double> counts(static_cast<std::size_t>(bins), 0.0);
    const bool haveSkipped = skipped.size() == image.size();
    const double width = (high - low) / bins;
    for (std::size_t i = 0; i < image.size(); ++i) {
        if (haveSkipped && skipped[i])
            continue;
        const double v = image[i];
        if (v < low || v > high)
            continue;
        const int bin = std::min(bins - 1, static_cast<int>((v - low) / width));
        counts[static_cast<std::size_t>(bin)] += 1.0;
    }
    for (int b = 0; b < bins; ++b) {
        p.x.push_back(low + (b + 0.5) * width);
        p.y.push_back(counts[static_cast<std::size_t>(b)]);
    }
    return p;
}

} // namespace bv::app
