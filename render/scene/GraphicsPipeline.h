#pragma once
// The graphics half of the Vulkan wrappers compute/vk has for compute (render/scene only
// draws; compute/vk stays free of graphics): one object per class, each borrowing the VkDevice
// and owning the handle it names, through vk::DeviceHandle.

#include "compute/vk/DeviceHandle.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace bv::vk {
class Device;
class ShaderModule;
} // namespace bv::vk

namespace bv::scene {

// A pipeline layout with the given descriptor set layouts (none for the scene) and one
// push-constant range at offset 0 that the vertex and fragment stages share.
class GraphicsPipelineLayout {
  public:
    GraphicsPipelineLayout() = default;
    GraphicsPipelineLayout(const vk::Device& device, std::uint32_t pushConstantBytes,
                           const std::vector<VkDescriptorSetLayout>& setLayouts = {});
    static constexpr VkShaderStageFlags kPushStages =
        VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    VkPipelineLayout handle() const { return m_layout.get(); }

  private:
    vk::DeviceHandle<VkPipelineLayout, vkDestroyPipelineLayout> m_layout;
};

// Where and how a pipeline draws: the render pass (any compatible one will do: the Qt
// window's, with its depth attachment and samples, or an offscreen one), its sample count and
// what the vertices make.
struct PipelineTarget {
    VkRenderPass renderPass = VK_NULL_HANDLE;
    std::uint32_t subpass = 0;
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
};

// What a pipeline reads its vertices from and how it writes the target.
struct PipelineStyle {
    // SceneVertex attributes (false: none, the vertex shader makes its own, as the image
    // window's full-screen triangle)
    bool sceneVertices = true;
    // straight alpha blending (false: the fragment's colour replaces the target's)
    bool alphaBlend = true;
};

// A pipeline, by default for scene vertices (SceneVertex: vec3 position, float size, vec4
// colour) with straight alpha blending; no depth test (translucent lines and dots: later
// draws lie on top) and a dynamic viewport and scissor, so a resized window keeps its
// pipelines.
class GraphicsPipeline {
  public:
    GraphicsPipeline() = default;
    GraphicsPipeline(const vk::Device& device, const vk::ShaderModule& vertex,
                     const vk::ShaderModule& fragment, const GraphicsPipelineLayout& layout,
                     const PipelineTarget& target, VkPrimitiveTopology topology,
                     const PipelineStyle& style = {});
    VkPipeline handle() const { return m_pipeline.get(); }

  private:
    vk::DeviceHandle<VkPipeline, vkDestroyPipeline> m_pipeline;
};

} // namespace bv::scene
