// The crystal's two factors: the lattice transform F_latt (shape of the spots) and the unit
// cell's structure factor F_cell (nearest grid value or tricubic interpolation).
// Needs params.glsl and numerics.glsl.

// The square crystal's F_latt = prod over the axes of sin(N*pi*h)/sin(pi*h), from the
// fractional indices f = h - h0 (h0 the nearest integer, |f| <= 1/2):
//   sin(N*pi*h)/sin(pi*h) = (-1)^(h0*(N-1)) * sin(N*pi*f)/sin(pi*f)
// (docs/numerics/reduced-argument-sincg.md); the limit N where f is 0 (or below 1e-10, where
// the ratio is N to 1e-19). N is a whole number >= 1, as the reference's Na, Nb, Nc are.
// Signs are left out, here and in the reduction of N*f below: F_latt only ever enters the
// intensity squared. The sines are of reduced arguments, |r| <= 1/2, written
//   sin(pi r) = pi r (1 + u(r^2)),   u = sum_{k>=1} (-1)^k (pi r)^(2k)/(2k+1)!,
// and the three axes are combined with ONE division per step: on a GPU a division costs what
// several multiply-adds do (docs/numerics/lattice-factor-mixed-precision.md).
//   fast:    all in float.
//   precise: all in double (docs/numerics/lattice-factor-mixed-precision.md says why the
//            mixed form it once had was not enough for the noise image).

// x - round(x) for |x| < 2^22: the round-to-nearest of adding and subtracting 1.5*2^23
// replaces a round instruction; `precise` keeps the compiler from folding (x + M) - M into x.
// The result is exact (|result| <= 1/2).
float reducedHalfFloat(float x) {
    precise float shifted = x + 12582912.0;
    precise float n = shifted - 12582912.0;
    return x - n;
}

// u(z), z = r^2: sin(pi r) = pi r (1 + u), coefficients (-1)^k pi^(2k)/(2k+1)! to k = 6 (the
// next term is below 4.3e-10 at |r| = 1/2)
float sinPiRelativeCorrection(float z) {
    float q = 0.000148428793031071;
    q = q * z - 0.0023460810354558235;
    q = q * z + 0.0261478478176548;
    q = q * z - 0.19075182412208422;
    q = q * z + 0.8117424252833536;
    q = q * z - 1.6449340668482264;
    return q * z;
}

// below this |f| the ratio sin(N pi f)/sin(pi f) is N to double precision, and the product of
// three sines stays far above float's smallest normal number (1.2e-38)
const float kSincgLimit = 1e-10;

// Up to kChebyshevCells cells along an axis the ratio is a polynomial of cos(pi f):
//   sin(N pi f) / sin(pi f) = U_{N-1}(cos(pi f)),
// U the Chebyshev polynomial of the second kind, from U_0 = 1, U_1 = 2c by
// U_{k+1} = 2c U_k - U_{k-1}: one cosine polynomial and N - 2 fused multiply-adds per axis,
// no division, and no special case at f = 0 (U_{N-1}(1) = N exactly). Beyond it the N - 2
// steps cost more than a second polynomial and a division, and the ratio of the two sines is
// used (docs/numerics/chebyshev-lattice-factor.md), as it is for an N that is not a whole
// number (a crystal size being refined: sin(N pi f) / sin(pi f) then stays smooth in N). The
// specialised pipelines know a whole N (kCells) and unroll the steps.
const int kChebyshevCells = 16;

// 2 cos(pi f) for |f| <= 1/2 as a polynomial of z = f^2.
// In float: Taylor's coefficients 2 (-1)^k pi^(2k)/(2k)! to k = 5.
// In double: 2 + z h(z), h of degree 7 on z in [0, 1/4] by Chebyshev economisation of its
// Taylor series (docs/numerics/chebyshev-lattice-factor.md, "The cosine in double";
// docs/numerics/cos-pi-coefficients.py prints them): the polynomial is within z * 1.3e-16,
// its value in double within 3.2e-16, and exactly 2 at f = 0. One multiply-add fewer than
// the Taylor polynomial it replaced (to k = 9, 6.8e-15 off at |f| = 1/2).
#if BV_PRECISE
dvec3 cosPiOfSquare(dvec3 z) {
    dvec3 h = dvec3(8.332826345017138e-06LF);
    h = fma(h, z, dvec3(-0.00020916575136094252LF));
    h = fma(h, z, dvec3(0.0038591253132087425LF));
    h = fma(h, z, dvec3(-0.05161378005315705LF));
    h = fma(h, z, dvec3(0.47066126054443846LF));
    h = fma(h, z, dvec3(-2.670525537703766LF));
    h = fma(h, z, dvec3(8.117424252833471LF));
    h = fma(h, z, dvec3(-9.869604401089358LF));
    return fma(h, z, dvec3(2.0LF));
}
#else
vec3 cosPiOfSquare(vec3 z) {
    vec3 c = vec3(-0.05161378278002812);
    c = fma(c, z, vec3(0.4706612607177864));
    c = fma(c, z, vec3(-2.670525537709179));
    c = fma(c, z, vec3(8.117424252833537));
    c = fma(c, z, vec3(-9.869604401089358));
    return fma(c, z, vec3(2.0));
}
#endif

// U_{N_i - 1}(cos(pi f_i)) = sin(N_i pi f_i) / sin(pi f_i) for the three axes at once, each
// N_i from 2 to kChebyshevCells: the three cosines and recurrences side by side, as vectors.
// Written as a loop over the axes, the same operations, in the same order, took the precise
// heavy_1024 2.70 ms on an H100 against 2.1 as vectors (docs/performance.md, session 20).
real3 chebyshevSincg(real3 f, ivec3 N) {
    const real3 twoC = cosPiOfSquare(f * f);
    real3 previous = real3(RC(1.0));
    real3 current = twoC;
    const int longest = max(max(N.x, N.y), N.z);
    for (int k = 2; k < longest; ++k) {
        const real3 next = fma(twoC, current, -previous);
        previous = current;
        // an axis whose N is reached keeps its value (its `previous` is no longer read)
        current = mix(current, next, lessThan(ivec3(k), N));
    }
    return current;
}

// One axis of the ratio of sines: sin(N pi f) into the numerator, sin(pi f) into the
// denominator (the pi's cancel, so both may leave it out).
// Precise: in double, sinPi (numerics.glsl) on both arguments. The float image then equals
// the reference's bit for bit nearly everywhere, which the noise image needs: a Poisson
// deviate of a bright pixel changes with the last bit of its mean, and every later deviate
// with it (docs/numerics/lattice-factor-mixed-precision.md, "Precise: the reference's bits").
#if BV_PRECISE
void multiplySines(double N, double f, inout double numerator, inout double denominator) {
    numerator *= sinPi(N * f);
    denominator *= sinPi(f);
}
#else
void multiplySines(float N, float f, inout float numerator, inout float denominator) {
    const float r = reducedHalfFloat(N * f);
    numerator *= r * (1.0 + sinPiRelativeCorrection(r * r));
    denominator *= f * (1.0 + sinPiRelativeCorrection(f * f));
}
#endif

// One axis that takes the ratio of sines: N cells, not a whole number of them or more than
// kChebyshevCells (an N of 1 or less leaves the factor alone).
void multiplyRatioAxis(real N, real f, inout real numerator, inout real denominator) {
    if (!(N > RC(1.0)))
        return;
    if (abs(f) < real(kSincgLimit))
        numerator *= N;
    else
        multiplySines(N, f, numerator, denominator);
}

// The three axes: the Chebyshev polynomial where N is a whole number up to kChebyshevCells,
// else the ratio, its numerators and denominators multiplied apart and divided once. The axes
// are written out, x, y, z, with no loop over them and no vector indexed by a loop variable
// (docs/numerics/chebyshev-lattice-factor.md, "The three axes as vectors").
real squareLatticeFactor(real3 f) {
    const ivec3 whole = ivec3(kCells(0), kCells(1), kCells(2));
    const bvec3 polynomial = bvec3(whole.x > 1 && whole.x <= kChebyshevCells,
                                   whole.y > 1 && whole.y <= kChebyshevCells,
                                   whole.z > 1 && whole.z <= kChebyshevCells);
    real chebyshev = RC(1.0);
    if (any(polynomial)) {
        // (an axis that takes the ratio runs the recurrence once, its value left out)
        const real3 sincg = chebyshevSincg(f, mix(ivec3(2), whole, polynomial));
        if (polynomial.x)
            chebyshev *= sincg.x;
        if (polynomial.y)
            chebyshev *= sincg.y;
        if (polynomial.z)
            chebyshev *= sincg.z;
    }
    real numerator = RC(1.0);
    real denominator = RC(1.0);
    if (whole.x != 1 && !polynomial.x)
        multiplyRatioAxis(P.cells.x, f.x, numerator, denominator);
    if (whole.y != 1 && !polynomial.y)
        multiplyRatioAxis(P.cells.y, f.y, numerator, denominator);
    if (whole.z != 1 && !polynomial.z)
        multiplyRatioAxis(P.cells.z, f.z, numerator, denominator);
    // x / 1 is x: the division is left out where no axis took the ratio
    return denominator == RC(1.0) ? chebyshev * numerator : chebyshev * (numerator / denominator);
}

// 3*(sin x - x cos x)/x^3 for x = pi*u, u >= 0. Below x = 1 the direct formula loses
// digits to cancellation (relative error eps/x^2), so a series takes over there:
//   sum_j (-1)^j 6(j+1) x^(2j)/(2j+3)!
real sinc3OfPiTimes(real u) {
    const real x = kPi * u;
    if (x == RC(0.0))
        return RC(1.0);
    if (x < RC(1.0)) {
        const real z = x * x;
#if BV_PRECISE
        real p = -1.1743764638034756e-18LF;
        p = p * z + 4.439143033177138e-16LF;
        p = p * z - 1.34949948208585e-13LF;
        p = p * z + 3.2118087673643227e-11LF;
        p = p * z - 5.7812557812557815e-09LF;
        p = p * z + 7.515632515632515e-07LF;
        p = p * z - 6.613756613756614e-05LF;
        p = p * z + 0.0035714285714285713LF;
        p = p * z - 0.1LF;
#else
        real p = 7.515632515632515e-07;
        p = p * z - 6.613756613756614e-05;
        p = p * z + 0.0035714285714285713;
        p = p * z - 0.1;
#endif
        return p * z + RC(1.0);
    }
    return RC(3.0) * (sinPi(u) - x * cosPi(u)) / (x * x * x);
}

// F_latt for the pixel's fractional Miller indices hkl and their nearest integers hkl0.
real latticeFactor(real3 hkl, real3 hkl0) {
    const real3 f = hkl - hkl0;
    if (kShape == kShapeSquare)
        return squareLatticeFactor(f);
    if (kShape == kShapeRound) {
        // radius in hkl space, squared, in units of the spot size
        const real hradSquared = f.x * f.x * P.cells.x * P.cells.x +
                                 f.y * f.y * P.cells.y * P.cells.y +
                                 f.z * f.z * P.cells.z * P.cells.z;
        return P.cells.w * kRoundVolumeRatio * sinc3OfPiTimes(sqrt(hradSquared * P.fudge));
    }
    // reciprocal-space distance to the nearest node, with the unrotated reciprocal axes
    const real3 d = f.x * P.aStar.xyz + f.y * P.bStar.xyz + f.z * P.cStar.xyz;
    const real radStarSquared = (d.x * d.x + d.y * d.y + d.z * d.z) * P.cells.x * P.cells.x *
                                P.cells.y * P.cells.y * P.cells.z * P.cells.z;
    if (kShape == kShapeGauss)
        return P.cells.w * expReal(-(radStarSquared / kGaussWidth * P.fudge));
    // tophat: flat-top spot of the same height and volume as the square crystal's
    return radStarSquared * P.fudge < kTophatRadiusSquared ? P.cells.w : RC(0.0);
}

// F(hkl) on the grid (callers check the range)
real tableAmplitude(int h, int k, int l) {
    const int kCount = P.kMax - P.kMin + 1;
    const int lCount = P.lMax - P.lMin + 1;
    return amplitudes[((h - P.hMin) * kCount + (k - P.kMin)) * lCount + (l - P.lMin)];
}

// nanoBragg's nearest-neighbour rule: the table value when hkl0 is on the grid, else default_F
real nearestAmplitude(real3 hkl0) {
    if (kTable && hkl0.x >= real(P.hMin) && hkl0.x <= real(P.hMax) && hkl0.y >= real(P.kMin) &&
        hkl0.y <= real(P.kMax) && hkl0.z >= real(P.lMin) && hkl0.z <= real(P.lMax))
        return tableAmplitude(int(hkl0.x), int(hkl0.y), int(hkl0.z));
    return P.defaultF;
}

// Whether the tricubic neighbourhood of hkl stays on the grid, by the reference's test:
// h - hMin + 3 <= hRange and h - 2 >= hMin (hRange = hMax - hMin + 1), same for k and l.
bool axisInRange(real x, int lo, int hi) {
    return !(x - real(lo) + RC(3.0) > real(hi - lo + 1) || x - RC(2.0) < real(lo));
}
bool interpolationInRange(real3 hkl) {
    return axisInRange(hkl.x, P.hMin, P.hMax) && axisInRange(hkl.y, P.kMin, P.kMax) &&
           axisInRange(hkl.z, P.lMin, P.lMax);
}

// Lagrange weights of the four nodes n-1, n, n+1, n+2 (n = floor(x)) at x, the factors of
// the reference's four-point polint: nodes one apart give denominators -6, 2, -2, 6.
real4 lagrangeWeights(real x, real n) {
    const real d0 = x - (n - RC(1.0));
    const real d1 = x - n;
    const real d2 = x - (n + RC(1.0));
    const real d3 = x - (n + RC(2.0));
    return real4(d1 * d2 * d3 / RC(-6.0), d0 * d2 * d3 / RC(2.0), d0 * d1 * d3 / RC(-2.0),
                 d0 * d1 * d2 / RC(6.0));
}

// Tricubic interpolation of F over the 4x4x4 grid points around hkl (the reference's polin3:
// l first, then k, then h). The caller has checked interpolationInRange(hkl).
real interpolatedAmplitude(real3 hkl) {
    const real3 n = floor(hkl);
    const real4 wh = lagrangeWeights(hkl.x, n.x);
    const real4 wk = lagrangeWeights(hkl.y, n.y);
    const real4 wl = lagrangeWeights(hkl.z, n.z);
    const ivec3 first = ivec3(n) - ivec3(1);
    real sumH = RC(0.0);
    for (int i = 0; i < 4; ++i) {
        real sumK = RC(0.0);
        for (int j = 0; j < 4; ++j) {
            real sumL = RC(0.0);
            for (int m = 0; m < 4; ++m)
                sumL += wl[m] * tableAmplitude(first.x + i, first.y + j, first.z + m);
            sumK += wk[j] * sumL;
        }
        sumH += wh[i] * sumK;
    }
    return sumH;
}
