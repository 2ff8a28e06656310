#include "compute/vk/StagedBuffer.h"

#include "compute/vk/Commands.h"

namespace bv::vk {

namespace {
constexpr VkBufferUsageFlags kUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_DST_BIT;
}

StagedBuffer::StagedBuffer(const Device& device, VkDeviceSize size, const std::string& label)
    : m_device(device, size, kUsage, MemoryUse::DeviceLocal, label) {
    if (!m_device.isMappable())
        m_twin = Buffer(device, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                        MemoryUse::Readback, label + " (host side)");
}

void StagedBuffer::write(const void* data, std::size_t bytes) {
    (staged() ? m_twin : m_device).write(data, bytes);
}

void StagedBuffer::read(void* data, std::size_t bytes) {
    (staged() ? m_twin : m_device).read(data, bytes);
}

void StagedBuffer::recordUpload(CommandBuffer& commands) const {
    if (!staged())
        return;
    commands.copyBuffer(m_twin, m_device, m_device.size());
    commands.barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
}

void StagedBuffer::recordDownload(CommandBuffer& commands) const {
    if (!staged())
        return;
    commands.computeToTransferBarrier();
    commands.copyBuffer(m_device, m_twin, m_device.size());
    commands.transferToHostBarrier();
}

} // namespace bv::vk
