// The crystal's two factors: the lattice transform F_latt (shape of the spots) and the unit
// cell's structure factor F_cell (nearest grid value or tricubic interpolation).
// Needs params.glsl and numerics.glsl.

// sin(N*pi*h)/sin(pi*h) from the fractional index f = h - h0 (h0 the nearest integer):
//   sin(N*pi*h)/sin(pi*h) = (-1)^(h0*(N-1)) * sin(N*pi*f)/sin(pi*f)
// (docs/numerics/reduced-argument-sincg.md). At f == 0 the limit N (times the sign).
// N is a whole number >= 1, as the reference's Na, Nb, Nc always are.
real sincgReduced(real f, real h0, real N) {
    real value = f == RC(0.0) ? N : sinPi(N * f) / sinPi(f);
    // the sign only matters for the product's sign; intensities square it, but keep the
    // reference's value so that F_latt is the same number
    const real half0 = RC(0.5) * h0;
    const bool h0Odd = half0 != floor(half0);
    const real halfN = RC(0.5) * N;
    const bool nEven = halfN == floor(halfN);
    return (h0Odd && nEven) ? -value : value;
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
    if (kShape == kShapeSquare) {
        real value = RC(1.0);
        if (P.cells.x > RC(1.0))
            value *= sincgReduced(f.x, hkl0.x, P.cells.x);
        if (P.cells.y > RC(1.0))
            value *= sincgReduced(f.y, hkl0.y, P.cells.y);
        if (P.cells.z > RC(1.0))
            value *= sincgReduced(f.z, hkl0.z, P.cells.z);
        return value;
    }
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
