#pragma once
// ComputePass: a one-shot compute dispatch over a few storage buffers, recorded and submitted
// on every call and waited for, with everything it needs: the set layout (bindings 0..n-1,
// all storage buffers), the pool and its one set, the pipeline layout (one push-constant
// range), the pipeline, a command buffer and a fence. What CounterNoise (compute/engine) and
// GpuHistogram (render/) run: one short pass over the simulator's image, read back at once.
//
//   vk::ComputePass pass(device, histogram_comp_spv, histogram_comp_spv_size, 3,
//                        sizeof(PassConstants));
//   pass.bind({image, skipped.handle(), result.handle()});  // bindings 0, 1, 2
//   vk::CommandBuffer& cmd = pass.begin();                  // recording, pipeline and set bound
//   pass.push(&constants, sizeof constants);
//   pass.dispatchItems(pixels, 64);                         // local_size_x 64
//   pass.submitAndWait();
//
// Recording at each call costs microseconds next to a pass over an image, and lets the
// buffers change between calls (the simulator replaces its image when the detector changes
// size). Owns every object named above; borrows the vk::Device, which must outlive it, and the
// bound buffers, which must live until submitAndWait() returns.

#include "compute/vk/Commands.h"
#include "compute/vk/Pipeline.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bv::vk {

class Device;

class ComputePass {
  public:
    // code/codeBytes as bv_embed_shaders declares them. Throws bv::Error on a Vulkan failure.
    ComputePass(const Device& device, const std::uint32_t* code, std::size_t codeBytes,
                std::uint32_t storageBuffers, std::uint32_t pushConstantBytes);
    ComputePass(const ComputePass&) = delete;
    ComputePass& operator=(const ComputePass&) = delete;

    // Points binding i at buffers[i] (as many as the pass has bindings).
    void bind(const std::vector<VkBuffer>& buffers);
    // Begins recording, with the pipeline and the set bound; the caller adds barriers, push
    // constants and dispatches.
    CommandBuffer& begin();
    void push(const void* data, std::uint32_t bytes);
    // Dispatches enough groups of `localSize` invocations (the shader's local_size_x) for
    // `items`, in rows of at most 65535 groups (the smallest maxComputeWorkGroupCount[0]
    // allowed); the shader finds its item from gl_WorkGroupID.y and .x and skips those past
    // the end.
    void dispatchItems(std::size_t items, std::uint32_t localSize);
    // Ends the recording, submits it to the device's queue and waits.
    void submitAndWait();

  private:
    const Device& m_device;
    std::uint32_t m_bindings;
    DescriptorSetLayout m_setLayout;
    PipelineLayout m_layout;
    ComputePipeline m_pipeline;
    DescriptorPool m_pool;
    VkDescriptorSet m_set = VK_NULL_HANDLE;
    CommandPool m_commandPool;
    CommandBuffer m_commands;
    Fence m_fence;
};

} // namespace bv::vk
