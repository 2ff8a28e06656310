#include "compute/vk/Instance.h"

#include "compute/core/Error.h"
#include "compute/vk/Check.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace bv::vk {

void ValidationLog::add(std::string message) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_messages.push_back(std::move(message));
}

std::vector<std::string> ValidationLog::messages() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_messages;
}

void ValidationLog::clear() {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_messages.clear();
}

bool environmentFlag(const char* value) {
    if (!value)
        return false;
    std::string word(value);
    std::transform(word.begin(), word.end(), word.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return word == "1" || word == "true" || word == "yes" || word == "on";
}

void skipMesaDeviceSelectLayer() {
    if (!std::getenv("MESA_VK_DEVICE_SELECT"))
        setenv("NODEVICE_SELECT", "1", /*overwrite=*/0);
}

namespace {

const char* const validationLayer = "VK_LAYER_KHRONOS_validation";

VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                   void* userData) {
    const char* level =
        (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "error" : "warning";
    static_cast<ValidationLog*>(userData)->add(std::string("[") + level + "] " +
                                               (data && data->pMessage ? data->pMessage : ""));
    return VK_FALSE; // never abort the call that triggered the message
}

bool layerPresent(const char* name) {
    std::uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateInstanceLayerProperties(&count, layers.data());
    return std::any_of(layers.begin(), layers.end(), [&](const VkLayerProperties& layer) {
        return std::strcmp(layer.layerName, name) == 0;
    });
}

} // namespace

Instance::Instance(const InstanceOptions& options) {
    std::uint32_t loaderVersion = VK_API_VERSION_1_0;
    if (vkEnumerateInstanceVersion(&loaderVersion) != VK_SUCCESS ||
        loaderVersion < VK_API_VERSION_1_1)
        throw Error("the Vulkan loader is older than Vulkan 1.1: update libvulkan1 and the "
                    "Vulkan driver (mesa-vulkan-drivers for the CPU driver lavapipe)");

    const bool wantValidation =
        options.validation || environmentFlag(std::getenv("BRAGGVIEW_VALIDATION"));
    const bool validation = wantValidation && layerPresent(validationLayer);

    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = options.applicationName.c_str();
    app.pEngineName = "braggview";
    app.apiVersion = VK_API_VERSION_1_1;

    VkDebugUtilsMessengerCreateInfoEXT messengerInfo{};
    messengerInfo.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    messengerInfo.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                    VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messengerInfo.pfnUserCallback = onValidationMessage;
    messengerInfo.pUserData = m_log.get();

    const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkInstanceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    info.pApplicationInfo = &app;
    if (validation) {
        // Chained here too, so instance creation and destruction are checked as well.
        info.pNext = &messengerInfo;
        info.enabledLayerCount = 1;
        info.ppEnabledLayerNames = &validationLayer;
        info.enabledExtensionCount = 1;
        info.ppEnabledExtensionNames = &extension;
    }
    const VkResult created = vkCreateInstance(&info, nullptr, &m_instance);
    if (created == VK_ERROR_INCOMPATIBLE_DRIVER) // the loader found no driver at all
        throw Error("no Vulkan device found: install mesa-vulkan-drivers for the CPU driver "
                    "lavapipe, or a GPU driver");
    check(created, "creating the Vulkan instance");

    if (validation) {
        const auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(m_instance, "vkCreateDebugUtilsMessengerEXT"));
        if (!create || create(m_instance, &messengerInfo, nullptr, &m_messenger) != VK_SUCCESS) {
            destroy();
            throw Error("could not install the Vulkan validation messenger: reinstall "
                        "vulkan-validationlayers or turn validation off");
        }
    }
}

Instance::~Instance() {
    destroy();
}

Instance::Instance(Instance&& other) noexcept
    : m_log(std::move(other.m_log)), m_instance(std::exchange(other.m_instance, VK_NULL_HANDLE)),
      m_messenger(std::exchange(other.m_messenger, VK_NULL_HANDLE)) {}

Instance& Instance::operator=(Instance&& other) noexcept {
    if (this != &other) {
        destroy();
        m_log = std::move(other.m_log);
        m_instance = std::exchange(other.m_instance, VK_NULL_HANDLE);
        m_messenger = std::exchange(other.m_messenger, VK_NULL_HANDLE);
    }
    return *this;
}

void Instance::destroy() {
    if (m_messenger != VK_NULL_HANDLE) {
        const auto destroyMessenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(m_instance, "vkDestroyDebugUtilsMessengerEXT"));
        if (destroyMessenger)
            destroyMessenger(m_instance, m_messenger, nullptr);
        m_messenger = VK_NULL_HANDLE;
    }
    if (m_instance != VK_NULL_HANDLE)
        vkDestroyInstance(m_instance, nullptr);
    m_instance = VK_NULL_HANDLE;
}

std::vector<VkPhysicalDevice> Instance::physicalDevices() const {
    std::uint32_t count = 0;
    const VkResult counted = vkEnumeratePhysicalDevices(m_instance, &count, nullptr);
    if (counted == VK_ERROR_INITIALIZATION_FAILED) // no driver could start: no devices
        return {};
    check(counted, "listing the Vulkan devices");
    std::vector<VkPhysicalDevice> devices(count);
    check(vkEnumeratePhysicalDevices(m_instance, &count, devices.data()),
          "listing the Vulkan devices");
    devices.resize(count);
    return devices;
}

} // namespace bv::vk
