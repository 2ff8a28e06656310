#include "compute/vk/Device.h"

#include "compute/core/Error.h"
#include "compute/vk/Check.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace bv::vk {

DeviceInfo queryDeviceInfo(VkPhysicalDevice physicalDevice) {
    VkPhysicalDeviceProperties properties{};
    vkGetPhysicalDeviceProperties(physicalDevice, &properties);
    VkPhysicalDeviceFeatures features{};
    vkGetPhysicalDeviceFeatures(physicalDevice, &features);

    DeviceInfo info;
    info.name = properties.deviceName;
    info.type = properties.deviceType;
    info.apiVersion = properties.apiVersion;
    info.driverVersion = properties.driverVersion;
    info.vendorID = properties.vendorID;
    info.deviceID = properties.deviceID;
    std::copy(std::begin(properties.pipelineCacheUUID), std::end(properties.pipelineCacheUUID),
              info.pipelineCacheUUID.begin());
    info.float64 = features.shaderFloat64 == VK_TRUE;

    const VkPhysicalDeviceLimits& limits = properties.limits;
    info.limits.maxStorageBufferRange = limits.maxStorageBufferRange;
    info.limits.maxUniformBufferRange = limits.maxUniformBufferRange;
    info.limits.maxPushConstantsSize = limits.maxPushConstantsSize;
    for (int i = 0; i < 3; ++i) {
        info.limits.maxComputeWorkGroupCount[i] = limits.maxComputeWorkGroupCount[i];
        info.limits.maxComputeWorkGroupSize[i] = limits.maxComputeWorkGroupSize[i];
    }
    info.limits.maxComputeWorkGroupInvocations = limits.maxComputeWorkGroupInvocations;
    info.limits.minStorageBufferOffsetAlignment = limits.minStorageBufferOffsetAlignment;
    info.limits.timestampPeriod = limits.timestampPeriod;

    std::uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &familyCount, families.data());
    for (const VkQueueFamilyProperties& family : families)
        info.queueFamilies.push_back(
            {family.queueFlags, family.queueCount, family.timestampValidBits});

    VkPhysicalDeviceMemoryProperties memory{};
    vkGetPhysicalDeviceMemoryProperties(physicalDevice, &memory);
    for (std::uint32_t i = 0; i < memory.memoryTypeCount; ++i)
        info.memory.types.push_back(
            {memory.memoryTypes[i].propertyFlags, memory.memoryTypes[i].heapIndex});
    for (std::uint32_t i = 0; i < memory.memoryHeapCount; ++i)
        info.memory.heaps.push_back({memory.memoryHeaps[i].size, memory.memoryHeaps[i].flags});
    return info;
}

namespace {

bool hasDeviceExtension(VkPhysicalDevice physicalDevice, const char* name) {
    std::uint32_t count = 0;
    if (vkEnumerateDeviceExtensionProperties(physicalDevice, nullptr, &count, nullptr) !=
        VK_SUCCESS)
        return false;
    std::vector<VkExtensionProperties> extensions(count);
    if (vkEnumerateDeviceExtensionProperties(physicalDevice, nullptr, &count, extensions.data()) !=
        VK_SUCCESS)
        return false;
    extensions.resize(count);
    return std::any_of(extensions.begin(), extensions.end(), [&](const VkExtensionProperties& e) {
        return std::strcmp(e.extensionName, name) == 0;
    });
}

} // namespace

std::vector<DeviceInfo> listDevices() {
    return listDevices(Instance());
}

std::vector<DeviceInfo> listDevices(const Instance& instance) {
    std::vector<DeviceInfo> infos;
    for (VkPhysicalDevice physicalDevice : instance.physicalDevices())
        infos.push_back(queryDeviceInfo(physicalDevice));
    return infos;
}

Device::Device(const DeviceOptions& options) {
    // Parse the override before touching the driver, so a typo is reported as such.
    const DeviceOverride choiceOverride =
        deviceOverrideFrom(options.deviceOverride, std::getenv("BRAGGVIEW_DEVICE")).value();

    PhaseTimer timer;
    m_owner = options.instance ? options.instance
                               : std::make_shared<Instance>(InstanceOptions{
                                     options.applicationName, options.validation});
    m_instance = m_owner->handle();
    timer.mark("instance");

    const std::vector<VkPhysicalDevice> physicalDevices = m_owner->physicalDevices();
    timer.mark("physical devices");
    std::vector<DeviceInfo> infos;
    for (VkPhysicalDevice physicalDevice : physicalDevices)
        infos.push_back(queryDeviceInfo(physicalDevice));
    const DeviceChoice choice = chooseDevice(infos, choiceOverride).value();

    m_physicalDevice = physicalDevices[choice.deviceIndex];
    m_info = infos[choice.deviceIndex];
    m_queueFamily = choice.queueFamily;
    if (options.graphicsQueue) {
        const Expected<std::uint32_t> drawing = chooseGraphicsQueueFamily(m_info);
        if (!drawing)
            throw Error("Vulkan device " + describeDevice(m_info) +
                        " cannot be used to draw: " + drawing.error());
        m_queueFamily = drawing.value();
    }

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{};
    queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queueInfo.queueFamilyIndex = m_queueFamily;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;

    // Native float64 is enabled where the device has it: the precise shader variant uses it.
    VkPhysicalDeviceFeatures2 features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features.features.shaderFloat64 = m_info.float64 ? VK_TRUE : VK_FALSE;
    m_float64Enabled = m_info.float64;

    // Optional extensions: creation feedback (did the pipeline cache serve a pipeline?) always
    // where present; executable statistics only when asked for (the benchmark).
    std::vector<const char*> extensions;
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR statistics{};
    statistics.sType =
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR;
    if (hasDeviceExtension(m_physicalDevice, VK_EXT_PIPELINE_CREATION_FEEDBACK_EXTENSION_NAME)) {
        extensions.push_back(VK_EXT_PIPELINE_CREATION_FEEDBACK_EXTENSION_NAME);
        m_creationFeedback = true;
    }
    if (options.pipelineStatistics &&
        hasDeviceExtension(m_physicalDevice,
                           VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)) {
        VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR supported = statistics;
        VkPhysicalDeviceFeatures2 query{};
        query.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
        query.pNext = &supported;
        vkGetPhysicalDeviceFeatures2(m_physicalDevice, &query);
        if (supported.pipelineExecutableInfo == VK_TRUE) {
            extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
            statistics.pipelineExecutableInfo = VK_TRUE;
            features.pNext = &statistics;
            m_pipelineStatistics = true;
        }
    }
    timer.mark("device info");

    VkDeviceCreateInfo deviceInfo{};
    deviceInfo.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    deviceInfo.pNext = &features;
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queueInfo;
    deviceInfo.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
    deviceInfo.ppEnabledExtensionNames = extensions.empty() ? nullptr : extensions.data();
    check(vkCreateDevice(m_physicalDevice, &deviceInfo, nullptr, &m_device),
          "creating a Vulkan device on " + describeDevice(m_info));
    vkGetDeviceQueue(m_device, m_queueFamily, 0, &m_queue);
    timer.mark("device");
    m_creationTimes = timer.phases();
}

Device::Device(const BorrowedDevice& borrowed)
    : m_instance(borrowed.instance), m_physicalDevice(borrowed.physicalDevice),
      m_device(borrowed.device), m_queueFamily(borrowed.queueFamily), m_queue(borrowed.queue),
      m_float64Enabled(borrowed.float64Enabled) {
    if (!m_instance || !m_physicalDevice || !m_device || !m_queue)
        throw Error("cannot use the given Vulkan device: a handle is missing (internal error)");
    m_info = queryDeviceInfo(m_physicalDevice);
    if (m_info.apiVersion < VK_API_VERSION_1_1)
        throw Error(describeDevice(m_info) + " supports only Vulkan 1.0; braggview needs 1.1: "
                                             "update the GPU driver");
    if (m_queueFamily >= m_info.queueFamilies.size() ||
        !(m_info.queueFamilies[m_queueFamily].flags & VK_QUEUE_COMPUTE_BIT))
        throw Error("the Vulkan queue of " + describeDevice(m_info) +
                    " cannot run compute shaders; pick a queue family with compute support");
    m_float64Enabled = m_float64Enabled && m_info.float64;
}

Device::~Device() {
    destroy();
}

Device::Device(Device&& other) noexcept
    : m_owner(std::move(other.m_owner)),
      m_instance(std::exchange(other.m_instance, VK_NULL_HANDLE)),
      m_physicalDevice(std::exchange(other.m_physicalDevice, VK_NULL_HANDLE)),
      m_device(std::exchange(other.m_device, VK_NULL_HANDLE)), m_queueFamily(other.m_queueFamily),
      m_queue(std::exchange(other.m_queue, VK_NULL_HANDLE)),
      m_float64Enabled(other.m_float64Enabled), m_info(std::move(other.m_info)),
      m_creationFeedback(other.m_creationFeedback),
      m_pipelineStatistics(other.m_pipelineStatistics),
      m_creationTimes(std::move(other.m_creationTimes)) {}

Device& Device::operator=(Device&& other) noexcept {
    if (this != &other) {
        destroy();
        m_owner = std::move(other.m_owner);
        m_instance = std::exchange(other.m_instance, VK_NULL_HANDLE);
        m_physicalDevice = std::exchange(other.m_physicalDevice, VK_NULL_HANDLE);
        m_device = std::exchange(other.m_device, VK_NULL_HANDLE);
        m_queueFamily = other.m_queueFamily;
        m_queue = std::exchange(other.m_queue, VK_NULL_HANDLE);
        m_float64Enabled = other.m_float64Enabled;
        m_info = std::move(other.m_info);
        m_creationFeedback = other.m_creationFeedback;
        m_pipelineStatistics = other.m_pipelineStatistics;
        m_creationTimes = std::move(other.m_creationTimes);
    }
    return *this;
}

void Device::destroy() {
    if (m_owner && m_device != VK_NULL_HANDLE) {
        vkDeviceWaitIdle(m_device);
        vkDestroyDevice(m_device, nullptr);
    }
    m_device = VK_NULL_HANDLE;
    m_owner.reset(); // destroys the instance after its device
}

std::uint32_t Device::timestampValidBits() const {
    return m_queueFamily < m_info.queueFamilies.size()
               ? m_info.queueFamilies[m_queueFamily].timestampValidBits
               : 0;
}

bool Device::validationEnabled() const {
    return m_owner && m_owner->validationEnabled();
}

std::vector<std::string> Device::validationMessages() const {
    return m_owner && m_owner->validationLog() ? m_owner->validationLog()->messages()
                                               : std::vector<std::string>{};
}

void Device::waitIdle() const {
    if (m_device != VK_NULL_HANDLE)
        check(vkDeviceWaitIdle(m_device), "waiting for the GPU");
}

} // namespace bv::vk
