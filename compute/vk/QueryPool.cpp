#include "compute/vk/QueryPool.h"

#include "compute/core/Error.h"
#include "compute/vk/Check.h"
#include "compute/vk/Commands.h"
#include "compute/vk/Device.h"

namespace bv::vk {

double timestampMilliseconds(std::uint64_t begin, std::uint64_t end, std::uint32_t validBits,
                             float timestampPeriodNs) {
    if (validBits == 0)
        return 0.0;
    const std::uint64_t mask = validBits >= 64 ? ~0ull : (1ull << validBits) - 1;
    const std::uint64_t ticks = ((end & mask) - (begin & mask)) & mask;
    return static_cast<double>(ticks) * static_cast<double>(timestampPeriodNs) * 1e-6;
}

QueryPool::QueryPool(const Device& device, std::uint32_t count)
    : m_count(count), m_validBits(device.timestampValidBits()),
      m_periodNs(device.info().limits.timestampPeriod) {
    if (m_validBits == 0)
        throw Error("the GPU queue of " + device.description() +
                    " has no timestamps; timing is not available on this device");
    VkQueryPoolCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = count;
    VkQueryPool pool = VK_NULL_HANDLE;
    check(vkCreateQueryPool(device.handle(), &info, nullptr, &pool), "creating a query pool");
    m_pool = {device.handle(), pool};
}

void QueryPool::reset(CommandBuffer& commands) {
    vkCmdResetQueryPool(commands.handle(), m_pool.get(), 0, m_count);
}

void QueryPool::writeTimestamp(CommandBuffer& commands, std::uint32_t query,
                               VkPipelineStageFlagBits stage) {
    if (query >= m_count)
        throw Error("timestamp query " + std::to_string(query) + " is outside the pool of " +
                    std::to_string(m_count) + " (internal error)");
    vkCmdWriteTimestamp(commands.handle(), stage, m_pool.get(), query);
}

std::vector<std::uint64_t> QueryPool::ticks() const { return ticks(m_count); }

std::vector<std::uint64_t> QueryPool::ticks(std::uint32_t count) const {
    if (count > m_count)
        throw Error("timestamp queries: " + std::to_string(count) + " asked, the pool has " +
                    std::to_string(m_count));
    std::vector<std::uint64_t> values(count);
    check(vkGetQueryPoolResults(m_pool.device(), m_pool.get(), 0, count,
                                values.size() * sizeof(std::uint64_t), values.data(),
                                sizeof(std::uint64_t),
                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
          "reading GPU timestamps");
    return values;
}

double QueryPool::elapsedMilliseconds(std::uint32_t first, std::uint32_t second) const {
    if (first >= m_count || second >= m_count)
        throw Error("timestamp queries " + std::to_string(first) + ", " + std::to_string(second) +
                    " are outside the pool of " + std::to_string(m_count) + " (internal error)");
    const std::vector<std::uint64_t> values = ticks();
    return timestampMilliseconds(values[first], values[second], m_validBits, m_periodNs);
}

} // namespace bv::vk
