#include "render/GpuHistogram.h"

#include "compute/core/Error.h"
#include "compute/vk/Device.h"

#include <shaders/braggview_render_shaders.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace bv::render {

namespace {

// histogram.comp's Result block: four words, four reserved, then the bins
constexpr std::size_t kHeaderWords = 8;
constexpr std::uint32_t kGroupSize = 256;
constexpr std::uint32_t kMaxGroups = 1024;

struct PassConstants {
    std::uint32_t pixelCount;
    std::uint32_t pass;
    std::uint32_t haveSkipped;
    std::uint32_t binCount;
};

float valueOfKey(std::uint32_t key) {
    const std::uint32_t bits = (key & 0x80000000u) != 0 ? key & 0x7fffffffu : ~key;
    float value = 0.0f;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

} // namespace

std::uint64_t ImageHistogram::count() const {
    std::uint64_t n = nonPositive;
    for (std::uint32_t c : bins)
        n += c;
    return n;
}

std::pair<float, float> ImageHistogram::binEdges(int bin) const {
    const double low = std::log(static_cast<double>(minimumPositive));
    const double high = std::log(static_cast<double>(maximum));
    const double n = static_cast<double>(bins.size());
    return {static_cast<float>(std::exp(low + (high - low) * bin / n)),
            static_cast<float>(std::exp(low + (high - low) * (bin + 1) / n))};
}

int ImageHistogram::binOf(float value) const {
    const double low = std::log(static_cast<double>(minimumPositive));
    const double high = std::log(static_cast<double>(maximum));
    if (!(high > low) || bins.empty())
        return 0;
    const double at = (std::log(static_cast<double>(value)) - low) / (high - low) *
                      static_cast<double>(bins.size());
    return std::clamp(static_cast<int>(std::floor(at)), 0, static_cast<int>(bins.size()) - 1);
}

float ImageHistogram::percentile(double percent) const {
    const std::uint64_t n = count();
    if (n == 0)
        return 0.0f;
    // the nearest rank, 0-based, as app::percentile
    const auto rank = static_cast<std::uint64_t>(
        std::llround(std::clamp(percent / 100.0, 0.0, 1.0) * static_cast<double>(n - 1)));
    if (rank < nonPositive) {
        // between the minimum and 0 (all 0 in a simulated image)
        const double f = (static_cast<double>(rank) + 0.5) / static_cast<double>(nonPositive);
        return static_cast<float>(minimum + f * (std::min(0.0f, maximum) - minimum));
    }
    if (!(maximum > minimumPositive))
        return maximum;
    std::uint64_t below = nonPositive;
    for (std::size_t b = 0; b < bins.size(); ++b) {
        if (rank < below + bins[b]) {
            // spread evenly (in log) over the bin
            const double f = (static_cast<double>(rank - below) + 0.5) / bins[b];
            const double low = std::log(static_cast<double>(minimumPositive));
            const double high = std::log(static_cast<double>(maximum));
            const double at = (static_cast<double>(b) + f) / static_cast<double>(bins.size());
            return static_cast<float>(std::exp(low + (high - low) * at));
        }
        below += bins[b];
    }
    return maximum;
}

GpuHistogram::GpuHistogram(const vk::Device& device)
    : m_device(device),
      m_pass(device, histogram_comp_spv, histogram_comp_spv_size, 3, sizeof(PassConstants)),
      m_result(device, (kHeaderWords + kBins) * sizeof(std::uint32_t),
               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, vk::MemoryUse::Readback,
               "the image histogram"),
      m_skipped(device, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, vk::MemoryUse::Upload,
                "the skipped-pixel flags of the histogram") {}

ImageHistogram GpuHistogram::compute(VkBuffer image, std::size_t pixelCount,
                                     const std::vector<std::uint8_t>& skipped) {
    if (image == VK_NULL_HANDLE || pixelCount == 0)
        return {};
    if (pixelCount > 0xffffffffu)
        throw Error("the image histogram counts at most 2^32 pixels");
    const bool haveSkipped = skipped.size() == pixelCount;
    if (haveSkipped) {
        const std::size_t bytes = (pixelCount + 3) / 4 * 4;
        if (m_skipped.size() < bytes)
            m_skipped = vk::Buffer(m_device, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                   vk::MemoryUse::Upload, "the skipped-pixel flags of the histogram");
        std::vector<std::uint8_t> padded(bytes, 0);
        std::copy(skipped.begin(), skipped.end(), padded.begin());
        m_skipped.write(padded.data(), bytes);
    }
    std::vector<std::uint32_t> start(kHeaderWords + kBins, 0u);
    start[0] = 0xffffffffu; // minimum key
    start[1] = 0u;          // maximum key
    start[2] = 0xffffffffu; // smallest positive key
    m_result.write(start.data(), start.size() * sizeof(std::uint32_t));

    // The bindings point at the image of this call (the simulator replaces its buffer when the
    // detector changes size): written, and the two dispatches recorded, each time; both cost
    // microseconds next to the passes over the image.
    m_pass.bind({image, m_skipped.handle(), m_result.handle()});
    const auto groups = static_cast<std::uint32_t>(
        std::min<std::size_t>(kMaxGroups, (pixelCount + kGroupSize - 1) / kGroupSize));
    PassConstants constants{static_cast<std::uint32_t>(pixelCount), 0u, haveSkipped ? 1u : 0u,
                            static_cast<std::uint32_t>(kBins)};
    vk::CommandBuffer& commands = m_pass.begin();
    // the simulation's writes of the image (an earlier submission) become visible here
    commands.barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                     VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                     VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    m_pass.push(&constants, sizeof constants);
    commands.dispatch(groups);
    commands.barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                     VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    constants.pass = 1u;
    m_pass.push(&constants, sizeof constants);
    commands.dispatch(groups);
    commands.barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                     VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    m_pass.submitAndWait();

    std::vector<std::uint32_t> result(kHeaderWords + kBins);
    m_result.read(result.data(), result.size() * sizeof(std::uint32_t));
    ImageHistogram h;
    h.nonPositive = result[3];
    if (result[1] == 0u) // nothing counted
        return h;
    h.minimum = valueOfKey(result[0]);
    h.maximum = valueOfKey(result[1]);
    h.minimumPositive = result[2] != 0xffffffffu ? valueOfKey(result[2]) : 0.0f;
    if (h.minimumPositive > 0.0f)
        h.bins.assign(result.begin() + kHeaderWords, result.end());
    return h;
}

} // namespace bv::render
