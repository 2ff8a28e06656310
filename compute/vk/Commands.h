#pragma once
// Command recording and submission: CommandPool, CommandBuffer, Fence, submit helpers.
//
// Record once, submit many: record a CommandBuffer once (begin ... end), then submit it as
// often as needed; between submits only buffer contents change. Recording again (begin()
// resets it) is the explicit exception. The pool is created with RESET_COMMAND_BUFFER so a
// single buffer can be re-recorded.
//
//   CommandPool pool(device);
//   CommandBuffer cmd(pool);
//   cmd.begin();
//   cmd.bindCompute(pipeline, layout, set);
//   cmd.dispatch(groups);
//   cmd.end();
//   Fence fence(device);
//   submitAndWait(device, cmd, fence);   // and again, and again

#include "compute/vk/DeviceHandle.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <limits>

namespace bv::vk {

class Buffer;
class ComputePipeline;
class Device;
class PipelineLayout;
class QueryPool;

// Owns: the VkCommandPool (for the device's compute queue family). Borrows: the VkDevice.
class CommandPool {
  public:
    CommandPool() = default;
    explicit CommandPool(const Device& device);
    VkCommandPool handle() const { return m_pool.get(); }
    VkDevice device() const { return m_pool.device(); }

  private:
    DeviceHandle<VkCommandPool, vkDestroyCommandPool> m_pool;
};

// Owns: one primary VkCommandBuffer (freed back to its pool). Borrows: the VkDevice and the
// pool, which must outlive it. The recording helpers are thin: for anything else, call
// vkCmd* on handle() between begin() and end().
class CommandBuffer {
  public:
    CommandBuffer() = default;
    explicit CommandBuffer(const CommandPool& pool);
    ~CommandBuffer();
    CommandBuffer(const CommandBuffer&) = delete;
    CommandBuffer& operator=(const CommandBuffer&) = delete;
    CommandBuffer(CommandBuffer&& other) noexcept;
    CommandBuffer& operator=(CommandBuffer&& other) noexcept;

    VkCommandBuffer handle() const { return m_buffer; }

    void begin();
    void end();

    void bindCompute(const ComputePipeline& pipeline, const PipelineLayout& layout,
                     VkDescriptorSet set = VK_NULL_HANDLE);
    void pushConstants(const PipelineLayout& layout, const void* data, std::uint32_t bytes,
                       std::uint32_t offset = 0);
    void dispatch(std::uint32_t x, std::uint32_t y = 1, std::uint32_t z = 1);
    // A global memory barrier: writes of srcStage/srcAccess visible to dstStage/dstAccess.
    void barrier(VkPipelineStageFlags srcStage, VkAccessFlags srcAccess,
                 VkPipelineStageFlags dstStage, VkAccessFlags dstAccess);
    // The usual two: compute writes -> transfer reads, and transfer writes -> host reads.
    void computeToTransferBarrier();
    void transferToHostBarrier();
    void copyBuffer(const Buffer& source, const Buffer& target, VkDeviceSize bytes,
                    VkDeviceSize sourceOffset = 0, VkDeviceSize targetOffset = 0);
    void fillBuffer(const Buffer& buffer, std::uint32_t word);

  private:
    void release();

    VkDevice m_device = VK_NULL_HANDLE;
    VkCommandPool m_pool = VK_NULL_HANDLE;
    VkCommandBuffer m_buffer = VK_NULL_HANDLE;
};

// Owns: the VkFence. Borrows: the VkDevice.
class Fence {
  public:
    Fence() = default;
    explicit Fence(const Device& device, bool signaled = false);
    VkFence handle() const { return m_fence.get(); }

    // Waits until signaled; throws bv::Error on timeout or a lost device.
    void wait(std::uint64_t timeoutNs = std::numeric_limits<std::uint64_t>::max()) const;
    bool isSignaled() const;
    void reset();

  private:
    DeviceHandle<VkFence, vkDestroyFence> m_fence;
};

// Resets the fence and submits the recorded buffer to the device's queue; the fence signals
// when the GPU is done. The caller must not submit to that queue from another thread at the
// same time (in the viewer: submit from the render thread).
void submit(const Device& device, const CommandBuffer& commands, Fence& fence);
// submit() then fence.wait().
void submitAndWait(const Device& device, const CommandBuffer& commands, Fence& fence);

} // namespace bv::vk
