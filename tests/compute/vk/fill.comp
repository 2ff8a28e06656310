#version 450
// The vk tests' shader: out[i] = i * k (+ base when addBase), for i < count.
// k and addBase are specialization constants, the workgroup size too; base comes from a
// uniform buffer (changed between submits of one recorded command buffer), count from a push
// constant.

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint k = 1u;
layout(constant_id = 2) const bool addBase = false;

layout(std430, set = 0, binding = 0) writeonly buffer Out { uint values[]; };
layout(std140, set = 0, binding = 1) uniform Params { uint base; };
layout(push_constant) uniform Push { uint count; };

void main() {
    const uint i = gl_GlobalInvocationID.x;
    if (i >= count)
        return;
    values[i] = i * k + (addBase ? base : 0u);
}
