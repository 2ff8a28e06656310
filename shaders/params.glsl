// The diffraction shader's inputs: the parameter block, the tables, the output image and the
// specialization constants. Compiled twice: with BV_PRECISE 1 every "real" is a double
// (diffraction_precise.comp, needs shaderFloat64), with BV_PRECISE 0 a float
// (diffraction_fast.comp). compute/engine/GpuLayout.h mirrors these layouts for both and
// checks every offset with static_assert: change one, change the other.

#if BV_PRECISE
#define real double
#define real3 dvec3
#define real4 dvec4
#define RC(x) real(x)
#else
#define real float
#define real3 vec3
#define real4 vec4
#define RC(x) real(x)
#endif
// RC(x) is a real constant for values a float holds exactly (0.5, 3.0, ...): an unsuffixed
// literal is a float even in the double variant. Other constants are spelled out in both
// precisions below (glslang cannot paste an LF suffix onto a literal).
#if BV_PRECISE
const real kPi = 3.141592653589793LF;
const real kInversePi = 0.3183098861837907LF;
const real kRoundVolumeRatio = 0.723601254558268LF; // sqrt of the cube/sphere volume ratio
const real kGaussWidth = 0.63LF;
const real kTophatRadiusSquared = 0.3969LF;
#else
const real kPi = 3.141592653589793;
const real kInversePi = 0.3183098861837907;
const real kRoundVolumeRatio = 0.723601254558268;
const real kGaussWidth = 0.63;
const real kTophatRadiusSquared = 0.3969;
#endif

// ---- specialization constants (GpuLayout.h: SpecId) ----
// Two kinds of pipeline are built from this one source (docs/performance.md, "Pipelines per
// shape"). The generic one (kSpecialised false) reads the plan's shape, flags and loop counts
// from the parameter block (P.shape, P.oversample, P.sourceCount, P.orientationCount): it is
// built once and runs any plan. A specialised one (kSpecialised true) has them as the
// constants below, so the compiler folds the flags' branches away and divides by known loop
// counts; lavapipe's LLVM is 1.x faster with them. Both compute the same operations in the
// same order on the same values: their images are the same bit for bit (tst_simulator,
// genericAndSpecialisedAgree; docs/numerics/specialisation.md).
// Use the names without "Constant" (the macros below), which pick the one in force.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const int kShapeConstant = 0; // 0 square, 1 round, 2 gauss, 3 tophat
layout(constant_id = 3) const bool kInterpolateConstant = false;    // tricubic F(hkl)
layout(constant_id = 4) const bool kOversampleThickConstant = false;
layout(constant_id = 5) const bool kOversamplePolarConstant = false;
layout(constant_id = 6) const bool kOversampleOmegaConstant = false;
layout(constant_id = 7) const bool kCurvedConstant = false;
layout(constant_id = 8) const bool kPointPixelConstant = false;
layout(constant_id = 9) const bool kPolarizationConstant = true;    // false: -nopolar
layout(constant_id = 10) const bool kThicknessConstant = false;     // sensor thickness > 0
layout(constant_id = 11) const bool kWaterConstant = false;         // water background present
layout(constant_id = 12) const bool kTableConstant = false;         // an F(hkl) table exists
layout(constant_id = 13) const bool kMaskConstant = false;          // a pixel mask exists
layout(constant_id = 14) const bool kDminConstant = false;          // dmin > 0
// with kInterpolate: the reference's rule at the grid's edge (the first step, in its serial
// loop order, whose neighbourhood leaves the grid turns interpolation off for every later
// step); false: nearest value only for the steps whose neighbourhood leaves it
layout(constant_id = 15) const bool kSerialGridExitConstant = false;
// a detector of several panels (the tables Panels and PanelRows); false: the one flat
// detector of the parameter block (pix0, fdet, sdet, odet), nanoBragg's
layout(constant_id = 16) const bool kPanelsConstant = false;
layout(constant_id = 17) const bool kSpecialised = false;
layout(constant_id = 18) const int kOversampleConstant = 1;       // sub-pixels per edge
layout(constant_id = 19) const int kSourceCountConstant = 1;
layout(constant_id = 20) const int kOrientationCountConstant = 1; // phi steps x mosaic domains
// the square crystal's Na, Nb, Nc where they are whole numbers, else 0 (lattice.glsl unrolls
// its Chebyshev steps by them); 1 in the key of other shapes, which do not read them
layout(constant_id = 21) const int kCellsAConstant = 1;
layout(constant_id = 22) const int kCellsBConstant = 1;
layout(constant_id = 23) const int kCellsCConstant = 1;
// the orientation and source tables read through their uniform-buffer views (bindings 13, 14;
// GpuLayout.h, kUniformTableBytes): both fit, on a GPU
layout(constant_id = 24) const bool kUniformTablesConstant = false;

// the flag of P.shape's bit (GpuLayout.h: shapeBit, the constant's id - 1)
#define BV_SHAPE_FLAG(constant, bit) (kSpecialised ? constant : ((P.shape >> (bit)) & 1u) != 0u)
#define kShape (kSpecialised ? kShapeConstant : int(P.shape & 3u))
#define kInterpolate BV_SHAPE_FLAG(kInterpolateConstant, 2)
#define kOversampleThick BV_SHAPE_FLAG(kOversampleThickConstant, 3)
#define kOversamplePolar BV_SHAPE_FLAG(kOversamplePolarConstant, 4)
#define kOversampleOmega BV_SHAPE_FLAG(kOversampleOmegaConstant, 5)
#define kCurved BV_SHAPE_FLAG(kCurvedConstant, 6)
#define kPointPixel BV_SHAPE_FLAG(kPointPixelConstant, 7)
#define kPolarization BV_SHAPE_FLAG(kPolarizationConstant, 8)
#define kThickness BV_SHAPE_FLAG(kThicknessConstant, 9)
#define kWater BV_SHAPE_FLAG(kWaterConstant, 10)
#define kTable BV_SHAPE_FLAG(kTableConstant, 11)
#define kMask BV_SHAPE_FLAG(kMaskConstant, 12)
#define kDmin BV_SHAPE_FLAG(kDminConstant, 13)
#define kSerialGridExit BV_SHAPE_FLAG(kSerialGridExitConstant, 14)
#define kPanels BV_SHAPE_FLAG(kPanelsConstant, 15)
#define kUniformTables BV_SHAPE_FLAG(kUniformTablesConstant, 23)
#define kOversample (kSpecialised ? kOversampleConstant : P.oversample)
#define kSourceCount (kSpecialised ? kSourceCountConstant : P.sourceCount)
#define kOrientationCount (kSpecialised ? kOrientationCountConstant : P.orientationCount)
// a whole number of cells along the axis, or 0 where it is not one (a refined crystal size)
#define kCells(axis)                                                                            \
    (kSpecialised ? ((axis) == 0   ? kCellsAConstant                                           \
                     : (axis) == 1 ? kCellsBConstant                                           \
                                   : kCellsCConstant)                                          \
                  : (P.cells[axis] == floor(P.cells[axis]) ? int(P.cells[axis]) : 0))

const int kShapeSquare = 0;
const int kShapeRound = 1;
const int kShapeGauss = 2;
const int kShapeTophat = 3;

// ---- the parameter block (GpuLayout.h: GpuParams<real>) ----
// Vectors are real4 with w unused; real4 first, then reals, then ints, so std140 adds no
// padding and the C++ mirror is a plain struct.
// A uniform buffer on GPUs (their constant caches serve it to every thread; as a storage
// buffer the H100 ran 10-19% slower), a read-only storage buffer on CPU devices
// (BV_PARAMS_IN_STORAGE, the *_cpu.comp variants): lavapipe (Mesa 22.3) "inlines"
// uniform-buffer values that decide branches or are used often, compiling a new variant of
// this large shader for every new set of values (each parameter change in the viewer) and
// keeping every variant until the pipeline goes (about 0.3 MiB each: docs/robustness.md,
// A2). Storage-buffer loads are never inlined. The layout is std140 either way.
#if BV_PARAMS_IN_STORAGE
layout(std140, set = 0, binding = 0) readonly buffer Params {
#else
layout(std140, set = 0, binding = 0) uniform Params {
#endif
    real4 pix0;      // m, sample -> corner of the first pixel
    real4 fdet;      // unit detector axes
    real4 sdet;
    real4 odet;
    real4 beam;      // unit beam direction (curved detector)
    real4 polarAxis; // unit E-vector axis of the incident beam
    real4 aStar;     // 1/Angstrom, unrotated reciprocal axes (round/gauss/tophat distance)
    real4 bStar;
    real4 cStar;
    real4 cells;     // Na, Nb, Nc, Na*Nb*Nc
    real pixelSize;     // m
    real subpixelSize;  // m
    real distance;      // m
    real closeDistance; // m
    real thickStep;     // m
    real mu;            // 1/m
    real kahn;          // Kahn polarization factor
    real dmin;          // m
    real fudge;
    real photonScale;   // r_e^2 * fluence / steps
    real background;    // starting value of every pixel's sum
    real defaultF;
    int fastPixels;
    int slowPixels;
    int oversample;
    int thickSteps;
    int roiXmin;
    int roiXmax;
    int roiYmin;
    int roiYmax;
    int sourceCount;
    int orientationCount;
    int hMin;
    int hMax;
    int kMin;
    int kMax;
    int lMin;
    int lMax;
    // the phi carry-over (compute/engine/SerialOrder.h): a fresh unit (freshUnits) reads
    // freshRows rows from the end of the orientation table instead of its first freshRows
    int freshRows;
    uint shape; // the generic pipeline's shape and flags (above: BV_SHAPE_FLAG)
    int unused1;
    int unused2;
} P;

// ---- tables ----
struct Orientation {
    real4 a; // m, real-space cell axes at one phi step and mosaic domain
    real4 b;
    real4 c;
};
layout(std430, set = 0, binding = 1) readonly buffer Orientations { Orientation orientations[]; };
struct Source {
    real4 incident; // xyz: unit vector along the incident X-rays; w: wavelength (m)
    real4 u;        // xyz: unit vectors completing (incident, u, v) to a right-handed frame;
    real4 v;        // u.w: 1/wavelength, divided once on the host in double
#if !BV_PRECISE
    // the parameter block's flat detector in this frame: each row is (fdet, sdet, odet, pix0)
    // projected on incident, u and v by the host in double, so that a point of the detector
    // is three multiply-adds a coordinate (docs/numerics/scattering-vector.md, "Cost")
    real4 detectorAlong;
    real4 detectorU;
    real4 detectorV;
#endif
};
layout(std430, set = 0, binding = 2) readonly buffer Sources { Source sources[]; };
// The same two tables as uniform buffers, bound to at most their first 64 KiB and read only
// with kUniformTables: a value all threads of a group read at once comes from the constant
// cache instead of the memory pipeline. Not on CPU devices (BV_PARAMS_IN_STORAGE, below).
#if !BV_PARAMS_IN_STORAGE
#if BV_PRECISE
const int kUniformRows = 682; // 65536 / 96 bytes
#else
const int kUniformRows = 1365; // 65536 / 48 bytes
#endif
const int kUniformSourceRows = 682; // 65536 / 96 bytes, in either precision
layout(std140, set = 0, binding = 13) uniform OrientationsView {
    Orientation orientationRows[kUniformRows];
};
layout(std140, set = 0, binding = 14) uniform SourcesView {
    Source sourceRows[kUniformSourceRows];
};
// (member by member: the two blocks' structs are distinct SPIR-V types, std140 and std430)
Orientation orientationAt(uint i) {
    if (kUniformTables)
        return Orientation(orientationRows[i].a, orientationRows[i].b, orientationRows[i].c);
    return Orientation(orientations[i].a, orientations[i].b, orientations[i].c);
}
Source sourceAt(uint i) {
#if BV_PRECISE
    if (kUniformTables)
        return Source(sourceRows[i].incident, sourceRows[i].u, sourceRows[i].v);
    return Source(sources[i].incident, sources[i].u, sources[i].v);
#else
    if (kUniformTables)
        return Source(sourceRows[i].incident, sourceRows[i].u, sourceRows[i].v,
                      sourceRows[i].detectorAlong, sourceRows[i].detectorU,
                      sourceRows[i].detectorV);
    return Source(sources[i].incident, sources[i].u, sources[i].v, sources[i].detectorAlong,
                  sources[i].detectorU, sources[i].detectorV);
#endif
}
#else
Orientation orientationAt(uint i) { return orientations[i]; }
Source sourceAt(uint i) { return sources[i]; }
#endif
// F(hkl), h slowest, l fastest
layout(std430, set = 0, binding = 3) readonly buffer Amplitudes { real amplitudes[]; };
// 16-bit mask values, two per word, pixel 2i in the low half
layout(std430, set = 0, binding = 4) readonly buffer Mask { uint maskWords[]; };
// photons per pixel, fast-major
layout(std430, set = 0, binding = 5) writeonly buffer Image { float image[]; };

// Slicing (docs/numerics/slicing.md): each pixel's work is its serial loop flattened,
//   step = (((layer*oversample + subS)*oversample + subF)*sources + source)*orientations + o,
// and a dispatch runs steps [begin, end) of every pixel, carrying the running sum and the
// last-value factors between dispatches in `states`. The recorded command buffer holds a fixed
// number of dispatch slots; the host fills the table (an empty slot dispatches no groups).
struct SliceEntry {
    uint groupsX; // VkDispatchIndirectCommand
    uint groupsY;
    uint groupsZ;
    uint begin;   // first step of this slice
    uint end;     // one past its last step
    uint total;   // steps per pixel: the slice ending there finishes the pixel
    uint search;  // 1: a search slice (kSerialGridExit): find where the grid is left, no image
    uint rows;    // image rows an invocation shades, groupsY * (workgroup height) apart
};
layout(std430, set = 0, binding = 6) readonly buffer Slices { SliceEntry slices[]; };
// The entry of the dispatch's slot, every invocation's first read: on GPUs through the table's
// uniform view (binding 15, kMaxSliceSlots entries; a constant cache serves it at once), on
// CPU devices from the storage buffer. Member by member: the blocks' structs are distinct
// SPIR-V types.
#if !BV_PARAMS_IN_STORAGE
layout(std140, set = 0, binding = 15) uniform SlicesView { SliceEntry sliceRows[64]; };
SliceEntry sliceAt(uint slot) {
    return SliceEntry(sliceRows[slot].groupsX, sliceRows[slot].groupsY, sliceRows[slot].groupsZ,
                      sliceRows[slot].begin, sliceRows[slot].end, sliceRows[slot].total,
                      sliceRows[slot].search, sliceRows[slot].rows);
}
#else
SliceEntry sliceAt(uint slot) { return slices[slot]; }
#endif
// per pixel: running sum, polar, omega, capture fraction
layout(std430, set = 0, binding = 7) buffer States { real4 states[]; };

// per detector row: the unit in it, if any, that starts from the unrotated crystal (the first
// unit of a reference thread): pixel index (-1: none) and unit index
struct FreshUnit {
    int pixel;
    uint unit;
};
layout(std430, set = 0, binding = 8) readonly buffer FreshUnits { FreshUnit freshUnits[]; };

// Where the reference's loop first leaves the HKL grid (kSerialGridExit; docs/reference-quirks.md,
// "Pixel loop"). The search slices, which run before the image's slices over the same step
// ranges, record each pixel's first step whose 4x4x4 neighbourhood is off the grid and keep the
// smallest such pixel index; the image's slices then interpolate in pixels before that one and
// in its steps before that step. Filled with ~0u ("none") before every run.
layout(std430, set = 0, binding = 9) buffer GridExit {
    real4 exitHkl;         // h, k, l of the deciding step, for the reference's warning
    coherent uint exitPixel; // the first pixel (slow * fast + fast) with a step off the grid
    uint exitStep;         // that pixel's first step off the grid (written with exitHkl)
    uint exitUnused0;
    uint exitUnused1;
    uint firstExitStep[];  // per pixel: its first step off the grid
} gridExit;

// A detector of several panels (kPanels; docs/numerics/detector-panels.md): each panel is a
// flat detector of its own, and the image stacks their pixels along the slow index in the
// table's order, panel after panel, as wide as the widest. panelOfRow names each image row's
// panel; pixels beyond a narrower panel's width are not computed (0 in the image).
struct DetectorPanel {
    real4 pix0; // m, sample -> corner of the panel's first pixel
    real4 fdet; // unit axes of the panel
    real4 sdet;
    real4 odet;
    real pixelSize;     // m
    real subpixelSize;  // m
    real closeDistance; // m, sample -> the panel's plane along odet
    real unusedReal;
    int fastPixels;
    int slowPixels;
    int firstRow;       // the image row of the panel's row 0
    int unused0;
    int unused1;
    int unused2;
    int unused3;
    int unused4;
};
layout(std430, set = 0, binding = 10) readonly buffer Panels { DetectorPanel panels[]; };
layout(std430, set = 0, binding = 11) readonly buffer PanelRows { uint panelOfRow[]; };

// Set to 1 by the host to stop the run in flight at once (Simulator::requestCancel; 0 when a
// run starts): every pixel reads it at the top of each unit of its loop and, when set, returns
// without writing its state or the image. The run's image and state are then garbage, and the
// Simulator says so (wasCancelled). Host-visible, host-coherent memory; volatile, so that each
// read goes to memory and a write by the host during the dispatch is seen. The word lives in
// device-local host-visible memory where there is such (vk::MemoryUse::HostSignal).
layout(std430, set = 0, binding = 12) volatile coherent buffer Cancel {
    uint cancelRequested;
};

// which slot of the slice table this dispatch runs
layout(push_constant) uniform Push {
    uint slot;
} push;
