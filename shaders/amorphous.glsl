// nonBragg's amorphous scattering, one invocation per pixel (compute/amorphous/AmorphousGpu.h):
// the loop of compute/amorphous/AmorphousImage.cpp (the reference's, step for step) in REAL,
// double in amorphous_precise.comp (native float64) and float in amorphous_fast.comp. It
// needs only +, -, *, / and sqrt: the polarization's cos(2 psi) is taken from the two
// projections it is the angle of (cos 2psi = (e^2 - b^2) / (e^2 + b^2)), not from atan2 and cos,
// which GLSL has in float only. `precise` keeps the compiler from fusing a*b+c, so the
// double variant rounds as the C++ loop does.

layout(local_size_x = 8, local_size_y = 8) in;

// the geometry (m), as NonBraggSetup holds it; indices kParams* below
layout(std430, set = 0, binding = 0) readonly buffer Params { REAL params[]; };
// 5 values per source: position x, y, z (m), weight, lambda (m)
layout(std430, set = 0, binding = 1) readonly buffer Sources { REAL sources[]; };
// the padded spline: x[0..n-1] (1/m, increasing) then F[0..n-1]
layout(std430, set = 0, binding = 2) readonly buffer Spline { REAL spline[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Image { float image[]; };
// each pixel's sum of sub-pixel solid angles (the printed "solid angle subtended")
layout(std430, set = 0, binding = 4) writeonly buffer Omega { REAL omegaOfPixel[]; };

layout(push_constant) uniform Pass {
    int fpixels, spixels, oversample, sourceCount;
    int splinePoints, roiXmin, roiXmax, roiYmin;
    int roiYmax, flags, pad0, pad1;
};

const int kFlagNoPolar = 1, kFlagCurved = 2, kFlagPointPixel = 4, kFlagFmap = 8;
const int kPix0 = 0, kFdet = 3, kSdet = 6, kOdet = 9, kBeam = 12, kAxis = 15;
const int kPixelSize = 18, kCloseDistance = 19, kDistance = 20, kKahn = 21;
// photons = sum x r_e^2 x fluence x molecules / steps, multiplied in that order
const int kThomson = 22, kFluence = 23, kMolecules = 24, kSteps = 25;

#define VEC3(i) RVEC3(params[i], params[i + 1], params[i + 2])

REAL unitize(inout RVEC3 v) {
    precise REAL m = sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    if (m != REAL(0))
        v = RVEC3(v.x / m, v.y / m, v.z / m);
    else
        v = RVEC3(0);
    return m;
}

REAL dot3(RVEC3 a, RVEC3 b) {
    precise REAL d = a.x * b.x + a.y * b.y + a.z * b.z;
    return d;
}

RVEC3 cross3(RVEC3 a, RVEC3 b) {
    precise RVEC3 c = RVEC3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
    return c;
}

#if BV_PAD_LIMIT
void sinCos(REAL x, out REAL s, out REAL c) {
    s = sin(x);
    c = cos(x);
}
#else
// sine and cosine in double, which GLSL does not have: x reduced by the nearest multiple of
// pi/2 (pi/2 split in two doubles, Cody and Waite), then Taylor series to the 21st/20th power,
// below 1e-17 for |r| <= pi/4. Only the curved detector's rotations need them.
void sinCos(REAL x, out REAL s, out REAL c) {
    const double halfPiHi = 1.5707963267948966, halfPiLo = 6.123233995736766e-17;
    double k = floor(x / halfPiHi + 0.5LF);
    precise double r = (x - k * halfPiHi) - k * halfPiLo;
    precise double r2 = r * r;
    precise double ps = 1.0LF, pc = 1.0LF;
    for (int n = 10; n >= 1; --n) {
        ps = 1.0LF - r2 / double((2 * n) * (2 * n + 1)) * ps;
        pc = 1.0LF - r2 / double((2 * n - 1) * (2 * n)) * pc;
    }
    double sr = r * ps, cr = pc;
    int q = int(mod(k, 4.0LF));
    s = q == 0 ? sr : q == 1 ? cr : q == 2 ? -sr : -cr;
    c = q == 0 ? cr : q == 1 ? -sr : q == 2 ? -cr : sr;
}
#endif

// rotate_axis()
RVEC3 rotateAxis(RVEC3 v, RVEC3 axis, REAL phi) {
    REAL s, c;
    sinCos(phi, s, c);
    precise REAL d = (axis.x * v.x + axis.y * v.y + axis.z * v.z) * (REAL(1) - c);
    precise RVEC3 r = RVEC3(axis.x * d + v.x * c + (-axis.z * v.y + axis.y * v.z) * s,
                            axis.y * d + v.y * c + (+axis.z * v.x - axis.x * v.z) * s,
                            axis.z * d + v.z * c + (-axis.y * v.x + axis.x * v.y) * s);
    return r;
}

// F at stol: the last point at or below it (bisection), then the four-point Lagrange cubic
REAL splineF(REAL stol) {
    int lo = 0, hi = splinePoints; // first x > stol in [lo, hi]
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (spline[mid] <= stol)
            lo = mid + 1;
        else
            hi = mid;
    }
    int k = clamp(lo - 1, 1, splinePoints - 3);
#if BV_PAD_LIMIT
    // float cannot hold the reference's far padding points (+-1e98, +-1e99) nor their
    // products: a padding point of the window is left out, which is the limit the reference's
    // cubic reaches with them (their weights vanish as 1e-98): the quadratic, or the line,
    // through the window's real points
    precise REAL F = REAL(0);
    for (int a = k - 1; a <= k + 2; ++a) {
        if (a < 2 || a > splinePoints - 3)
            continue;
        precise REAL term = spline[splinePoints + a];
        for (int b = k - 1; b <= k + 2; ++b)
            if (b != a && b >= 2 && b <= splinePoints - 3)
                term = term * (stol - spline[b]) / (spline[a] - spline[b]);
        F += term;
    }
#else
    REAL x0 = spline[k - 1], x1 = spline[k], x2 = spline[k + 1], x3 = spline[k + 2];
    int f = splinePoints + k - 1;
    REAL y0 = spline[f], y1 = spline[f + 1], y2 = spline[f + 2], y3 = spline[f + 3];
    precise REAL t0 = (stol - x1) * (stol - x2) * (stol - x3) * y0 / ((x0 - x1) * (x0 - x2) * (x0 - x3));
    precise REAL t1 = (stol - x0) * (stol - x2) * (stol - x3) * y1 / ((x1 - x0) * (x1 - x2) * (x1 - x3));
    precise REAL t2 = (stol - x0) * (stol - x1) * (stol - x3) * y2 / ((x2 - x0) * (x2 - x1) * (x2 - x3));
    precise REAL t3 = (stol - x0) * (stol - x1) * (stol - x2) * y3 / ((x3 - x0) * (x3 - x1) * (x3 - x2));
    precise REAL F = t0 + t1 + t2 + t3;
#endif
    return F;
}

REAL polarizationFactor(REAL kahn, inout RVEC3 incident, inout RVEC3 diffracted, inout RVEC3 axis) {
    unitize(incident);
    unitize(diffracted);
    unitize(axis);
    precise REAL cos2theta = dot3(incident, diffracted);
    precise REAL cos2thetaSqr = cos2theta * cos2theta;
    precise REAL sin2thetaSqr = REAL(1) - cos2thetaSqr;
    precise REAL cos2psi = REAL(1);
    if (kahn != REAL(0)) {
        RVEC3 B = cross3(axis, incident);
        unitize(B);
        RVEC3 E = cross3(incident, B);
        unitize(E);
        precise REAL e = dot3(diffracted, E), b = dot3(diffracted, B);
        precise REAL norm = e * e + b * b;
        cos2psi = norm > REAL(0) ? (e * e - b * b) / norm : REAL(1);
    }
    precise REAL p = REAL(0.5) * (REAL(1) + cos2thetaSqr - kahn * cos2psi * sin2thetaSqr);
    return p;
}

void main() {
    int fpixel = int(gl_GlobalInvocationID.x), spixel = int(gl_GlobalInvocationID.y);
    if (fpixel >= fpixels || spixel >= spixels)
        return;
    int j = spixel * fpixels + fpixel;
    if (fpixel < roiXmin || fpixel > roiXmax || spixel < roiYmin || spixel > roiYmax) {
        image[j] = 0.0;
        omegaOfPixel[j] = REAL(0);
        return;
    }
    RVEC3 fdet = VEC3(kFdet), sdet = VEC3(kSdet), pix0 = VEC3(kPix0), beam = VEC3(kBeam);
    RVEC3 axis = VEC3(kAxis);
    REAL pixelSize = params[kPixelSize], closeDistance = params[kCloseDistance];
    REAL distance = params[kDistance], kahn = params[kKahn];
    precise REAL subpixel = pixelSize / REAL(oversample);
    precise REAL Ibg = REAL(0), omegaSum = REAL(0);
    REAL Fbg = REAL(0);
    for (int subS = 0; subS < oversample; ++subS)
        for (int subF = 0; subF < oversample; ++subF) {
            precise REAL Fdet = subpixel * REAL(fpixel * oversample + subF) + subpixel / REAL(2);
            precise REAL Sdet = subpixel * REAL(spixel * oversample + subS) + subpixel / REAL(2);
            precise RVEC3 pos = RVEC3(Fdet * fdet.x + Sdet * sdet.x + pix0.x,
                                      Fdet * fdet.y + Sdet * sdet.y + pix0.y,
                                      Fdet * fdet.z + Sdet * sdet.z + pix0.z);
            if ((flags & kFlagCurved) != 0) {
                RVEC3 n = rotateAxis(distance * beam, sdet, pos.y / distance);
                pos = rotateAxis(n, fdet, pos.z / distance);
            }
            RVEC3 diffracted = pos;
            precise REAL airpath = unitize(diffracted);
            precise REAL omega = pixelSize * pixelSize / airpath / airpath * closeDistance / airpath;
            if ((flags & kFlagPointPixel) != 0)
                omega = REAL(1) / airpath / airpath;
            omegaSum += omega;
            for (int s = 0; s < sourceCount; ++s) {
                RVEC3 incident = -RVEC3(sources[5 * s], sources[5 * s + 1], sources[5 * s + 2]);
                unitize(incident);
                REAL lambda = sources[5 * s + 4];
                precise RVEC3 scattering = RVEC3((diffracted.x - incident.x) / lambda,
                                                 (diffracted.y - incident.y) / lambda,
                                                 (diffracted.z - incident.z) / lambda);
                precise REAL stol = REAL(0.5) * sqrt(dot3(scattering, scattering));
                Fbg = splineF(stol);
                REAL sign = Fbg < REAL(0) ? REAL(-1) : REAL(1);
                REAL polar = (flags & kFlagNoPolar) != 0
                                 ? REAL(1)
                                 : polarizationFactor(kahn, incident, diffracted, axis);
                Ibg += sign * Fbg * Fbg * polar * omega * sources[5 * s + 3];
            }
        }
    precise REAL photons = Ibg * params[kThomson] * params[kFluence] * params[kMolecules] / params[kSteps];
    image[j] = (flags & kFlagFmap) != 0 ? float(Fbg) : float(photons);
    omegaOfPixel[j] = omegaSum;
}
