#include "render/scene/SceneRenderer.h"

#include "compute/vk/Device.h"

#include <shaders/braggview_scene_shaders.h>

#include <algorithm>
#include <cstring>
#include <utility>

namespace bv::scene {

namespace {

// scene.vert's push-constant block
struct ViewConstants {
    float viewProjection[16];
    float pixelRatio;
    float unused[3];
};
static_assert(sizeof(ViewConstants) == 80, "scene.vert's View block");

} // namespace

SceneRenderer::SceneRenderer(const vk::Device& device, const PipelineTarget& target,
                             std::uint32_t frameSlots)
    : m_device(&device), m_layout(device, sizeof(ViewConstants)),
      m_slots(std::max<std::uint32_t>(frameSlots, 1)) {
    const vk::ShaderModule vertex(device, scene_vert_spv, scene_vert_spv_size);
    const vk::ShaderModule point(device, scene_point_frag_spv, scene_point_frag_spv_size);
    const vk::ShaderModule line(device, scene_line_frag_spv, scene_line_frag_spv_size);
    m_points =
        GraphicsPipeline(device, vertex, point, m_layout, target, VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
    m_lines =
        GraphicsPipeline(device, vertex, line, m_layout, target, VK_PRIMITIVE_TOPOLOGY_LINE_LIST);
}

void SceneRenderer::setDrawing(SceneDrawing drawing) {
    m_drawing = std::move(drawing);
}

void SceneRenderer::upload(Slot& slot) {
    const std::size_t lineBytes = m_drawing.lines.size() * sizeof(SceneVertex);
    const std::size_t pointBytes = m_drawing.points.size() * sizeof(SceneVertex);
    const std::size_t overlayBytes = m_drawing.overlayLines.size() * sizeof(SceneVertex);
    const std::size_t bytes =
        std::max<std::size_t>(lineBytes + pointBytes + overlayBytes, sizeof(SceneVertex));
    if (slot.vertices.size() < bytes) // grows by half again, so a growing scene seldom reallocates
        slot.vertices = vk::Buffer(*m_device, static_cast<VkDeviceSize>(bytes + bytes / 2),
                                   VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vk::MemoryUse::Upload,
                                   "the reciprocal view's vertices");
    if (lineBytes > 0)
        slot.vertices.write(m_drawing.lines.data(), lineBytes, 0);
    if (pointBytes > 0)
        slot.vertices.write(m_drawing.points.data(), pointBytes, lineBytes);
    if (overlayBytes > 0)
        slot.vertices.write(m_drawing.overlayLines.data(), overlayBytes, lineBytes + pointBytes);
    slot.generation = m_drawing.generation;
    ++m_uploads;
}

void SceneRenderer::record(VkCommandBuffer commands, std::uint32_t slotIndex, VkExtent2D extent,
                           const glm::mat4& viewProjection, float pixelRatio,
                           float nodeScale) {
    Slot& slot = m_slots[slotIndex % m_slots.size()];
    if (slot.generation != m_drawing.generation)
        upload(slot);
    const VkViewport viewport{
        0.0f, 0.0f, static_cast<float>(extent.width), static_cast<float>(extent.height),
        0.0f, 1.0f};
    const VkRect2D scissor{{0, 0}, extent};
    vkCmdSetViewport(commands, 0, 1, &viewport);
    vkCmdSetScissor(commands, 0, 1, &scissor);
    ViewConstants constants{};
    std::memcpy(constants.viewProjection, &viewProjection[0][0], sizeof(constants.viewProjection));
    auto push = [&](float sizeScale) {
        constants.pixelRatio = sizeScale;
        vkCmdPushConstants(commands, m_layout.handle(),
                           VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                           sizeof(constants), &constants);
    };
    push(pixelRatio);
    const VkBuffer buffer = slot.vertices.handle();
    const VkDeviceSize start = 0;
    vkCmdBindVertexBuffers(commands, 0, 1, &buffer, &start);
    const auto lines = static_cast<std::uint32_t>(m_drawing.lines.size());
    const auto points = static_cast<std::uint32_t>(m_drawing.points.size());
    if (lines > 0) {
        vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, m_lines.handle());
        vkCmdDraw(commands, lines, 1, 0, 0);
    }
    if (points > 0) {
        // the points follow the lines in the buffer: the nodes first, at the view's scale,
        // then the rest (the origin, the highlights' halos) at their own size
        const auto nodes = static_cast<std::uint32_t>(
            std::min<std::size_t>(m_drawing.nodePoints, m_drawing.points.size()));
        vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, m_points.handle());
        if (nodes > 0) {
            push(pixelRatio * nodeScale);
            vkCmdDraw(commands, nodes, 1, lines, 0);
            push(pixelRatio);
        }
        if (points > nodes)
            vkCmdDraw(commands, points - nodes, 1, lines + nodes, 0);
    }
    const auto overlay = static_cast<std::uint32_t>(m_drawing.overlayLines.size());
    if (overlay > 0) {
        vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, m_lines.handle());
        vkCmdDraw(commands, overlay, 1, lines + points, 0);
    }
}

} // namespace bv::scene
