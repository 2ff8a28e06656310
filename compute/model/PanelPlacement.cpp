#include "compute/model/PanelPlacement.h"

#include "compute/core/Error.h"
#include "compute/model/Rotation.h"

#include <glm/geometric.hpp>

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

} // namespace bv
