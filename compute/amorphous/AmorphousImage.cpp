#include "compute/amorphous/AmorphousImage.h"

#include "compute/core/HostThreads.h"
#include "compute/model/Units.h"

#include <algorithm>
#include <cmath>

namespace bv::amorphous {

namespace {

struct Vec {
    double x, y, z;
};

double magnitude(const Vec& v) {
    return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
}

// unitize() in place; returns the magnitude
double unitize(Vec& v) {
    const double m = magnitude(v);
    if (m != 0.0)
        v = {v.x / m, v.y / m, v.z / m};
    else
        v = {0, 0, 0};
    return m;
}

double dot(const Vec& a, const Vec& b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

Vec cross(const Vec& a, const Vec& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

Vec rotateAxis(const Vec& v, const Vec& axis, double phi) {
    const double s = std::sin(phi), c = std::cos(phi);
    const double d = (axis.x * v.x + axis.y * v.y + axis.z * v.z) * (1.0 - c);
    return {axis.x * d + v.x * c + (-axis.z * v.y + axis.y * v.z) * s,
            axis.y * d + v.y * c + (+axis.z * v.x - axis.x * v.z) * s,
            axis.z * d + v.z * c + (-axis.y * v.x + axis.x * v.y) * s};
}

Vec of(const glm::dvec3& v) {
    return {v.x, v.y, v.z};
}

// polarization_factor(), which re-normalises its three vectors in place (the reference's
// diffracted and axis vectors carry that rounding into the next call)
double polarizationFactor(double kahn, Vec& incident, Vec& diffracted, Vec& axis) {
    unitize(incident);
    unitize(diffracted);
    unitize(axis);
    const double cos2theta = dot(incident, diffracted);
    const double cos2thetaSqr = cos2theta * cos2theta;
    const double sin2thetaSqr = 1 - cos2thetaSqr;
    double psi = 0.0;
    if (kahn != 0.0) {
        Vec B = cross(axis, incident);
        unitize(B);
        Vec E = cross(incident, B);
        unitize(E);
        psi = -std::atan2(dot(diffracted, B), dot(diffracted, E));
    }
    return 0.5 * (1.0 + cos2thetaSqr - kahn * std::cos(2 * psi) * sin2thetaSqr);
}

class Renderer {
  public:
    explicit Renderer(const NonBraggSetup& s) : m_s(s) {
        m_axis = of(s.polar);
        // the reference's axis reaches its fixed point of re-normalisation in its first calls
        for (int i = 0; i < 4; ++i)
            unitize(m_axis);
    }

    // one row; returns the row's solid-angle sum
    double row(int spixel, float* out) const {
        const NonBraggSetup& s = m_s;
        const int oversample = s.oversample;
        const int steps = static_cast<int>(s.sources.size()) * oversample * oversample;
        Vec axis = m_axis;
        double omegaSum = 0.0;
        for (int fpixel = 0; fpixel < s.fpixels; ++fpixel) {
            if (fpixel < s.roiXmin || fpixel > s.roiXmax || spixel < s.roiYmin ||
                spixel > s.roiYmax)
                continue;
            double Ibg = 0.0;
            LastStep last;
            for (int subS = 0; subS < oversample; ++subS)
                for (int subF = 0; subF < oversample; ++subF)
                    omegaSum += subPixel(fpixel, spixel, subS, subF, axis, Ibg, last);
            float value = static_cast<float>(Ibg * units::kThomsonCrossSection * s.fluence *
                                             s.molecules / steps);
            if (s.options.Fmap)
                value = static_cast<float>(last.F);
            out[fpixel] = value;
        }
        return omegaSum;
    }

    // A pixel's last sub-pixel and source, as the reference's variables hold them after its
    // loops (what its -img extraction reads).
    LastStep last(int fpixel, int spixel) const {
        Vec axis = m_axis;
        double Ibg = 0.0;
        LastStep last;
        subPixel(fpixel, spixel, m_s.oversample - 1, m_s.oversample - 1, axis, Ibg, last);
        return last;
    }

  private:
    // One sub-pixel: every source's term added to Ibg in the reference's order; returns the
    // sub-pixel's solid angle, and leaves the last source's values in `last`.
    double subPixel(int fpixel, int spixel, int subS, int subF, Vec& axis, double& Ibg,
                    LastStep& last) const {
        const NonBraggSetup& s = m_s;
        const NonBraggOptions& o = s.options;
        const int oversample = s.oversample;
        const double subpixel = o.pixelSize / oversample;
        const Vec fdet = of(s.fdet), sdet = of(s.sdet), odet = of(s.odet), pix0 = of(s.pix0);
        const Vec beam = of(s.beam);
        const double Fdet = subpixel * (fpixel * oversample + subF) + subpixel / 2.0;
        const double Sdet = subpixel * (spixel * oversample + subS) + subpixel / 2.0;
        const double Odet = 0.0; // one layer: nonBragg has no detector thickness
        Vec pos{Fdet * fdet.x + Sdet * sdet.x + Odet * odet.x + pix0.x,
                Fdet * fdet.y + Sdet * sdet.y + Odet * odet.y + pix0.y,
                Fdet * fdet.z + Sdet * sdet.z + Odet * odet.z + pix0.z};
        if (o.curved) {
            const Vec v{s.distance * beam.x, s.distance * beam.y, s.distance * beam.z};
            const Vec n = rotateAxis(v, sdet, pos.y / s.distance);
            pos = rotateAxis(n, fdet, pos.z / s.distance);
        }
        Vec diffracted = pos;
        const double airpath = unitize(diffracted);
        double omega = o.pixelSize * o.pixelSize / airpath / airpath * s.closeDistance / airpath;
        if (o.pointPixel)
            omega = 1.0 / airpath / airpath;
        last.omega = omega;
        for (const AmorphousSource& src : s.sources) {
            Vec incident{-src.position.x, -src.position.y, -src.position.z};
            unitize(incident);
            const double lambda = src.lambda;
            const Vec scattering{(diffracted.x - incident.x) / lambda,
                                 (diffracted.y - incident.y) / lambda,
                                 (diffracted.z - incident.z) / lambda};
            last.stol = 0.5 * magnitude(scattering);
            last.F = s.spline(last.stol);
            const float sign = last.F < 0.0 ? -1.0f : 1.0f;
            last.polar =
                o.noPolar ? 1.0 : polarizationFactor(o.polarization, incident, diffracted, axis);
            Ibg += sign * last.F * last.F * last.polar * omega * src.weight;
        }
        return omega;
    }

    const NonBraggSetup& m_s;
    Vec m_axis{};
};

} // namespace

AmorphousImage renderAmorphous(const NonBraggSetup& setup, int threads) {
    AmorphousImage image;
    image.pixels.assign(static_cast<std::size_t>(setup.fpixels) * setup.spixels, 0.0f);
    std::vector<double> rowOmega(static_cast<std::size_t>(setup.spixels), 0.0);
    const Renderer renderer(setup);
    forEachOnHostThreads(
        static_cast<std::size_t>(std::max(setup.spixels, 0)),
        [&](std::size_t row) {
            rowOmega[row] = renderer.row(static_cast<int>(row),
                                         image.pixels.data() + row * static_cast<std::size_t>(setup.fpixels));
        },
        static_cast<unsigned>(std::max(threads, 0)));
    for (double w : rowOmega)
        image.omegaSum += w;
    return image;
}

LastStep lastStep(const NonBraggSetup& setup, int fpixel, int spixel) {
    return Renderer(setup).last(fpixel, spixel);
}

} // namespace bv::amorphous
