#include "compute/amorphous/NonBraggSetup.h"

#include "compute/amorphous/Materials.h"
#include "compute/core/Error.h"
#include "compute/io/PrintfFormat.h"
#include "compute/io/SourceFile.h"
#include "compute/model/Units.h"

#include <glm/geometric.hpp>

#include <cfloat>
#include <cmath>

namespace bv::amorphous {

namespace {

// unitize(): a zero vector stays zero
glm::dvec3 unit(const glm::dvec3& v) {
    const double m = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    return m != 0.0 ? glm::dvec3(v.x / m, v.y / m, v.z / m) : glm::dvec3(0.0);
}

glm::dvec3 cross(const glm::dvec3& x, const glm::dvec3& y) {
    return {x.y * y.z - x.z * y.y, x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x};
}

double dot(const glm::dvec3& x, const glm::dvec3& y) {
    return x.x * y.x + x.y * y.y + x.z * y.z;
}

// rotate(): about x, then y, then z; a zero angle is skipped (bit for bit the reference's)
glm::dvec3 rotateXYZ(glm::dvec3 v, double phix, double phiy, double phiz) {
    if (phix != 0) {
        const double y = v.y * std::cos(phix) + v.z * -std::sin(phix);
        const double z = v.y * std::sin(phix) + v.z * std::cos(phix);
        v = {v.x, y, z};
    }
    if (phiy != 0) {
        const double x = v.x * std::cos(phiy) + v.y * 0 + v.z * std::sin(phiy);
        const double z = v.x * -std::sin(phiy) + v.y * 0 + v.z * std::cos(phiy);
        v = {x, v.y, z};
    }
    if (phiz != 0) {
        const double x = v.x * std::cos(phiz) + v.y * -std::sin(phiz);
        const double y = v.x * std::sin(phiz) + v.y * std::cos(phiz);
        v = {x, y, v.z};
    }
    return v;
}

// rotate_axis(): Rodrigues about a unit axis
glm::dvec3 rotateAxis(const glm::dvec3& v, const glm::dvec3& axis, double phi) {
    const double s = std::sin(phi), c = std::cos(phi);
    const double d = (axis.x * v.x + axis.y * v.y + axis.z * v.z) * (1.0 - c);
    return {axis.x * d + v.x * c + (-axis.z * v.y + axis.y * v.z) * s,
            axis.y * d + v.y * c + (+axis.z * v.x - axis.x * v.z) * s,
            axis.z * d + v.z * c + (-axis.y * v.x + axis.x * v.y) * s};
}

// The reference's choice of range, step and count for divergence and dispersion (its four
// identical blocks), then its sanity check.
void chooseSteps(double& range, double& step, int& steps) {
    if (steps <= 0) {
        if (range < 0.0) {
            if (step <= 0.0) {
                steps = 1;
                range = 0.0;
                step = 0.0;
            } else {
                range = step;
                steps = 2;
            }
        } else if (step <= 0.0) {
            step = range;
            steps = 2;
        } else {
            steps = static_cast<int>(std::ceil(range / step));
        }
    } else if (range < 0.0) {
        if (step <= 0.0) {
            range = 1.0;
            step = range / steps;
        } else {
            range = step;
            steps = 2;
        }
    } else if (step <= 0.0) {
        if (steps <= 1)
            steps = 2;
        step = range / (steps - 1);
    }
    if (range <= 0.0 || step <= 0.0 || steps <= 0) {
        steps = 1;
        range = 0.0;
        step = 0.0;
    }
}

// The header's OSC_RANGE: what the reference's phi-step choice leaves in osc.
double chosenOsc(const NonBraggOptions& o) {
    if (o.phisteps < 0)
        return o.osc < 0.0 ? (o.phistep <= 0.0 ? 0.0 : o.phistep) : o.osc;
    return o.osc < 0.0 ? (o.phistep <= 0.0 ? units::radiansFromDegrees(1.0) : o.phistep) : o.osc;
}

void placeDetector(NonBraggSetup& s, const NonBraggOptions& o) {
    s.beam = unit(o.beam);
    s.fdet = unit(o.fdet);
    s.sdet = unit(o.sdet);
    s.odet = unit(cross(s.fdet, s.sdet));
    s.polar = unit(o.polar);
    s.vert = unit(cross(s.beam, s.polar));
    const glm::dvec3 twothetaAxis = o.twothetaAxis; // used as given, as the reference does

    double Xclose = o.Xclose, Yclose = o.Yclose;
    if (!std::isnan(o.ORGX))
        Xclose = o.ORGX * o.pixelSize;
    if (!std::isnan(o.ORGY))
        Yclose = o.ORGY * o.pixelSize;
    if (std::isnan(Xclose))
        Xclose = (s.detsizeX - o.pixelSize) / 2.0;
    if (std::isnan(Yclose))
        Yclose = (s.detsizeY + o.pixelSize) / 2.0;
    const double Xbeam = std::isnan(o.Xbeam) ? Xclose : o.Xbeam;
    const double Ybeam = std::isnan(o.Ybeam) ? Yclose : o.Ybeam;

    double ratio = dot(s.beam, rotateXYZ(s.odet, o.rotx, o.roty, o.rotz));
    if (ratio == 0.0)
        ratio = DBL_MIN;
    double closeDistance = o.closeDistance;
    if (std::isnan(closeDistance))
        closeDistance = ratio * o.distance;
    const double distance = closeDistance / ratio;

    glm::dvec3 pix0(0.0);
    if (o.pivot == NonBraggPivot::Sample) {
        pix0 = {-Xclose * s.fdet.x - Yclose * s.sdet.x + closeDistance * s.odet.x,
                -Xclose * s.fdet.y - Yclose * s.sdet.y + closeDistance * s.odet.y,
                -Xclose * s.fdet.z - Yclose * s.sdet.z + closeDistance * s.odet.z};
        pix0 = rotateAxis(rotateXYZ(pix0, o.rotx, o.roty, o.rotz), twothetaAxis, o.twotheta);
    }
    s.fdet = rotateAxis(rotateXYZ(s.fdet, o.rotx, o.roty, o.rotz), twothetaAxis, o.twotheta);
    s.sdet = rotateAxis(rotateXYZ(s.sdet, o.rotx, o.roty, o.rotz), twothetaAxis, o.twotheta);
    s.odet = rotateAxis(rotateXYZ(s.odet, o.rotx, o.roty, o.rotz), twothetaAxis, o.twotheta);
    if (o.pivot == NonBraggPivot::Beam)
        pix0 = {-Xbeam * s.fdet.x - Ybeam * s.sdet.x + distance * s.beam.x,
                -Xbeam * s.fdet.y - Ybeam * s.sdet.y + distance * s.beam.y,
                -Xbeam * s.fdet.z - Ybeam * s.sdet.z + distance * s.beam.z};
    s.pix0 = pix0;
    s.Xclose = -dot(pix0, s.fdet);
    s.Yclose = -dot(pix0, s.sdet);
    s.closeDistance = dot(pix0, s.odet);
    const glm::dvec3 toBeam{s.closeDistance / ratio * s.beam.x - pix0.x,
                            s.closeDistance / ratio * s.beam.y - pix0.y,
                            s.closeDistance / ratio * s.beam.z - pix0.z};
    s.Xbeam = dot(s.fdet, toBeam);
    s.Ybeam = dot(s.sdet, toBeam);
    s.distance = s.closeDistance / ratio;
}

void makeSources(NonBraggSetup& s, const NonBraggOptions& o) {
    if (!o.sourceFile.empty()) {
        for (const io::SourceRecord& r : io::readSourceFile(o.sourceFile)) {
            AmorphousSource src;
            src.position = {std::isnan(r.X) ? -o.sourceDistance * s.beam.x : r.X,
                            std::isnan(r.Y) ? -o.sourceDistance * s.beam.y : r.Y,
                            std::isnan(r.Z) ? -o.sourceDistance * s.beam.z : r.Z};
            src.weight = std::isnan(r.weight) ? 1.0 : r.weight;
            src.lambda = std::isnan(r.lambda) ? o.lambda0 : r.lambda;
            s.sources.push_back(src);
        }
        return;
    }
    s.divsteps = 0;
    for (int h = 0; h < s.hdivsteps; ++h)
        for (int v = 0; v < s.vdivsteps; ++v) {
            const double hdiv = s.hdivstep * h - s.hdivrange / 2.0;
            const double vdiv = s.vdivstep * v - s.vdivrange / 2.0;
            double test = (hdiv * hdiv - s.hdivstep * s.hdivstep / 4.0 * (1 - s.hdivsteps % 2)) /
                          s.hdivrange / s.hdivrange;
            test += (vdiv * vdiv - s.vdivstep * s.vdivstep / 4.0 * (1 - s.vdivsteps % 2)) /
                    s.vdivrange / s.vdivrange;
            if (o.roundDiv && test * 4.0 > 1.1)
                continue;
            ++s.divsteps;
            const glm::dvec3 back{-o.sourceDistance * s.beam.x, -o.sourceDistance * s.beam.y,
                                  -o.sourceDistance * s.beam.z};
            const glm::dvec3 position = rotateAxis(rotateAxis(back, s.polar, vdiv), s.vert, hdiv);
            for (int d = 0; d < s.dispsteps; ++d) {
                AmorphousSource src;
                src.position = position;
                src.lambda = o.lambda0 * (1.0 + s.dispstepValue * d - s.dispersion / 2.0);
                s.sources.push_back(src);
            }
        }
}

} // namespace

NonBraggSetup setUpNonBragg(const NonBraggOptions& options) {
    NonBraggSetup s;
    s.options = options;
    const NonBraggOptions& o = options;
    if (!(o.pixelSize > 0.0))
        throw Error("--nonbragg: -pixel must be positive");
    s.detsizeX = o.fpixels ? o.pixelSize * o.fpixels : o.detsizeX;
    s.detsizeY = o.spixels ? o.pixelSize * o.spixels : o.detsizeY;
    const double fp = std::ceil(s.detsizeX / o.pixelSize), sp = std::ceil(s.detsizeY / o.pixelSize);
    if (!(fp >= 1 && sp >= 1) || fp * sp > double(1 << 28))
        throw Error("--nonbragg: a detector of " + io::formatG(fp) + " x " + io::formatG(sp) +
                    " pixels (from -detsize/-detpixels and -pixel): at least 1 x 1 and at most "
                    "2^28 pixels");
    s.fpixels = static_cast<int>(fp);
    s.spixels = static_cast<int>(sp);
    // the reference would read past the image (its buffer holds the header's pixels)
    if (!o.imageIn.empty() && o.imagePixels.size() < static_cast<std::size_t>(fp * sp))
        throw Error("--nonbragg: -img " + o.imageIn + " has " +
                    std::to_string(o.imagePixels.size()) + " pixels (" +
                    std::to_string(o.imageWidth) + " x " + std::to_string(o.imageHeight) +
                    "), fewer than the detector's " + std::to_string(s.fpixels) + " x " +
                    std::to_string(s.spixels) + " that the options after it made");
    s.roiXmin = o.roiXmin < 0 ? 0 : o.roiXmin;
    s.roiXmax = o.roiXmax < 0 ? s.fpixels : o.roiXmax;
    s.roiYmin = o.roiYmin < 0 ? 0 : o.roiYmin;
    s.roiYmax = o.roiYmax < 0 ? s.spixels : o.roiYmax;

    s.fluence = o.fluence;
    if (o.flux != 0.0 && o.exposure > 0.0 && o.beamsize >= 0)
        s.fluence = o.flux * o.exposure / o.beamsize / o.beamsize;
    s.sampleX = o.sampleX;
    s.sampleY = o.sampleY;
    s.sampleZ = o.sampleZ;
    if (o.beamsize >= 0) {
        if (o.beamsize < s.sampleY) {
            s.notes.push_back("WARNING: clipping sample (" + io::formatG(s.sampleY) +
                              " m high) with beam (" + io::formatG(o.beamsize) + " m)");
            s.sampleY = o.beamsize;
        }
        if (o.beamsize < s.sampleZ) {
            s.notes.push_back("WARNING: clipping sample (" + io::formatG(s.sampleZ) +
                              " m wide) with beam (" + io::formatG(o.beamsize) + " m)");
            s.sampleZ = o.beamsize;
        }
    }
    const double volume = s.sampleX * s.sampleY * s.sampleZ;
    if (!(o.molecularWeight > 0.0))
        throw Error("--nonbragg: -MW must be positive");
    s.density = o.density;
    if (o.molecules != 0) {
        if (!(volume > 0.0))
            throw Error("--nonbragg: -molecules needs a sample of positive volume");
        s.density = o.molecules / volume / units::kAvogadro * o.molecularWeight;
    }
    s.molecules = volume * s.density * units::kAvogadro / o.molecularWeight;

    s.osc = chosenOsc(o);
    s.hdivrange = o.hdivrange;
    s.hdivstep = o.hdivstep;
    s.hdivsteps = o.hdivsteps;
    chooseSteps(s.hdivrange, s.hdivstep, s.hdivsteps);
    s.vdivrange = o.vdivrange;
    s.vdivstep = o.vdivstep;
    s.vdivsteps = o.vdivsteps;
    chooseSteps(s.vdivrange, s.vdivstep, s.vdivsteps);
    s.dispersion = o.dispersion;
    s.dispstepValue = -1.0; // the reference has no option for it
    s.dispsteps = o.dispsteps;
    chooseSteps(s.dispersion, s.dispstepValue, s.dispsteps);

    placeDetector(s, o);
    s.spline = StolSpline(stolTable(o.stol), o.stolFileMultiplier);
    makeSources(s, o);
    if (s.sources.empty())
        throw Error("--nonbragg: no sources (the divergence's rounding left none)");
    s.oversample = o.oversample <= 0 ? 1 : o.oversample;
    return s;
}

} // namespace bv::amorphous
