#pragma once
// The small multi-panel detector the panel tests work out by hand: modules of 10 x 20 pixels
// of 1 mm, 100 mm down the beam, in nanoBragg's default (MOSFLM) frame: beam along +x, fast
// along +z, slow along -y, normal +x (away from the sample).

#include "compute/model/PanelPlacement.h"

#include <glm/geometric.hpp>
#include <string>
#include <vector>

namespace bv::testing {

// a module whose first pixel's outer corner is at (100 mm, y0, z0)
inline PanelGeometry module(double y0, double z0, const std::string& name = "") {
    PanelGeometry p;
    p.name = name;
    p.pixelSize = 1e-3;
    p.fastPixels = 10;
    p.slowPixels = 20;
    p.fdet = {0, 0, 1};
    p.sdet = {0, -1, 0};
    p.odet = glm::cross(p.fdet, p.sdet);
    p.pix0 = {0.1, y0, z0};
    return p;
}

// left: z from -12 to -2 mm; right: z from 2 to 12 mm (a 4 mm gap); both y from 10 to -10 mm
inline std::vector<PanelGeometry> twoModules() {
    return {module(0.010, -0.012, "left"), module(0.010, 0.002, "right")};
}

} // namespace bv::testing
