#include "compute/vk/Pipeline.h"

#include "compute/core/Error.h"
#include "compute/vk/Check.h"
#include "compute/vk/Device.h"
#include "compute/vk/PipelineCache.h"

#include <cstring>
#include <string>

namespace bv::vk {

ShaderModule::ShaderModule(const Device& device, const std::uint32_t* code, std::size_t codeBytes) {
    constexpr std::uint32_t spirvMagic = 0x07230203u;
    if (!code || codeBytes < 20 || codeBytes % 4 != 0 || code[0] != spirvMagic)
        throw Error("the compute shader is not valid SPIR-V (" + std::to_string(codeBytes) +
                    " bytes): rebuild braggview (internal error)");
    VkShaderModuleCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    info.codeSize = codeBytes;
    info.pCode = code;
    VkShaderModule module = VK_NULL_HANDLE;
    check(vkCreateShaderModule(device.handle(), &info, nullptr, &module),
          "loading a compute shader");
    m_module = {device.handle(), module};
}

DescriptorSetLayout::DescriptorSetLayout(const Device& device,
                                         const std::vector<DescriptorBinding>& bindings) {
    std::vector<VkDescriptorSetLayoutBinding> vkBindings;
    for (const DescriptorBinding& b : bindings)
        vkBindings.push_back({b.binding, b.type, b.count, b.stages, nullptr});
    VkDescriptorSetLayoutCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    info.bindingCount = static_cast<std::uint32_t>(vkBindings.size());
    info.pBindings = vkBindings.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    check(vkCreateDescriptorSetLayout(device.handle(), &info, nullptr, &layout),
          "creating a descriptor set layout");
    m_layout = {device.handle(), layout};
}

DescriptorPool::DescriptorPool(const Device& device, std::uint32_t maxSets,
                               const std::vector<VkDescriptorPoolSize>& sizes) {
    VkDescriptorPoolCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    info.maxSets = maxSets;
    info.poolSizeCount = static_cast<std::uint32_t>(sizes.size());
    info.pPoolSizes = sizes.data();
    VkDescriptorPool pool = VK_NULL_HANDLE;
    check(vkCreateDescriptorPool(device.handle(), &info, nullptr, &pool),
          "creating a descriptor pool");
    m_pool = {device.handle(), pool};
}

VkDescriptorSet DescriptorPool::allocate(const DescriptorSetLayout& layout) {
    const VkDescriptorSetLayout setLayout = layout.handle();
    VkDescriptorSetAllocateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    info.descriptorPool = m_pool.get();
    info.descriptorSetCount = 1;
    info.pSetLayouts = &setLayout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    check(vkAllocateDescriptorSets(m_pool.device(), &info, &set), "allocating a descriptor set");
    return set;
}

void DescriptorPool::write(VkDescriptorSet set, const std::vector<BufferBinding>& bindings) const {
    std::vector<VkDescriptorBufferInfo> buffers;
    buffers.reserve(bindings.size()); // the writes point into it
    std::vector<VkWriteDescriptorSet> writes;
    for (const BufferBinding& b : bindings) {
        buffers.push_back({b.buffer, b.offset, b.range});
        VkWriteDescriptorSet write{};
        write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        write.dstSet = set;
        write.dstBinding = b.binding;
        write.descriptorCount = 1;
        write.descriptorType = b.type;
        write.pBufferInfo = &buffers.back();
        writes.push_back(write);
    }
    vkUpdateDescriptorSets(m_pool.device(), static_cast<std::uint32_t>(writes.size()),
                           writes.data(), 0, nullptr);
}

PipelineLayout::PipelineLayout(const Device& device,
                               const std::vector<VkDescriptorSetLayout>& setLayouts,
                               std::uint32_t pushConstantBytes) {
    const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushConstantBytes};
    VkPipelineLayoutCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    info.setLayoutCount = static_cast<std::uint32_t>(setLayouts.size());
    info.pSetLayouts = setLayouts.data();
    info.pushConstantRangeCount = pushConstantBytes > 0 ? 1 : 0;
    info.pPushConstantRanges = &range;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    check(vkCreatePipelineLayout(device.handle(), &info, nullptr, &layout),
          "creating a pipeline layout");
    m_layout = {device.handle(), layout};
}

SpecializationConstants& SpecializationConstants::addWord(std::uint32_t id, const void* value) {
    std::uint32_t word = 0;
    std::memcpy(&word, value, sizeof word);
    for (const VkSpecializationMapEntry& entry : m_entries)
        if (entry.constantID == id) {
            m_data[entry.offset / sizeof word] = word;
            return *this;
        }
    m_entries.push_back({id, static_cast<std::uint32_t>(m_data.size() * sizeof word), sizeof word});
    m_data.push_back(word);
    return *this;
}

SpecializationConstants& SpecializationConstants::add(std::uint32_t id, std::uint32_t value) {
    return addWord(id, &value);
}
SpecializationConstants& SpecializationConstants::add(std::uint32_t id, std::int32_t value) {
    return addWord(id, &value);
}
SpecializationConstants& SpecializationConstants::add(std::uint32_t id, float value) {
    static_assert(sizeof(float) == 4, "GLSL float is 32 bits");
    return addWord(id, &value);
}
SpecializationConstants& SpecializationConstants::add(std::uint32_t id, bool value) {
    const VkBool32 word = value ? VK_TRUE : VK_FALSE;
    return addWord(id, &word);
}

VkSpecializationInfo SpecializationConstants::info() const {
    VkSpecializationInfo info{};
    info.mapEntryCount = static_cast<std::uint32_t>(m_entries.size());
    info.pMapEntries = m_entries.data();
    info.dataSize = m_data.size() * sizeof(std::uint32_t);
    info.pData = m_data.data();
    return info;
}

namespace {

std::string statisticValue(const VkPipelineExecutableStatisticKHR& s) {
    switch (s.format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
        return s.value.b32 ? "true" : "false";
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
        return std::to_string(s.value.i64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
        return std::to_string(s.value.u64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
        return std::to_string(s.value.f64);
    default:
        return "?";
    }
}

// Every statistic of every executable of the pipeline; empty when the driver gives none.
std::vector<std::string> executableStatistics(VkDevice device, VkPipeline pipeline) {
    const auto properties = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
        vkGetDeviceProcAddr(device, "vkGetPipelineExecutablePropertiesKHR"));
    const auto statistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
        vkGetDeviceProcAddr(device, "vkGetPipelineExecutableStatisticsKHR"));
    std::vector<std::string> lines;
    if (!properties || !statistics)
        return lines;
    VkPipelineInfoKHR pipelineInfo{};
    pipelineInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR;
    pipelineInfo.pipeline = pipeline;
    std::uint32_t count = 0;
    if (properties(device, &pipelineInfo, &count, nullptr) != VK_SUCCESS)
        return lines;
    std::vector<VkPipelineExecutablePropertiesKHR> executables(count);
    for (VkPipelineExecutablePropertiesKHR& e : executables)
        e.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR;
    if (properties(device, &pipelineInfo, &count, executables.data()) < VK_SUCCESS)
        return lines;
    for (std::uint32_t i = 0; i < count && i < executables.size(); ++i) {
        VkPipelineExecutableInfoKHR executableInfo{};
        executableInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR;
        executableInfo.pipeline = pipeline;
        executableInfo.executableIndex = i;
        std::uint32_t statCount = 0;
        if (statistics(device, &executableInfo, &statCount, nullptr) != VK_SUCCESS)
            continue;
        std::vector<VkPipelineExecutableStatisticKHR> stats(statCount);
        for (VkPipelineExecutableStatisticKHR& s : stats)
            s.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR;
        if (statistics(device, &executableInfo, &statCount, stats.data()) < VK_SUCCESS)
            continue;
        for (std::uint32_t j = 0; j < statCount && j < stats.size(); ++j)
            lines.push_back(std::string(executables[i].name) + ": " + stats[j].name + " = " +
                            statisticValue(stats[j]));
    }
    return lines;
}

} // namespace

ComputePipeline::ComputePipeline(const Device& device, const ShaderModule& module,
                                 const PipelineLayout& layout,
                                 const SpecializationConstants& constants,
                                 const PipelineCache* cache) {
    const VkSpecializationInfo specialization = constants.info();
    VkComputePipelineCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module.handle();
    info.stage.pName = "main";
    info.stage.pSpecializationInfo = constants.empty() ? nullptr : &specialization;
    info.layout = layout.handle();

    VkPipelineCreationFeedbackEXT feedback{};
    VkPipelineCreationFeedbackEXT stageFeedback{};
    VkPipelineCreationFeedbackCreateInfoEXT feedbackInfo{};
    feedbackInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO_EXT;
    feedbackInfo.pPipelineCreationFeedback = &feedback;
    feedbackInfo.pipelineStageCreationFeedbackCount = 1;
    feedbackInfo.pPipelineStageCreationFeedbacks = &stageFeedback;
    if (device.creationFeedbackEnabled())
        info.pNext = &feedbackInfo;
    if (device.pipelineStatisticsEnabled())
        info.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;

    VkPipeline pipeline = VK_NULL_HANDLE;
    check(vkCreateComputePipelines(device.handle(), cache ? cache->handle() : VK_NULL_HANDLE, 1,
                                   &info, nullptr, &pipeline),
          "building the compute pipeline");
    m_pipeline = {device.handle(), pipeline};

    if (device.creationFeedbackEnabled() &&
        (feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT_EXT)) {
        m_cacheUse =
            (feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT_EXT)
                ? CacheUse::Hit
                : CacheUse::Miss;
        m_driverMilliseconds = static_cast<double>(feedback.duration) * 1e-6;
    }
    if (device.pipelineStatisticsEnabled())
        m_statistics = executableStatistics(device.handle(), pipeline);
}

ComputePipeline::ComputePipeline(const Device& device, const std::uint32_t* code,
                                 std::size_t codeBytes, const PipelineLayout& layout,
                                 const SpecializationConstants& constants,
                                 const PipelineCache* cache)
    : ComputePipeline(device, ShaderModule(device, code, codeBytes), layout, constants, cache) {}

} // namespace bv::vk
