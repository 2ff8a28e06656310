#pragma once
// Overlays: what is drawn over the image, each switchable: the beam centre, resolution rings
// labelled in Angstrom (the cone of each 2θ cut by the detector plane, so they stay right on
// a tilted detector), predicted Bragg positions with their h k l, the line of the line
// profile and the pinned pixel. Geometry comes from PixelGeometry (image coordinates) and is
// recomputed once per new image; paint() maps it through the view, so the same code draws
// the window's overlay and the exported PNG's.

#include "app/PixelGeometry.h"
#include "render/ViewTransform.h"

#include <QLineF>
#include <QPoint>
#include <QRectF>
#include <QString>

#include <optional>
#include <vector>

class QPainter;

namespace bv::app {

struct OverlaySettings {
    bool beamCentre = true;
    bool rings = true;
    bool spots = false;
    bool spotLabels = true;
    bool observedSpots = true; // DIALS's spots (-spots, a .refl) and their simulated partners
};

// An observed spot and the simulated spot it was matched to (refine::matchSpots), in the
// pixels of its panel (a pixel's centre at .5), as DIALS and the simulator give them.
struct ObservedSpotPair {
    std::size_t panel = 0;
    glm::dvec2 observed{0.0};
    std::optional<glm::dvec2> simulated; // none within the match radius
};

class Overlays {
  public:
    void setGeometry(const std::optional<PixelGeometry>& geometry);
    void setSettings(const OverlaySettings& settings);
    const OverlaySettings& settings() const { return m_settings; }
    void setProfileLine(const std::optional<QLineF>& line) { m_line = line; }
    const std::optional<QLineF>& profileLine() const { return m_line; }
    void setPinned(const std::optional<QPoint>& pixel) { m_pinned = pixel; }
    // A reciprocal-lattice node the reciprocal view points at (hovered there): where its spot
    // would be (image point) and its label ("h k l"); nullopt: none.
    struct Marker {
        QPointF point;
        QString label;
        bool operator==(const Marker& o) const { return point == o.point && label == o.label; }
    };
    void setMarker(const std::optional<Marker>& marker) { m_marker = marker; }
    const std::optional<Marker>& marker() const { return m_marker; }
    // Labels, lines and markers drawn `scale` times their size (the presentation mode's 2.5,
    // to be read across a room); 1 in the window and in exported PNGs.
    void setScale(double scale) { m_scale = scale; }
    double scale() const { return m_scale; }
    // The image is a preview (SimulationController::isPreview()): a marker in the view's
    // top-left corner says so and what it leaves out; empty: an exact image, no marker.
    void setPreview(const QString& leftOut) { m_preview = leftOut; }
    const QString& preview() const { return m_preview; }

    // DIALS's observed spots, each drawn as a cross with a line to its simulated partner (a
    // red cross: none within the radius); mapped through the geometry to image points.
    void setObservedSpots(std::vector<ObservedSpotPair> pairs);
    struct ObservedMark {
        QPointF observed;
        std::optional<QPointF> simulated;
    };
    const std::vector<ObservedMark>& observedMarks() const { return m_observedMarks; }

    const std::vector<double>& ringResolutions() const { return m_ringResolutions; }
    const std::vector<PredictedSpot>& spots() const { return m_spots; }
    // A predicted spot's ring (view pixels) on a view of `viewScale` view pixels per image
    // pixel: outside the spot's own pixel with a gap, within 0.4 of the spots' typical
    // spacing where that leaves room, so the spot and its neighbours stay in sight; a thin
    // line, 1.5 px at a projector's scale.
    double spotRingRadius(double viewScale) const;
    double spotRingWidth() const;
    // The spots' typical spacing: the median distance to the nearest spot, image pixels.
    double spotSpacing() const { return m_spotSpacing; }

    // Draws on a view of `viewSize` (device pixels) through `view`.
    void paint(QPainter& painter, const render::ViewTransform& view, QSizeF viewSize) const;

  private:
    void rebuild();
    void mapObservedSpots();
    void paintObservedSpots(QPainter& painter, const render::ViewTransform& view,
                            const QRectF& visible) const;

    std::optional<PixelGeometry> m_geometry;
    OverlaySettings m_settings;
    std::optional<QLineF> m_line;
    std::optional<QPoint> m_pinned;
    std::optional<Marker> m_marker;
    double m_scale = 1.0;
    QString m_preview;
    std::optional<QPointF> m_beam;
    std::vector<double> m_ringResolutions;
    std::vector<std::vector<std::vector<QPointF>>> m_rings; // per ring, its polylines
    std::vector<std::optional<QPointF>> m_ringLabelPoints;
    std::vector<PredictedSpot> m_spots;
    double m_spotSpacing = 0.0;
    std::vector<ObservedSpotPair> m_observed;
    std::vector<ObservedMark> m_observedMarks;
};

} // namespace bv::app
