#include "app/Overlays.h"

#include <QCoreApplication>
#include <QFont>
#include <QPainter>
#include <QPainterPath>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace bv::app {

namespace {
const QColor kBeamColour(255, 140, 0);
const QColor kRingColour(0, 150, 255);
const QColor kSpotColour(230, 0, 200);
const QColor kLineColour(0, 200, 80);
const QColor kPinColour(255, 200, 0);
const QColor kPreviewColour(230, 90, 0);  // orange: not the exact image yet
const QColor kMarkerColour(77, 255, 115); // the reciprocal view's hovered-node halo (SceneColours)
const QColor kObservedColour(0, 230, 60); // DIALS's spot, matched
const QColor kUnmatchedColour(255, 40, 40); // DIALS's spot with no simulated spot near
// labels drawn only while this many spots are in view (more would be unreadable)
constexpr int kMaxLabelledSpots = 400;

void drawLabel(QPainter& painter, QPointF at, const QString& text, const QColor& colour) {
    const QRectF box = painter.fontMetrics().boundingRect(text).adjusted(-2, -1, 2, 1);
    const QRectF placed = box.translated(at - box.bottomLeft());
    painter.fillRect(placed, QColor(255, 255, 255, 190));
    painter.setPen(colour.darker(130));
    painter.drawText(placed, Qt::AlignCenter, text);
}
// The median over spots of the distance to the nearest other spot (image pixels): the
// spacing of the pattern, which the rings fit in; 0 for fewer than two spots. Sorted by x, so
// a spot's search stops once the x distance alone exceeds its best.
double medianNearestDistance(const std::vector<PredictedSpot>& spots) {
    if (spots.size() < 2)
        return 0.0;
    std::vector<glm::dvec2> points;
    points.reserve(spots.size());
    for (const PredictedSpot& s : spots)
        points.push_back(s.point);
    std::sort(points.begin(), points.end(),
              [](const glm::dvec2& a, const glm::dvec2& b) { return a.x < b.x; });
    std::vector<double> nearest(points.size(), std::numeric_limits<double>::infinity());
    for (std::size_t i = 0; i < points.size(); ++i) {
        double& best = nearest[i];
        for (std::size_t j = i + 1; j < points.size() && points[j].x - points[i].x < best; ++j)
            best = std::min(best, glm::length(points[j] - points[i]));
        for (std::size_t j = i; j-- > 0 && points[i].x - points[j].x < best;)
            best = std::min(best, glm::length(points[j] - points[i]));
    }
    std::nth_element(nearest.begin(), nearest.begin() + nearest.size() / 2, nearest.end());
    return nearest[nearest.size() / 2];
}
} // namespace

void Overlays::setGeometry(const std::optional<PixelGeometry>& geometry) {
    m_geometry = geometry;
    rebuild();
}

void Overlays::setSettings(const OverlaySettings& settings) {
    const bool spotsNow = settings.spots && !m_settings.spots;
    m_settings = settings;
    if (spotsNow)
        rebuild();
}

void Overlays::setObservedSpots(std::vector<ObservedSpotPair> pairs) {
    m_observed = std::move(pairs);
    mapObservedSpots();
}

void Overlays::mapObservedSpots() {
    m_observedMarks.clear();
    if (!m_geometry)
        return;
    for (const ObservedSpotPair& p : m_observed) {
        const std::optional<glm::dvec2> observed = m_geometry->panelPoint(p.panel, p.observed);
        if (!observed)
            continue;
        ObservedMark mark{toQPointF(*observed), std::nullopt};
        if (p.simulated)
            mark.simulated = toQPointF(m_geometry->panelPoint(p.panel, *p.simulated));
        m_observedMarks.push_back(mark);
    }
}

void Overlays::rebuild() {
    mapObservedSpots();
    m_beam.reset();
    m_ringResolutions.clear();
    m_rings.clear();
    m_ringLabelPoints.clear();
    m_spots.clear();
    m_spotSpacing = 0.0;
    if (!m_geometry)
        return;
    const PixelGeometry& g = *m_geometry;
    m_beam = toQPointF(g.beamCentre());
    m_ringResolutions = g.ringResolutions();
    const QRectF image(0, 0, g.fastPixels(), g.slowPixels());
    for (double d : m_ringResolutions) {
        std::vector<std::vector<QPointF>> lines;
        for (const std::vector<glm::dvec2>& line : g.ring(d)) {
            lines.emplace_back();
            for (const glm::dvec2& p : line)
                lines.back().push_back(toQPointF(p));
        }
        m_rings.push_back(std::move(lines));
        // the label where the ring runs furthest up and right inside the image
        std::optional<QPointF> label;
        double best = -1e300;
        for (const auto& line : m_rings.back())
            for (const QPointF& p : line)
                if (image.adjusted(2, 12, -30, -2).contains(p) && p.x() - p.y() > best) {
                    best = p.x() - p.y();
                    label = p;
                }
        m_ringLabelPoints.push_back(label);
    }
    if (m_settings.spots) {
        m_spots = g.predictedSpots();
        m_spotSpacing = medianNearestDistance(m_spots);
    }
}

double Overlays::spotRingWidth() const {
    // thin, also on a projector: a line as wide as the labels' strokes would cover the spot
    // it marks where spots are close (the presentation's 2.5 times made it 3 px)
    return m_scale > 1.0 ? 1.5 : 1.0;
}

double Overlays::spotRingRadius(double viewScale) const {
    // Outside the spot: the spot's own pixel (half a pixel about its centre) plus a gap of
    // two screen pixels and the line's half width, so the ring never lies on the spot.
    const double outside = 0.5 * viewScale + 2.0 + spotRingWidth() / 2.0;
    // Within the spots' spacing: 0.4 of the typical distance to the nearest neighbour, so a
    // ring stays clear of its neighbours' spots too; at most 8 px (20 presenting), so that a
    // sparse pattern is not ringed by circles larger than the eye links to one spot.
    const double spacing = 0.4 * m_spotSpacing * viewScale;
    return std::max(outside, std::min(spacing, 8.0 * m_scale));
}

void Overlays::paintObservedSpots(QPainter& painter, const render::ViewTransform& view,
                                  const QRectF& visible) const {
    // a cross on DIALS's centroid, a line to the simulated spot's centroid and a small ring
    // there: the line's length is the spot's miss, magnified by the zoom
    const double arm = 4.0 * m_scale, ring = 2.5 * m_scale;
    painter.setBrush(Qt::NoBrush);
    for (const ObservedMark& m : m_observedMarks) {
        const QPointF at = view.toView(m.observed);
        if (!visible.adjusted(-arm, -arm, arm, arm).contains(at))
            continue;
        const QColor colour = m.simulated ? kObservedColour : kUnmatchedColour;
        painter.setPen(QPen(colour, 1.5 * m_scale));
        painter.drawLine(at + QPointF(-arm, -arm), at + QPointF(arm, arm));
        painter.drawLine(at + QPointF(-arm, arm), at + QPointF(arm, -arm));
        if (m.simulated) {
            const QPointF to = view.toView(*m.simulated);
            painter.setPen(QPen(kSpotColour, 1.0 * m_scale));
            painter.drawLine(at, to);
            painter.drawEllipse(to, ring, ring);
        }
    }
}

void Overlays::paint(QPainter& painter, const render::ViewTransform& view, QSizeF viewSize) const {
    const QRectF visible(QPointF(0, 0), viewSize);
    painter.save();
    QFont font = painter.font();
    font.setPointSizeF(8.0 * m_scale);
    painter.setFont(font);
    if (m_settings.rings) {
        const QPen ringPen(kRingColour, 1.5 * m_scale);
        for (std::size_t i = 0; i < m_rings.size(); ++i) {
            for (const auto& line : m_rings[i]) {
                QPainterPath path;
                for (std::size_t k = 0; k < line.size(); ++k) {
                    const QPointF p = view.toView(line[k]);
                    if (k == 0)
                        path.moveTo(p);
                    else
                        path.lineTo(p);
                }
                painter.setBrush(Qt::NoBrush);
                painter.setPen(ringPen);
                painter.drawPath(path);
            }
            if (m_ringLabelPoints[i]) {
                const QPointF at = view.toView(*m_ringLabelPoints[i]);
                if (visible.contains(at))
                    drawLabel(painter, at + QPointF(3, -3) * m_scale,
                              QString::number(m_ringResolutions[i], 'g', 3) + QStringLiteral(" Å"),
                              kRingColour);
            }
        }
    }
    if (m_settings.spots) {
        const double radius = spotRingRadius(view.scale());
        int inView = 0;
        for (const PredictedSpot& s : m_spots)
            if (visible.contains(view.toView(toQPointF(s.point))))
                ++inView;
        const bool labels = m_settings.spotLabels && inView <= kMaxLabelledSpots;
        for (const PredictedSpot& s : m_spots) {
            const QPointF at = view.toView(toQPointF(s.point));
            if (!visible.adjusted(-radius, -radius, radius, radius).contains(at))
                continue;
            painter.setBrush(Qt::NoBrush);
            painter.setPen(QPen(kSpotColour, spotRingWidth()));
            painter.drawEllipse(at, radius, radius);
            if (labels)
                drawLabel(painter, at + QPointF(radius, -radius),
                          QStringLiteral("%1 %2 %3").arg(s.hkl.x).arg(s.hkl.y).arg(s.hkl.z),
                          kSpotColour);
        }
    }
    if (m_settings.observedSpots)
        paintObservedSpots(painter, view, visible);
    if (m_settings.beamCentre && m_beam) {
        const QPointF c = view.toView(*m_beam);
        const double k = m_scale;
        painter.setPen(QPen(kBeamColour, 2.0 * k));
        painter.setBrush(Qt::NoBrush);
        painter.drawLine(c - QPointF(12, 0) * k, c - QPointF(4, 0) * k);
        painter.drawLine(c + QPointF(4, 0) * k, c + QPointF(12, 0) * k);
        painter.drawLine(c - QPointF(0, 12) * k, c - QPointF(0, 4) * k);
        painter.drawLine(c + QPointF(0, 4) * k, c + QPointF(0, 12) * k);
        painter.drawEllipse(c, 4.0 * k, 4.0 * k);
    }
    if (m_line) {
        painter.setPen(QPen(kLineColour, 2.0));
        painter.drawLine(view.toView(m_line->p1()), view.toView(m_line->p2()));
    }
    if (m_pinned && m_geometry && m_geometry->projected()) {
        // the pixel's outline as the panel shows it, at least a few screen pixels across
        QPolygonF outline;
        for (const glm::dvec2& p : m_geometry->outlineOf(toVec2(*m_pinned)))
            outline << view.toView(toQPointF(p));
        const QPointF centre = view.toView(toQPointF(m_geometry->centreOf(toVec2(*m_pinned))));
        painter.setPen(QPen(kPinColour, 2.0));
        painter.setBrush(Qt::NoBrush);
        if (outline.boundingRect().width() >= 6.0)
            painter.drawPolygon(outline);
        else
            painter.drawRect(QRectF(centre - QPointF(3, 3), QSizeF(6, 6)));
    } else if (m_pinned) {
        const QPointF corner = view.toView(QPointF(*m_pinned));
        const double size = std::max(view.scale(), 6.0);
        painter.setPen(QPen(kPinColour, 2.0));
        painter.setBrush(Qt::NoBrush);
        const QPointF centre = corner + QPointF(view.scale(), view.scale()) / 2.0;
        painter.drawRect(QRectF(centre - QPointF(size, size) / 2.0, QSizeF(size, size)));
    }
    if (m_marker) { // the reciprocal view's hovered node: a ring in that view's halo colour
        const QPointF at = view.toView(m_marker->point);
        const double radius = 9.0 * m_scale;
        painter.setPen(QPen(kMarkerColour, 2.5 * m_scale));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(at, radius, radius);
        drawLabel(painter, at + QPointF(radius + 2.0, -radius - 2.0), m_marker->label,
                  kMarkerColour);
    }
    if (!m_preview.isEmpty()) {
        // on the view, not the image: it stays in sight however the image is zoomed
        QFont bold = painter.font();
        bold.setPointSizeF(10.0);
        bold.setBold(true);
        painter.setFont(bold);
        const QString text = QCoreApplication::translate("Overlays", "PREVIEW · %1").arg(m_preview);
        drawLabel(painter, QPointF(8, 8 + painter.fontMetrics().height()), text, kPreviewColour);
    }
    painter.restore();
}

} // namespace bv::app
