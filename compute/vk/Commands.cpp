#include "compute/vk/Commands.h"

#include "compute/core/Error.h"
#include "compute/vk/Buffer.h"
#include "compute/vk/Check.h"
#include "compute/vk/Device.h"
#include "compute/vk/Pipeline.h"

#include <utility>

namespace bv::vk {

CommandPool::CommandPool(const Device& device) {
    VkCommandPoolCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    info.queueFamilyIndex = device.queueFamily();
    VkCommandPool pool = VK_NULL_HANDLE;
    check(vkCreateCommandPool(device.handle(), &info, nullptr, &pool), "creating a command pool");
    m_pool = {device.handle(), pool};
}

CommandBuffer::CommandBuffer(const CommandPool& pool)
    : m_device(pool.device()), m_pool(pool.handle()) {
    VkCommandBufferAllocateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    info.commandPool = m_pool;
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(m_device, &info, &m_buffer), "allocating a command buffer");
}

CommandBuffer::~CommandBuffer() {
    release();
}

CommandBuffer::CommandBuffer(CommandBuffer&& other) noexcept
    : m_device(std::exchange(other.m_device, VK_NULL_HANDLE)),
      m_pool(std::exchange(other.m_pool, VK_NULL_HANDLE)),
      m_buffer(std::exchange(other.m_buffer, VK_NULL_HANDLE)) {}

CommandBuffer& CommandBuffer::operator=(CommandBuffer&& other) noexcept {
    if (this != &other) {
        release();
        m_device = std::exchange(other.m_device, VK_NULL_HANDLE);
        m_pool = std::exchange(other.m_pool, VK_NULL_HANDLE);
        m_buffer = std::exchange(other.m_buffer, VK_NULL_HANDLE);
    }
    return *this;
}

void CommandBuffer::release() {
    if (m_buffer != VK_NULL_HANDLE)
        vkFreeCommandBuffers(m_device, m_pool, 1, &m_buffer);
    m_buffer = VK_NULL_HANDLE;
}

void CommandBuffer::begin() {
    VkCommandBufferBeginInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    check(vkBeginCommandBuffer(m_buffer, &info), "recording GPU commands");
}

void CommandBuffer::end() {
    check(vkEndCommandBuffer(m_buffer), "recording GPU commands");
}

void CommandBuffer::bindCompute(const ComputePipeline& pipeline, const PipelineLayout& layout,
                                VkDescriptorSet set) {
    vkCmdBindPipeline(m_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle());
    if (set != VK_NULL_HANDLE)
        vkCmdBindDescriptorSets(m_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, layout.handle(), 0, 1,
                                &set, 0, nullptr);
}

void CommandBuffer::pushConstants(const PipelineLayout& layout, const void* data,
                                  std::uint32_t bytes, std::uint32_t offset) {
    vkCmdPushConstants(m_buffer, layout.handle(), VK_SHADER_STAGE_COMPUTE_BIT, offset, bytes, data);
}

void CommandBuffer::dispatch(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
    vkCmdDispatch(m_buffer, x, y, z);
}

void CommandBuffer::barrier(VkPipelineStageFlags srcStage, VkAccessFlags srcAccess,
                            VkPipelineStageFlags dstStage, VkAccessFlags dstAccess) {
    VkMemoryBarrier memoryBarrier{};
    memoryBarrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    memoryBarrier.srcAccessMask = srcAccess;
    memoryBarrier.dstAccessMask = dstAccess;
    vkCmdPipelineBarrier(m_buffer, srcStage, dstStage, 0, 1, &memoryBarrier, 0, nullptr, 0,
                         nullptr);
}

void CommandBuffer::computeToTransferBarrier() {
    barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
}

void CommandBuffer::transferToHostBarrier() {
    barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
}

void CommandBuffer::copyBuffer(const Buffer& source, const Buffer& target, VkDeviceSize bytes,
                               VkDeviceSize sourceOffset, VkDeviceSize targetOffset) {
    const VkBufferCopy region{sourceOffset, targetOffset, bytes};
    vkCmdCopyBuffer(m_buffer, source.handle(), target.handle(), 1, &region);
}

void CommandBuffer::fillBuffer(const Buffer& buffer, std::uint32_t word) {
    vkCmdFillBuffer(m_buffer, buffer.handle(), 0, VK_WHOLE_SIZE, word);
}

Fence::Fence(const Device& device, bool signaled) {
    VkFenceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    info.flags =
        signaled ? VkFenceCreateFlags{VK_FENCE_CREATE_SIGNALED_BIT} : VkFenceCreateFlags{0};
    VkFence fence = VK_NULL_HANDLE;
    check(vkCreateFence(device.handle(), &info, nullptr, &fence), "creating a fence");
    m_fence = {device.handle(), fence};
}

void Fence::wait(std::uint64_t timeoutNs) const {
    const VkFence fence = m_fence.get();
    check(vkWaitForFences(m_fence.device(), 1, &fence, VK_TRUE, timeoutNs), "waiting for the GPU");
}

bool Fence::isSignaled() const {
    const VkResult result = vkGetFenceStatus(m_fence.device(), m_fence.get());
    if (result == VK_NOT_READY)
        return false;
    check(result, "asking the GPU whether it is done");
    return true;
}

void Fence::reset() {
    const VkFence fence = m_fence.get();
    check(vkResetFences(m_fence.device(), 1, &fence), "resetting a fence");
}

void submit(const Device& device, const CommandBuffer& commands, Fence& fence) {
    fence.reset();
    const VkCommandBuffer buffer = commands.handle();
    VkSubmitInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    info.commandBufferCount = 1;
    info.pCommandBuffers = &buffer;
    check(vkQueueSubmit(device.queue(), 1, &info, fence.handle()), "submitting work to the GPU");
}

void submitAndWait(const Device& device, const CommandBuffer& commands, Fence& fence) {
    submit(device, commands, fence);
    fence.wait();
}

} // namespace bv::vk
