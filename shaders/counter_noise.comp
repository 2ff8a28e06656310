#version 450
#extension GL_GOOGLE_include_directive : require
// The counter noise pass (-noise_generator counter): one Poisson deviate per pixel of the
// simulator's float image, from shaders/counter_random.glsl, written as a float holding a whole
// number (compute/engine/CounterNoise.h). A pixel's deviate depends on (key, its index) alone,
// so the image may be split over dispatches or devices by firstPixel without changing a bit.

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer Image { float means[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Deviates { float deviates[]; };

layout(push_constant) uniform Pass {
    uvec2 key;       // (seed, frame): random::counterKey
    uint firstPixel; // the index of means[0] in the whole image
    uint pixelCount; // pixels in this dispatch
};

#include "counter_random.glsl"

void main() {
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u;
    if (i >= pixelCount)
        return;
    deviates[i] = counter_poisson(means[i], key, firstPixel + i);
}
