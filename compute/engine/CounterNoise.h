#pragma once
// CounterNoise: the counter-based Poisson noise of an image that lives on the GPU (the
// simulator's float buffer), drawn there by shaders/counter_noise.comp in one dispatch and read
// back as one float (a whole number of photons) per pixel: the bits that
// random::counterPoissonImage() computes on the CPU (docs/numerics/counter-noise.md).
//
//   engine::CounterNoise noise(device);
//   std::vector<float> photons =
//       noise.deviates(simulator.imageBuffer(), pixels, random::counterKey(seed, frame));
//   // products::ImageSource::deviates = &photons: the noise image, CBF and NeXus counts
//
// Owns its one-shot pass (vk::ComputePass: pipeline, descriptor set, command buffer, fence)
// and the deviates' buffer (kept between calls, grown when an image is larger); borrows the vk::Device, which must outlive
// it, and the image buffer, which must hold its pixels (no run in flight) during deviates().

#include "compute/random/CounterRandom.h"
#include "compute/vk/Buffer.h"
#include "compute/vk/ComputePass.h"

#include <cstdint>
#include <vector>

namespace bv::vk {
class Device;
}

namespace bv::engine {

class CounterNoise {
  public:
    explicit CounterNoise(const vk::Device& device);
    CounterNoise(const CounterNoise&) = delete;
    CounterNoise& operator=(const CounterNoise&) = delete;

    // One deviate per float of `image` (a storage buffer of at least pixelCount floats on the
    // device), pixel i's mean being image[i] and its index firstPixel + i. Submits to the
    // device's queue and waits; throws bv::Error on a Vulkan failure or more than 2^32 pixels.
    std::vector<float> deviates(VkBuffer image, std::size_t pixelCount, random::CounterKey key,
                                std::uint32_t firstPixel = 0);

  private:
    const vk::Device& m_device;
    vk::ComputePass m_pass;
    vk::Buffer m_deviates;
};

} // namespace bv::engine
