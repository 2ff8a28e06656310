#pragma once
// Where the detector image sits in the view: view = origin + scale * image, in framebuffer
// pixels (device pixels) for the view and detector pixels for the image (continuous: pixel
// (f, s) covers [f, f+1) x [s, s+1); fast to the right, slow down). Pure arithmetic, so the
// zoom and pan rules are tested without a window (tests/app/tst_viewtransform.cpp).

#include <QPointF>
#include <QSizeF>

namespace bv::render {

class ViewTransform {
  public:
    static constexpr double kMinScale = 1.0 / 64.0;
    static constexpr double kMaxScale = 64.0;

    QPointF origin() const { return m_origin; }
    double scale() const { return m_scale; }
    void set(QPointF origin, double scale);

    QPointF toView(QPointF image) const { return m_origin + image * m_scale; }
    QPointF toImage(QPointF view) const { return (view - m_origin) / m_scale; }

    // Multiplies the scale by factor (clamped), keeping the image point under `view` there.
    void zoomAbout(QPointF view, double factor);
    void pan(QPointF viewDelta) { m_origin += viewDelta; }
    // The whole image, as large as fits, centred.
    void fit(QSizeF viewSize, QSizeF imageSize);
    // One image pixel per view pixel, keeping the image point at the view's centre there.
    void oneToOne(QSizeF viewSize);
    // Centres the image in the view at the current scale.
    void centre(QSizeF viewSize, QSizeF imageSize);

    bool operator==(const ViewTransform& other) const {
        return m_origin == other.m_origin && m_scale == other.m_scale;
    }
    bool operator!=(const ViewTransform& other) const { return !(*this == other); }

  private:
    QPointF m_origin{0.0, 0.0};
    double m_scale = 1.0;
};

} // namespace bv::render
