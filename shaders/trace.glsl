// The trace variant's record of one pixel: why it has its value (docs/user-guide.md, "Pixel
// trace"). diffraction_trace_precise.comp and diffraction_trace_fast.comp compile
// diffraction.glsl with BV_TRACE 1: ONE invocation runs the whole serial loop of the pixel in
// trace.pixel and, at the points marked BV_TRACE in main(), writes what it computed there into
// this buffer. The normal shaders compile with BV_TRACE 0 and contain none of it.
// compute/engine/PixelTrace.h mirrors the layout (GpuTrace*), with static_asserts.
//
// Recorded: the first kTraceUnits units (sensor layer, sub-pixel, source: the geometry, the
// scattering vector and the per-pixel factors as they stand after the unit's start, and the
// unit's first orientation step, which is what the reference's own trace prints), the first
// kTraceSteps orientation steps of the pixel, the kTraceLargest steps that added the most, the
// counts, and the totals: the sum, the factors that scale it and the value of the image.

const uint kTraceUnits = 64u;
const uint kTraceSteps = 64u;
const uint kTraceLargest = 8u;

// trace.counts.x
const uint kTraceNotRun = 0u; // the host's zero fill: the shader never got there
const uint kTraceComputed = 1u;
const uint kTraceOutside = 2u; // outside the ROI or the detector: the image holds 0
const uint kTraceMasked = 3u;  // masked: the image holds 0

// trace.pixel.z bits: the factors applied after every step (-oversample_thick, _polar,
// _omega), not to the finished sum
const int kTraceInsideCapture = 1;
const int kTraceInsidePolar = 2;
const int kTraceInsideOmega = 4;

// TraceStep.where.w bits
const uint kTraceLatticeZero = 1u; // F_latt was 0: nothing added (no F_cell looked up)

struct TraceStep {
    real4 hkl;    // xyz: fractional Miller indices h,k,l; w: F_latt (sign dropped)
    real4 hkl0;   // xyz: the nearest whole h,k,l; w: F_cell
    real4 sum;    // x: (F_cell F_latt)^2 added; y: the pixel's sum after the step; zw: unused
    uvec4 where;  // x: step of the flattened loop; y: unit; z: orientation row; w: flags
    uvec4 unused; // (keeps the struct a whole number of real4 in both precisions)
};

struct TraceUnit {
    real4 position;   // xyz: sub-pixel position (m, from the sample); w: its distance (m)
    real4 diffracted; // xyz: unit vector along the diffracted ray; w: omega (sr)
    real4 scattering; // xyz: q = (diffracted - incident)/lambda (1/m); w: polarization factor
    real4 factors;    // x: capture fraction; y: lambda (m); zw: unused
    ivec4 where;      // layer, sub-pixel row, sub-pixel column, source
    uvec4 flags;      // x: unit index; y: 1 if dmin skipped it; z: orientation steps run; w: 0
    TraceStep first;  // its first orientation step (when z > 0)
};

layout(std430, set = 1, binding = 0) buffer Trace {
    ivec4 pixel;  // in: x fast, y slow; out: z the factors inside the sum (kTraceInside*),
                  // w the step where the loop ended (all of them, unless the device cut it)
    uvec4 counts; // x: status; y: units run; z: orientation steps run; w: steps that added
    real4 totals; // the sum I and the last polarization factor, omega, capture fraction
    real4 result; // x: photon scale (r_e^2 fluence / steps); y: the pixel value; z: as stored
                  // in the image (float); w: the sum's starting value (background)
    TraceUnit units[kTraceUnits];
    TraceStep steps[kTraceSteps];
    TraceStep largest[kTraceLargest]; // unordered; the host sorts them
} trace;

TraceStep traceStepRecord(uint step, uint unit, uint orientation, real3 hkl, real3 hkl0,
                          real latt, real cell, real added, real I, uint flags) {
    TraceStep s;
    s.hkl = real4(hkl, latt);
    s.hkl0 = real4(hkl0, cell);
    s.sum = real4(added, I, RC(0.0), RC(0.0));
    s.where = uvec4(step, unit, orientation, flags);
    s.unused = uvec4(0u);
    return s;
}

void traceUnit(uint unit, int layer, int subS, int subF, uint source, real3 position,
               real airpath, real3 diffracted, real3 scattering, real lambda, real omega,
               real polar, real capture, bool skipped) {
    trace.counts.y += 1u;
    if (unit >= kTraceUnits)
        return;
    trace.units[unit].position = real4(position, airpath);
    trace.units[unit].diffracted = real4(diffracted, omega);
    trace.units[unit].scattering = real4(scattering, polar);
    trace.units[unit].factors = real4(capture, lambda, RC(0.0), RC(0.0));
    trace.units[unit].where = ivec4(layer, subS, subF, int(source));
    trace.units[unit].flags = uvec4(unit, skipped ? 1u : 0u, 0u, 0u);
}

// One orientation step: the first steps in order, each unit's first, and the largest adds.
void traceStep(uint step, uint unit, uint orientation, real3 hkl, real3 hkl0, real latt,
               real cell, real added, real I, bool contributed) {
    const uint flags = contributed ? 0u : kTraceLatticeZero;
    const TraceStep s =
        traceStepRecord(step, unit, orientation, hkl, hkl0, latt, cell, added, I, flags);
    const uint run = trace.counts.z;
    trace.counts.z = run + 1u;
    if (run < kTraceSteps)
        trace.steps[run] = s;
    if (unit < kTraceUnits) {
        if (trace.units[unit].flags.z == 0u)
            trace.units[unit].first = s;
        trace.units[unit].flags.z += 1u;
    }
    if (!contributed)
        return;
    const uint adds = trace.counts.w;
    trace.counts.w = adds + 1u;
    if (adds < kTraceLargest) {
        trace.largest[adds] = s;
        return;
    }
    // replace the smallest of the kept ones when this step added more
    uint smallest = 0u;
    for (uint i = 1u; i < kTraceLargest; ++i)
        if (trace.largest[i].sum.x < trace.largest[smallest].sum.x)
            smallest = i;
    if (added > trace.largest[smallest].sum.x)
        trace.largest[smallest] = s;
}

void traceEnd(uint status, real I, real polar, real omega, real capture, real pixel) {
    trace.counts.x = status;
    trace.pixel.z = (kOversampleThick ? kTraceInsideCapture : 0) |
                    (kOversamplePolar ? kTraceInsidePolar : 0) |
                    (kOversampleOmega ? kTraceInsideOmega : 0);
    trace.totals = real4(I, polar, omega, capture);
    trace.result = real4(P.photonScale, pixel, real(float(pixel)), P.background);
}
