#pragma once
// WindowPass: the begin info of a QVulkanWindow's default render pass for its current frame,
// cleared to one colour: the colour attachment, the depth-stencil one, and with multisampling
// the resolve attachment (QVulkanWindow's layout). Both windows of the viewer begin their
// frames with it (ImageRenderer, ReciprocalWindow).
//
//     const WindowPass pass(*window, {r, g, b, 1.0f});
//     vkCmdBeginRenderPass(commands, &pass.info, VK_SUBPASS_CONTENTS_INLINE);
//
// Not copyable: `info` points at the clear values it holds.

#include <QVulkanWindow>

#include <array>
#include <cstdint>

namespace bv::render {

struct WindowPass {
    WindowPass(const QVulkanWindow& window, const std::array<float, 4>& colour) {
        for (int i = 0; i < 4; ++i)
            clear[0].color.float32[i] = colour[static_cast<std::size_t>(i)];
        clear[1].depthStencil = {1.0f, 0};
        clear[2].color = clear[0].color;
        const QSize size = window.swapChainImageSize();
        info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
        info.renderPass = window.defaultRenderPass();
        info.framebuffer = window.currentFramebuffer();
        info.renderArea.extent = {static_cast<std::uint32_t>(size.width()),
                                  static_cast<std::uint32_t>(size.height())};
        info.clearValueCount = window.sampleCountFlagBits() > VK_SAMPLE_COUNT_1_BIT ? 3 : 2;
        info.pClearValues = clear;
    }
    WindowPass(const WindowPass&) = delete;
    WindowPass& operator=(const WindowPass&) = delete;

    VkClearValue clear[3]{};
    VkRenderPassBeginInfo info{};
};

} // namespace bv::render
