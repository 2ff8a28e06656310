#include "compute/plan/PixelGeometry.h"

#include "compute/core/Error.h"
#include "compute/model/Rotation.h"
#include "compute/plan/EwaldScene.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <limits>

namespace bv::plan {

DetectorExtent detectorExtent(const std::vector<PanelGeometry>& panels) {
    DetectorExtent extent;
    extent.modules = static_cast<int>(panels.size());
    if (panels.empty())
        return extent;
    // the panels' corners on the first panel's axes, in its pixels
    const PanelGeometry& first = panels.front();
    double lowFast = std::numeric_limits<double>::max(), highFast = -lowFast;
    double lowSlow = lowFast, highSlow = -lowFast;
    for (const PanelGeometry& p : panels) {
        extent.pixels += static_cast<long long>(p.fastPixels) * p.slowPixels;
        for (const double f : {0.0, p.sizeFast()})
            for (const double s : {0.0, p.sizeSlow()}) {
                const glm::dvec3 corner = p.pix0 + f * p.fdet + s * p.sdet - first.pix0;
                // within a micrometre of the first panel's plane (PanelDetector.h's test)
                extent.oneFace = extent.oneFace && std::fabs(glm::dot(corner, first.odet)) < 1e-6;
                const double along = glm::dot(corner, first.fdet) / first.pixelSize;
                const double across = glm::dot(corner, first.sdet) / first.pixelSize;
                lowFast = std::min(lowFast, along);
                highFast = std::max(highFast, along);
                lowSlow = std::min(lowSlow, across);
                highSlow = std::max(highSlow, across);
            }
    }
    extent.fastPixels = std::lround(highFast - lowFast);
    extent.slowPixels = std::lround(highSlow - lowSlow);
    return extent;
}

PixelGeometry::PixelGeometry(const ResolvedExperiment& r) {
    const DetectorGeometry& d = r.detector;
    m_fastPixels = d.fastPixels;
    m_slowPixels = d.slowPixels;
    m_pixel = d.pixelSize;
    m_pix0 = d.pix0;
    m_fdet = d.fdet;
    m_sdet = d.sdet;
    m_odet = d.odet;
    m_incident = unitOrZero(r.axes.beam);
    m_spindle = unitOrZero(r.axes.spindle);
    m_lambda = r.wavelength * 1e10;
    m_a = r.cell.a;
    m_b = r.cell.b;
    m_c = r.cell.c;
    m_phi0 = r.phi0;
    m_oscillation = r.phi.range;
    // the Ewald construction needs the cell, beam, sources and detector; the structure
    // factors it is not given (nor do they outlive the experiment) and the mosaic domains
    // it does not use
    m_resolved = r;
    m_resolved.structureFactors = nullptr;
    m_resolved.mosaicDomains.clear();
    m_curved = r.curved;
    m_imageFast = m_fastPixels;
    m_imageSlow = m_slowPixels;
    if (r.panelsFromSource) {
        int widest = 0, rows = 0;
        for (const PanelGeometry& panel : r.panels) {
            m_firstRows.push_back(rows);
            widest = std::max(widest, panel.fastPixels);
            rows += panel.slowPixels;
        }
        m_imageFast = widest;
        m_imageSlow = rows;
        try {
            m_view.emplace(r.panels, r.axes.beam);
            m_fastPixels = static_cast<int>(std::ceil(m_view->size().x));
            m_slowPixels = static_cast<int>(std::ceil(m_view->size().y));
        } catch (const Error&) {
            m_fastPixels = 0; // panels no view can show: nothing to point at
            m_slowPixels = 0;
        }
    }
}

glm::dvec3 PixelGeometry::positionAt(double fast, double slow) const {
    if (m_view)
        return m_view->planePoint({fast, slow});
    return m_pix0 + fast * m_pixel * m_fdet + slow * m_pixel * m_sdet;
}

std::optional<ImagePixel> PixelGeometry::panelPixel(int imageFast, int imageSlow) const {
    if (imageFast < 0 || imageSlow < 0 || imageFast >= m_imageFast || imageSlow >= m_imageSlow)
        return std::nullopt;
    if (!m_view)
        return ImagePixel{imageFast, imageSlow, -1, imageFast, imageSlow};
    const auto after = std::upper_bound(m_firstRows.begin(), m_firstRows.end(), imageSlow);
    const int panel = static_cast<int>(after - m_firstRows.begin()) - 1;
    const PanelGeometry& g = m_view->panels()[static_cast<std::size_t>(panel)];
    if (imageFast >= g.fastPixels)
        return std::nullopt; // beyond a narrower panel
    return ImagePixel{imageFast, imageSlow, panel, imageFast,
                      imageSlow - m_firstRows[static_cast<std::size_t>(panel)]};
}

std::optional<ImagePixel> PixelGeometry::pixelAt(const glm::dvec2& point) const {
    if (!m_view)
        return panelPixel(static_cast<int>(std::floor(point.x)),
                          static_cast<int>(std::floor(point.y)));
    const std::optional<PanelPixel> hit = m_view->pixelAt(point);
    if (!hit)
        return std::nullopt;
    const int f = static_cast<int>(std::floor(hit->fast));
    const int s = static_cast<int>(std::floor(hit->slow));
    return ImagePixel{f, m_firstRows[static_cast<std::size_t>(hit->panel)] + s, hit->panel, f, s};
}

glm::dvec3 PixelGeometry::pixelPosition(const glm::dvec2& imagePixelPoint) const {
    const std::optional<ImagePixel> pixel =
        panelPixel(static_cast<int>(std::floor(imagePixelPoint.x)),
                   static_cast<int>(std::floor(imagePixelPoint.y)));
    if (!m_view || !pixel)
        return positionAt(imagePixelPoint.x, imagePixelPoint.y);
    return m_view->position(
        {pixel->panel, imagePixelPoint.x,
         imagePixelPoint.y - m_firstRows[static_cast<std::size_t>(pixel->panel)]});
}

glm::dvec2 PixelGeometry::centreOf(const glm::ivec2& imagePixel) const {
    const glm::dvec2 centre = glm::dvec2(imagePixel) + 0.5;
    if (!m_view)
        return centre;
    const std::optional<glm::dvec2> v = m_view->viewPointOf(pixelPosition(centre));
    return v ? *v : glm::dvec2(0.0);
}

std::vector<glm::dvec2> PixelGeometry::outlineOf(const glm::ivec2& imagePixel) const {
    std::vector<glm::dvec2> outline;
    const glm::dvec2 corners[] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    for (const glm::dvec2& corner : corners) {
        if (!m_view) {
            outline.push_back(glm::dvec2(imagePixel) + corner);
            continue;
        }
        const glm::dvec2 p = glm::dvec2(imagePixel) + corner * 0.999999;
        if (const std::optional<glm::dvec2> v = m_view->viewPointOf(pixelPosition(p)))
            outline.push_back(*v);
    }
    return outline;
}

std::optional<glm::dvec2> PixelGeometry::panelPoint(std::size_t panel, const glm::dvec2& xy) const {
    if (m_firstRows.empty()) // nanoBragg's one detector: its pixels are the image's
        return panel == 0 ? std::optional<glm::dvec2>(xy) : std::nullopt;
    if (panel >= m_firstRows.size())
        return std::nullopt;
    if (!m_view) // the panels' rows stacked
        return glm::dvec2(xy.x, m_firstRows[panel] + xy.y);
    return m_view->viewPointOf(m_view->position({static_cast<int>(panel), xy.x, xy.y}));
}

double PixelGeometry::twoThetaOfPixel(int fast, int slow) const {
    if (m_view && !panelPixel(fast, slow))
        return std::numeric_limits<double>::quiet_NaN();
    const glm::dvec3 position = pixelPosition(glm::dvec2(fast + 0.5, slow + 0.5));
    return std::acos(std::clamp(glm::dot(unitOrZero(position), m_incident), -1.0, 1.0));
}

glm::dvec3 PixelGeometry::cellAxis(int axis, double phi) const {
    const glm::dvec3& v = axis == 0 ? m_a : axis == 1 ? m_b : m_c;
    // the plan's rule: the axes are turned only for a phi that is not exactly 0
    return phi != 0.0 ? rotateAbout(v, m_spindle, phi) : v;
}

double PixelGeometry::twoThetaAt(double fast, double slow) const {
    const glm::dvec3 position = positionAt(fast, slow);
    return std::acos(std::clamp(glm::dot(unitOrZero(position), m_incident), -1.0, 1.0));
}

PixelInfo PixelGeometry::at(double fast, double slow) const {
    PixelInfo info;
    info.fast = static_cast<int>(std::floor(fast));
    info.slow = static_cast<int>(std::floor(slow));
    info.position = positionAt(fast, slow);
    if (m_view) {
        if (const std::optional<PanelPixel> hit = m_view->pixelAt({fast, slow})) {
            info.fast = static_cast<int>(std::floor(hit->fast));
            info.slow = static_cast<int>(std::floor(hit->slow));
            info.panel = hit->panel;
            info.panelName = m_view->panels()[static_cast<std::size_t>(hit->panel)].name;
            info.position = m_view->position(*hit); // on the panel, along the same ray
        }
    }
    const glm::dvec3 diffracted = unitOrZero(info.position);
    info.twoTheta = twoThetaAt(fast, slow);
    const double sinTheta = std::sin(info.twoTheta / 2.0);
    info.dSpacing =
        sinTheta > 0.0 ? m_lambda / (2.0 * sinTheta) : std::numeric_limits<double>::infinity();
    info.q = 4.0 * M_PI * sinTheta / m_lambda;
    const glm::dvec3 scattering = (diffracted - m_incident) / m_lambda; // 1/Angstrom
    info.hkl = {glm::dot(cellAxis(0, m_phi0), scattering),
                glm::dot(cellAxis(1, m_phi0), scattering),
                glm::dot(cellAxis(2, m_phi0), scattering)};
    return info;
}

std::optional<glm::dvec2> PixelGeometry::project(const glm::dvec3& direction) const {
    if (m_view)
        return m_view->viewPointOf(direction);
    const double along = glm::dot(direction, m_odet);
    const double plane = glm::dot(m_pix0, m_odet); // the plane's distance along its normal
    if (!(along > 1e-12) || !(plane > 0.0))
        return std::nullopt;
    const glm::dvec3 hit = direction * (plane / along) - m_pix0;
    return glm::dvec2(glm::dot(hit, m_fdet) / m_pixel, glm::dot(hit, m_sdet) / m_pixel);
}

std::vector<std::vector<glm::dvec2>> PixelGeometry::ring(double dSpacing, int samples) const {
    std::vector<std::vector<glm::dvec2>> lines;
    const double sinTheta = m_lambda / (2.0 * dSpacing);
    if (!(dSpacing > 0.0) || sinTheta >= 1.0 || samples < 8)
        return lines;
    const double twoTheta = 2.0 * std::asin(sinTheta);
    // a frame about the beam
    const glm::dvec3 helper =
        std::fabs(m_incident.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0);
    const glm::dvec3 u = glm::normalize(glm::cross(m_incident, helper));
    const glm::dvec3 v = glm::cross(m_incident, u);
    const double reach = 10.0 * std::max(m_fastPixels, m_slowPixels);
    std::vector<glm::dvec2> line;
    for (int k = 0; k <= samples; ++k) {
        const double psi = 2.0 * M_PI * k / samples;
        const glm::dvec3 direction = std::cos(twoTheta) * m_incident +
                                     std::sin(twoTheta) * (std::cos(psi) * u + std::sin(psi) * v);
        const std::optional<glm::dvec2> p = project(direction);
        const bool usable = p && std::fabs(p->x) < reach && std::fabs(p->y) < reach;
        if (usable) {
            line.push_back(*p);
        } else if (!line.empty()) {
            if (line.size() > 1)
                lines.push_back(line);
            line.clear();
        }
    }
    if (line.size() > 1)
        lines.push_back(line);
    return lines;
}

double PixelGeometry::finestResolution() const {
    double finest = std::numeric_limits<double>::infinity();
    const double w = m_fastPixels, h = m_slowPixels;
    const glm::dvec2 points[] = {{0, 0},     {w, 0},     {0, h},     {w, h},
                                 {w / 2, 0}, {0, h / 2}, {w, h / 2}, {w / 2, h}};
    for (const glm::dvec2& p : points)
        finest = std::min(finest, at(p.x, p.y).dSpacing);
    return finest;
}

std::vector<double> PixelGeometry::ringResolutions(int count) const {
    std::vector<double> rings;
    const double finest = finestResolution();
    if (!std::isfinite(finest) || finest <= 0.0 || count < 1)
        return rings;
    for (int k = 1; k <= count; ++k) {
        const double d = finest * count / k; // evenly spaced in 1/d
        // two significant digits
        const double magnitude = std::pow(10.0, std::floor(std::log10(d)) - 1.0);
        const double nice = std::round(d / magnitude) * magnitude;
        if (rings.empty() || std::fabs(rings.back() - nice) > 1e-9)
            rings.push_back(nice);
    }
    std::reverse(rings.begin(), rings.end()); // coarsest first
    return rings;
}

std::vector<PredictedSpot> PixelGeometry::predictedSpots(double scale, std::size_t limit) const {
    std::vector<PredictedSpot> spots;
    const double finest = finestResolution();
    if (!std::isfinite(finest) || finest <= 0.0)
        return spots;
    // the Ewald construction at phi0, the middle and the end of the oscillation: its nodes
    // are the reciprocal-space view's (plan::ewaldScene), enumerated once (plan::forEachNode)
    EwaldOptions options;
    options.dMin = finest;
    options.nodeLimit = 0; // the geometry alone: the nodes are visited below
    options.outlineSamples = 0;
    const double phis[3] = {m_phi0, m_phi0 + m_oscillation / 2.0, m_phi0 + m_oscillation};
    const int phiCount = m_oscillation > 0.0 ? 3 : 1;
    std::vector<EwaldScene> scenes;
    for (int t = 0; t < phiCount; ++t)
        scenes.push_back(ewaldScene(m_resolved, nullptr, phis[t], options));
    forEachNode(scenes.front(), 1.0 / finest, [&](const glm::ivec3& hkl, const glm::dvec3&) {
        ReciprocalNode best;
        best.excitation = std::numeric_limits<double>::infinity();
        double first = 0.0, last = 0.0;
        for (int t = 0; t < phiCount; ++t) {
            const ReciprocalNode node = scenes[static_cast<std::size_t>(t)].node(hkl);
            if (t == 0)
                first = node.excitation;
            last = node.excitation;
            if (std::fabs(node.excitation) < std::fabs(best.excitation))
                best = node;
        }
        const bool crossed = phiCount > 1 && (first < 0.0) != (last < 0.0);
        if (std::fabs(best.excitation) > scale * best.reach && !crossed)
            return;
        const std::optional<glm::dvec2> p = project(best.diffracted);
        if (!p || p->x < 0.0 || p->y < 0.0 || p->x > m_fastPixels || p->y > m_slowPixels)
            return;
        spots.push_back({hkl, *p, best.dSpacing, crossed ? 0.0 : best.excitation});
    });
    std::sort(spots.begin(), spots.end(), [](const PredictedSpot& x, const PredictedSpot& y) {
        return std::fabs(x.excitation) < std::fabs(y.excitation);
    });
    if (spots.size() > limit)
        spots.resize(limit);
    return spots;
}

} // namespace bv::plan
