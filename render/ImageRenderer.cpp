#include "render/ImageRenderer.h"

#include "render/Colormap.h"
#include "render/ImageWindow.h"
#include "render/WindowPass.h"

#include <shaders/braggview_render_shaders.h>

#include <QVulkanDeviceFunctions>
#include <QVulkanFunctions>
#include <QVulkanInstance>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <stdexcept>

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

// Vulkan failures inside QVulkanWindow's callbacks: there is no caller to return an error
// to, so the message goes to the log and the frame is skipped (the window stays usable).
class RenderError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

void check(VkResult result, const char* what) {
    if (result != VK_SUCCESS)
        throw RenderError(std::string(what) + " failed (VkResult " +
                          std::to_string(static_cast<int>(result)) + ")");
}

} // namespace

ImageRenderer::ImageRenderer(ImageWindow* window) : m_window(window) {}

std::uint32_t ImageRenderer::memoryType(std::uint32_t typeBits,
                                        VkMemoryPropertyFlags wanted) const {
    VkPhysicalDeviceMemoryProperties properties{};
    m_window->vulkanInstance()->functions()->vkGetPhysicalDeviceMemoryProperties(
        m_window->physicalDevice(), &properties);
    for (std::uint32_t i = 0; i < properties.memoryTypeCount; ++i)
        if ((typeBits & (1u << i)) && (properties.memoryTypes[i].propertyFlags & wanted) == wanted)
            return i;
    throw RenderError("no suitable Vulkan memory type for the image view");
}

ImageRenderer::HostBuffer ImageRenderer::createHostBuffer(VkDeviceSize size,
                                                          VkBufferUsageFlags usage) {
    HostBuffer b;
    b.size = std::max<VkDeviceSize>(size, 16);
    VkBufferCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.size = b.size;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    check(m_df->vkCreateBuffer(m_device, &info, nullptr, &b.buffer), "creating a buffer");
    VkMemoryRequirements requirements{};
    m_df->vkGetBufferMemoryRequirements(m_device, b.buffer, &requirements);
    VkMemoryAllocateInfo allocation{};
    allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    allocation.allocationSize = requirements.size;
    allocation.memoryTypeIndex =
        memoryType(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                    VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    try {
        check(m_df->vkAllocateMemory(m_device, &allocation, nullptr, &b.memory),
              "allocating buffer memory");
        check(m_df->vkBindBufferMemory(m_device, b.buffer, b.memory, 0), "binding buffer memory");
        check(m_df->vkMapMemory(m_device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped),
              "mapping buffer memory");
    } catch (...) {
        destroyHostBuffer(b);
        throw;
    }
    return b;
}

void ImageRenderer::destroyHostBuffer(HostBuffer& b) {
    if (b.buffer != VK_NULL_HANDLE)
        m_df->vkDestroyBuffer(m_device, b.buffer, nullptr);
    if (b.memory != VK_NULL_HANDLE)
        m_df->vkFreeMemory(m_device, b.memory, nullptr); // unmaps it
    b = HostBuffer{};
}

VkShaderModule ImageRenderer::createShader(const std::uint32_t* code, std::size_t bytes) {
    VkShaderModuleCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    info.codeSize = bytes;
    info.pCode = code;
    VkShaderModule module = VK_NULL_HANDLE;
    check(m_df->vkCreateShaderModule(m_device, &info, nullptr, &module),
          "creating an image shader module");
    return module;
}

void ImageRenderer::createPipeline() {
    const VkDescriptorSetLayoutBinding bindings[] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
        {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
        {3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
        {4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr}};
    VkDescriptorSetLayoutCreateInfo setInfo{};
    setInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    setInfo.bindingCount = 5;
    setInfo.pBindings = bindings;
    check(m_df->vkCreateDescriptorSetLayout(m_device, &setInfo, nullptr, &m_setLayout),
          "creating the image descriptor layout");

    VkPushConstantRange range{VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(ViewConstants)};
    VkPipelineLayoutCreateInfo layoutInfo{};
    layoutInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &m_setLayout;
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &range;
    check(m_df->vkCreatePipelineLayout(m_device, &layoutInfo, nullptr, &m_pipelineLayout),
          "creating the image pipeline layout");

    VkPipelineCacheCreateInfo cacheInfo{};
    cacheInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
    check(m_df->vkCreatePipelineCache(m_device, &cacheInfo, nullptr, &m_pipelineCache),
          "creating the image pipeline cache");

    const VkShaderModule vertex = createShader(image_vert_spv, image_vert_spv_size);
    const VkShaderModule fragment = createShader(image_frag_spv, image_frag_spv_size);
    VkPipelineShaderStageCreateInfo stages[2]{};
    stages[0].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = vertex;
    stages[0].pName = "main";
    stages[1] = stages[0];
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = fragment;

    VkPipelineVertexInputStateCreateInfo vertexInput{};
    vertexInput.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
    VkPipelineInputAssemblyStateCreateInfo assembly{};
    assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkPipelineViewportStateCreateInfo viewport{};
    viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
    viewport.viewportCount = 1;
    viewport.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo raster{};
    raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = VK_CULL_MODE_NONE;
    raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    raster.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo multisample{};
    multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
    multisample.rasterizationSamples = m_window->sampleCountFlagBits();
    VkPipelineDepthStencilStateCreateInfo depth{};
    depth.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
    VkPipelineColorBlendAttachmentState attachment{};
    attachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    VkPipelineColorBlendStateCreateInfo blend{};
    blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
    blend.attachmentCount = 1;
    blend.pAttachments = &attachment;
    const VkDynamicState dynamics[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamic{};
    dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
    dynamic.dynamicStateCount = 2;
    dynamic.pDynamicStates = dynamics;

    VkGraphicsPipelineCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
    info.stageCount = 2;
    info.pStages = stages;
    info.pVertexInputState = &vertexInput;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewport;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pDepthStencilState = &depth;
    info.pColorBlendState = &blend;
    info.pDynamicState = &dynamic;
    info.layout = m_pipelineLayout;
    info.renderPass = m_window->defaultRenderPass();
    const VkResult result = m_df->vkCreateGraphicsPipelines(m_device, m_pipelineCache, 1, &info,
                                                            nullptr, &m_pipeline);
    m_df->vkDestroyShaderModule(m_device, vertex, nullptr);
    m_df->vkDestroyShaderModule(m_device, fragment, nullptr);
    check(result, "creating the image pipeline");
}

void ImageRenderer::initResources() {
    m_device = m_window->device();
    m_df = m_window->vulkanInstance()->deviceFunctions(m_device);
    try {
        createPipeline();

        const int frames = m_window->concurrentFrameCount();
        const VkDescriptorPoolSize sizes[] = {
            {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, static_cast<std::uint32_t>(4 * frames)},
            {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, static_cast<std::uint32_t>(frames)}};
        VkDescriptorPoolCreateInfo poolInfo{};
        poolInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
        poolInfo.maxSets = static_cast<std::uint32_t>(frames);
        poolInfo.poolSizeCount = 2;
        poolInfo.pPoolSizes = sizes;
        check(m_df->vkCreateDescriptorPool(m_device, &poolInfo, nullptr, &m_descriptorPool),
              "creating the image descriptor pool");

        VkSamplerCreateInfo samplerInfo{};
        samplerInfo.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
        samplerInfo.magFilter = VK_FILTER_NEAREST;
        samplerInfo.minFilter = VK_FILTER_NEAREST;
        samplerInfo.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
        samplerInfo.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        samplerInfo.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        samplerInfo.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        samplerInfo.maxLod = 0.0f;
        check(m_df->vkCreateSampler(m_device, &samplerInfo, nullptr, &m_sampler),
              "creating the overlay sampler");

        const auto& table = colourTable();
        m_colourTable = createHostBuffer(sizeof(table), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        std::memcpy(m_colourTable.mapped, table.data(), sizeof(table));
        m_placeholder = createHostBuffer(16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        std::memset(m_placeholder.mapped, 0, 16);

        m_slots.assign(static_cast<std::size_t>(frames), FrameSlot{});
        for (FrameSlot& slot : m_slots) {
            VkDescriptorSetAllocateInfo allocation{};
            allocation.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
            allocation.descriptorPool = m_descriptorPool;
            allocation.descriptorSetCount = 1;
            allocation.pSetLayouts = &m_setLayout;
            check(m_df->vkAllocateDescriptorSets(m_device, &allocation, &slot.set),
                  "allocating an image descriptor set");
        }
    } catch (const RenderError& e) {
        qWarning("braggview: the image view cannot draw: %s", e.what());
    }
    m_window->rendererReady();
}

void ImageRenderer::createOverlayImage() {
    m_overlaySize = m_window->swapChainImageSize();
    VkImageCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = VK_FORMAT_R8G8B8A8_UNORM;
    info.extent = {static_cast<std::uint32_t>(std::max(1, m_overlaySize.width())),
                   static_cast<std::uint32_t>(std::max(1, m_overlaySize.height())), 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    check(m_df->vkCreateImage(m_device, &info, nullptr, &m_overlayImage),
          "creating the overlay image");
    VkMemoryRequirements requirements{};
    m_df->vkGetImageMemoryRequirements(m_device, m_overlayImage, &requirements);
    VkMemoryAllocateInfo allocation{};
    allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    allocation.allocationSize = requirements.size;
    allocation.memoryTypeIndex =
        memoryType(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    check(m_df->vkAllocateMemory(m_device, &allocation, nullptr, &m_overlayMemory),
          "allocating the overlay image");
    check(m_df->vkBindImageMemory(m_device, m_overlayImage, m_overlayMemory, 0),
          "binding the overlay image");
    VkImageViewCreateInfo viewInfo{};
    viewInfo.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
    viewInfo.image = m_overlayImage;
    viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D;
    viewInfo.format = VK_FORMAT_R8G8B8A8_UNORM;
    viewInfo.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    check(m_df->vkCreateImageView(m_device, &viewInfo, nullptr, &m_overlayView),
          "creating the overlay image view");
    m_overlayUploaded = 0;
    m_overlayLayoutReady = false;
    for (FrameSlot& slot : m_slots)
        slot.boundImage = 0; // the new view may reuse the old handle: rebind
}

void ImageRenderer::destroyOverlayImage() {
    if (m_overlayView != VK_NULL_HANDLE)
        m_df->vkDestroyImageView(m_device, m_overlayView, nullptr);
    if (m_overlayImage != VK_NULL_HANDLE)
        m_df->vkDestroyImage(m_device, m_overlayImage, nullptr);
    if (m_overlayMemory != VK_NULL_HANDLE)
        m_df->vkFreeMemory(m_device, m_overlayMemory, nullptr);
    m_overlayView = VK_NULL_HANDLE;
    m_overlayImage = VK_NULL_HANDLE;
    m_overlayMemory = VK_NULL_HANDLE;
    for (FrameSlot& slot : m_slots)
        destroyHostBuffer(slot.staging);
}

void ImageRenderer::initSwapChainResources() {
    try {
        createOverlayImage();
    } catch (const RenderError& e) {
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
    for (FrameSlot& slot : m_slots) {
        destroyHostBuffer(slot.skipped);
        destroyHostBuffer(slot.panels);
    }
    m_slots.clear();
    destroyHostBuffer(m_colourTable);
    destroyHostBuffer(m_placeholder);
    if (m_sampler != VK_NULL_HANDLE)
        m_df->vkDestroySampler(m_device, m_sampler, nullptr);
    if (m_descriptorPool != VK_NULL_HANDLE)
        m_df->vkDestroyDescriptorPool(m_device, m_descriptorPool, nullptr);
    if (m_pipeline != VK_NULL_HANDLE)
        m_df->vkDestroyPipeline(m_device, m_pipeline, nullptr);
    if (m_pipelineCache != VK_NULL_HANDLE)
        m_df->vkDestroyPipelineCache(m_device, m_pipelineCache, nullptr);
    if (m_pipelineLayout != VK_NULL_HANDLE)
        m_df->vkDestroyPipelineLayout(m_device, m_pipelineLayout, nullptr);
    if (m_setLayout != VK_NULL_HANDLE)
        m_df->vkDestroyDescriptorSetLayout(m_device, m_setLayout, nullptr);
    m_sampler = VK_NULL_HANDLE;
    m_descriptorPool = VK_NULL_HANDLE;
    m_pipeline = VK_NULL_HANDLE;
    m_pipelineCache = VK_NULL_HANDLE;
    m_pipelineLayout = VK_NULL_HANDLE;
    m_setLayout = VK_NULL_HANDLE;
    m_device = VK_NULL_HANDLE;
    m_df = nullptr;
}

void ImageRenderer::updateSkipped(FrameSlot& slot) {
    const std::vector<std::uint8_t>& skipped = m_window->skipped();
    if (slot.skippedGeneration == m_window->skippedGeneration())
        return;
    if (!skipped.empty()) {
        const VkDeviceSize bytes = (skipped.size() + 3) / 4 * 4;
        if (slot.skipped.size < bytes) {
            destroyHostBuffer(slot.skipped);
            slot.skipped = createHostBuffer(bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
            slot.boundImage = 0; // a new buffer may reuse the old handle: rebind

        }
        std::memset(slot.skipped.mapped, 0, static_cast<std::size_t>(bytes));
        std::memcpy(slot.skipped.mapped, skipped.data(), skipped.size());
    }
    slot.skippedGeneration = m_window->skippedGeneration();
}

void ImageRenderer::uploadOverlay(FrameSlot& slot, VkCommandBuffer commands) {
    if (m_overlayImage == VK_NULL_HANDLE)
        return;
    const QImage& overlay = m_window->overlay();
    if (m_overlayUploaded == m_window->overlayGeneration() && m_overlayLayoutReady)
        return;
    if (overlay.size() != m_overlaySize)
        return; // the swap chain is about to change; the next frame uploads
    const VkDeviceSize bytes = static_cast<VkDeviceSize>(overlay.sizeInBytes());
    if (slot.staging.size < bytes) {
        destroyHostBuffer(slot.staging);
        slot.staging = createHostBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    }
    std::memcpy(slot.staging.mapped, overlay.constBits(), static_cast<std::size_t>(bytes));

    // the previous frames' reads of the overlay, then the copy, then this frame's reads
    VkImageMemoryBarrier toTransfer{};
    toTransfer.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
    toTransfer.srcAccessMask = 0;
    toTransfer.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toTransfer.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED; // every texel is rewritten
    toTransfer.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    toTransfer.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    toTransfer.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    toTransfer.image = m_overlayImage;
    toTransfer.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    m_df->vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                               VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1,
                               &toTransfer);
    VkBufferImageCopy region{};
    region.bufferRowLength = static_cast<std::uint32_t>(overlay.bytesPerLine() / 4);
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {static_cast<std::uint32_t>(overlay.width()),
                          static_cast<std::uint32_t>(overlay.height()), 1};
    m_df->vkCmdCopyBufferToImage(commands, slot.staging.buffer, m_overlayImage,
                                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    VkImageMemoryBarrier toShader = toTransfer;
    toShader.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toShader.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    toShader.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    toShader.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    m_df->vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                               VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, nullptr, 0, nullptr,
                               1, &toShader);
    m_overlayUploaded = m_window->overlayGeneration();
    m_overlayLayoutReady = true;
}

void ImageRenderer::updatePanels(FrameSlot& slot) {
    const std::vector<ImageWindow::PanelView>& panels = m_window->imageSource().panels;
    if (slot.panelsGeneration == m_window->imageSourceGeneration())
        return;
    { // no panels: 0 bytes, no buffer made and none written
        const VkDeviceSize bytes = panels.size() * sizeof(PanelConstants);
        if (slot.panels.size < bytes) {
            destroyHostBuffer(slot.panels);
            slot.panels = createHostBuffer(bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
            slot.boundImage = 0; // a new buffer may reuse the old handle: rebind
        }
        auto* out = static_cast<PanelConstants*>(slot.panels.mapped);
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
        slot.skipped.buffer != VK_NULL_HANDLE ? slot.skipped.buffer : m_placeholder.buffer;
    const VkBuffer panels =
        slot.panels.buffer != VK_NULL_HANDLE ? slot.panels.buffer : m_placeholder.buffer;
    if (slot.boundImage == generation && slot.boundSkipped == skipped &&
        slot.boundOverlay == m_overlayView && slot.boundPanels == panels)
        return;
    const VkDescriptorBufferInfo imageInfo{image, 0, VK_WHOLE_SIZE};
    const VkDescriptorBufferInfo skippedInfo{skipped, 0, VK_WHOLE_SIZE};
    const VkDescriptorBufferInfo tableInfo{m_colourTable.buffer, 0, VK_WHOLE_SIZE};
    const VkDescriptorImageInfo overlayInfo{m_sampler, m_overlayView,
                                            VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    const VkDescriptorBufferInfo panelsInfo{panels, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet writes[5]{};
    for (std::uint32_t i = 0; i < 5; ++i) {
        writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        writes[i].dstSet = slot.set;
        writes[i].dstBinding = i;
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    }
    writes[0].pBufferInfo = &imageInfo;
    writes[1].pBufferInfo = &skippedInfo;
    writes[2].pBufferInfo = &tableInfo;
    writes[3].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    writes[3].pImageInfo = &overlayInfo;
    writes[4].pBufferInfo = &panelsInfo;
    if (m_overlayView != VK_NULL_HANDLE) {
        m_df->vkUpdateDescriptorSets(m_device, 5, writes, 0, nullptr);
    } else {
        m_df->vkUpdateDescriptorSets(m_device, 3, writes, 0, nullptr);
        m_df->vkUpdateDescriptorSets(m_device, 1, &writes[4], 0, nullptr);
    }
    slot.boundImage = generation;
    slot.boundSkipped = skipped;
    slot.boundOverlay = m_overlayView;
    slot.boundPanels = panels;
}

void ImageRenderer::startNextFrame() {
    const VkCommandBuffer commands = m_window->currentCommandBuffer();
    const QSize size = m_window->swapChainImageSize();
    const bool ready = m_pipeline != VK_NULL_HANDLE && !m_slots.empty() &&
                       m_overlayView != VK_NULL_HANDLE;
    bool draw = false;
    ViewConstants constants{};
    if (ready) {
        FrameSlot& slot = m_slots[static_cast<std::size_t>(m_window->currentFrame()) %
                                  m_slots.size()];
        try {
            updateSkipped(slot);
            updatePanels(slot);
            uploadOverlay(slot, commands);
            const ImageWindow::ImageSource& source = m_window->imageSource();
            const bool haveImage =
                source.buffer != VK_NULL_HANDLE && source.fast > 0 && source.slow > 0;
            updateDescriptors(slot, haveImage ? source.buffer : m_placeholder.buffer,
                              m_window->imageSourceGeneration());

            const DisplaySettings& d = m_window->displaySettings();
            const ViewTransform& view = m_window->view();
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
            const bool haveSkipped = !m_window->skipped().empty() &&
                                     m_window->skipped().size() ==
                                         static_cast<std::size_t>(source.fast) *
                                             static_cast<std::size_t>(source.slow);
            constants.options = (d.overloadOn ? OverloadOn : 0) | (haveImage ? HaveImage : 0) |
                                (haveImage && haveSkipped ? HaveSkipped : 0) |
                                (m_overlayLayoutReady ? HaveOverlay : 0);
            draw = m_overlayLayoutReady;
        } catch (const RenderError& e) {
            qWarning("braggview: frame not drawn: %s", e.what());
        }
    }

    // the simulation's writes of the image become visible to this frame's fragment reads
    VkMemoryBarrier computeToFragment{};
    computeToFragment.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    computeToFragment.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    computeToFragment.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    m_df->vkCmdPipelineBarrier(
        commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
        VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 1, &computeToFragment, 0, nullptr, 0, nullptr);

    const QColor background = m_window->displaySettings().backgroundColour;
    const WindowPass pass(*m_window, {static_cast<float>(background.redF()),
                                      static_cast<float>(background.greenF()),
                                      static_cast<float>(background.blueF()), 1.0f});
    m_df->vkCmdBeginRenderPass(commands, &pass.info, VK_SUBPASS_CONTENTS_INLINE);
    if (draw) {
        FrameSlot& slot = m_slots[static_cast<std::size_t>(m_window->currentFrame()) %
                                  m_slots.size()];
        const VkViewport viewport{0.0f, 0.0f, static_cast<float>(size.width()),
                                  static_cast<float>(size.height()), 0.0f, 1.0f};
        const VkRect2D scissor{{0, 0}, pass.info.renderArea.extent};
        m_df->vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, m_pipeline);
        m_df->vkCmdSetViewport(commands, 0, 1, &viewport);
        m_df->vkCmdSetScissor(commands, 0, 1, &scissor);
        m_df->vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, m_pipelineLayout,
                                      0, 1, &slot.set, 0, nullptr);
        m_df->vkCmdPushConstants(commands, m_pipelineLayout, VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                                 sizeof(constants), &constants);
        m_df->vkCmdDraw(commands, 3, 1, 0, 0);
    }
    m_df->vkCmdEndRenderPass(commands);
    // the next simulation clears and rewrites the image: not before this frame has read it
    m_df->vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                               VK_PIPELINE_STAGE_TRANSFER_BIT |
                                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               0, 0, nullptr, 0, nullptr, 0, nullptr);

    m_window->frameReady();
    m_window->frameDone();
}

} // namespace bv::render
