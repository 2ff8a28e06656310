#include "compute/engine/PixelGather.h"

#include "compute/core/Error.h"
#include "compute/vk/Device.h"

#include <shaders/braggview_gather_shaders.h>

namespace bv::engine {

namespace {

constexpr std::uint32_t kGatherGroupSize = 64; // pixel_gather.comp's local_size_x

} // namespace

PixelGather::PixelGather(const vk::Device& device, bool stagedUpload)
    : m_device(device),
      m_pass(device, pixel_gather_comp_spv, pixel_gather_comp_spv_size, 3, sizeof(std::uint32_t)),
      m_stagedUpload(stagedUpload) {}

void PixelGather::setPixels(const std::vector<std::uint32_t>& pixels) {
    m_count = pixels.size();
    m_copyPending = false;
    if (pixels.empty())
        return;
    const std::size_t bytes = pixels.size() * sizeof(std::uint32_t);
    if (m_indices.size() < bytes)
        m_indices = vk::Buffer(
            m_device, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
            vk::MemoryUse::DeviceLocal, "the fitted pixels' indices");
    if (m_indices.isMappable() && !m_stagedUpload) {
        m_indices.write(pixels.data(), bytes);
    } else {
        // read at every pass: kept in the GPU's own memory, copied there once
        if (m_staging.size() < bytes)
            m_staging = vk::Buffer(m_device, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                   vk::MemoryUse::Upload, "the fitted pixels' indices (staging)");
        m_staging.write(pixels.data(), bytes);
        m_copyPending = true;
    }
    if (m_values.size() < pixels.size() * sizeof(float))
        m_values =
            vk::Buffer(m_device, pixels.size() * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                       vk::MemoryUse::Readback, "the fitted pixels' values");
}

std::vector<float> PixelGather::values(VkBuffer image) {
    if (m_count == 0 || image == VK_NULL_HANDLE)
        return {};
    m_pass.bind({image, m_indices.handle(), m_values.handle()});
    vk::CommandBuffer& commands = m_pass.begin();
    if (m_copyPending) {
        commands.copyBuffer(m_staging, m_indices, m_count * sizeof(std::uint32_t));
        commands.barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    }
    // the simulation's writes of the image (an earlier submission) become visible here
    commands.barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                     VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    const auto count = static_cast<std::uint32_t>(m_count);
    m_pass.push(&count, sizeof count);
    m_pass.dispatchItems(m_count, kGatherGroupSize);
    commands.barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                     VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    m_pass.submitAndWait();
    m_copyPending = false;
    std::vector<float> result(m_count);
    m_values.read(result.data(), m_count * sizeof(float));
    return result;
}

} // namespace bv::engine
