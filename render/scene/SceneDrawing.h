#pragma once
// What SceneRenderer draws: coloured points and line segments in the scene's frame (for the
// reciprocal view, the lab frame in 1/Angstrom). Plain data, built on the CPU
// (ReciprocalDrawing) and uploaded to the GPU only when `generation` changes.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bv::scene {

// One vertex as the shaders read it (render/scene/shaders/scene.vert), 32 bytes.
struct SceneVertex {
    float position[3] = {0.0f, 0.0f, 0.0f};
    float size = 1.0f; // points: diameter in device-independent pixels; lines: unused
    float colour[4] = {1.0f, 1.0f, 1.0f, 1.0f}; // straight (not premultiplied) RGBA
};
static_assert(sizeof(SceneVertex) == 32, "scene.vert reads 32-byte vertices");

struct SceneDrawing {
    std::vector<SceneVertex> lines;        // pairs: each two vertices are one segment
    std::vector<SceneVertex> points;       // drawn after the lines, in order (later on top)
    std::size_t nodePoints = 0; // the first nodePoints points are lattice nodes: their size
                                // follows the view (SceneRenderer::record's nodeScale)
    std::vector<SceneVertex> overlayLines; // pairs, drawn last: highlights nothing may hide
    std::uint64_t generation = 0;          // changes whenever the content does
};

} // namespace bv::scene
