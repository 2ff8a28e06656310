#pragma once
// One flat sensor module of a detector, the way dxtbx's Panel describes it: where the outer
// corner of its first pixel is, which way its pixel rows (fast) and columns (slow) run, how
// big its pixels are and how many, and what it is made of. Vectors are in the simulator's
// laboratory frame (nanoBragg's default, MOSFLM's: the beam along +x, y up, the spindle
// along z; docs/numerics/detector-frames.md), lengths in metres.
//
//     bv::Panel p;
//     p.name = "m0_0";
//     p.origin = {0.1, 0.0129, -0.0129};   // 100 mm down the beam, corner up and left
//     p.fast = {0, 0, 1};                  // nanoBragg's fdet
//     p.slow = {0, -1, 0};                 // nanoBragg's sdet
//     p.pixelSizeFast = p.pixelSizeSlow = 0.1e-3;
//     p.fastPixels = p.slowPixels = 256;
//     glm::dvec3 centre = p.pixelCentre(0, 0); // origin + half a pixel along fast and slow

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <optional>
#include <utility>
#include <string>

namespace bv {

struct Panel {
    std::string name;
    glm::dvec3 origin{0.0};    // m, sample -> outer corner of pixel (0, 0)
    glm::dvec3 fast{0, 0, 1};  // unit vector of increasing fast (within-row) pixel index
    glm::dvec3 slow{0, -1, 0}; // unit vector of increasing slow (row) pixel index
    double pixelSizeFast = 0.0, pixelSizeSlow = 0.0; // m
    int fastPixels = 0, slowPixels = 0;

    // The sensor, where the source says: a thickness in m, the linear attenuation
    // coefficient mu in 1/m (dxtbx writes 1/mm), and the material ("Si", "CdTe").
    std::optional<double> thickness;
    std::optional<double> mu;
    std::string material;

    // The counts a pixel of data holds, min to max inclusive, where the source says (DIALS's
    // trusted_range): a measured frame's pixels outside it have no data
    // (io::applyTrustedRanges).
    std::optional<std::pair<double, double>> trustedRange;

    // fast x slow: the normal of the sensor's face (dxtbx's). Mostly away from the sample;
    // a mirrored layout such as ADXV's (fast +x, slow -y, beam +z) turns it towards it.
    glm::dvec3 normal() const { return glm::cross(fast, slow); }
    double widthFast() const { return pixelSizeFast * fastPixels; } // m
    double widthSlow() const { return pixelSizeSlow * slowPixels; } // m
    long long pixelCount() const { return static_cast<long long>(fastPixels) * slowPixels; }

    // A point of the sensor face `f` pixels along fast and `s` along slow from the origin
    // corner (fractional: the centre of pixel (i, j) is at (i + 0.5, j + 0.5)).
    glm::dvec3 position(double f, double s) const {
        return origin + f * pixelSizeFast * fast + s * pixelSizeSlow * slow;
    }
    glm::dvec3 pixelCentre(int f, int s) const { return position(f + 0.5, s + 0.5); }
};

} // namespace bv
