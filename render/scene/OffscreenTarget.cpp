#include "render/scene/OffscreenTarget.h"

#include "compute/vk/Buffer.h"
#include "compute/vk/Check.h"
#include "compute/vk/Device.h"

namespace bv::scene {

OffscreenTarget::OffscreenTarget(const vk::Device& device, VkExtent2D extent, VkFormat format)
    : m_extent(extent) {
    const VkDevice d = device.handle();
    m_image = ColourImage(device, extent, format,
                          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                          "the offscreen image");
    const VkImageView view = m_image.view();

    VkAttachmentDescription colour{};
    colour.format = format;
    colour.samples = VK_SAMPLE_COUNT_1_BIT;
    colour.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    colour.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    colour.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    colour.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    colour.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    colour.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    const VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &reference;
    // the colour writes finish before the copy that follows the pass reads them
    VkSubpassDependency after{};
    after.srcSubpass = 0;
    after.dstSubpass = VK_SUBPASS_EXTERNAL;
    after.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    after.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    after.dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
    after.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    VkRenderPassCreateInfo passInfo{};
    passInfo.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
    passInfo.attachmentCount = 1;
    passInfo.pAttachments = &colour;
    passInfo.subpassCount = 1;
    passInfo.pSubpasses = &subpass;
    passInfo.dependencyCount = 1;
    passInfo.pDependencies = &after;
    VkRenderPass pass = VK_NULL_HANDLE;
    vk::check(vkCreateRenderPass(d, &passInfo, nullptr, &pass),
              "creating the offscreen render pass");
    m_renderPass = {d, pass};

    VkFramebufferCreateInfo framebufferInfo{};
    framebufferInfo.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
    framebufferInfo.renderPass = pass;
    framebufferInfo.attachmentCount = 1;
    framebufferInfo.pAttachments = &view;
    framebufferInfo.width = extent.width;
    framebufferInfo.height = extent.height;
    framebufferInfo.layers = 1;
    VkFramebuffer framebuffer = VK_NULL_HANDLE;
    vk::check(vkCreateFramebuffer(d, &framebufferInfo, nullptr, &framebuffer),
              "creating the offscreen framebuffer");
    m_framebuffer = {d, framebuffer};
}

void OffscreenTarget::begin(VkCommandBuffer commands, const float (&clear)[4]) const {
    VkClearValue value{};
    for (int i = 0; i < 4; ++i)
        value.color.float32[i] = clear[i];
    VkRenderPassBeginInfo info{};
    info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
    info.renderPass = m_renderPass.get();
    info.framebuffer = m_framebuffer.get();
    info.renderArea = {{0, 0}, m_extent};
    info.clearValueCount = 1;
    info.pClearValues = &value;
    vkCmdBeginRenderPass(commands, &info, VK_SUBPASS_CONTENTS_INLINE);
}

void OffscreenTarget::end(VkCommandBuffer commands) const {
    vkCmdEndRenderPass(commands);
}

void OffscreenTarget::copyTo(VkCommandBuffer commands, const vk::Buffer& target) const {
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {m_extent.width, m_extent.height, 1};
    vkCmdCopyImageToBuffer(commands, m_image.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           target.handle(), 1, &region);
    VkMemoryBarrier barrier{};
    barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                         &barrier, 0, nullptr, 0, nullptr);
}

} // namespace bv::scene
