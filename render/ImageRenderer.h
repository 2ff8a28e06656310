#pragma once
// ImageRenderer: draws ImageWindow's image source (the simulator's float storage buffer)
// with one full-screen triangle whose fragment shader (render/shaders/image.frag) reads
// the buffer, applies the colour table and transfer function, and blends the overlay.
//
// Owns (all on the window's device, created in initResources/initSwapChainResources and
// destroyed in the matching release): the graphics pipeline and its layouts, the colour
// table buffer, one descriptor set, skipped-pixel buffer and overlay staging buffer per
// frame in flight, and the overlay image (framebuffer size). Borrows: the window, its
// device and render pass, and the image buffer (owned by the simulator).
//
// Synchronisation on the one queue: before the render pass, compute and transfer writes
// (the simulation) are made visible to fragment reads; after it, an execution dependency
// keeps the next simulation's clear of the image from overtaking this frame's reads.

#include <QVulkanWindowRenderer>

#include <cstdint>
#include <vector>

class QVulkanDeviceFunctions;

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
    // A host-visible buffer with its memory, mapped for its whole life.
    struct HostBuffer {
        VkBuffer buffer = VK_NULL_HANDLE;
        VkDeviceMemory memory = VK_NULL_HANDLE;
        VkDeviceSize size = 0;
        void* mapped = nullptr;
    };
    struct FrameSlot {
        VkDescriptorSet set = VK_NULL_HANDLE;
        // what the set points at now
        std::uint64_t boundImage = 0; // ImageWindow::imageSourceGeneration()
        VkBuffer boundSkipped = VK_NULL_HANDLE;
        VkImageView boundOverlay = VK_NULL_HANDLE;
        HostBuffer skipped;
        std::uint64_t skippedGeneration = 0;
        HostBuffer staging; // overlay upload
        HostBuffer panels;  // the panels' maps (ImageWindow::PanelView), when there are panels
        std::uint64_t panelsGeneration = 0;
        VkBuffer boundPanels = VK_NULL_HANDLE;
    };

    std::uint32_t memoryType(std::uint32_t typeBits, VkMemoryPropertyFlags wanted) const;
    HostBuffer createHostBuffer(VkDeviceSize size, VkBufferUsageFlags usage);
    void destroyHostBuffer(HostBuffer& buffer);
    VkShaderModule createShader(const std::uint32_t* code, std::size_t bytes);
    void createPipeline();
    void createOverlayImage();
    void destroyOverlayImage();
    void updateSkipped(FrameSlot& slot);
    void updatePanels(FrameSlot& slot);
    void uploadOverlay(FrameSlot& slot, VkCommandBuffer commands);
    void updateDescriptors(FrameSlot& slot, VkBuffer image, std::uint64_t generation);

    ImageWindow* m_window;
    QVulkanDeviceFunctions* m_df = nullptr;
    VkDevice m_device = VK_NULL_HANDLE;

    VkDescriptorSetLayout m_setLayout = VK_NULL_HANDLE;
    VkPipelineLayout m_pipelineLayout = VK_NULL_HANDLE;
    VkPipelineCache m_pipelineCache = VK_NULL_HANDLE;
    VkPipeline m_pipeline = VK_NULL_HANDLE;
    VkDescriptorPool m_descriptorPool = VK_NULL_HANDLE;
    VkSampler m_sampler = VK_NULL_HANDLE;
    HostBuffer m_colourTable;
    HostBuffer m_placeholder; // bound while there is no image (or no skipped flags)
    std::vector<FrameSlot> m_slots;

    VkImage m_overlayImage = VK_NULL_HANDLE;
    VkDeviceMemory m_overlayMemory = VK_NULL_HANDLE;
    VkImageView m_overlayView = VK_NULL_HANDLE;
    QSize m_overlaySize;
    std::uint64_t m_overlayUploaded = 0; // generation in the image; 0: none yet
    bool m_overlayLayoutReady = false;
};

} // namespace bv::render
