#pragma once
// The pieces of a compute pipeline, one Vulkan object each. All borrow the VkDevice; each owns
// exactly the handle it names. A VkDescriptorSet is owned by its DescriptorPool (freed with it).
//
//   ShaderModule module(device, fill_comp_spv, fill_comp_spv_size);
//   DescriptorSetLayout setLayout(device, {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}});
//   PipelineLayout layout(device, {setLayout.handle()}, sizeof(PushBlock));
//   ComputePipeline pipeline(device, module, layout,
//                            SpecializationConstants().add(0, 64u).add(1, true), &cache);

#include "compute/vk/DeviceHandle.h"

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bv::vk {

class Device;
class PipelineCache;

class ShaderModule {
  public:
    ShaderModule() = default;
    // code/codeBytes as bv_embed_shaders declares them (x_comp_spv, x_comp_spv_size).
    // Throws bv::Error when the bytes are not SPIR-V.
    ShaderModule(const Device& device, const std::uint32_t* code, std::size_t codeBytes);
    VkShaderModule handle() const { return m_module.get(); }

  private:
    DeviceHandle<VkShaderModule, vkDestroyShaderModule> m_module;
};

struct DescriptorBinding {
    std::uint32_t binding = 0;
    VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    std::uint32_t count = 1;
    VkShaderStageFlags stages = VK_SHADER_STAGE_COMPUTE_BIT; // who reads it
};

// A set layout (for the compute stage unless a binding says otherwise).
class DescriptorSetLayout {
  public:
    DescriptorSetLayout() = default;
    DescriptorSetLayout(const Device& device, const std::vector<DescriptorBinding>& bindings);
    VkDescriptorSetLayout handle() const { return m_layout.get(); }

  private:
    DeviceHandle<VkDescriptorSetLayout, vkDestroyDescriptorSetLayout> m_layout;
};

// One buffer bound to one binding of a descriptor set (range VK_WHOLE_SIZE by default).
struct BufferBinding {
    std::uint32_t binding = 0;
    VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    VkDeviceSize range = VK_WHOLE_SIZE;
};

class DescriptorPool {
  public:
    DescriptorPool() = default;
    DescriptorPool(const Device& device, std::uint32_t maxSets,
                   const std::vector<VkDescriptorPoolSize>& sizes);
    VkDescriptorPool handle() const { return m_pool.get(); }

    // A set owned by this pool, valid until the pool is destroyed.
    VkDescriptorSet allocate(const DescriptorSetLayout& layout);
    // Points the set's bindings at buffers (vkUpdateDescriptorSets).
    void write(VkDescriptorSet set, const std::vector<BufferBinding>& bindings) const;

  private:
    DeviceHandle<VkDescriptorPool, vkDestroyDescriptorPool> m_pool;
};

class PipelineLayout {
  public:
    PipelineLayout() = default;
    // pushConstantBytes: one push-constant range at offset 0 for the compute stage (0: none).
    PipelineLayout(const Device& device, const std::vector<VkDescriptorSetLayout>& setLayouts,
                   std::uint32_t pushConstantBytes = 0);
    VkPipelineLayout handle() const { return m_layout.get(); }

  private:
    DeviceHandle<VkPipelineLayout, vkDestroyPipelineLayout> m_layout;
};

// Values for the shader's `layout(constant_id = N) const ...`. Each value takes 4 bytes
// (bool as VkBool32); adding an id twice replaces the value. The builder must outlive the
// pipeline construction that uses info().
class SpecializationConstants {
  public:
    SpecializationConstants& add(std::uint32_t id, std::uint32_t value);
    SpecializationConstants& add(std::uint32_t id, std::int32_t value);
    SpecializationConstants& add(std::uint32_t id, float value);
    SpecializationConstants& add(std::uint32_t id, bool value);

    bool empty() const { return m_entries.empty(); }
    // Points into this object: valid while it lives and is not changed.
    VkSpecializationInfo info() const;

  private:
    SpecializationConstants& addWord(std::uint32_t id, const void* value);

    std::vector<VkSpecializationMapEntry> m_entries;
    std::vector<std::uint32_t> m_data;
};

class ComputePipeline {
  public:
    ComputePipeline() = default;
    // Entry point "main". cache may be null.
    ComputePipeline(const Device& device, const ShaderModule& module, const PipelineLayout& layout,
                    const SpecializationConstants& constants = {},
                    const PipelineCache* cache = nullptr);
    // The same from SPIR-V words, through a temporary ShaderModule.
    ComputePipeline(const Device& device, const std::uint32_t* code, std::size_t codeBytes,
                    const PipelineLayout& layout, const SpecializationConstants& constants = {},
                    const PipelineCache* cache = nullptr);
    VkPipeline handle() const { return m_pipeline.get(); }

    // What the driver said about the build (VK_EXT_pipeline_creation_feedback, where the
    // Device enabled it): whether the pipeline cache served it without compiling, and how long
    // the build took inside the driver. Unknown when the driver gave no feedback.
    enum class CacheUse { Unknown, Hit, Miss };
    CacheUse cacheUse() const { return m_cacheUse; }
    double driverMilliseconds() const { return m_driverMilliseconds; } // 0 when unknown

    // "name = value" lines from VK_KHR_pipeline_executable_properties (registers, spills, ...)
    // when the Device was created with DeviceOptions::pipelineStatistics and the driver has
    // it; empty otherwise.
    const std::vector<std::string>& statistics() const { return m_statistics; }

  private:
    DeviceHandle<VkPipeline, vkDestroyPipeline> m_pipeline;
    CacheUse m_cacheUse = CacheUse::Unknown;
    double m_driverMilliseconds = 0.0;
    std::vector<std::string> m_statistics;
};

} // namespace bv::vk
