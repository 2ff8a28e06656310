#version 450
// A point drawn as a round dot with a soft rim one device pixel wide (gl_PointCoord runs 0..1
// across the square the rasterizer gives a point of gl_PointSize).

layout(location = 0) in vec4 vColour;
layout(location = 0) out vec4 outColour;

void main() {
    const float r = length(gl_PointCoord - vec2(0.5)) * 2.0; // 0 at the centre, 1 at the rim
    const float rim = fwidth(r);
    const float inside = 1.0 - smoothstep(1.0 - rim, 1.0, r);
    if (inside <= 0.0)
        discard;
    outColour = vec4(vColour.rgb, vColour.a * inside);
}
