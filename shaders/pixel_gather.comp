#version 450
// The values of chosen pixels of the simulator's float image, packed one after the other
// (compute/engine/PixelGather.h): a fit reads back the pixels it fits, not the frame.

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer Image { float image[]; };
layout(std430, set = 0, binding = 1) readonly buffer Pixels { uint pixels[]; }; // image indices
layout(std430, set = 0, binding = 2) writeonly buffer Values { float values[]; };

layout(push_constant) uniform Pass {
    uint count; // entries of pixels[]
};

void main() {
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u;
    if (i >= count)
        return;
    values[i] = image[pixels[i]];
}
