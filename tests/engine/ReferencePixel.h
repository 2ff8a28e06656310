#pragma once
// One pixel of the simulation on the CPU, in double with libm's sin/cos/exp/atan2, written as
// plainly as the physics reads: the serial loop over sensor layers, sub-pixels, sources and
// orientations, with the reference's "last value" rules. A second route to the numbers the
// shader (shaders/diffraction.glsl) computes, for the engine tests and for
// braggview-trace-pixel, which prints the intermediates (`trace`).
//
// rows: the orientation table as the loop meets it (engine::orderOrientations(...).rows, or
// the Plan's own); freshRows/freshUnit: the unit that starts from the unrotated crystal (the
// phi carry-over), if any. Header-only and Qt-free.

#include "compute/model/Rotation.h"
#include "compute/plan/Plan.h"

#include <glm/geometric.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

namespace bv::testing {

struct ReferencePixelOptions {
    const std::vector<plan::Orientation>* rows = nullptr;      // nullptr: plan.orientations
    const std::vector<plan::Orientation>* freshRows = nullptr; // replaces the first rows
    long long freshUnit = -1;                                  // in this pixel; -1: none
    // The reference's own variable "interpolate", shared by every pixel of the image and
    // cleared for good by the first step whose 4x4x4 neighbourhood leaves the HKL grid
    // (InterpolationEdge::Reference): call referencePixel for the pixels in the reference's
    // order with the same flag. nullptr: every step interpolates where its neighbourhood fits.
    bool* interpolating = nullptr;
    std::FILE* trace = nullptr;                                // intermediates, when given
};

inline double referenceSincg(double x, double n) {
    return x == 0.0 ? n : std::sin(n * x) / std::sin(x);
}

inline double referenceSinc3(double x) {
    return x == 0.0 ? 1.0 : 3.0 * (std::sin(x) / x - std::cos(x)) / (x * x);
}

inline double referencePolarization(double kahn, const glm::dvec3& incident,
                                    const glm::dvec3& diffracted, const glm::dvec3& axis) {
    const double c = glm::dot(incident, diffracted);
    double psi = 0.0;
    if (kahn != 0.0) {
        const glm::dvec3 b = unitOrZero(glm::cross(axis, incident));
        const glm::dvec3 e = unitOrZero(glm::cross(incident, b));
        psi = -std::atan2(glm::dot(diffracted, b), glm::dot(diffracted, e));
    }
    return 0.5 * (1.0 + c * c - kahn * std::cos(2.0 * psi) * (1.0 - c * c));
}

// Four-point Lagrange interpolation through the grid points n-1..n+2 around x (n = floor x).
inline double referenceLagrange(const double y[4], double x) {
    const double n = std::floor(x);
    double sum = 0.0;
    for (int i = 0; i < 4; ++i) {
        double w = 1.0;
        for (int j = 0; j < 4; ++j)
            if (j != i)
                w *= (x - (n - 1 + j)) / static_cast<double>(i - j);
        sum += w * y[i];
    }
    return sum;
}

// nanoBragg's test for the tricubic neighbourhood of hkl: all 4x4x4 points on the grid
inline bool referenceNeighbourhoodOnGrid(const StructureFactors* sf, const glm::dvec3& hkl) {
    return sf && sf->hasTable() &&
           !(hkl.x - sf->hMin + 3 > sf->hCount() || hkl.x - 2 < sf->hMin ||
             hkl.y - sf->kMin + 3 > sf->kCount() || hkl.y - 2 < sf->kMin ||
             hkl.z - sf->lMin + 3 > sf->lCount() || hkl.z - 2 < sf->lMin);
}

inline double referenceCellAmplitude(const StructureFactors* sf, bool interpolate,
                                     const glm::dvec3& hkl, const glm::dvec3& h0) {
    if (!sf)
        return 0.0;
    if (interpolate && referenceNeighbourhoodOnGrid(sf, hkl)) {
        const int h = static_cast<int>(std::floor(hkl.x)) - 1,
                  k = static_cast<int>(std::floor(hkl.y)) - 1,
                  l = static_cast<int>(std::floor(hkl.z)) - 1;
        double alongH[4];
        for (int i = 0; i < 4; ++i) {
            double alongK[4];
            for (int j = 0; j < 4; ++j) {
                double alongL[4];
                for (int m = 0; m < 4; ++m)
                    alongL[m] = sf->F[sf->index(h + i, k + j, l + m)];
                alongK[j] = referenceLagrange(alongL, hkl.z);
            }
            alongH[i] = referenceLagrange(alongK, hkl.y);
        }
        return referenceLagrange(alongH, hkl.x);
    }
    return sf->amplitude(static_cast<int>(h0.x), static_cast<int>(h0.y), static_cast<int>(h0.z));
}

// Photons in pixel (fpixel, spixel); 0 outside the ROI and on masked pixels.
inline double referencePixel(const plan::Plan& p, int fpixel, int spixel,
                             const ReferencePixelOptions& o = {}) {
    if (!p.roi.contains(fpixel, spixel))
        return 0.0;
    const std::size_t index =
        static_cast<std::size_t>(spixel) * static_cast<std::size_t>(p.fastPixels) +
        static_cast<std::size_t>(fpixel);
    if (p.mask && !p.mask->empty() && (*p.mask)[index] == 0)
        return 0.0;
    const std::vector<plan::Orientation>& rows = o.rows ? *o.rows : p.orientations;
    std::FILE* t = o.trace;
    auto vec = [t](const char* name, const glm::dvec3& v) {
        if (t)
            std::fprintf(t, "%s %.15g %.15g %.15g\n", name, v.x, v.y, v.z);
    };

    double I = p.background, polar = p.polarization ? 0.0 : 1.0, omega = 0.0, capture = 1.0;
    const int n = p.oversample;
    long long unit = 0;
    for (int layer = 0; layer < p.thickSteps; ++layer) {
        capture = p.thickModelled ? 0.0 : 1.0;
        for (int subS = 0; subS < n; ++subS)
            for (int subF = 0; subF < n; ++subF) {
                const double Fdet = p.subpixelSize * (fpixel * n + subF) + p.subpixelSize / 2.0;
                const double Sdet = p.subpixelSize * (spixel * n + subS) + p.subpixelSize / 2.0;
                glm::dvec3 pos =
                    Fdet * p.fdet + Sdet * p.sdet + layer * p.thickStep * p.odet + p.pix0;
                if (p.curved) {
                    const glm::dvec3 turned =
                        rotateAbout(p.distance * p.beam, p.sdet, pos.y / p.distance);
                    pos = rotateAbout(turned, p.fdet, pos.z / p.distance);
                }
                const double airpath = glm::length(pos);
                const glm::dvec3 d = unitOrZero(pos);
                if (omega == 0.0 || p.oversampleOmega)
                    omega = p.pointPixel ? 1.0 / airpath / airpath
                                         : p.pixelSize * p.pixelSize / airpath / airpath *
                                               p.closeDistance / airpath;
                if (capture == 0.0 || p.oversampleThick) {
                    const double parallax = glm::dot(d, p.odet);
                    capture = std::exp(-layer * p.thickStep * p.mu / parallax) -
                              std::exp(-(layer + 1) * p.thickStep * p.mu / parallax);
                }
                vec("pixel_pos_meters", pos);
                vec("diffracted_vec", d);
                if (t)
                    std::fprintf(
                        t,
                        "R_distance_meters %.15g\nomega_pixel_sr %.15g\ncapture_fraction %.15g\n",
                        airpath, omega, capture);
                for (const plan::SourceEntry& src : p.sources) {
                    const long long thisUnit = unit++;
                    const glm::dvec3 q = (d - src.incident) / src.wavelength;
                    const double stol = 0.5 * glm::length(q);
                    if (p.dmin > 0.0 && stol > 0.0 && p.dmin > 0.5 / stol)
                        continue;
                    if (polar == 0.0 || p.oversamplePolar)
                        polar = referencePolarization(p.kahnFactor, src.incident, d,
                                                      p.polarizationAxis);
                    vec("scattering_vec", q);
                    for (std::size_t r = 0;
                         r < static_cast<std::size_t>(p.phiSteps * p.mosaicDomains); ++r) {
                        const bool fresh =
                            o.freshRows && thisUnit == o.freshUnit && r < o.freshRows->size();
                        const plan::Orientation& ax = fresh ? (*o.freshRows)[r] : rows[r];
                        const glm::dvec3 hkl(glm::dot(ax.a, q), glm::dot(ax.b, q),
                                             glm::dot(ax.c, q));
                        const glm::dvec3 h0 = glm::ceil(hkl - 0.5);
                        const double nnn = p.cells.x * p.cells.y * p.cells.z;
                        const glm::dvec3 f = hkl - h0;
                        double latt = 1.0;
                        if (p.shape == LatticeShape::Square) {
                            for (int i = 0; i < 3; ++i)
                                if (p.cells[i] > 1.0)
                                    latt *= referenceSincg(M_PI * hkl[i], p.cells[i]);
                        } else if (p.shape == LatticeShape::Round) {
                            const double h2 = f.x * f.x * p.cells.x * p.cells.x +
                                              f.y * f.y * p.cells.y * p.cells.y +
                                              f.z * f.z * p.cells.z * p.cells.z;
                            latt = nnn * 0.723601254558268 *
                                   referenceSinc3(M_PI * std::sqrt(h2 * p.fudge));
                        } else {
                            const glm::dvec3 dd = f.x * p.aStar + f.y * p.bStar + f.z * p.cStar;
                            const double rad = glm::dot(dd, dd) * p.cells.x * p.cells.x *
                                               p.cells.y * p.cells.y * p.cells.z * p.cells.z;
                            latt = p.shape == LatticeShape::Gauss
                                       ? nnn * std::exp(-(rad / 0.63 * p.fudge))
                                       : (rad * p.fudge < 0.3969 ? nnn : 0.0);
                        }
                        if (latt == 0.0 && !p.waterPresent)
                            continue;
                        bool interpolate = o.interpolating ? *o.interpolating : p.interpolate;
                        if (interpolate && o.interpolating &&
                            !referenceNeighbourhoodOnGrid(p.structureFactors, hkl) &&
                            p.interpolationEdge == InterpolationEdge::Reference)
                            *o.interpolating = interpolate = false; // for this step and after
                        const double cell =
                            referenceCellAmplitude(p.structureFactors, interpolate, hkl, h0);
                        I += cell * cell * latt * latt;
                        if (p.oversampleThick)
                            I *= capture;
                        if (p.oversamplePolar)
                            I *= polar;
                        if (p.oversampleOmega)
                            I *= omega;
                        if (t)
                            std::fprintf(t,
                                         "  row %zu hkl_frac %.15g %.15g %.15g F_latt %.15g F_cell "
                                         "%.15g I %.15g\n",
                                         r, hkl.x, hkl.y, hkl.z, latt, cell, I);
                    }
                }
            }
    }
    double pixel = p.photonScale * I;
    if (!p.oversampleThick)
        pixel *= capture;
    if (!p.oversamplePolar)
        pixel *= polar;
    if (!p.oversampleOmega)
        pixel *= omega;
    if (t)
        std::fprintf(t,
                     "I_before_scaling %.15g\nsteps %ld\npolar %.15g\nomega %.15g\ncapture "
                     "%.15g\npixel %.15g\n",
                     I, p.steps, polar, omega, capture, pixel);
    return pixel;
}

} // namespace bv::testing
