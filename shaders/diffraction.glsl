// One invocation per detector pixel: the whole of nanoBragg's per-pixel computation.
//
// Loops, outer to inner, in the reference's order: sensor layers, sub-pixel rows, sub-pixel
// columns, sources, (phi step x mosaic domain) orientations. The per-pixel factors keep the
// reference's "last value" rules: polar and omega are computed on first need in the pixel
// (every time with -oversample_polar / -oversample_omega), the capture fraction on first
// need in each layer (every time with -oversample_thick). With an -oversample_* flag the
// factor multiplies the WHOLE running sum after each term, as the reference does; without
// it, the last value scales the finished pixel (docs/reference-quirks.md, "Pixel loop").
//
// A dispatch runs one slice of each pixel's serial loop, steps [begin, end) of the flattened
// loop, and carries the running sum and the factors to the next slice in `states`: the
// result is the same bit for bit however the loop is cut (docs/numerics/slicing.md).
// Orientation rows follow the reference's phi carry-over (compute/engine/SerialOrder.h).
//
// Included by diffraction_precise.comp and diffraction_fast.comp, which set BV_PRECISE
// (docs/numerics/precision-modes.md), and by their trace variants diffraction_trace_*.comp,
// which also set BV_TRACE: one invocation runs one chosen pixel's whole loop and records its
// intermediate quantities (trace.glsl). The lines under BV_TRACE are all the difference; the
// normal shaders are compiled without them.

#ifndef BV_TRACE
#define BV_TRACE 0
#endif

#include "params.glsl"
#include "numerics.glsl"
#include "lattice.glsl"
#if BV_TRACE
#include "trace.glsl"
#endif

bool masked(int index) {
    const uint word = maskWords[index >> 1];
    return ((word >> (16 * (index & 1))) & 0xffffu) == 0u;
}

// cos(2psi) of Kahn's polarization factor, psi the angle of the diffracted ray projected onto
// the incident E-B plane: taken from the projections as (E^2 - B^2)/(E^2 + B^2), which equals
// cos(2*atan2(B, E)) without trigonometry (docs/numerics/polarization.md).
real kahnCos2psi(real3 incident, real3 diffracted) {
    real3 bIn = cross(P.polarAxis.xyz, incident);
    const real bLength = length(bIn);
    bIn = bLength != RC(0.0) ? bIn * (RC(1.0) / bLength) : real3(RC(0.0));
    real3 eIn = cross(incident, bIn);
    const real eLength = length(eIn);
    eIn = eLength != RC(0.0) ? eIn * (RC(1.0) / eLength) : real3(RC(0.0));
    const real e = dot(diffracted, eIn);
    const real b = dot(diffracted, bIn);
    const real norm = e * e + b * b;
    return norm > RC(0.0) ? (e * e - b * b) / norm : RC(1.0);
}

// Kahn's polarization factor 0.5*(1 + cos^2(2theta) - K*cos(2psi)*sin^2(2theta))
real polarizationFactor(real cos2theta, real cos2psi) {
    const real cos2thetaSquared = cos2theta * cos2theta;
    const real sin2thetaSquared = RC(1.0) - cos2thetaSquared;
    return RC(0.5) * (RC(1.0) + cos2thetaSquared - P.kahn * cos2psi * sin2thetaSquared);
}

// One unit's diffracted ray, from the sample to a sub-pixel, as each precision keeps it: the
// precise shader in the lab frame (the reference's arithmetic, in double); the fast one in
// the source's frame (incident, u, v), where the scattering vector has no cancellation at
// small angles (docs/numerics/scattering-vector.md).
struct Ray {
    real airpath; // m
    real inverseAirpath;
#if BV_PRECISE
    real3 position;
    real3 diffracted; // unit vector
#else
    real along;   // the sub-pixel's coordinates in the source's frame, m
    real across1;
    real across2;
#endif
};

#if BV_PRECISE
Ray rayTo(real3 position, Source frame) {
    const real airpath = length(position);
    const real inverseAirpath = airpath != RC(0.0) ? RC(1.0) / airpath : RC(0.0);
    return Ray(airpath, inverseAirpath, position, position * inverseAirpath);
}
real3 diffractedOf(Ray ray, Source frame) { return ray.diffracted; }
real3 positionOf(Ray ray, Source frame) { return ray.position; }
real cos2thetaOf(Ray ray, Source frame) { return dot(frame.incident.xyz, ray.diffracted); }
// (diffracted - incident)/lambda; u.w is 1/lambda
real3 scatteringOf(Ray ray, Source frame) {
    return (ray.diffracted - frame.incident.xyz) * frame.u.w;
}
#else
Ray rayInFrame(real along, real across1, real across2) {
    const real airpath = length(real3(along, across1, across2));
    const real inverseAirpath = airpath != RC(0.0) ? RC(1.0) / airpath : RC(0.0);
    return Ray(airpath, inverseAirpath, along, across1, across2);
}
// a lab-frame point's ray
Ray rayTo(real3 position, Source frame) {
    return rayInFrame(dot(position, frame.incident.xyz), dot(position, frame.u.xyz),
                      dot(position, frame.v.xyz));
}
// Fdet row.x + Sdet row.y + Odet row.z + row.w, as three multiply-adds
real projected(real Fdet, real Sdet, real Odet, real4 row) {
    return fma(Fdet, row.x, fma(Sdet, row.y, fma(Odet, row.z, row.w)));
}
// the ray to the point (Fdet, Sdet, Odet) of the parameter block's flat detector, from the
// detector's axes and origin as the host projected them on the frame: three multiply-adds a
// coordinate instead of the lab position and three dot products
Ray rayToFlatDetector(real Fdet, real Sdet, real Odet, Source frame) {
    return rayInFrame(projected(Fdet, Sdet, Odet, frame.detectorAlong),
                      projected(Fdet, Sdet, Odet, frame.detectorU),
                      projected(Fdet, Sdet, Odet, frame.detectorV));
}
// the lab frame's point and direction, where something needs them (Kahn's factor, a thick
// sensor's parallax, a trace)
real3 positionOf(Ray ray, Source frame) {
    return ray.along * frame.incident.xyz + ray.across1 * frame.u.xyz + ray.across2 * frame.v.xyz;
}
real3 diffractedOf(Ray ray, Source frame) { return positionOf(ray, frame) * ray.inverseAirpath; }
real cos2thetaOf(Ray ray, Source frame) { return ray.along * ray.inverseAirpath; }
// (diffracted - incident)/lambda without cancellation: its part along the beam, (along - R)/R,
// as -(across^2)/(R(R + along)) where along > 0, directly where it is not; u.w is 1/lambda
real3 scatteringOf(Ray ray, Source frame) {
    const real3 i = frame.incident.xyz;
    const real inverseLambda = frame.u.w;
    if (ray.airpath == RC(0.0))
        return -i * inverseLambda; // the reference's zero diffracted vector
    const real R = ray.airpath;
    const real alongPart = ray.along > RC(0.0)
                               ? -(ray.across1 * ray.across1 + ray.across2 * ray.across2) /
                                     (R * (R + ray.along))
                               : ray.along * ray.inverseAirpath - RC(1.0);
    const real across = ray.inverseAirpath * inverseLambda;
    return (alongPart * inverseLambda) * i + (ray.across1 * across) * frame.u.xyz +
           (ray.across2 * across) * frame.v.xyz;
}
#endif

// The flat detector a pixel row lies on and the row's index on it: the parameter block's one
// detector, or with kPanels the row's panel.
struct PanelFrame {
    real3 pix0;
    real3 fdet;
    real3 sdet;
    real3 odet;
    real pixelSize;
    real subpixelSize;
    real closeDistance;
    int fastPixels;
    int row;
};

PanelFrame panelFrame(int spixel) {
    if (!kPanels)
        return PanelFrame(P.pix0.xyz, P.fdet.xyz, P.sdet.xyz, P.odet.xyz, P.pixelSize,
                          P.subpixelSize, P.closeDistance, P.fastPixels, spixel);
    const DetectorPanel panel = panels[panelOfRow[spixel]];
    return PanelFrame(panel.pix0.xyz, panel.fdet.xyz, panel.sdet.xyz, panel.odet.xyz,
                      panel.pixelSize, panel.subpixelSize, panel.closeDistance,
                      panel.fastPixels, spixel - panel.firstRow);
}

// right-handed rotation of v by angle (radians) about the unit vector axis
real3 rotateAbout(real3 v, real3 axis, real angle) {
    const real s = sinRadians(angle);
    const real c = cosRadians(angle);
    const real along = dot(axis, v) * (RC(1.0) - c);
    return axis * along + v * c + cross(axis, v) * s;
}

// One pixel's steps [range.begin, range.end): (fpixel, spixel) on the stacked image, index
// into it, frame its panel's.
void shadePixel(SliceEntry range, int fpixel, int spixel, int index, PanelFrame frame) {
    // A search slice (kSerialGridExit) walks the same loop only to find the pixel's first step
    // whose tricubic neighbourhood leaves the grid: nothing to do in a pixel whose step is
    // known, or one after a pixel already known to have one.
#if BV_TRACE
    const bool search = false;
#else
    const bool search = kSerialGridExit && range.search != 0u;
    if (search && (uint(index) > gridExit.exitPixel || gridExit.firstExitStep[index] != ~0u))
        return;
#endif
    // the image's slices: this pixel's steps before interpolateBefore interpolate; the pixel
    // where the grid is left first reports its step
    uint interpolateBefore = ~0u;
    bool exitPixel = false;
    if (kSerialGridExit && !search) {
        const uint firstExit = gridExit.exitPixel;
        exitPixel = uint(index) == firstExit;
        interpolateBefore = uint(index) < firstExit ? ~0u
                            : exitPixel             ? gridExit.firstExitStep[index]
                                                    : 0u;
    }

    const real3 pix0 = frame.pix0;
    const real3 fdet = frame.fdet;
    const real3 sdet = frame.sdet;
    const real3 odet = frame.odet;
    const int oversample = kOversample;
    const real subpixel = frame.subpixelSize;
    const int row = frame.row; // spixel on the panel
    const uint orientationCount = uint(kOrientationCount);
    const uint sourceCount = uint(kSourceCount);
    const uint sides = uint(oversample);

    real I;
    real polar;
    real omega;
    real capture;
    if (range.begin == 0u) {
        I = P.background;
        polar = kPolarization ? RC(0.0) : RC(1.0);
        omega = RC(0.0);
        capture = RC(1.0);
    } else {
        const real4 state = states[index];
        I = state.x;
        polar = state.y;
        omega = state.z;
        capture = state.w;
    }

    // (no load where no unit is fresh: most plans, and every one-step still)
    FreshUnit freshUnit = FreshUnit(-1, 0u);
    if (P.freshRows != 0)
        freshUnit = FreshUnit(freshUnits[spixel].pixel, freshUnits[spixel].unit);
    uint step = range.begin;
#if BV_TRACE
    uint walked = 0u; // steps the loops really went through (or skipped by -dmin)
#endif
    uint unit = step / orientationCount;  // (layer, subS, subF, source)
    uint first = step % orientationCount; // first orientation of this unit in the slice
    while (step < range.end) {
        if (step != range.begin && cancelRequested != 0u)
            return; // the run is cancelled (its image is discarded); main asked before the first
        if (search && uint(index) > gridExit.exitPixel)
            return; // an earlier pixel leaves the grid: this one's steps do not matter
        const uint source = unit % sourceCount;
        const uint subpixelIndex = unit / sourceCount;
        const int subF = int(subpixelIndex % sides);
        const int subS = int((subpixelIndex / sides) % sides);
        const int layer = int(subpixelIndex / (sides * sides));
        // what the reference does before its orientation loop happens when the unit is
        // entered from its start; a slice that resumes mid-unit finds it done (in the state)
        const bool unitStart = first == 0u;
        const bool subpixelStart = unitStart && source == 0u;
        if (subpixelStart && subF == 0 && subS == 0)
            capture = kThickness ? RC(0.0) : RC(1.0); // a new sensor layer

        const real Odet = real(layer) * P.thickStep;
        const real Fdet = subpixel * real(fpixel * oversample + subF) + subpixel / RC(2.0);
        const real Sdet = subpixel * real(row * oversample + subS) + subpixel / RC(2.0);
        const Source entry = sourceAt(source);
        Ray ray;
#if !BV_PRECISE
        if (!kCurved && !kPanels)
            ray = rayToFlatDetector(Fdet, Sdet, Odet, entry);
        else
#endif
        {
            real3 position = Fdet * fdet + Sdet * sdet + Odet * odet + pix0;
            if (kCurved) {
                // every pixel at "distance" from the sample: the flat position's y and z
                // become rotation angles about sdet and fdet
                const real3 towards = P.distance * P.beam.xyz;
                const real3 turned = rotateAbout(towards, sdet, position.y / P.distance);
                position = rotateAbout(turned, fdet, position.z / P.distance);
            }
            ray = rayTo(position, entry);
        }
        const real inverseAirpath = ray.inverseAirpath;

        if (subpixelStart) {
            if (omega == RC(0.0) || kOversampleOmega) {
                const real inverseSquare = inverseAirpath * inverseAirpath;
                omega = kPointPixel ? inverseSquare
                                    : frame.pixelSize * frame.pixelSize * inverseSquare *
                                          frame.closeDistance * inverseAirpath;
            }
            if (capture == RC(0.0) || kOversampleThick) {
                const real parallax = dot(diffractedOf(ray, entry), odet);
                capture = expReal(-real(layer) * P.thickStep * P.mu / parallax) -
                          expReal(-real(layer + 1) * P.thickStep * P.mu / parallax);
            }
        }

        const real3 incident = entry.incident.xyz;
        const real lambda = entry.incident.w;
        const real3 scattering = scatteringOf(ray, entry);
        bool skipped = false;
        if (kDmin) {
            const real stol = RC(0.5) * length(scattering);
            skipped = stol > RC(0.0) && P.dmin > RC(0.5) / stol;
        }
        // (one orientation: the unit's only step, which this slice holds since step < end)
        const uint last =
            orientationCount == 1u ? 1u : min(orientationCount, first + (range.end - step));
        // the first unit a reference thread runs starts from the unrotated crystal
        uint fresh = 0u;
        if (P.freshRows != 0 && freshUnit.pixel == index && freshUnit.unit == unit)
            fresh = uint(P.freshRows);
#if BV_TRACE
        if (skipped) {
            traceUnit(unit, layer, subS, subF, source, positionOf(ray, entry), ray.airpath,
                      diffractedOf(ray, entry),
                      scattering, lambda, omega, polar, capture, true);
            walked += last - first;
        }
#endif
        if (!skipped) {
            if (unitStart && (polar == RC(0.0) || kOversamplePolar)) {
                real cos2psi = RC(1.0);
                if (P.kahn != RC(0.0))
                    cos2psi = kahnCos2psi(incident, diffractedOf(ray, entry));
                polar = polarizationFactor(cos2thetaOf(ray, entry), cos2psi);
            }
#if BV_TRACE
            traceUnit(unit, layer, subS, subF, source, positionOf(ray, entry), ray.airpath,
                      diffractedOf(ray, entry),
                      scattering, lambda, omega, polar, capture, false);
#endif

            for (uint o = first; o < last; ++o) {
#if BV_TRACE
                ++walked;
#endif
                const Orientation axes = orientationAt(o < fresh ? orientationCount + o : o);
                const real3 hkl = real3(dot(axes.a.xyz, scattering), dot(axes.b.xyz, scattering),
                                        dot(axes.c.xyz, scattering));
                const real3 hkl0 = ceil(hkl - RC(0.5));
                const real latt = latticeFactor(hkl, hkl0);
#if BV_TRACE
                if (!kWater && latt == RC(0.0)) {
                    traceStep(step + (o - first), unit, o, hkl, hkl0, latt, RC(0.0), RC(0.0), I,
                              false);
                    continue;
                }
#else
                if (!kWater && latt == RC(0.0))
                    continue;
#endif

                // tricubic where the 4x4x4 neighbourhood is on the grid, else nearest; with
                // the reference's rule, nearest from its first step off the grid onwards
                // (docs/reference-quirks.md, "Pixel loop")
                const uint thisStep = step + (o - first);
                bool interpolated = kInterpolate && interpolationInRange(hkl);
                if (kSerialGridExit) {
                    if (search) {
                        if (interpolated)
                            continue;
                        gridExit.firstExitStep[index] = thisStep;
                        atomicMin(gridExit.exitPixel, uint(index));
                        return;
                    }
#if !BV_TRACE
                    if (exitPixel && thisStep == interpolateBefore) { // the reference warns here
                        gridExit.exitHkl = real4(hkl, RC(0.0));
                        gridExit.exitStep = thisStep;
                    }
#endif
                    interpolated = interpolated && thisStep < interpolateBefore;
                }
                const real cell =
                    interpolated ? interpolatedAmplitude(hkl) : nearestAmplitude(hkl0);
                const real amplitude = cell * latt;
                I = fma(amplitude, amplitude, I);
                if (kOversampleThick)
                    I *= capture;
                if (kOversamplePolar)
                    I *= polar;
                if (kOversampleOmega)
                    I *= omega;
#if BV_TRACE
                traceStep(step + (o - first), unit, o, hkl, hkl0, latt, cell,
                          amplitude * amplitude, I, true);
#endif
            }
        }
        step += last - first;
        ++unit;
        first = 0u;
    }

    if (search)
        return; // no step of this slice leaves the grid
    if (range.end < range.total)
        states[index] = real4(I, polar, omega, capture);
    // the finished pixel (the last slice) or the sum so far, scaled the same way, for a viewer
    // that shows the image refining
    real pixel = P.photonScale * I;
    if (!kOversampleThick)
        pixel *= capture;
    if (!kOversamplePolar)
        pixel *= polar;
    if (!kOversampleOmega)
        pixel *= omega;
#if BV_TRACE
    trace.pixel.w = int(walked); // range.total, unless the device ended a loop early
    traceEnd(kTraceComputed, I, polar, omega, capture, pixel); // the image is left alone
#else
    image[index] = float(pixel);
#endif
}

#if BV_TRACE
void main() {
    // the pinned pixel, all of its loop in this one invocation
    SliceEntry range = slices[push.slot];
    range.begin = 0u;
    range.end = range.total;
    const int fpixel = trace.pixel.x;
    const int spixel = trace.pixel.y;
    if (fpixel < P.roiXmin || spixel < P.roiYmin || fpixel > P.roiXmax ||
        spixel > P.roiYmax || fpixel >= P.fastPixels || spixel >= P.slowPixels) {
        trace.counts.x = kTraceOutside;
        return;
    }
    const int index = spixel * P.fastPixels + fpixel;
    const PanelFrame frame = panelFrame(spixel);
    if (fpixel >= frame.fastPixels) {
        trace.counts.x = kTraceOutside;
        return;
    }
    if (kMask && masked(index)) {
        trace.counts.x = kTraceMasked;
        return;
    }
    shadePixel(range, fpixel, spixel, index, frame);
}
#else
void main() {
    // The dispatch covers the ROI's bounding box, range.rows rows an invocation, a dispatch's
    // height apart; the image was zero-filled before it.
    const SliceEntry range = sliceAt(push.slot);
    const int fpixel = P.roiXmin + int(gl_GlobalInvocationID.x);
    if (fpixel > P.roiXmax || fpixel >= P.fastPixels)
        return;
    // (not where pixels are short: their dispatch is too)
    if (range.rows == 1u && cancelRequested != 0u)
        return; // the run is cancelled (its image is discarded)
    const int rowStride = int(gl_NumWorkGroups.y * gl_WorkGroupSize.y);
    for (int r = 0; r < int(range.rows); ++r) {
        const int spixel = P.roiYmin + int(gl_GlobalInvocationID.y) + r * rowStride;
        if (spixel > P.roiYmax || spixel >= P.slowPixels)
            return; // and the rows after it
        const int index = spixel * P.fastPixels + fpixel;
        const PanelFrame frame = panelFrame(spixel);
        if (fpixel >= frame.fastPixels || (kMask && masked(index)))
            continue; // beyond a narrower panel, or masked
        shadePixel(range, fpixel, spixel, index, frame);
    }
}
#endif
