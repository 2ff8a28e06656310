#include "compute/vk/Device.h"

#include "compute/model/Error.h"
#include "compute/vk/Check.h"

#include <algorithm>
#include <cstdlib>
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

Device::Device(const DeviceOptions& options) {
    // Parse the override before touching the driver, so a typo is reported as such.
    const DeviceOverride choiceOverride =
        deviceOverrideFrom(options.deviceOverride, std::getenv("BRAGGVIEW_DEVICE")).value();

    m_owner =
        std::make_unique<Instance>(InstanceOptions{options.applicationName, options.validation});
    m_instance = m_owner->handle();

    const std::vector<VkPhysicalDevice> physicalDevices = m_owner->physicalDevices();
    std::vector<DeviceInfo> infos;
    for (VkPhysicalDevice physicalDevice : physicalDevices)
        infos.push_back(queryDeviceInfo(physicalDevice));
    const DeviceChoice choice = chooseDevice(infos, choiceOverride).value();

    m_physicalDevice = physicalDevices[choice.deviceIndex];
    m_info = infos[choice.deviceIndex];
    m_queueFamily = choice.queueFamily;

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{};
    queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queueInfo.queueFamilyIndex = m_queueFamily;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;

    // Native float64 is enabled where the device has it: the precise shader variant uses it.
    VkPhysicalDeviceFeatures features{};
    features.shaderFloat64 = m_info.float64 ? VK_TRUE : VK_FALSE;
    m_float64Enabled = m_info.float64;

    VkDeviceCreateInfo deviceInfo{};
    deviceInfo.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queueInfo;
    deviceInfo.pEnabledFeatures = &features;
    check(vkCreateDevice(m_physicalDevice, &deviceInfo, nullptr, &m_device),
          "creating a Vulkan device on " + describeDevice(m_info));
    vkGetDeviceQueue(m_device, m_queueFamily, 0, &m_queue);
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
      m_float64Enabled(other.m_float64Enabled), m_info(std::move(other.m_info)) {}

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
