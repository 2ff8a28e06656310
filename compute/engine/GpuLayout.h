#pragma once
// The C++ mirror of the diffraction shader's interface (shaders/params.glsl): the parameter
// block, the table entries, the push constants and the specialization constant ids. Real is
// double for the precise shader and float for the fast one; the static_asserts below pin
// every offset to what std140/std430 give the GLSL declarations, so a change on one side
// that is not made on the other fails the build.

#include <cstddef>
#include <cstdint>

namespace bv::engine {

template <typename Real> struct GpuVec4 { Real x = 0, y = 0, z = 0, w = 0; };

// uniform Params (std140). real4 members first, then reals, then ints: no padding anywhere.
template <typename Real> struct GpuParams {
    GpuVec4<Real> pix0, fdet, sdet, odet, beam, polarAxis;
    GpuVec4<Real> aStar, bStar, cStar;
    GpuVec4<Real> cells; // Na, Nb, Nc, Na*Nb*Nc
    Real pixelSize = 0, subpixelSize = 0, distance = 0, closeDistance = 0;
    Real thickStep = 0, mu = 0, kahn = 0, dmin = 0;
    Real fudge = 0, photonScale = 0, background = 0, defaultF = 0;
    std::int32_t fastPixels = 0, slowPixels = 0, oversample = 1, thickSteps = 1;
    std::int32_t roiXmin = 0, roiXmax = -1, roiYmin = 0, roiYmax = -1;
    std::int32_t sourceCount = 0, orientationCount = 0, hMin = 0, hMax = -1;
    std::int32_t kMin = 0, kMax = -1, lMin = 0, lMax = -1;
    std::int32_t freshRows = 0; // the phi carry-over (SerialOrder.h)
    std::int32_t unused0 = 0, unused1 = 0, unused2 = 0;
};

// struct Orientation (std430): a, b, c as real4
template <typename Real> struct GpuOrientation { GpuVec4<Real> a, b, c; };

// struct Source (std430): incident direction and wavelength (w), and two unit vectors that
// complete it to a right-handed frame (the fast shader's scattering vector uses them)
template <typename Real> struct GpuSource { GpuVec4<Real> incident, u, v; };

// slices[] (std430): a VkDispatchIndirectCommand followed by the slice's step range
struct GpuSliceEntry {
    std::uint32_t groupsX = 0, groupsY = 0, groupsZ = 0;
    std::uint32_t begin = 0, end = 0, total = 0;
    std::uint32_t unused0 = 0, unused1 = 0;
};

// per-pixel state between slices: running sum, polar, omega, capture fraction (real4)
template <typename Real> using GpuPixelState = GpuVec4<Real>;

// freshUnits[] (std430), one per detector row
struct GpuFreshUnit {
    std::int32_t pixel = -1;
    std::uint32_t unit = 0;
};

// push constants: the slot of the slice table a dispatch runs
struct GpuPush {
    std::uint32_t slot = 0;
};

// layout(constant_id = N) in params.glsl
enum SpecId : std::uint32_t {
    SpecLocalSizeX = 0,
    SpecLocalSizeY = 1,
    SpecShape = 2,
    SpecInterpolate = 3,
    SpecOversampleThick = 4,
    SpecOversamplePolar = 5,
    SpecOversampleOmega = 6,
    SpecCurved = 7,
    SpecPointPixel = 8,
    SpecPolarization = 9,
    SpecThickness = 10,
    SpecWater = 11,
    SpecTable = 12,
    SpecMask = 13,
    SpecDmin = 14,
};

// descriptor bindings of set 0
enum Binding : std::uint32_t {
    BindingParams = 0,
    BindingOrientations = 1,
    BindingSources = 2,
    BindingAmplitudes = 3,
    BindingMask = 4,
    BindingImage = 5,
    BindingSlices = 6,
    BindingStates = 7,
    BindingFreshUnits = 8,
};

namespace layout_checks {

template <typename Real> constexpr bool paramsLayoutMatches() {
    constexpr std::size_t v = 4 * sizeof(Real); // one real4
    constexpr std::size_t r = sizeof(Real);
    constexpr std::size_t reals = 10 * v;        // first real
    constexpr std::size_t ints = reals + 12 * r; // first int
    using P = GpuParams<Real>;
    return offsetof(P, pix0) == 0 && offsetof(P, fdet) == v && offsetof(P, sdet) == 2 * v &&
           offsetof(P, odet) == 3 * v && offsetof(P, beam) == 4 * v &&
           offsetof(P, polarAxis) == 5 * v && offsetof(P, aStar) == 6 * v &&
           offsetof(P, bStar) == 7 * v && offsetof(P, cStar) == 8 * v &&
           offsetof(P, cells) == 9 * v && offsetof(P, pixelSize) == reals &&
           offsetof(P, subpixelSize) == reals + r && offsetof(P, distance) == reals + 2 * r &&
           offsetof(P, closeDistance) == reals + 3 * r && offsetof(P, thickStep) == reals + 4 * r &&
           offsetof(P, mu) == reals + 5 * r && offsetof(P, kahn) == reals + 6 * r &&
           offsetof(P, dmin) == reals + 7 * r && offsetof(P, fudge) == reals + 8 * r &&
           offsetof(P, photonScale) == reals + 9 * r && offsetof(P, background) == reals + 10 * r &&
           offsetof(P, defaultF) == reals + 11 * r && offsetof(P, fastPixels) == ints &&
           offsetof(P, slowPixels) == ints + 4 && offsetof(P, oversample) == ints + 8 &&
           offsetof(P, thickSteps) == ints + 12 && offsetof(P, roiXmin) == ints + 16 &&
           offsetof(P, roiXmax) == ints + 20 && offsetof(P, roiYmin) == ints + 24 &&
           offsetof(P, roiYmax) == ints + 28 && offsetof(P, sourceCount) == ints + 32 &&
           offsetof(P, orientationCount) == ints + 36 && offsetof(P, hMin) == ints + 40 &&
           offsetof(P, hMax) == ints + 44 && offsetof(P, kMin) == ints + 48 &&
           offsetof(P, kMax) == ints + 52 && offsetof(P, lMin) == ints + 56 &&
           offsetof(P, lMax) == ints + 60 && offsetof(P, freshRows) == ints + 64 &&
           sizeof(P) == ints + 80;
}

static_assert(paramsLayoutMatches<double>(), "GpuParams<double> differs from params.glsl (std140)");
static_assert(paramsLayoutMatches<float>(), "GpuParams<float> differs from params.glsl (std140)");
static_assert(sizeof(GpuParams<double>) == 496 && sizeof(GpuParams<float>) == 288);
static_assert(sizeof(GpuOrientation<double>) == 96 && sizeof(GpuOrientation<float>) == 48,
              "Orientation is three real4 (std430)");
static_assert(sizeof(GpuSource<double>) == 96 && sizeof(GpuSource<float>) == 48,
              "Source is three real4 (std430)");
static_assert(offsetof(GpuOrientation<double>, b) == 32 &&
              offsetof(GpuOrientation<double>, c) == 64);
static_assert(offsetof(GpuOrientation<float>, b) == 16 && offsetof(GpuOrientation<float>, c) == 32);
static_assert(sizeof(GpuSliceEntry) == 32 && offsetof(GpuSliceEntry, begin) == 12 &&
              offsetof(GpuSliceEntry, end) == 16 && offsetof(GpuSliceEntry, total) == 20);
static_assert(offsetof(GpuSliceEntry, groupsX) == 0 && offsetof(GpuSliceEntry, groupsZ) == 8,
              "a slice entry starts with a VkDispatchIndirectCommand");
static_assert(sizeof(GpuPush) == 4);
static_assert(sizeof(GpuFreshUnit) == 8 && offsetof(GpuFreshUnit, unit) == 4);

} // namespace layout_checks

} // namespace bv::engine
