#pragma once
// OffscreenTarget: a colour image with its render pass and framebuffer, for drawing the scene
// without a window (braggview-bench-reciprocal, and tests that read the pixels back).
//
// Owns: the image (a ColourImage: its memory and view), the render pass (one colour attachment,
// cleared, ending in TRANSFER_SRC layout so it can be copied out at once) and the framebuffer.
// Borrows: the vk::Device, which must outlive it.

#include "compute/vk/DeviceHandle.h"
#include "render/scene/ColourImage.h"

#include <vulkan/vulkan.h>

#include <cstdint>

namespace bv::vk {
class Buffer;
class Device;
} // namespace bv::vk

namespace bv::scene {

class OffscreenTarget {
  public:
    // Throws bv::Error when the device cannot make the image (no memory, no such format).
    OffscreenTarget(const vk::Device& device, VkExtent2D extent,
                    VkFormat format = VK_FORMAT_R8G8B8A8_UNORM);

    VkRenderPass renderPass() const { return m_renderPass.get(); }
    VkExtent2D extent() const { return m_extent; }
    // Bytes of a copy of the whole image (tightly packed rows of 4-byte pixels).
    VkDeviceSize imageBytes() const { return VkDeviceSize(m_extent.width) * m_extent.height * 4; }

    // Recorded commands: begin clears to `clear` (RGBA 0..1).
    void begin(VkCommandBuffer commands, const float (&clear)[4]) const;
    void end(VkCommandBuffer commands) const;
    // After end(): copies the image into `target` (at least imageBytes(), TRANSFER_DST) and
    // makes it visible to the host.
    void copyTo(VkCommandBuffer commands, const vk::Buffer& target) const;

  private:
    // declared in the order they are made; destroyed the other way round
    ColourImage m_image;
    vk::DeviceHandle<VkRenderPass, vkDestroyRenderPass> m_renderPass;
    vk::DeviceHandle<VkFramebuffer, vkDestroyFramebuffer> m_framebuffer;
    VkExtent2D m_extent{};
};

} // namespace bv::scene
