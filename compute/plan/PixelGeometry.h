#pragma once
// PixelGeometry: what a point of the detector means, computed on the host from the resolved
// geometry of the image shown (the same DetectorGeometry, cell and wavelength the plan gave
// the shader), for the viewer's readout and overlays. Qt-free (glm, std), beside the Ewald
// construction it takes its predicted spots from; the viewer converts its points to Qt's
// (app/PixelGeometry.h).
//
// For an image point (f, s) in pixels (pixel (i, j) covers [i, i+1) x [j, j+1); its centre is
// (i + 0.5, j + 0.5), where the shader samples a pixel without oversampling):
//
//   position   P = pix0 + f·p·fdet + s·p·sdet            (m; p the pixel size, flat detector)
//   diffracted d = P/|P|, incident i = the beam direction (the central source)
//   2θ = acos(d·i),  d-spacing = λ / (2 sin θ),  |q| = 4π sin θ / λ   (Å, 1/Å)
//   S = (d - i)/λ,   h = a·S, k = b·S, l = c·S
//
// with a, b, c the real-space cell axes after the misset, turned about the spindle to phi0
// (the first phi step, without mosaic domains): the fractional Miller indices the centre of
// the mosaic distribution sees at the start of the exposure. A curved detector is treated as
// flat here (the readout says so).
//
// The inverse maps a direction from the sample to the image point where it meets the
// detector plane: beam centre, resolution rings (the cone of half-angle 2θ about the beam
// cut by the plane: an ellipse, parabola or hyperbola on a tilted detector, drawn as a
// polyline) and predicted Bragg spots.
//
// The panels of a preset or a file (ResolvedExperiment::panelsFromSource): image points are
// view points on the
// panels' common plane (compute/model/DetectorProjection.h), where the sample sees a point of
// the plane along the same ray as the panel behind it, so every quantity above follows from
// the plane point; pixelAt() names the panel and pixel behind a view point (none in a gap),
// and the image the simulator makes stacks the panels' rows (docs/numerics/detector-panels.md).

#include "compute/model/DetectorProjection.h"
#include "compute/model/Resolve.h"

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <optional>
#include <string>
#include <vector>

namespace bv::plan {

// The detector as its maker gives it, not the stacked image its modules' rows make: the
// rectangle its panels and their gaps cover, in pixels of the first panel's axes, where the
// panels share one plane (a PILATUS3 6M: 2463 x 2527 pixels, 60 modules), and how many
// modules and pixels it has. nanoBragg's flat detector is one module of its own size.
struct DetectorExtent {
    long fastPixels = 0, slowPixels = 0; // meaningful where oneFace
    int modules = 0;
    long long pixels = 0; // the modules' pixels, gaps not counted
    bool oneFace = true;  // every module within a micrometre of the first one's plane
};
DetectorExtent detectorExtent(const std::vector<PanelGeometry>& panels);

// A pixel of the simulator's image, and where it lies: the panel and the pixel on it.
struct ImagePixel {
    int fast = 0, slow = 0;           // in the image (the panels' rows stacked)
    int panel = -1;                   // -1: nanoBragg's one detector, drawn as its pixels
    int panelFast = 0, panelSlow = 0; // on the panel
};

struct PixelInfo {
    int fast = 0, slow = 0; // the pixel containing the point (on its panel, with panels)
    int panel = -1;         // its panel; -1: nanoBragg's one detector
    std::string panelName;
    glm::dvec3 position{0.0}; // m, from the sample
    double twoTheta = 0.0;    // rad
    double dSpacing = 0.0;    // Angstrom (infinite at 2θ = 0)
    double q = 0.0;           // 1/Angstrom, 4π sin θ / λ
    glm::dvec3 hkl{0.0};      // fractional Miller indices
};

struct PredictedSpot {
    glm::ivec3 hkl{0};
    glm::dvec2 point{0.0};   // image point (pixels)
    double dSpacing = 0.0;   // Angstrom
    double excitation = 0.0; // distance of the node from the Ewald sphere, 1/Angstrom
};

class PixelGeometry {
  public:
    explicit PixelGeometry(const ResolvedExperiment& resolved);

    // the extent of the image points: the image, or the panels' view (rounded up)
    int fastPixels() const { return m_fastPixels; }
    int slowPixels() const { return m_slowPixels; }
    // the simulator's image (the same as above without panels)
    int imageFastPixels() const { return m_imageFast; }
    int imageSlowPixels() const { return m_imageSlow; }
    // Whether image points are view points (the panels of a preset or a file projected as the
    // sample sees them) rather than the image's own pixels: a point's pixel is then looked up.
    bool projected() const { return m_view.has_value(); }

    // The image pixel an image point shows; none outside the detector or in a gap.
    std::optional<ImagePixel> pixelAt(const glm::dvec2& point) const;
    // The image point at the centre of an image pixel, and the pixel's outline (its corners).
    glm::dvec2 centreOf(const glm::ivec2& imagePixel) const;
    std::vector<glm::dvec2> outlineOf(const glm::ivec2& imagePixel) const;
    // The image point of a point on a panel given in that panel's pixels (a pixel's centre at
    // .5, as DIALS gives its spots); nullopt for a panel the detector lacks or a point the
    // view cannot show. nanoBragg's one detector is panel 0.
    std::optional<glm::dvec2> panelPoint(std::size_t panel, const glm::dvec2& xy) const;
    // 2θ at the centre of an image pixel (the radial profile's bins)
    double twoThetaOfPixel(int fast, int slow) const;
    bool curved() const { return m_curved; }
    double wavelength() const { return m_lambda; } // Angstrom

    // The quantities at an image point; at the centre of pixel (i, j) call at(i + 0.5, j + 0.5).
    PixelInfo at(double fast, double slow) const;
    PixelInfo at(const glm::dvec2& point) const { return at(point.x, point.y); }
    PixelInfo atPixelCentre(int fast, int slow) const { return at(fast + 0.5, slow + 0.5); }
    // at(fast, slow).twoTheta alone (the radial profile needs it for every pixel of every
    // image; the Miller indices cost three times as much)
    double twoThetaAt(double fast, double slow) const;

    // Where a ray from the sample along `direction` meets the detector plane (image point),
    // nullopt when it runs parallel to or away from the plane.
    std::optional<glm::dvec2> project(const glm::dvec3& direction) const;
    std::optional<glm::dvec2> beamCentre() const { return project(m_incident); }

    // The ring of resolution d (Angstrom) as polylines (split where the cone leaves the
    // plane or runs far outside the image); empty when 2θ would exceed 180°.
    std::vector<std::vector<glm::dvec2>> ring(double dSpacing, int samples = 720) const;
    // A few round resolutions spanning what the detector sees, coarsest first.
    std::vector<double> ringResolutions(int count = 5) const;
    // Resolution at the image corners and edges: the finest the detector reaches.
    double finestResolution() const;

    // Reciprocal-lattice nodes near the Ewald sphere at phi0, at the middle or the end of the
    // oscillation, or crossing it during the oscillation, that land on the detector; at most
    // `limit`, nearest to the sphere first. "Near": within the node's reach
    // (plan::ReciprocalNode: 1/(N·a) for the crystal's smallest extent N·a plus |r|·(mosaic
    // spread) for a node at |r| = 1/d, plus the shell the sources' spheres sweep there),
    // times `scale`. The nodes are plan::ewaldScene()'s at those phis, the reciprocal-space
    // view's.
    std::vector<PredictedSpot> predictedSpots(double scale = 1.0, std::size_t limit = 5000) const;

  private:
    glm::dvec3 cellAxis(int axis, double phi) const;       // Angstrom
    glm::dvec3 positionAt(double fast, double slow) const; // m, of an image point
    std::optional<ImagePixel> panelPixel(int imageFast, int imageSlow) const;
    glm::dvec3 pixelPosition(const glm::dvec2& imagePixelPoint) const; // m, of the image's pixels

    int m_fastPixels = 0, m_slowPixels = 0;
    double m_pixel = 0.0;
    glm::dvec3 m_pix0{0.0}, m_fdet{0.0}, m_sdet{0.0}, m_odet{0.0};
    glm::dvec3 m_incident{1.0, 0.0, 0.0};
    glm::dvec3 m_spindle{0.0, 0.0, 1.0};
    double m_lambda = 1.0;                    // Angstrom
    glm::dvec3 m_a{0.0}, m_b{0.0}, m_c{0.0};  // Angstrom, after the misset, before phi
    double m_phi0 = 0.0, m_oscillation = 0.0; // rad
    ResolvedExperiment m_resolved;            // for the Ewald construction (predictedSpots)
    bool m_curved = false;
    int m_imageFast = 0, m_imageSlow = 0;
    std::optional<DetectorProjection> m_view; // the panels of a preset or a file
    std::vector<int> m_firstRows;             // each panel's first image row
};

} // namespace bv::plan
