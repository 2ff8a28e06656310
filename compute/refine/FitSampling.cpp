#include "compute/refine/FitSampling.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>

namespace bv::refine {

namespace {

// The largest |d*| (1/Angstrom) the panels' corners see: 2 sin(theta) / lambda.
double highestReciprocalResolution(const ResolvedExperiment& resolved, double wavelengthAngstrom) {
    const glm::dvec3 beam = glm::normalize(resolved.axes.beam);
    double best = 0.0;
    for (const PanelGeometry& g : resolved.panels) {
        const glm::dvec3 fast = g.fdet * g.sizeFast(), slow = g.sdet * g.sizeSlow();
        for (const glm::dvec3& corner : {g.pix0, g.pix0 + fast, g.pix0 + slow, g.pix0 + fast + slow}) {
            const double cos2theta = std::clamp(glm::dot(glm::normalize(corner), beam), -1.0, 1.0);
            const double sinTheta = std::sqrt(std::max(0.0, (1.0 - cos2theta) / 2.0));
            best = std::max(best, 2.0 * sinTheta / wavelengthAngstrom);
        }
    }
    return best;
}

} // namespace

RotationSampling rotationSamplingForFit(const ResolvedExperiment& resolved, double wavelength) {
    RotationSampling s;
    s.oscillation = resolved.phi.range;
    const double wavelengthAngstrom = wavelength * 1e10;
    const double dStar = highestReciprocalResolution(resolved, wavelengthAngstrom);
    // the crystal's longest extent: its lattice peak is 1/L wide along it (first zeros at ±1/L)
    const double extent = std::max({glm::length(resolved.cell.a) * resolved.cells.x,
                                    glm::length(resolved.cell.b) * resolved.cells.y,
                                    glm::length(resolved.cell.c) * resolved.cells.z});
    if (s.oscillation <= 0.0 || dStar <= 0.0 || extent <= 0.0) {
        s.steps = 1;
        return s;
    }
    s.resolution = 1.0 / dStar;
    s.crossing = 1.0 / (extent * dStar); // rad, small: the peak's width over its distance from 0
    const double wanted = std::ceil(s.oscillation / (s.crossing / 2.0));
    s.steps = static_cast<int>(std::clamp(wanted, 2.0, static_cast<double>(kMaxRotationSteps)));
    return s;
}

} // namespace bv::refine
