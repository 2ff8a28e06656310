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
    // the plan's shape and flags (shapeBit) for the generic pipeline, which reads them here
    // instead of from specialization constants (params.glsl, kSpecialised)
    std::uint32_t shape = 0;
    std::int32_t unused1 = 0, unused2 = 0;
};

// struct Orientation (std430): a, b, c as real4
template <typename Real> struct GpuOrientation { GpuVec4<Real> a, b, c; };

// struct Source (std430): incident direction and wavelength (w), and two unit vectors that
// complete it to a right-handed frame (the fast shader's scattering vector uses them); u's w
// holds the reciprocal wavelength
template <typename Real> struct GpuSource { GpuVec4<Real> incident, u, v; };
// The fast shader's Source also holds the parameter block's flat detector in that frame: each
// row is (fdet, sdet, odet, pix0) projected on incident, u and v (params.glsl)
template <> struct GpuSource<float> {
    GpuVec4<float> incident, u, v;
    GpuVec4<float> detectorAlong, detectorU, detectorV;
};

// slices[] (std430): a VkDispatchIndirectCommand followed by the slice's step range
struct GpuSliceEntry {
    std::uint32_t groupsX = 0, groupsY = 0, groupsZ = 0;
    std::uint32_t begin = 0, end = 0, total = 0;
    std::uint32_t search = 0; // 1: a search slice of the grid-exit rule (no image)
    std::uint32_t rows = 1;   // image rows an invocation shades (rowsPerInvocation)
};

// the head of buffer GridExit (std430): where the reference's loop first leaves the HKL grid;
// a uint per pixel (its first step off the grid) follows
template <typename Real> struct GpuGridExit {
    GpuVec4<Real> exitHkl;
    std::uint32_t exitPixel = 0, exitStep = 0, unused0 = 0, unused1 = 0;
};
constexpr std::uint32_t kNoGridExit = 0xffffffffu; // the fill value: "none"

// per-pixel state between slices: running sum, polar, omega, capture fraction (real4)
template <typename Real> using GpuPixelState = GpuVec4<Real>;

// freshUnits[] (std430), one per detector row
struct GpuFreshUnit {
    std::int32_t pixel = -1;
    std::uint32_t unit = 0;
};

// panels[] (std430), with kPanels: one flat panel of a multi-panel detector; the image stacks
// the panels' rows in the table's order (panelOfRow[] names each image row's panel)
template <typename Real> struct GpuPanel {
    GpuVec4<Real> pix0, fdet, sdet, odet;
    Real pixelSize = 0, subpixelSize = 0, closeDistance = 0, unusedReal = 0;
    std::int32_t fastPixels = 0, slowPixels = 0, firstRow = 0;
    std::int32_t unused[5] = {0, 0, 0, 0, 0};
};

// push constants: the slot of the slice table a dispatch runs
struct GpuPush {
    std::uint32_t slot = 0;
};

// The trace variant's buffer (shaders/trace.glsl, std430, set 1 binding 0): one pixel's
// intermediate quantities. Sizes are whole real4s in both precisions, so there is no padding.
template <typename Real> struct GpuTraceStep {
    GpuVec4<Real> hkl;  // xyz fractional h,k,l; w F_latt (sign dropped)
    GpuVec4<Real> hkl0; // xyz nearest h,k,l; w F_cell
    GpuVec4<Real> sum;  // x (F_cell F_latt)^2 added; y the sum after the step
    std::uint32_t step = 0, unit = 0, orientation = 0, flags = 0;
    std::uint32_t unused[4] = {0, 0, 0, 0};
};
template <typename Real> struct GpuTraceUnit {
    GpuVec4<Real> position;   // xyz m; w distance (m)
    GpuVec4<Real> diffracted; // xyz unit vector; w omega (sr)
    GpuVec4<Real> scattering; // xyz 1/m; w polarization factor
    GpuVec4<Real> factors;    // x capture fraction; y lambda (m)
    std::int32_t layer = 0, subS = 0, subF = 0, source = 0;
    std::uint32_t unit = 0, dminSkipped = 0, stepsRun = 0, unused = 0;
    GpuTraceStep<Real> first;
};
constexpr std::uint32_t kTraceUnits = 64; // trace.glsl: kTraceUnits, kTraceSteps, kTraceLargest
constexpr std::uint32_t kTraceSteps = 64;
constexpr std::uint32_t kTraceLargest = 8;
enum TraceStatus : std::uint32_t { // trace.glsl: kTrace*
    TraceNotRun = 0,
    TraceComputed = 1,
    TraceOutside = 2,
    TraceMasked = 3,
};
constexpr std::uint32_t kTraceLatticeZero = 1; // GpuTraceStep::flags
enum TraceInside : std::int32_t {              // GpuTrace::inside bits (trace.glsl: kTraceInside*)
    TraceInsideCapture = 1,
    TraceInsidePolar = 2,
    TraceInsideOmega = 4,
};
template <typename Real> struct GpuTrace {
    std::int32_t fast = 0, slow = 0; // in
    std::int32_t inside = 0;         // out: the factors applied after every step (below)
    std::int32_t stepsWalked = 0;    // out: where the loop ended (all of them: the pixel's steps)
    std::uint32_t status = 0, unitsRun = 0, stepsRun = 0, stepsAdded = 0;
    GpuVec4<Real> totals; // I, polar, omega, capture
    GpuVec4<Real> result; // photon scale, pixel, pixel as stored (float), background
    GpuTraceUnit<Real> units[kTraceUnits];
    GpuTraceStep<Real> steps[kTraceSteps];
    GpuTraceStep<Real> largest[kTraceLargest];
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
    SpecSerialGridExit = 15,
    SpecPanels = 16,
    // false: the generic pipeline, which reads ids 2..16 and 18..20 from the parameter block
    // (GpuParams::shape, oversample, sourceCount, orientationCount) and is built once; true: a
    // pipeline specialised to one shape, whose loop counts and flags the compiler sees as
    // constants (docs/performance.md, "Pipelines per shape")
    SpecSpecialised = 17,
    SpecOversample = 18,
    SpecSourceCount = 19,
    SpecOrientationCount = 20,
    // the square crystal's cells along a, b, c (its Chebyshev lattice factor)
    SpecCellsA = 21,
    SpecCellsB = 22,
    SpecCellsC = 23,
    // the orientation and source tables read through uniform-buffer views (bindings 13, 14)
    // instead of their storage buffers: both fit in kUniformTableBytes (GPUs only)
    SpecUniformTables = 24,
};

// The bit of GpuParams::shape (and of the Simulator's variant key) that holds the flag of
// specialization constant `id` (SpecInterpolate .. SpecPanels, SpecUniformTables); bits 0-1
// hold SpecShape.
constexpr unsigned shapeBit(SpecId id) {
    return static_cast<unsigned>(id) - 1u;
}
static_assert(shapeBit(SpecInterpolate) == 2 && shapeBit(SpecPanels) == 15 &&
              shapeBit(SpecUniformTables) == 23);

// What the orientation and source tables may hold to be read through uniform-buffer views:
// a GPU's constant cache serves a value every thread of a group reads at once, where a
// storage buffer's load waits on the memory pipeline (simple_4096 on an H200: 0.149 ms with
// the tables in storage buffers, 0.124 with the one orientation from the parameter block;
// docs/performance.md, session 9). 64 KiB is NVIDIA's and lavapipe's maxUniformBufferRange.
constexpr std::size_t kUniformTableBytes = 65536;

// The cancel word (binding 12, shaders/params.glsl): the host writes 1 to stop a run in
// flight at once (Simulator::requestCancel); every run starts with 0.
struct GpuCancel {
    std::uint32_t requested = 0;
    std::uint32_t unused[3] = {0, 0, 0};
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
    BindingGridExit = 9,
    BindingPanels = 10,
    BindingPanelRows = 11,
    BindingCancel = 12,
    BindingOrientationsUniform = 13, // the orientation table again, as a uniform buffer
    BindingSourcesUniform = 14,      // the source table again, as a uniform buffer
    BindingSlicesUniform = 15,       // the slice table again, as a uniform buffer
};

// The slice table's uniform view holds this many entries (2 KiB), and a run at most as many
// dispatch slots (SimulatorOptions::maxSlices)
constexpr int kMaxSliceSlots = 64;

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
           offsetof(P, shape) == ints + 68 && sizeof(P) == ints + 80;
}

static_assert(paramsLayoutMatches<double>(), "GpuParams<double> differs from params.glsl (std140)");
static_assert(paramsLayoutMatches<float>(), "GpuParams<float> differs from params.glsl (std140)");
static_assert(sizeof(GpuParams<double>) == 496 && sizeof(GpuParams<float>) == 288);
static_assert(sizeof(GpuOrientation<double>) == 96 && sizeof(GpuOrientation<float>) == 48,
              "Orientation is three real4 (std430)");
static_assert(sizeof(GpuSource<double>) == 96 && sizeof(GpuSource<float>) == 96,
              "Source is three real4 (std430), six in float");
static_assert(offsetof(GpuOrientation<double>, b) == 32 &&
              offsetof(GpuOrientation<double>, c) == 64);
static_assert(offsetof(GpuOrientation<float>, b) == 16 && offsetof(GpuOrientation<float>, c) == 32);
static_assert(sizeof(GpuSliceEntry) == 32 && offsetof(GpuSliceEntry, begin) == 12 &&
              offsetof(GpuSliceEntry, end) == 16 && offsetof(GpuSliceEntry, total) == 20);
static_assert(offsetof(GpuSliceEntry, groupsX) == 0 && offsetof(GpuSliceEntry, groupsZ) == 8,
              "a slice entry starts with a VkDispatchIndirectCommand");
static_assert(sizeof(GpuPush) == 4);
static_assert(offsetof(GpuSliceEntry, search) == 24);
static_assert(sizeof(GpuGridExit<double>) == 48 && offsetof(GpuGridExit<double>, exitPixel) == 32 &&
                  sizeof(GpuGridExit<float>) == 32 && offsetof(GpuGridExit<float>, exitPixel) == 16,
              "GpuGridExit differs from params.glsl (std430): a real4, four uints, then the array");
template <typename Real> constexpr bool traceLayoutMatches() {
    constexpr std::size_t v = 4 * sizeof(Real);
    constexpr std::size_t step = 3 * v + 32, unit = 4 * v + 32 + step;
    using T = GpuTrace<Real>;
    return sizeof(GpuTraceStep<Real>) == step && offsetof(GpuTraceStep<Real>, step) == 3 * v &&
           sizeof(GpuTraceUnit<Real>) == unit && offsetof(GpuTraceUnit<Real>, layer) == 4 * v &&
           offsetof(GpuTraceUnit<Real>, unit) == 4 * v + 16 &&
           offsetof(GpuTraceUnit<Real>, first) == 4 * v + 32 && offsetof(T, status) == 16 &&
           offsetof(T, totals) == 32 && offsetof(T, result) == 32 + v &&
           offsetof(T, units) == 32 + 2 * v && offsetof(T, steps) == 32 + 2 * v + 64 * unit &&
           offsetof(T, largest) == 32 + 2 * v + 64 * unit + 64 * step &&
           sizeof(T) == 32 + 2 * v + 64 * unit + 72 * step;
}
// std430 aligns a struct holding dvec4 to 32 bytes: every size above is a multiple of it
static_assert(traceLayoutMatches<double>() && sizeof(GpuTraceStep<double>) % 32 == 0 &&
                  sizeof(GpuTraceUnit<double>) % 32 == 0,
              "GpuTrace<double> differs from trace.glsl (std430)");
static_assert(traceLayoutMatches<float>(), "GpuTrace<float> differs from trace.glsl (std430)");
static_assert(sizeof(GpuFreshUnit) == 8 && offsetof(GpuFreshUnit, unit) == 4);
// four real4, four reals, eight ints: no padding, and a whole number of dvec4s (std430
// aligns a struct holding dvec4 to 32 bytes)
static_assert(sizeof(GpuPanel<double>) == 192 && offsetof(GpuPanel<double>, pixelSize) == 128 &&
                  offsetof(GpuPanel<double>, fastPixels) == 160 &&
                  offsetof(GpuPanel<double>, firstRow) == 168,
              "GpuPanel<double> differs from params.glsl (std430)");
static_assert(sizeof(GpuPanel<float>) == 112 && offsetof(GpuPanel<float>, pixelSize) == 64 &&
                  offsetof(GpuPanel<float>, fastPixels) == 80 &&
                  offsetof(GpuPanel<float>, firstRow) == 88,
              "GpuPanel<float> differs from params.glsl (std430)");

} // namespace layout_checks

} // namespace bv::engine
