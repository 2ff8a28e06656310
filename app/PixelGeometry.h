#pragma once
// The viewer's side of plan::PixelGeometry (compute/plan/PixelGeometry.h, the detector's
// geometry at an image point, Qt-free): its types under the viewer's names, and the
// conversions between its points (glm) and the Qt points the views, overlays and readout use.

#include "compute/plan/PixelGeometry.h"

#include <QPoint>
#include <QPointF>
#include <QString>

#include <glm/vec2.hpp>
#include <optional>

namespace bv::app {

using plan::ImagePixel;
using plan::PixelGeometry;
using plan::PixelInfo;
using plan::PredictedSpot;

inline QPointF toQPointF(const glm::dvec2& p) { return {p.x, p.y}; }
inline std::optional<QPointF> toQPointF(const std::optional<glm::dvec2>& p) {
    return p ? std::optional<QPointF>(toQPointF(*p)) : std::nullopt;
}
inline glm::dvec2 toVec2(QPointF p) { return {p.x(), p.y()}; }
inline glm::ivec2 toVec2(QPoint p) { return {p.x(), p.y()}; }

} // namespace bv::app
