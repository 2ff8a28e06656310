#pragma once
// GpuHistogram: the histogram of an image that lives on the GPU (the simulator's float
// buffer), built there by render/shaders/histogram.comp, so that auto-contrast reads back a
// few KB instead of the whole image.
//
//   render::GpuHistogram histogram(device);
//   render::ImageHistogram h = histogram.compute(simulator.imageBuffer(), pixels, skipped);
//   float black = h.percentile(10.0), white = h.percentile(99.9);
//
// Bins: one for the values <= 0 (a simulated image has many zeros), then kBins bins of equal
// width in log(value) from the smallest positive value to the largest, so that a percentile
// is known to within a bin's ratio (about 1 % for six decades) whatever the dynamic range.
//
// Owns its one-shot pass (vk::ComputePass: pipeline, descriptor set, command buffer, fence)
// and two small buffers (the skipped-pixel flags and the result); borrows the vk::Device, which must outlive it, and the
// image buffer, which must hold its pixels (no run in flight) during compute(). Qt-free:
// built on compute/vk alone, so that it is tested without a window.

#include "compute/vk/Buffer.h"
#include "compute/vk/ComputePass.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace bv::vk {
class Device;
}

namespace bv::render {

// What the GPU counted, on the host.
struct ImageHistogram {
    std::uint64_t nonPositive = 0;   // values <= 0
    std::vector<std::uint32_t> bins; // positive values, log-spaced between the two below
    float minimum = 0.0f;            // of all counted values
    float minimumPositive = 0.0f;    // 0 when there is no positive value
    float maximum = 0.0f;

    bool empty() const { return count() == 0; }
    std::uint64_t count() const;
    // The value below which `percent` % of the counted values lie (the nearest rank, as
    // app::percentile on the host), interpolated within its bin: within one bin of the exact
    // value. 0 for an empty histogram.
    float percentile(double percent) const;
    // The edges of positive bin `bin` (the log-spaced ones), and the bin a positive value
    // falls in (clamped to the bins).
    std::pair<float, float> binEdges(int bin) const;
    int binOf(float value) const;
};

class GpuHistogram {
  public:
    static constexpr int kBins = 2048;

    explicit GpuHistogram(const vk::Device& device);
    GpuHistogram(const GpuHistogram&) = delete;
    GpuHistogram& operator=(const GpuHistogram&) = delete;

    // Counts the pixelCount floats of `image` (a storage buffer on the device), leaving out
    // the pixels whose byte in `skipped` is non-zero (an empty vector: none). Submits to the
    // device's queue and waits; throws bv::Error on a Vulkan failure.
    ImageHistogram compute(VkBuffer image, std::size_t pixelCount,
                           const std::vector<std::uint8_t>& skipped);

  private:
    const vk::Device& m_device;
    vk::ComputePass m_pass;
    vk::Buffer m_result;
    vk::Buffer m_skipped;
};

} // namespace bv::render
