#include "compute/model/PanelAim.h"

#include "compute/core/Error.h"
#include "compute/model/DetectorPresets.h"
#include "compute/model/Resolve.h"

#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>

namespace bv {

bool statesBeamCentre(const Detector& d) {
    return d.beamX || d.beamY || d.closeX || d.closeY || d.orgX || d.orgY;
}

namespace {

// Where the beam from the sample meets the plane of `origin`, `fast`, `slow` (unit axes), in
// metres along fast and slow from origin; nullopt when it runs parallel or meets it behind.
std::optional<glm::dvec2> beamInPlane(const glm::dvec3& origin, const glm::dvec3& fast,
                                      const glm::dvec3& slow, const glm::dvec3& beam) {
    const glm::dvec3 normal = glm::cross(fast, slow);
    const double along = glm::dot(beam, normal);
    if (along == 0.0)
        return std::nullopt;
    const double t = glm::dot(origin, normal) / along;
    if (!(t > 0.0) || !std::isfinite(t))
        return std::nullopt;
    const glm::dvec3 offset = t * beam - origin;
    return glm::dvec2(glm::dot(offset, fast), glm::dot(offset, slow));
}

} // namespace

std::vector<Panel> aimedPanels(const Experiment& experiment, const LabAxes& axes) {
    const Detector& stated = experiment.detector;
    const DetectorPreset* preset = findDetectorPreset(stated.panelsSource);
    if (!preset || stated.panels.empty())
        return stated.panels;
    // facing the convention's beam, fast and slow along its fdet and sdet: the request's
    // panels were placed in nanoBragg's default frame when -detector was read, before the
    // convention was known (the same panels in the MOSFLM and DENZO frames)
    std::vector<Panel> panels = presetDetector(*preset, 0.1, axes).panels;
    if (!statesBeamCentre(stated))
        return panels;
    // nanoBragg's flat detector of the preset's image, unturned, with the same beam-centre
    // options: where it puts the beam on its pixel axes is where it must meet the image
    Experiment flat;
    flat.convention = experiment.convention;
    flat.customAxes = experiment.customAxes;
    flat.detector.pixelSize = preset->pixelSize;
    flat.detector.sizeFast = preset->widthFast();
    flat.detector.sizeSlow = preset->widthSlow();
    flat.detector.distance = stated.distance;
    flat.detector.pivot = stated.pivot;
    flat.detector.beamX = stated.beamX;
    flat.detector.beamY = stated.beamY;
    flat.detector.closeX = stated.closeX;
    flat.detector.closeY = stated.closeY;
    flat.detector.orgX = stated.orgX;
    flat.detector.orgY = stated.orgY;
    const DetectorGeometry wanted = resolveDetector(flat, axes);

    // the first module starts the image (DetectorPresets.h): its corner and axes are the image's
    const Panel& first = panels.front();
    const std::optional<glm::dvec2> now = beamInPlane(first.origin, first.fast, first.slow, axes.beam);
    if (!now)
        throw Error("-detector " + stated.panelsSource +
                    ": the beam does not meet the detector's face, so a beam centre cannot be "
                    "set on it");
    const glm::dvec3 shift = (now->x - wanted.Fbeam) * first.fast + (now->y - wanted.Sbeam) * first.slow;
    for (Panel& panel : panels)
        panel.origin += shift;
    return panels;
}

std::vector<PanelGeometry> resolveStatedPanels(const Experiment& experiment, const LabAxes& axes) {
    const Detector& d = experiment.detector;
    if (!findDetectorPreset(d.panelsSource))
        return resolvePanels(d.panels, d, d.distanceStated, axes);
    // the beam centre is spent on the aim: what resolvePanels checks is the rest
    Detector rest = d;
    rest.panels.clear();
    rest.beamX.reset();
    rest.beamY.reset();
    rest.closeX.reset();
    rest.closeY.reset();
    rest.orgX.reset();
    rest.orgY.reset();
    return resolvePanels(aimedPanels(experiment, axes), rest, d.distanceStated, axes);
}

std::optional<BeamHit> beamHit(const std::vector<PanelGeometry>& panels, const glm::dvec3& beam) {
    if (panels.empty())
        return std::nullopt;
    const PanelGeometry& first = panels.front();
    const std::optional<glm::dvec2> onFirst = beamInPlane(first.pix0, first.fdet, first.sdet, beam);
    if (!onFirst)
        return std::nullopt;
    BeamHit hit;
    hit.fastPixel = onFirst->x / first.pixelSize;
    hit.slowPixel = onFirst->y / first.pixelSize;
    for (const PanelGeometry& panel : panels) {
        const std::optional<glm::dvec2> at = beamInPlane(panel.pix0, panel.fdet, panel.sdet, beam);
        if (at && at->x >= 0.0 && at->x < panel.sizeFast() && at->y >= 0.0 &&
            at->y < panel.sizeSlow()) {
            hit.panel = panel.name.empty() ? "a panel" : panel.name;
            break;
        }
    }
    return hit;
}

std::string beamHitText(const std::string& source, const std::vector<PanelGeometry>& panels,
                        const glm::dvec3& beam) {
    const std::string who = "detector " + source + ": ";
    const std::optional<BeamHit> hit = beamHit(panels, beam);
    if (!hit)
        return who + "the beam does not meet the plane of its first panel";
    const double pixel = panels.front().pixelSize;
    char where[160];
    std::snprintf(where, sizeof where, "pixel (%.1f, %.1f), %.2f x %.2f mm from its first corner",
                  hit->fastPixel, hit->slowPixel, hit->fastPixel * pixel * 1e3,
                  hit->slowPixel * pixel * 1e3);
    const bool preset = findDetectorPreset(source) != nullptr;
    const std::string part = preset ? "module" : "panel";
    std::string text = who + "the beam meets " + (preset ? "the image" : "the first panel's plane") +
                       " at " + where +
                       (hit->panel.empty() ? ", in a gap between " + part + "s"
                                           : ", on " + part + " " + hit->panel);
    if (preset && hit->panel.empty())
        text += " (-Xbeam/-Ybeam move the detector in its plane)";
    return text;
}

} // namespace bv
