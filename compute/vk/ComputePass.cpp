#include "compute/vk/ComputePass.h"

#include "compute/core/Error.h"
#include "compute/vk/Device.h"

#include <algorithm>

namespace bv::vk {

namespace {

std::vector<DescriptorBinding> storageBindings(std::uint32_t count) {
    std::vector<DescriptorBinding> bindings;
    for (std::uint32_t i = 0; i < count; ++i)
        bindings.push_back({i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
    return bindings;
}

} // namespace

ComputePass::ComputePass(const Device& device, const std::uint32_t* code, std::size_t codeBytes,
                         std::uint32_t storageBuffers, std::uint32_t pushConstantBytes)
    : m_device(device), m_bindings(storageBuffers),
      m_setLayout(device, storageBindings(storageBuffers)),
      m_layout(device, {m_setLayout.handle()}, pushConstantBytes),
      m_pipeline(device, code, codeBytes, m_layout),
      m_pool(device, 1, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, storageBuffers}}),
      m_commandPool(device), m_commands(m_commandPool), m_fence(device) {
    m_set = m_pool.allocate(m_setLayout);
}

void ComputePass::bind(const std::vector<VkBuffer>& buffers) {
    if (buffers.size() != m_bindings)
        throw Error("a compute pass was given " + std::to_string(buffers.size()) +
                    " buffers for " + std::to_string(m_bindings) + " bindings (internal error)");
    std::vector<BufferBinding> bindings;
    for (std::uint32_t i = 0; i < m_bindings; ++i)
        bindings.push_back({i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, buffers[i]});
    m_pool.write(m_set, bindings);
}

CommandBuffer& ComputePass::begin() {
    m_commands.begin();
    m_commands.bindCompute(m_pipeline, m_layout, m_set);
    return m_commands;
}

void ComputePass::push(const void* data, std::uint32_t bytes) {
    m_commands.pushConstants(m_layout, data, bytes);
}

void ComputePass::dispatchItems(std::size_t items, std::uint32_t localSize) {
    constexpr std::size_t kMaxGroupsX = 65535;
    const std::size_t groups = (items + localSize - 1) / localSize;
    const auto groupsX = static_cast<std::uint32_t>(std::min(groups, kMaxGroupsX));
    const auto groupsY = static_cast<std::uint32_t>((groups + groupsX - 1) / groupsX);
    m_commands.dispatch(groupsX, groupsY);
}

void ComputePass::submitAndWait() {
    m_commands.end();
    vk::submitAndWait(m_device, m_commands, m_fence);
}

} // namespace bv::vk
