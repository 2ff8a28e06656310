#pragma once
// PixelGather: the values of chosen pixels of an image that lives on the GPU (the simulator's
// float buffer), packed one after the other by shaders/pixel_gather.comp and read back: what a
// fit needs of a rendering (the pixels of its spot regions), without the frame's read-back.
//
//   engine::PixelGather gather(device);
//   gather.setPixels({17, 18, 530});                     // image indices, kept on the device
//   simulator.run();
//   std::vector<float> v = gather.values(simulator.imageBuffer()); // image[17], [18], [530]
//
// Owns its one-shot pass (vk::ComputePass), the index table (device-local; copied from a
// staging buffer with the first pass after setPixels where that memory is not mappable) and
// the values' buffer (host-readable); borrows the vk::Device, which must outlive it, and the
// image buffer, which must hold its pixels (no run in flight) during values().

#include "compute/vk/Buffer.h"
#include "compute/vk/ComputePass.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bv::vk {
class Device;
}

namespace bv::engine {

class PixelGather {
  public:
    // stagedUpload: copy the indices through a staging buffer even where the device's own
    // memory is mappable (as a discrete GPU's usually is not): lets lavapipe test that path.
    explicit PixelGather(const vk::Device& device, bool stagedUpload = false);
    PixelGather(const PixelGather&) = delete;
    PixelGather& operator=(const PixelGather&) = delete;

    // The pixels values() returns, in this order (indices into the image's floats).
    void setPixels(const std::vector<std::uint32_t>& pixels);
    std::size_t pixelCount() const { return m_count; }

    // image[pixel] for each pixel set, the image being a storage buffer holding every index
    // set. Submits to the device's queue and waits; throws bv::Error on a Vulkan failure.
    std::vector<float> values(VkBuffer image);

  private:
    const vk::Device& m_device;
    vk::ComputePass m_pass;
    vk::Buffer m_indices, m_staging, m_values;
    bool m_stagedUpload = false;
    std::size_t m_count = 0;
    bool m_copyPending = false; // the staging buffer holds indices not yet copied
};

} // namespace bv::engine
