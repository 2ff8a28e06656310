#include "compute/model/DetectorProjection.h"

#include "compute/core/Error.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <limits>
#include <string>

namespace bv {

DetectorProjection::DetectorProjection(std::vector<PanelGeometry> panels, const glm::dvec3& beam)
    : m_panels(std::move(panels)) {
    if (m_panels.empty())
        throw Error("a detector view needs at least one panel");
    if (!(glm::length(beam) > 0.0))
        throw Error("a detector view needs a beam direction");
    m_beam = glm::normalize(beam);
    for (std::size_t i = 0; i < m_panels.size(); ++i)
        if (!(m_panels[i].closeDistance() > 0.0))
            throw Error("panel " + std::to_string(i) + " (" + m_panels[i].name +
                        ") does not face the sample: its plane passes through or behind it");

    // the plane: perpendicular to the beam through the detector's centre; in-plane axes from
    // the first panel's fast and slow axes, projected onto it
    const double distance = glm::dot(detectorCentre(m_panels), m_beam);
    if (!(distance > 0.0))
        throw Error("the detector's centre is not downstream of the sample");
    const PanelGeometry& first = m_panels.front();
    m_unit = first.pixelSize;
    glm::dvec3 u = first.fdet - glm::dot(first.fdet, m_beam) * m_beam;
    if (!(glm::length(u) > 1e-9)) // the fast axis along the beam: take the slow one's normal
        u = glm::cross(first.sdet, m_beam);
    m_u = glm::normalize(u);
    m_v = glm::cross(m_beam, m_u);
    if (glm::dot(m_v, first.sdet) < 0.0)
        m_v = -m_v;

    // the bounding box of every projected corner
    glm::dvec2 lo{std::numeric_limits<double>::max()}, hi{-std::numeric_limits<double>::max()};
    const glm::dvec3 centre = distance * m_beam;
    for (std::size_t i = 0; i < m_panels.size(); ++i)
        for (double f : {0.0, double(m_panels[i].fastPixels)})
            for (double s : {0.0, double(m_panels[i].slowPixels)}) {
                const glm::dvec3 p = position({int(i), f, s});
                const glm::dvec3 q = p * (distance / glm::dot(p, m_beam)) - centre;
                const glm::dvec2 uv{glm::dot(q, m_u), glm::dot(q, m_v)};
                lo = glm::min(lo, uv);
                hi = glm::max(hi, uv);
            }
    m_origin = centre + lo.x * m_u + lo.y * m_v;
    m_size = (hi - lo) / m_unit;
}

glm::dvec3 DetectorProjection::position(const PanelPixel& pixel) const {
    const PanelGeometry& p = m_panels.at(std::size_t(pixel.panel));
    return p.pix0 + pixel.fast * p.pixelSize * p.fdet + pixel.slow * p.pixelSize * p.sdet;
}

glm::dvec3 DetectorProjection::onPlane(const glm::dvec2& view) const {
    return m_origin + m_unit * (view.x * m_u + view.y * m_v);
}

glm::dvec2 DetectorProjection::viewPoint(const PanelPixel& pixel) const {
    return *viewPointOf(position(pixel)); // a panel faces the sample: its points reach the plane
}

std::optional<glm::dvec2> DetectorProjection::viewPointOf(const glm::dvec3& direction) const {
    const double along = glm::dot(direction, m_beam);
    if (!(along > 0.0))
        return std::nullopt;
    const glm::dvec3 q = direction * (glm::dot(m_origin, m_beam) / along) - m_origin;
    return glm::dvec2{glm::dot(q, m_u), glm::dot(q, m_v)} / m_unit;
}

std::optional<PanelPixel> DetectorProjection::pixelAt(const glm::dvec2& view) const {
    const glm::dvec3 ray = onPlane(view);
    for (std::size_t i = 0; i < m_panels.size(); ++i) {
        const PanelGeometry& p = m_panels[i];
        const double facing = glm::dot(ray, p.odet);
        if (!(facing > 0.0))
            continue;
        const glm::dvec3 hit = ray * (p.closeDistance() / facing) - p.pix0;
        const double f = glm::dot(hit, p.fdet) / p.pixelSize;
        const double s = glm::dot(hit, p.sdet) / p.pixelSize;
        if (f >= 0.0 && s >= 0.0 && f < p.fastPixels && s < p.slowPixels)
            return PanelPixel{int(i), f, s};
    }
    return std::nullopt;
}

std::array<double, 9> DetectorProjection::homography(int panel) const {
    // Q(x, y) = M (x, y, 1) with M's columns unit*u, unit*v, origin. The ray meets the panel at
    // t Q, t = c / (Q.n), c = pix0.n; there f = (t Q - pix0).fdet / p. Multiplied through by
    // (Q.n): F = ((c fdet - (pix0.fdet) n) / p).Q, S likewise, W = n.Q.
    const PanelGeometry& p = m_panels.at(std::size_t(panel));
    const double c = p.closeDistance();
    const glm::dvec3 rowF = (c * p.fdet - glm::dot(p.pix0, p.fdet) * p.odet) / p.pixelSize;
    const glm::dvec3 rowS = (c * p.sdet - glm::dot(p.pix0, p.sdet) * p.odet) / p.pixelSize;
    const glm::dvec3 rowW = p.odet;
    const glm::dvec3 columns[3] = {m_unit * m_u, m_unit * m_v, m_origin};
    std::array<double, 9> h{};
    const glm::dvec3 rows[3] = {rowF, rowS, rowW};
    for (int r = 0; r < 3; ++r)
        for (int k = 0; k < 3; ++k)
            h[std::size_t(3 * r + k)] = glm::dot(rows[r], columns[k]);
    return h;
}

} // namespace bv
