#pragma once
// ColourImage: a 2D colour image in device-local memory with its view (one mip level, one
// layer); and Sampler, the nearest-texel, clamped sampler a full-screen pass reads an image
// with. OffscreenTarget draws into a ColourImage; the image window's overlay is one, filled
// from the host each time it changes (recordUpload).
//
// Each owns the handles it names (through vk::DeviceHandle) and borrows the vk::Device, which
// must outlive it.

#include "compute/vk/DeviceHandle.h"

#include <vulkan/vulkan.h>

#include <cstdint>

namespace bv::vk {
class Buffer;
class Device;
} // namespace bv::vk

namespace bv::scene {

class ColourImage {
  public:
    ColourImage() = default;
    // Throws bv::Error when the device cannot make the image (no memory, no such format).
    ColourImage(const vk::Device& device, VkExtent2D extent, VkFormat format,
                VkImageUsageFlags usage, const char* label);

    VkImage handle() const { return m_image.get(); }
    VkImageView view() const { return m_view.get(); }
    VkExtent2D extent() const { return m_extent; }

    // Recorded commands that replace every texel with rows of `source` (4-byte texels,
    // rowTexels apart), for a fragment shader to sample: after the fragment reads of earlier
    // frames, before this frame's (SHADER_READ_ONLY layout at the end).
    void recordUpload(VkCommandBuffer commands, const vk::Buffer& source,
                      std::uint32_t rowTexels) const;

  private:
    // declared in the order they are made; destroyed the other way round
    vk::DeviceHandle<VkDeviceMemory, vkFreeMemory> m_memory;
    vk::DeviceHandle<VkImage, vkDestroyImage> m_image;
    vk::DeviceHandle<VkImageView, vkDestroyImageView> m_view;
    VkExtent2D m_extent{};
};

class Sampler {
  public:
    Sampler() = default;
    // nearest texel, no mip levels, clamped to the edge
    explicit Sampler(const vk::Device& device);
    VkSampler handle() const { return m_sampler.get(); }

  private:
    vk::DeviceHandle<VkSampler, vkDestroySampler> m_sampler;
};

} // namespace bv::scene
