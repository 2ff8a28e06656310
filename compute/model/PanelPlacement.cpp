#include "compute/model/PanelPlacement.h"

#include "compute/core/Error.h"
#include "compute/model/Rotation.h"

#include <cmath>
#include <glm/geometric.hpp>
#include <string>

namespace bv {

glm::dvec3 PanelGeometry::centre() const {
    return pix0 + 0.5 * sizeFast() * fdet + 0.5 * sizeSlow() * sdet;
}

double PanelGeometry::closeDistance() const { return glm::dot(pix0, odet); }

glm::dvec3 detectorCentre(const std::vector<PanelGeometry>& panels) {
    glm::dvec3 sum{0.0};
    for (const PanelGeometry& panel : panels)
        sum += panel.centre();
    return panels.empty() ? sum : sum / double(panels.size());
}

std::vector<PanelGeometry> placePanels(std::vector<PanelGeometry> panels, const glm::dvec3& beam,
                                       const DetectorMove& move) {
    if (panels.empty())
        throw Error("the detector has no panels");
    if (move.distance) {
        if (!(*move.distance > 0.0))
            throw Error("-distance of a multi-panel detector must be positive: its centre is "
                        "placed that far from the sample along the beam");
        const double along = glm::dot(detectorCentre(panels), beam);
        const glm::dvec3 shift = (*move.distance - along) * beam;
        for (PanelGeometry& panel : panels)
            panel.pix0 += shift;
    }
    auto turn = [&](const glm::dvec3& v) {
        return rotateAbout(rotateXYZ(v, move.rotations), move.twothetaAxis, move.twotheta);
    };
    for (PanelGeometry& panel : panels) {
        panel.pix0 = turn(panel.pix0);
        panel.fdet = turn(panel.fdet);
        panel.sdet = turn(panel.sdet);
        panel.odet = turn(panel.odet);
    }
    return panels;
}

std::vector<PanelGeometry> resolvePanels(const std::vector<Panel>& panels, const Detector& detector,
                                         bool distanceStated, const LabAxes& axes) {
    const struct {
        bool given;
        const char* option;
    } refused[] = {
        {detector.beamX.has_value() || detector.beamY.has_value(), "-Xbeam/-Ybeam"},
        {detector.closeX.has_value() || detector.closeY.has_value(), "-Xclose/-Yclose"},
        {detector.orgX.has_value() || detector.orgY.has_value(), "-ORGX/-ORGY"},
        {detector.closeDistance.has_value(), "-close_distance"},
    };
    for (const auto& r : refused)
        if (r.given)
            throw Error(std::string(r.option) + ": " + kPanelsHaveNoBeamCentre);
    if (detector.curved)
        throw Error(std::string("-curved_det: ") + kPanelsCannotBeCurved);

    std::vector<PanelGeometry> placed;
    for (const Panel& panel : panels) {
        const std::string name = "panel " + (panel.name.empty() ? std::to_string(placed.size())
                                                                : panel.name);
        if (panel.pixelSizeFast != panel.pixelSizeSlow)
            throw Error(name + " has pixels of " + std::to_string(panel.pixelSizeFast * 1e6) +
                        " x " + std::to_string(panel.pixelSizeSlow * 1e6) +
                        " um: the simulation's sub-pixel grid needs square pixels");
        PanelGeometry g;
        g.name = panel.name;
        g.pix0 = panel.origin;
        g.fdet = panel.fast;
        g.sdet = panel.slow;
        g.odet = panel.normal();
        g.pixelSize = panel.pixelSizeFast;
        g.fastPixels = panel.fastPixels;
        g.slowPixels = panel.slowPixels;
        g.material = panel.material;
        // the normal away from the sample, whichever way the panel's axes turn
        const double side = glm::dot(g.centre(), g.odet);
        if (side == 0.0 || !std::isfinite(side))
            throw Error(name + " lies in a plane through the sample: the sample sees it edge-on");
        if (side < 0.0)
            g.odet = -g.odet;
        placed.push_back(g);
    }
    DetectorMove move;
    if (distanceStated)
        move.distance = detector.distance;
    move.rotations = {detector.rotX, detector.rotY, detector.rotZ};
    move.twotheta = detector.twotheta;
    move.twothetaAxis = axes.twothetaAxis;
    return placePanels(std::move(placed), axes.beam, move);
}

} // namespace bv
