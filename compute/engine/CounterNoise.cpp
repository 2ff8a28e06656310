#include "compute/engine/CounterNoise.h"

#include "compute/core/Error.h"
#include "compute/vk/Device.h"

#include <shaders/braggview_noise_shaders.h>

namespace bv::engine {

namespace {

// counter_noise.comp's push constants
struct PassConstants {
    std::uint32_t key[2];
    std::uint32_t firstPixel;
    std::uint32_t pixelCount;
};
static_assert(sizeof(PassConstants) == 16, "the shader's Pass block is four words");

constexpr std::uint32_t kNoiseGroupSize = 64; // counter_noise.comp's local_size_x

} // namespace

CounterNoise::CounterNoise(const vk::Device& device)
    : m_device(device), m_pass(device, counter_noise_comp_spv, counter_noise_comp_spv_size, 2,
                               sizeof(PassConstants)) {}

std::vector<float> CounterNoise::deviates(VkBuffer image, std::size_t pixelCount,
                                          random::CounterKey key, std::uint32_t firstPixel) {
    if (image == VK_NULL_HANDLE || pixelCount == 0)
        return {};
    if (pixelCount > 0xffffffffu - firstPixel)
        throw Error("the counter noise numbers at most 2^32 pixels");
    const std::size_t bytes = pixelCount * sizeof(float);
    if (m_deviates.size() < bytes)
        m_deviates = vk::Buffer(m_device, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                vk::MemoryUse::Readback, "the counter noise's photon counts");
    // the image of this call (the simulator replaces its buffer when the detector changes
    // size): bindings written and the dispatch recorded each time, microseconds next to it
    m_pass.bind({image, m_deviates.handle()});
    const PassConstants constants{
        {key.seed, key.frame}, firstPixel, static_cast<std::uint32_t>(pixelCount)};
    vk::CommandBuffer& commands = m_pass.begin();
    // the simulation's writes of the image (an earlier submission) become visible here
    commands.barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                     VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    m_pass.push(&constants, sizeof constants);
    m_pass.dispatchItems(pixelCount, kNoiseGroupSize);
    commands.barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                     VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    m_pass.submitAndWait();
    std::vector<float> result(pixelCount);
    m_deviates.read(result.data(), bytes);
    return result;
}

} // namespace bv::engine
