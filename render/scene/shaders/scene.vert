#version 450
// The reciprocal view's vertices (render/scene/SceneDrawing.h, SceneVertex): a position in the
// scene's frame (1/Angstrom), a point diameter in device-independent pixels, a colour.

layout(location = 0) in vec3 position;
layout(location = 1) in float size;
layout(location = 2) in vec4 colour;

layout(push_constant) uniform View {
    mat4 viewProjection; // OrbitCamera::viewProjection(): Vulkan clip space
    float pixelRatio;    // device pixels per device-independent pixel
} view;

layout(location = 0) out vec4 vColour;

void main() {
    gl_Position = view.viewProjection * vec4(position, 1.0);
    gl_PointSize = max(size * view.pixelRatio, 1.0);
    vColour = colour;
}
