#include "render/ImageRenderer.h"

#include "compute/core/Error.h"
#include "render/Colormap.h"
#include "render/ImageWindow.h"
#include "render/WindowDevice.h"
#include "render/WindowPass.h"

#include <shaders/braggview_render_shaders.h>

#include <QVulkanInstance>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <exception>

namespace bv::render {
namespace {

// The push-constant block of image.frag, member for member.
struct ViewConstants {
    float overloadColour[4];
    float maskedColour[4];
    float backgroundColour[4];
    float origin[2];
    float scale;
    float black;
    float white;
    float overload;
    std::int32_t fastPixels;
    std::int32_t slowPixels;
    std::int32_t colormap;
    std::int32_t scaling;
    std::int32_t options;
    std::int32_t panelCount;
};

// image.frag's PanelView (std430): three vec4 rows of the homography, then ivec4 info
struct PanelConstants {
    float h0[4], h1[4], h2[4];
    std::int32_t firstRow, fastPixels, slowPixels, unused;
};
static_assert(sizeof(PanelConstants) == 64, "image.frag's PanelView is 64 bytes");
static_assert(sizeof(ViewConstants) == 96, "image.frag's View block is 96 bytes");
static_assert(offsetof(ViewConstants, origin) == 48, "View.origin");
static_assert(offsetof(ViewConstants, fastPixels) == 72, "View.fastPixels");
static_assert(offsetof(ViewConstants, options) == 88, "View.options");

enum OptionBits : std::int32_t {
    OverloadOn = 1,
    HaveImage = 2,
    HaveSkipped = 4,
    HaveOverlay = 8,
};

void setColour(float* out, const QColor& colour) {
    // the exact byte value the CPU path writes: c / 255, stored back as c by the UNORM target
    out[0] = static_cast<float>(colour.red()) / 255.0f;
    out[1] = static_cast<float>(colour.green()) / 255.0f;
    out[2] = static_cast<float>(colour.blue()) / 255.0f;
    out[3] = 1.0f;
}

// Vulkan failures inside QVulkanWindow's callbacks (bv::Error from the wrappers) have no
// caller to go back to: the message goes to the log and the frame is skipped (the window
// stays usable).

} // namespace

ImageRenderer::ImageRenderer(ImageWindow* window) : m_window(window) {}

vk::Buffer ImageRenderer::hostBuffer(VkDeviceSize bytes, VkBufferUsageFlags usage,
                                     const char* label) {
    vk::Buffer b(*m_device, std::max<VkDeviceSize>(bytes, 16), usage, vk::MemoryUse::Upload,
                 label);
    b.map();
    return b;
}

void ImageRenderer::createPipeline() {
    const VkShaderStageFlags fragment = VK_SHADER_STAGE_FRAGMENT_BIT;
    m_setLayout = vk::DescriptorSetLayout(
        *m_device, {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, fragment},
                    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, fragment},
                    {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, fragment},
                    {3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, fragment},
                    {4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, fragment}});
    m_pipelineLayout =
        scene::GraphicsPipelineLayout(*m_device, sizeof(ViewConstants), {m_setLayout.handle()});
    const vk::ShaderModule vertex(*m_device, image_vert_spv, image_vert_spv_size);
    const vk::ShaderModule fragmentShader(*m_device, image_frag_spv, image_frag_spv_size);
    // one full-screen triangle made by the vertex shader, its colour written as it is
    m_pipeline = scene::GraphicsPipeline(
        *m_device, vertex, fragmentShader, m_pipelineLayout,
        {m_window->defaultRenderPass(), 0, m_window->sampleCountFlagBits()},
        VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, {false, false});
}

void ImageRenderer::initResources() {
    try {
        m_device = std::make_unique<vk::Device>(borrowedDevice(*m_window));
        createPipeline();

        const auto frames = static_cast<std::uint32_t>(m_window->concurrentFrameCount());
        m_descriptorPool = vk::DescriptorPool(*m_device, frames,
                                              {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4 * frames},
                                               {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, frames}});
        m_sampler = scene::Sampler(*m_device);

        const auto& table = colourTable();
        m_colourTable =
            hostBuffer(sizeof(table), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "the colour table");
        m_colourTable.write(table.data(), sizeof(table));
        m_placeholder =
            hostBuffer(16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "the image view's placeholder");
        const std::uint8_t zeros[16] = {};
        m_placeholder.write(zeros, sizeof zeros);

        m_slots.clear();
        m_slots.resize(frames);
        for (FrameSlot& slot : m_slots)
            slot.set = m_descriptorPool.allocate(m_setLayout);
    } catch (const std::exception& e) {
        qWarning("braggview: the image view cannot draw: %s", e.what());
        m_pipeline = {};
    }
    m_window->rendererReady();
}

void ImageRenderer::createOverlayImage() {
    m_overlaySize = m_window->swapChainImageSize();
    m_overlay.emplace(*m_device,
                      VkExtent2D{static_cast<std::uint32_t>(std::max(1, m_overlaySize.width())),
                                 static_cast<std::uint32_t>(std::max(1, m_overlaySize.height()))},
                      VK_FORMAT_R8G8B8A8_UNORM,
                      VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                      "the overlay image");
    m_overlayUploaded = 0;
    m_overlayLayoutReady = false;
    for (FrameSlot& slot : m_slots)
        slot.boundImage = 0; // the new view may reuse the old handle: rebind
}

void ImageRenderer::destroyOverlayImage() {
    m_overlay.reset();
    for (FrameSlot& slot : m_slots)
        slot.staging = vk::Buffer();
}

void ImageRenderer::initSwapChainResources() {
    try {
        if (!m_device)
            throw Error("no device");
        createOverlayImage();
    } catch (const std::exception& e) {
        qWarning("braggview: no overlay: %s", e.what());
        destroyOverlayImage();
    }
    m_window->swapChainResized();
}

void ImageRenderer::releaseSwapChainResources() {
    destroyOverlayImage();
}

void ImageRenderer::releaseResources() {
    // the simulator's buffers live on this device: the app destroys them first
    m_window->rendererReleasing();
    destroyOverlayImage();
    m_slots.clear();
    m_colourTable = vk::Buffer();
    m_placeholder = vk::Buffer();
    m_sampler = scene::Sampler();
    m_descriptorPool = vk::DescriptorPool();
    m_pipeline = scene::GraphicsPipeline();
    m_pipelineLayout = scene::GraphicsPipelineLayout();
    m_setLayout = vk::DescriptorSetLayout();
    m_device.reset();
}

void ImageRenderer::updateSkipped(FrameSlot& slot) {
    const std::vector<std::uint8_t>& skipped = m_window->skipped();
    if (slot.skippedGeneration == m_window->skippedGeneration())
        return;
    if (!skipped.empty()) {
        const VkDeviceSize bytes = (skipped.size() + 3) / 4 * 4;
        if (slot.skipped.size() < bytes) {
            slot.skipped = vk::Buffer(); // freed before its successor is made
            slot.skipped =
                hostBuffer(bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "the skipped-pixel flags");
            slot.boundImage = 0; // a new buffer may reuse the old handle: rebind
        }
        auto* mapped = static_cast<std::uint8_t*>(slot.skipped.map());
        std::memset(mapped, 0, static_cast<std::size_t>(bytes));
        std::memcpy(mapped, skipped.data(), skipped.size());
    }
    slot.skippedGeneration = m_window->skippedGeneration();
}

void ImageRenderer::uploadOverlay(FrameSlot& slot, VkCommandBuffer commands) {
    if (!m_overlay)
        return;
    const QImage& overlay = m_window->overlay();
    if (m_overlayUploaded == m_window->overlayGeneration() && m_overlayLayoutReady)
        return;
    if (overlay.size() != m_overlaySize)
        return; // the swap chain is about to change; the next frame uploads
    const VkDeviceSize bytes = static_cast<VkDeviceSize>(overlay.sizeInBytes());
    if (slot.staging.size() < bytes) {
        slot.staging = vk::Buffer();
        slot.staging =
            hostBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, "the overlay's staging buffer");
    }
    std::memcpy(slot.staging.map(), overlay.constBits(), static_cast<std::size_t>(bytes));
    m_overlay->recordUpload(commands, slot.staging,
                            static_cast<std::uint32_t>(overlay.bytesPerLine() / 4));
    m_overlayUploaded = m_window->overlayGeneration();
    m_overlayLayoutReady = true;
}

void ImageRenderer::updatePanels(FrameSlot& slot) {
    const std::vector<ImageWindow::PanelView>& panels = m_window->imageSource().panels;
    if (slot.panelsGeneration == m_window->imageSourceGeneration())
        return;
    { // one entry at least (the image's own pixel grid has none): a buffer to map and bind
        const VkDeviceSize bytes = std::max<std::size_t>(1, panels.size()) * sizeof(PanelConstants);
        if (slot.panels.size() < bytes) {
            slot.panels = vk::Buffer();
            slot.panels =
                hostBuffer(bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "the panels' maps");
            slot.boundImage = 0; // a new buffer may reuse the old handle: rebind
        }
        auto* out = static_cast<PanelConstants*>(slot.panels.map());
        for (const ImageWindow::PanelView& panel : panels) {
            PanelConstants c{};
            for (int k = 0; k < 3; ++k) {
                c.h0[k] = panel.homography[k];
                c.h1[k] = panel.homography[3 + k];
                c.h2[k] = panel.homography[6 + k];
            }
            c.firstRow = panel.firstRow;
            c.fastPixels = panel.fastPixels;
            c.slowPixels = panel.slowPixels;
            *out++ = c;
        }
    }
    slot.panelsGeneration = m_window->imageSourceGeneration();
}

void ImageRenderer::updateDescriptors(FrameSlot& slot, VkBuffer image, std::uint64_t generation) {
    const VkBuffer skipped =
        slot.skipped.handle() != VK_NULL_HANDLE ? slot.skipped.handle() : m_placeholder.handle();
    const VkBuffer panels =
        slot.panels.handle() != VK_NULL_HANDLE ? slot.panels.handle() : m_placeholder.handle();
    const VkImageView overlay = m_overlay ? m_overlay->view() : VK_NULL_HANDLE;
    if (slot.boundImage == generation && slot.boundSkipped == skipped &&
        slot.boundOverlay == overlay && slot.boundPanels == panels)
        return;
    m_descriptorPool.write(slot.set, {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, image},
                                      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, skipped},
                                      {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, m_colourTable.handle()},
                                      {4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, panels}});
    if (overlay != VK_NULL_HANDLE) {
        const VkDescriptorImageInfo overlayInfo{m_sampler.handle(), overlay,
                                                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        VkWriteDescriptorSet write{};
        write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        write.dstSet = slot.set;
        write.dstBinding = 3;
        write.descriptorCount = 1;
        write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        write.pImageInfo = &overlayInfo;
        vkUpdateDescriptorSets(m_device->handle(), 1, &write, 0, nullptr);
    }
    slot.boundImage = generation;
    slot.boundSkipped = skipped;
    slot.boundOverlay = overlay;
    slot.boundPanels = panels;
}

bool ImageRenderer::prepareFrame(FrameSlot& slot, VkCommandBuffer commands, void* out) {
    updateSkipped(slot);
    updatePanels(slot);
    uploadOverlay(slot, commands);
    const ImageWindow::ImageSource& source = m_window->imageSource();
    const bool haveImage = source.buffer != VK_NULL_HANDLE && source.fast > 0 && source.slow > 0;
    updateDescriptors(slot, haveImage ? source.buffer : m_placeholder.handle(),
                      m_window->imageSourceGeneration());

    const DisplaySettings& d = m_window->displaySettings();
    const ViewTransform& view = m_window->view();
    ViewConstants& constants = *static_cast<ViewConstants*>(out);
    setColour(constants.overloadColour, d.overloadColour);
    setColour(constants.maskedColour, d.maskedColour);
    setColour(constants.backgroundColour, d.backgroundColour);
    constants.origin[0] = static_cast<float>(view.origin().x());
    constants.origin[1] = static_cast<float>(view.origin().y());
    constants.scale = static_cast<float>(view.scale());
    constants.black = d.black;
    constants.white = d.white;
    constants.overload = d.overload;
    constants.fastPixels = source.fast;
    constants.slowPixels = source.slow;
    constants.colormap = static_cast<std::int32_t>(d.colormap);
    constants.scaling = static_cast<std::int32_t>(d.scaling);
    constants.panelCount = static_cast<std::int32_t>(source.panels.size());
    const bool haveSkipped =
        !m_window->skipped().empty() &&
        m_window->skipped().size() ==
            static_cast<std::size_t>(source.fast) * static_cast<std::size_t>(source.slow);
    constants.options = (d.overloadOn ? OverloadOn : 0) | (haveImage ? HaveImage : 0) |
                        (haveImage && haveSkipped ? HaveSkipped : 0) |
                        (m_overlayLayoutReady ? HaveOverlay : 0);
    return m_overlayLayoutReady;
}

void ImageRenderer::startNextFrame() {
    const VkCommandBuffer commands = m_window->currentCommandBuffer();
    const QSize size = m_window->swapChainImageSize();
    const bool ready = m_pipeline.handle() != VK_NULL_HANDLE && !m_slots.empty() && m_overlay;
    FrameSlot* slot =
        ready ? &m_slots[static_cast<std::size_t>(m_window->currentFrame()) % m_slots.size()]
              : nullptr;
    bool draw = false;
    ViewConstants constants{};
    if (slot) {
        try {
            draw = prepareFrame(*slot, commands, &constants);
        } catch (const std::exception& e) {
            qWarning("braggview: frame not drawn: %s", e.what());
        }
    }

    // the simulation's writes of the image become visible to this frame's fragment reads
    VkMemoryBarrier computeToFragment{};
    computeToFragment.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    computeToFragment.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    computeToFragment.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    vkCmdPipelineBarrier(commands,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 1, &computeToFragment, 0,
                         nullptr, 0, nullptr);

    const QColor background = m_window->displaySettings().backgroundColour;
    const WindowPass pass(*m_window, {static_cast<float>(background.redF()),
                                      static_cast<float>(background.greenF()),
                                      static_cast<float>(background.blueF()), 1.0f});
    vkCmdBeginRenderPass(commands, &pass.info, VK_SUBPASS_CONTENTS_INLINE);
    if (draw) {
        const VkViewport viewport{0.0f, 0.0f, static_cast<float>(size.width()),
                                  static_cast<float>(size.height()), 0.0f, 1.0f};
        const VkRect2D scissor{{0, 0}, pass.info.renderArea.extent};
        vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, m_pipeline.handle());
        vkCmdSetViewport(commands, 0, 1, &viewport);
        vkCmdSetScissor(commands, 0, 1, &scissor);
        vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_GRAPHICS,
                                m_pipelineLayout.handle(), 0, 1, &slot->set, 0, nullptr);
        vkCmdPushConstants(commands, m_pipelineLayout.handle(),
                           scene::GraphicsPipelineLayout::kPushStages, 0, sizeof(constants),
                           &constants);
        vkCmdDraw(commands, 3, 1, 0, 0);
    }
    vkCmdEndRenderPass(commands);
    // the next simulation clears and rewrites the image: not before this frame has read it
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0,
                         0, nullptr, 0, nullptr, 0, nullptr);

    m_window->frameReady();
    m_window->frameDone();
}

} // namespace bv::render
