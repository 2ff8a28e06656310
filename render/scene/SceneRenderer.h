#pragma once
// SceneRenderer: draws a SceneDrawing (its lines, its points as round dots on top, then its
// overlay lines) into a render pass someone else begins: the reciprocal window's
// (render/ReciprocalWindow) or an offscreen one (OffscreenTarget, braggview-bench-reciprocal).
//
// Owns: the two pipelines (points: scene.vert + scene_point.frag as a point list; lines and
// overlay lines: scene.vert + scene_line.frag as a line list), their layout, and one
// host-visible vertex buffer per frame slot. Borrows: the vk::Device and the render pass, which must outlive it.
//
// Frame slots: a window has several frames in flight, and a buffer a queued frame still reads
// must not be rewritten. setDrawing() keeps the drawing; record(slot) uploads it into that
// slot's buffer only when the slot holds an older generation. The caller guarantees the slot's
// previous frame is finished (QVulkanWindow waits for it before startNextFrame; the bench
// waits for its fence). So a still drawing costs no upload, whatever the camera does.
//
//   SceneRenderer renderer(device, {renderPass, 0, samples}, frameSlots);
//   renderer.setDrawing(drawScene(scene, highlights));   // with a new generation
//   ... vkCmdBeginRenderPass ...
//   renderer.record(commands, slot, extent, camera.viewProjection(), pixelRatio);
//   ... vkCmdEndRenderPass ...

#include "compute/vk/Buffer.h"
#include "compute/vk/Pipeline.h"
#include "render/scene/GraphicsPipeline.h"
#include "render/scene/SceneDrawing.h"

#include <glm/mat4x4.hpp>
#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace bv::vk {
class Device;
}

namespace bv::scene {

class SceneRenderer {
  public:
    // Throws bv::Error when a pipeline cannot be built.
    SceneRenderer(const vk::Device& device, const PipelineTarget& target,
                  std::uint32_t frameSlots = 1);

    void setDrawing(SceneDrawing drawing);
    const SceneDrawing& drawing() const { return m_drawing; }

    // Records the draws (inside a begun render pass): viewport and scissor to `extent`, the
    // lines, then the points. pixelRatio scales point sizes to device pixels; nodeScale
    // scales the drawing's lattice nodes (its first nodePoints points) besides, so that their
    // dots fit their spacing on screen (scene::nodeScale), a push constant rather than new
    // vertices: a camera move still uploads nothing.
    void record(VkCommandBuffer commands, std::uint32_t slot, VkExtent2D extent,
                const glm::mat4& viewProjection, float pixelRatio = 1.0f, float nodeScale = 1.0f);

    // How many times a slot's buffer was (re)written: the tests and the bench check that a
    // camera move alone uploads nothing.
    std::uint64_t uploads() const { return m_uploads; }

  private:
    struct Slot {
        vk::Buffer vertices;
        std::uint64_t generation = ~std::uint64_t(0); // of the drawing in `vertices`
    };
    void upload(Slot& slot);

    const vk::Device* m_device;
    GraphicsPipelineLayout m_layout;
    GraphicsPipeline m_points, m_lines;
    std::vector<Slot> m_slots;
    SceneDrawing m_drawing;
    std::uint64_t m_uploads = 0;
};

} // namespace bv::scene
