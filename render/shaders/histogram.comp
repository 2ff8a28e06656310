#version 450
// The image's histogram for auto-contrast (render/GpuHistogram.h), in two passes over the
// simulator's float buffer, with atomics into one small result buffer:
//   pass 0: minimum, maximum and smallest positive value of the counted pixels
//   pass 1: counts of the values <= 0, and of the positive values in binCount bins of equal
//           width in log(value) between the smallest positive value and the maximum
// Skipped pixels (mask, ROI: one byte each, four to a word) are left out. Each invocation
// walks the image with a grid stride and reduces locally, so there is one atomic per
// invocation in pass 0 and one per pixel in pass 1.

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer Image { float pixels[]; };
layout(std430, set = 0, binding = 1) readonly buffer Skipped { uint skippedWords[]; };
layout(std430, set = 0, binding = 2) buffer Result {
    uint minimumKey;         // order-preserving keys of floats (key() below)
    uint maximumKey;
    uint minimumPositiveKey;
    uint nonPositive;        // count of values <= 0
    uint reserved[4];
    uint bins[];
};

layout(push_constant) uniform Pass {
    uint pixelCount;
    uint pass;
    uint haveSkipped;
    uint binCount;
};

// Unsigned integers ordered as the floats are: flip every bit of a negative float, only the
// sign bit of a positive one.
uint key(float value) {
    uint bits = floatBitsToUint(value);
    return (bits & 0x80000000u) != 0u ? ~bits : bits | 0x80000000u;
}
float valueOf(uint k) {
    return uintBitsToFloat((k & 0x80000000u) != 0u ? k & 0x7fffffffu : ~k);
}

bool counted(uint i) {
    if (haveSkipped != 0u && ((skippedWords[i >> 2] >> ((i & 3u) * 8u)) & 0xffu) != 0u)
        return false;
    float v = pixels[i];
    return !isnan(v) && !isinf(v);
}

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    if (pass == 0u) {
        uint lo = 0xffffffffu, hi = 0u, loPositive = 0xffffffffu;
        for (uint i = gl_GlobalInvocationID.x; i < pixelCount; i += stride) {
            if (!counted(i))
                continue;
            float v = pixels[i];
            uint k = key(v);
            lo = min(lo, k);
            hi = max(hi, k);
            if (v > 0.0)
                loPositive = min(loPositive, k);
        }
        if (hi != 0u) {
            atomicMin(minimumKey, lo);
            atomicMax(maximumKey, hi);
        }
        if (loPositive != 0xffffffffu)
            atomicMin(minimumPositiveKey, loPositive);
        return;
    }
    bool anyPositive = minimumPositiveKey != 0xffffffffu;
    float logLow = anyPositive ? log(valueOf(minimumPositiveKey)) : 0.0;
    float logHigh = anyPositive ? log(valueOf(maximumKey)) : 0.0;
    float perLog = logHigh > logLow ? float(binCount) / (logHigh - logLow) : 0.0;
    uint zeros = 0u;
    for (uint i = gl_GlobalInvocationID.x; i < pixelCount; i += stride) {
        if (!counted(i))
            continue;
        float v = pixels[i];
        if (v <= 0.0) {
            ++zeros;
            continue;
        }
        int bin = int((log(v) - logLow) * perLog);
        atomicAdd(bins[clamp(bin, 0, int(binCount) - 1)], 1u);
    }
    if (zeros != 0u)
        atomicAdd(nonPositive, zeros);
}
