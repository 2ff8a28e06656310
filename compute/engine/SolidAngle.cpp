#include "compute/engine/SolidAngle.h"

#include "compute/core/HostThreads.h"
#include "compute/model/Rotation.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <vector>

namespace bv::engine {

namespace {

// The sum over one detector row, in the reference's pixel order within the row.
double rowSum(const plan::Plan& p, int s, const std::vector<std::uint16_t>* mask) {
    const int oversample = p.oversample;
    double sum = 0.0;
    for (int f = 0; f < p.fastPixels; ++f) {
        if (!p.roi.contains(f, s))
            continue;
        const std::size_t index = static_cast<std::size_t>(s) * static_cast<std::size_t>(p.fastPixels) +
                                  static_cast<std::size_t>(f);
        if (mask && (*mask)[index] == 0)
            continue;
        double omega = 0.0;
        for (int layer = 0; layer < p.thickSteps; ++layer) {
            const double odet = layer * p.thickStep;
            for (int subS = 0; subS < oversample; ++subS) {
                for (int subF = 0; subF < oversample; ++subF) {
                    if (omega == 0.0 || p.oversampleOmega) {
                        const double fdet =
                            p.subpixelSize * (f * oversample + subF) + p.subpixelSize / 2.0;
                        const double sdet =
                            p.subpixelSize * (s * oversample + subS) + p.subpixelSize / 2.0;
                        glm::dvec3 position = fdet * p.fdet + sdet * p.sdet + odet * p.odet + p.pix0;
                        if (p.curved) {
                            const glm::dvec3 turned = rotateAbout(p.distance * p.beam, p.sdet,
                                                                  position.y / p.distance);
                            position = rotateAbout(turned, p.fdet, position.z / p.distance);
                        }
                        const double airpath = glm::length(position);
                        omega = p.pointPixel ? 1.0 / airpath / airpath
                                             : p.pixelSize * p.pixelSize / airpath / airpath *
                                                   p.closeDistance / airpath;
                    }
                    sum += omega;
                }
            }
        }
    }
    return sum;
}

} // namespace

double solidAngleSum(const plan::Plan& p) {
    const std::vector<std::uint16_t>* mask = p.mask && !p.mask->empty() ? p.mask : nullptr;
    const int rows = std::max(p.slowPixels, 0);
    std::vector<double> sums(static_cast<std::size_t>(rows), 0.0);
    // rows are shared out in chunks of 16; a small detector's run here alone
    forEachOnHostThreads(
        static_cast<std::size_t>(rows),
        [&](std::size_t s) { sums[s] = rowSum(p, static_cast<int>(s), mask); }, 0, 16);
    double sum = 0.0;
    for (double rowValue : sums) // in row order: the same number whatever the thread count
        sum += rowValue;
    return sum;
}

} // namespace bv::engine
