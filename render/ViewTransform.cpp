#include "render/ViewTransform.h"

#include <algorithm>
#include <cmath>

namespace bv::render {

void ViewTransform::set(QPointF origin, double scale) {
    m_origin = origin;
    m_scale = std::clamp(scale, kMinScale, kMaxScale);
}

void ViewTransform::zoomAbout(QPointF view, double factor) {
    const QPointF image = toImage(view);
    m_scale = std::clamp(m_scale * factor, kMinScale, kMaxScale);
    m_origin = view - image * m_scale;
}

void ViewTransform::fit(QSizeF viewSize, QSizeF imageSize) {
    if (imageSize.isEmpty() || viewSize.isEmpty())
        return;
    m_scale = std::clamp(std::min(viewSize.width() / imageSize.width(),
                                  viewSize.height() / imageSize.height()),
                         kMinScale, kMaxScale);
    centre(viewSize, imageSize);
}

void ViewTransform::oneToOne(QSizeF viewSize) {
    const QPointF middle(viewSize.width() / 2.0, viewSize.height() / 2.0);
    const QPointF image = toImage(middle);
    m_scale = 1.0;
    // whole view pixels, so that every image pixel is exactly one view pixel
    const QPointF origin = middle - image;
    m_origin = QPointF(std::round(origin.x()), std::round(origin.y()));
}

void ViewTransform::centre(QSizeF viewSize, QSizeF imageSize) {
    m_origin = QPointF((viewSize.width() - imageSize.width() * m_scale) / 2.0,
                       (viewSize.height() - imageSize.height() * m_scale) / 2.0);
}

} // namespace bv::render
