#pragma once
// GPU timestamps: how long the recorded work took on the GPU.
//
// Owns: a VkQueryPool of timestamp queries. Borrows: the VkDevice.
// Record reset(), then writeTimestamp() around the work, in the same command buffer (so it
// can be submitted many times); after the fence, elapsedMilliseconds(first, second) reads the
// two ticks and converts them with the device's timestampPeriod and the queue's validBits.
//
//   QueryPool timer(device, 2);
//   timer.reset(cmd);
//   timer.writeTimestamp(cmd, 0, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
//   cmd.dispatch(...);
//   timer.writeTimestamp(cmd, 1, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
//   ... submitAndWait ...
//   double ms = timer.elapsedMilliseconds(0, 1);

#include "compute/vk/DeviceHandle.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace bv::vk {

class CommandBuffer;
class Device;

// Ticks -> milliseconds. Only the low validBits of each value count; an end before the begin
// (the counter wrapped) is handled modulo 2^validBits. validBits 0 gives 0.
double timestampMilliseconds(std::uint64_t begin, std::uint64_t end, std::uint32_t validBits,
                             float timestampPeriodNs);

class QueryPool {
  public:
    QueryPool() = default;
    // Throws bv::Error when the device's queue family has no timestamps (validBits 0).
    QueryPool(const Device& device, std::uint32_t count);
    VkQueryPool handle() const { return m_pool.get(); }
    std::uint32_t count() const { return m_count; }

    // Recorded commands.
    void reset(CommandBuffer& commands);
    void writeTimestamp(CommandBuffer& commands, std::uint32_t query,
                        VkPipelineStageFlagBits stage);

    // After the submission finished: the raw ticks of all queries (waits for them).
    std::vector<std::uint64_t> ticks() const;
    // ... of the first `count` queries only (those the last submissions wrote)
    std::vector<std::uint64_t> ticks(std::uint32_t count) const;
    double elapsedMilliseconds(std::uint32_t first, std::uint32_t second) const;

  private:
    DeviceHandle<VkQueryPool, vkDestroyQueryPool> m_pool;
    std::uint32_t m_count = 0;
    std::uint32_t m_validBits = 0;
    float m_periodNs = 1.0f;
};

} // namespace bv::vk
