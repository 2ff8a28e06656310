#pragma once
// ImageRenderer: draws ImageWindow's image source (the simulator's float storage buffer)
// with one full-screen triangle whose fragment shader (render/shaders/image.frag) reads
// the buffer, applies the colour table and transfer function, and blends the overlay.
//
// Owns (all on the window's device, created in initResources/initSwapChainResources and
// destroyed in the matching release; render/scene's and compute/vk's wrappers on a
// vk::Device that borrows the window's handles, as the reciprocal view's renderer): the
// graphics pipeline and its layouts, the colour table buffer, one descriptor set,
// skipped-pixel buffer and overlay staging buffer per frame in flight, and the overlay image
// (framebuffer size). Borrows: the window, its device and render pass, and the image buffer
// (owned by the simulator).
//
// Synchronisation on the one queue: before the render pass, compute and transfer writes
// (the simulation) are made visible to fragment reads; after it, an execution dependency
// keeps the next simulation's clear of the image from overtaking this frame's reads.

#include "compute/vk/Buffer.h"
#include "compute/vk/Device.h"
#include "compute/vk/Pipeline.h"
#include "render/scene/ColourImage.h"
#include "render/scene/GraphicsPipeline.h"

#include <QVulkanWindowRenderer>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace bv::render {

class ImageWindow;

class ImageRenderer : public QVulkanWindowRenderer {
  public:
    explicit ImageRenderer(ImageWindow* window);

    void initResources() override;
    void initSwapChainResources() override;
    void releaseSwapChainResources() override;
    void releaseResources() override;
    void startNextFrame() override;

  private:
    struct FrameSlot {
        VkDescriptorSet set = VK_NULL_HANDLE;
        // what the set points at now
        std::uint64_t boundImage = 0; // ImageWindow::imageSourceGeneration()
        VkBuffer boundSkipped = VK_NULL_HANDLE;
        VkImageView boundOverlay = VK_NULL_HANDLE;
        vk::Buffer skipped; // host-visible, mapped for their whole life
        std::uint64_t skippedGeneration = 0;
        vk::Buffer staging; // overlay upload
        vk::Buffer panels;  // the panels' maps (ImageWindow::PanelView), when there are panels
        std::uint64_t panelsGeneration = 0;
        VkBuffer boundPanels = VK_NULL_HANDLE;
    };

    // a host-visible buffer of at least `bytes` (16 at least), mapped
    vk::Buffer hostBuffer(VkDeviceSize bytes, VkBufferUsageFlags usage, const char* label);
    void createPipeline();
    void createOverlayImage();
    void destroyOverlayImage();
    void updateSkipped(FrameSlot& slot);
    void updatePanels(FrameSlot& slot);
    void uploadOverlay(FrameSlot& slot, VkCommandBuffer commands);
    void updateDescriptors(FrameSlot& slot, VkBuffer image, std::uint64_t generation);
    // the push constants of this frame, and whether the overlay is ready to draw
    bool prepareFrame(FrameSlot& slot, VkCommandBuffer commands, void* constants);

    ImageWindow* m_window;
    std::unique_ptr<vk::Device> m_device; // borrows the window's handles

    vk::DescriptorSetLayout m_setLayout;
    scene::GraphicsPipelineLayout m_pipelineLayout;
    scene::GraphicsPipeline m_pipeline;
    vk::DescriptorPool m_descriptorPool;
    scene::Sampler m_sampler;
    vk::Buffer m_colourTable;
    vk::Buffer m_placeholder; // bound while there is no image (or no skipped flags)
    std::vector<FrameSlot> m_slots;

    std::optional<scene::ColourImage> m_overlay;
    QSize m_overlaySize;
    std::uint64_t m_overlayUploaded = 0; // generation in the image; 0: none yet
    bool m_overlayLayoutReady = false;
};

} // namespace bv::render
