#pragma once
// Where the panels of a multi-panel detector are drawn on a screen, as dials.image_viewer
// draws them: every panel projected from the sample onto one viewing plane perpendicular to
// the beam, through the detector's centre. A ray from the sample meets a panel and the plane
// in one line, so what the plane shows is what the sample sees: gaps where the sample sees
// none, a tilted panel as the foreshortened quadrilateral it is, resolution rings as circles.
//
// "View points" are positions on the plane in units of the first panel's pixel size, (0, 0)
// at the top-left of the panels' bounding box, x along the first panel's fast axis and y along
// its slow axis as seen from the sample (projected onto the plane).
//
//     DetectorProjection view(resolved.panels, beam);
//     view.size();                              // the bounding box, for zoom-to-fit
//     view.pixelAt({812.5, 403.2});             // panel 3, pixel (140, 20), or none (a gap)
//     view.viewPoint(PanelPixel{3, 140.5, 20.5}); // and back
//     view.homography(3);                       // the same map for a shader
//
// Pure geometry on the resolved panels (compute/model/PanelPlacement.h); no Qt.

#include "compute/model/PanelPlacement.h"

#include <array>
#include <glm/vec2.hpp>
#include <optional>
#include <vector>

namespace bv {

// A point on a panel: its index, and continuous pixel coordinates (pixel (i, j) covers
// [i, i+1) x [j, j+1)).
struct PanelPixel {
    int panel = 0;
    double fast = 0.0, slow = 0.0;
};

class DetectorProjection {
  public:
    // Throws bv::Error for no panels, a beam of zero length, or a panel the sample sees edge-on
    // or from behind (its plane through the sample, or facing away).
    DetectorProjection(std::vector<PanelGeometry> panels, const glm::dvec3& beam);

    const std::vector<PanelGeometry>& panels() const { return m_panels; }
    // the bounding box of the projected panels, view units
    glm::dvec2 size() const { return m_size; }
    double viewPixelSize() const { return m_unit; } // m per view unit on the plane

    // The panel pixel a view point shows, none in a gap or outside every panel.
    std::optional<PanelPixel> pixelAt(const glm::dvec2& view) const;
    // The view point that shows a panel point.
    glm::dvec2 viewPoint(const PanelPixel& pixel) const;
    // The view point where a direction from the sample meets the plane; none for a direction
    // that does not reach it (parallel to it, or pointing away from the detector).
    std::optional<glm::dvec2> viewPointOf(const glm::dvec3& direction) const;
    // The plane's point (m, from the sample) at a view point: on the ray to whatever the view
    // point shows.
    glm::dvec3 planePoint(const glm::dvec2& view) const { return onPlane(view); }
    // The lab position (m, from the sample) of a panel point.
    glm::dvec3 position(const PanelPixel& pixel) const;

    // The map view point -> panel point as a 3 x 3 homography, row-major: with
    // (F, S, W) = H (x, y, 1), the panel point is (F/W, S/W) where W > 0 (W <= 0: the ray does
    // not meet the panel in front of the sample).
    std::array<double, 9> homography(int panel) const;

  private:
    glm::dvec3 onPlane(const glm::dvec2& view) const; // the plane's point, m from the sample

    std::vector<PanelGeometry> m_panels;
    glm::dvec3 m_beam{0.0};
    glm::dvec3 m_origin{0.0}, m_u{0.0}, m_v{0.0}; // the plane: origin (view 0, 0) and axes
    double m_unit = 0.0;
    glm::dvec2 m_size{0.0};
};

} // namespace bv
