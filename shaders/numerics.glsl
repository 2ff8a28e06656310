// Transcendental functions the shader writes itself rather than trusting the driver's:
// GLSL has no double-precision sin/cos/exp at all, and the float ones may be as coarse as
// Vulkan allows (sin: 2^-11 absolute), which the precise bar (1e-5) cannot afford.
// See docs/numerics/transcendentals.md.
//
//   sinPi(x) = sin(pi*x), cosPi(x) = cos(pi*x) for any x (argument reduction is exact)
//   sinPiFloat(x): sinPi in float (the fast shader's sinPi)
//   expReal(x) = e^x
//
// Needs params.glsl (real) and BV_PRECISE.

// cosPi's kernels: sin(pi*r) and cos(pi*r) for |r| <= 1/4, Taylor series in r, coefficients
// (-1)^k pi^(2k+1)/(2k+1)! and (-1)^k pi^(2k)/(2k)!. Truncation error below 1e-17 (double) or
// 2e-9 (float).
#if BV_PRECISE
real sinPiKernel(real r) {
    const real z = r * r;
    real p = -2.2948428997269873e-08LF;
    p = p * z + 7.952054001475513e-07LF;
    p = p * z - 2.1915353447830217e-05LF;
    p = p * z + 0.00046630280576761255LF;
    p = p * z - 0.0073704309457143504LF;
    p = p * z + 0.08214588661112823LF;
    p = p * z - 0.5992645293207921LF;
    p = p * z + 2.5501640398773455LF;
    p = p * z - 5.16771278004997LF;
    p = p * z + 3.141592653589793LF;
    return p * r;
}
real cosPiKernel(real r) {
    const real z = r * r;
    real p = -1.3878952462213771e-07LF;
    p = p * z + 4.303069587032947e-06LF;
    p = p * z - 0.0001046381049248457LF;
    p = p * z + 0.0019295743094039231LF;
    p = p * z - 0.02580689139001406LF;
    p = p * z + 0.2353306303588932LF;
    p = p * z - 1.3352627688545895LF;
    p = p * z + 4.0587121264167685LF;
    p = p * z - 4.934802200544679LF;
    return p * z + 1.0LF;
}
#else
real sinPiKernel(real r) {
    const real z = r * r;
    real p = 0.08214588661112823;
    p = p * z - 0.5992645293207921;
    p = p * z + 2.5501640398773455;
    p = p * z - 5.16771278004997;
    p = p * z + 3.141592653589793;
    return p * r;
}
real cosPiKernel(real r) {
    const real z = r * r;
    real p = -0.02580689139001406;
    p = p * z + 0.2353306303588932;
    p = p * z - 1.3352627688545895;
    p = p * z + 4.0587121264167685;
    p = p * z - 4.934802200544679;
    return p * z + 1.0;
}
#endif

// x = n/2 + r with n = round(2x) and |r| <= 1/4; both steps are exact in floating point
// (n/2 is representable and the subtraction of nearby numbers is exact, Sterbenz).
// |x| must stay below 2^30 (n is an int); the shader's arguments are Miller indices times
// crystal sizes, many orders of magnitude smaller.
void reduceQuarter(real x, out real r, out int quadrant) {
    const real n = round(2.0 * x);
    r = x - 0.5 * n;
    quadrant = int(n) & 3;
}

// sin(pi*x) by the half-period reduction x = n + r, n = round(x), |r| <= 1/2 (exact), and
// sin(pi*x) = (-1)^n sin(pi*r): ONE odd Taylor polynomial, never a choice between a sine and
// a cosine kernel, which a GPU evaluates both of when neighbouring pixels disagree. n is
// found by the round-to-nearest of adding and subtracting 1.5*2^23 (float) or 1.5*2^52
// (double), whose lowest mantissa bit is then n's parity: no float-to-int conversion.
// `precise` keeps the compiler from folding (x + M) - M into x. Valid for |x| < 2^22 (float)
// / 2^51 (double). The square crystal's lattice factor writes the same polynomial its own way
// (shaders/lattice.glsl, docs/numerics/lattice-factor-mixed-precision.md).
float sinPiFloat(float x) {
    precise float shifted = x + 12582912.0;
    precise float n = shifted - 12582912.0;
    const float r = x - n;
    const float z = r * r;
    // (-1)^k pi^(2k+1)/(2k+1)! to r^13: truncation below 6.7e-10 at |r| = 1/2
    float p = 0.00046630280576761255;
    p = p * z - 0.0073704309457143504;
    p = p * z + 0.08214588661112823;
    p = p * z - 0.5992645293207921;
    p = p * z + 2.5501640398773455;
    p = p * z - 5.16771278004997;
    p = p * z + 3.141592653589793;
    const float v = p * r;
    return (floatBitsToInt(shifted) & 1) == 0 ? v : -v;
}

#if BV_PRECISE
real sinPi(real x) {
    precise real shifted = x + 6755399441055744.0LF;
    precise real n = shifted - 6755399441055744.0LF;
    const real r = x - n;
    const real z = r * r;
    // (-1)^k pi^(2k+1)/(2k+1)! to r^21: truncation below 1.3e-18 at |r| = 1/2
    real p = 5.392664662608129e-10LF;
    p = p * z - 2.2948428997269873e-08LF;
    p = p * z + 7.952054001475513e-07LF;
    p = p * z - 2.1915353447830217e-05LF;
    p = p * z + 0.00046630280576761255LF;
    p = p * z - 0.0073704309457143504LF;
    p = p * z + 0.08214588661112823LF;
    p = p * z - 0.5992645293207921LF;
    p = p * z + 2.5501640398773455LF;
    p = p * z - 5.16771278004997LF;
    p = p * z + 3.141592653589793LF;
    const real v = p * r;
    return (unpackDouble2x32(shifted).x & 1u) == 0u ? v : -v;
}
#else
real sinPi(real x) { return sinPiFloat(x); }
#endif

real cosPi(real x) {
    real r;
    int q;
    reduceQuarter(x, r, q);
    const real v = (q & 1) == 0 ? cosPiKernel(r) : sinPiKernel(r);
    return (q == 0 || q == 3) ? v : -v;
}

// sin(x), cos(x) of a radian argument: through x/pi (one extra rounding, 1 ulp)
real sinRadians(real x) { return sinPi(x * kInversePi); }
real cosRadians(real x) { return cosPi(x * kInversePi); }

#if BV_PRECISE
// e^x in double: x = k*ln2 + r (Cody-Waite, ln2 split so k*ln2hi is exact), |r| <= ln2/2,
// Taylor series to r^13 (truncation below 1e-17), then 2^k.
real expReal(real x) {
    if (x < -745.0LF)
        return 0.0LF;
    if (x > 709.0LF)
        x = 709.0LF; // the largest finite result; the reference would give inf
    const real k = round(x * 1.4426950408889634LF);
    const real r = (x - k * 0.6931467056274414LF) - k * 4.7493250390316726e-07LF;
    real p = 1.6059043836821613e-10LF;
    p = p * r + 2.08767569878681e-09LF;
    p = p * r + 2.505210838544172e-08LF;
    p = p * r + 2.755731922398589e-07LF;
    p = p * r + 2.7557319223985893e-06LF;
    p = p * r + 2.48015873015873e-05LF;
    p = p * r + 0.0001984126984126984LF;
    p = p * r + 0.001388888888888889LF;
    p = p * r + 0.008333333333333333LF;
    p = p * r + 0.041666666666666664LF;
    p = p * r + 0.16666666666666666LF;
    p = p * r + 0.5LF;
    p = p * r + 1.0LF;
    p = p * r + 1.0LF;
    // 2^k in two steps so that neither factor overflows or underflows on its own
    const int k1 = int(k) / 2;
    return ldexp(ldexp(p, k1), int(k) - k1);
}
#else
real expReal(real x) { return exp(x); }
#endif
