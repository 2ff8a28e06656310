#pragma once
// The numbers behind the plots, computed on the host copy of the image: the radial profile
// (mean intensity in rings of equal 2θ about the beam, 2θ of each pixel centre from
// PixelGeometry, so it is right on a tilted detector), the line profile (nearest pixel at
// unit steps along a line) and the intensity histogram. Skipped pixels (mask, ROI) count
// nowhere.

#include "app/PixelGeometry.h"

#include <QPointF>

#include <cstdint>
#include <vector>

namespace bv::app {

struct Profile {
    std::vector<double> x, y;
};

// bins of equal width in 2θ from 0 to the largest 2θ on the detector; x: bin centre (degrees),
// empty bins left out
Profile radialProfile(const std::vector<float>& image, const std::vector<std::uint8_t>& skipped,
                      const PixelGeometry& geometry, int bins);
// x: distance from `from` in pixels
// Along a line of image points; with a multi-panel geometry, of view points (gaps left out).
Profile lineProfile(const std::vector<float>& image, int fast, int slow, QPointF from, QPointF to,
                    const PixelGeometry* geometry = nullptr);
// x: bin centre (photons), y: pixel count; bins of equal width over [low, high]
Profile histogram(const std::vector<float>& image, const std::vector<std::uint8_t>& skipped,
                  int bins, double low, double high);

} // namespace bv::app
