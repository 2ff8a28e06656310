#pragma once
// The Vulkan instance, and with it the validation layer and the log of what it reported.
//
// Owns: the VkInstance and, when validation is on, the VkDebugUtilsMessengerEXT.
// Validation is on when InstanceOptions::validation is set or BRAGGVIEW_VALIDATION=1, and the
// layer VK_LAYER_KHRONOS_validation is installed (Debian: vulkan-validationlayers). Every
// warning and error it reports lands in validationMessages(); tests assert that list is empty.

#include <vulkan/vulkan.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace bv::vk {

// The validation layer's warnings and errors, collected from any thread.
class ValidationLog {
  public:
    void add(std::string message);
    std::vector<std::string> messages() const;
    void clear();

  private:
    mutable std::mutex m_mutex;
    std::vector<std::string> m_messages;
};

// "1", "true", "yes", "on" (any case) -> true; null, "", "0", anything else -> false.
bool environmentFlag(const char* value);

// For a process that picks its Vulkan device itself (vk::Device, chooseDevice): switches off
// Mesa's implicit VK_LAYER_MESA_device_select, which only reorders the device list for
// programs that take the first device and costs about 35 ms of every vkCreateInstance on a
// machine with Mesa's drivers (docs/performance.md, "Whole process on lavapipe"). Sets
// NODEVICE_SELECT=1 unless the user has set it, or has asked that layer for a device with
// MESA_VK_DEVICE_SELECT. Call it at the start of main(), before any Vulkan call and before
// any thread starts (it changes the environment). Not for the viewer: Qt's window takes the
// first device of the list the layer orders.
void skipMesaDeviceSelectLayer();

struct InstanceOptions {
    std::string applicationName = "braggview";
    bool validation = false; // BRAGGVIEW_VALIDATION=1 also turns it on
};

class Instance {
  public:
    // Throws bv::Error when there is no Vulkan loader/driver or it is older than Vulkan 1.1.
    explicit Instance(const InstanceOptions& options = {});
    ~Instance();

    Instance(const Instance&) = delete;
    Instance& operator=(const Instance&) = delete;
    Instance(Instance&& other) noexcept;
    Instance& operator=(Instance&& other) noexcept;

    VkInstance handle() const { return m_instance; }
    // Empty when no driver could start (chooseDevice then says what to install).
    std::vector<VkPhysicalDevice> physicalDevices() const;

    // True when the validation layer is loaded and reporting into validationLog().
    bool validationEnabled() const { return m_messenger != VK_NULL_HANDLE; }
    // Never null, except on a moved-from Instance.
    const std::shared_ptr<ValidationLog>& validationLog() const { return m_log; }

  private:
    void destroy();

    std::shared_ptr<ValidationLog> m_log = std::make_shared<ValidationLog>();
    VkInstance m_instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT m_messenger = VK_NULL_HANDLE;
};

} // namespace bv::vk
