#pragma once
// The logical device the simulator runs on, with its one compute queue.
//
// Two ways to get one:
//  - Device(DeviceOptions): owns everything. Creates an Instance (validation optional), or
//    shares the one DeviceOptions::instance holds, picks the physical device with
//    chooseDevice (override from options or BRAGGVIEW_DEVICE), creates the VkDevice with one
//    compute queue, and destroys both at the end (a shared instance with its last Device).
//  - Device(BorrowedDevice): borrows handles someone else created (the viewer's
//    QVulkanWindow) and destroys nothing. The owner must keep them alive longer than this
//    Device and everything made from it, and must not submit to the same queue concurrently.
//
// Every other wrapper borrows the VkDevice from here; destroy them before their Device.

#include "compute/vk/DeviceChoice.h"
#include "compute/vk/Instance.h"
#include "compute/vk/PhaseTimer.h"

#include <vulkan/vulkan.h>

#include <memory>
#include <string>
#include <vector>

namespace bv::vk {

struct DeviceOptions {
    std::string applicationName = "braggview";
    bool validation = false;    // or BRAGGVIEW_VALIDATION=1
    std::string deviceOverride; // "", "1", "cpu"; when empty BRAGGVIEW_DEVICE is read
    // enable VK_KHR_pipeline_executable_properties where the driver has it, so that pipelines
    // built with statistics capture can report registers and the like (braggview-bench)
    bool pipelineStatistics = false;
    // a queue that can also draw (a graphics family): for an offscreen renderer such as
    // braggview-bench-reciprocal; compute work prefers a dedicated compute family
    bool graphicsQueue = false;
    // an instance several devices share (a batch on every GPU: the driver takes 80 ms or so for
    // each instance), or null: the Device makes its own from applicationName and validation
    std::shared_ptr<Instance> instance;
};

struct BorrowedDevice {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    std::uint32_t queueFamily = 0;
    VkQueue queue = VK_NULL_HANDLE;
    bool float64Enabled = false; // whether the owner enabled shaderFloat64
};

// What the driver reports about a physical device, as the plain struct choice works on.
DeviceInfo queryDeviceInfo(VkPhysicalDevice physicalDevice);
// Every physical device the driver lists, in its order (what a device index counts), from an
// instance of its own that is gone again on return, or from `instance`; no logical device is
// made.
std::vector<DeviceInfo> listDevices();
std::vector<DeviceInfo> listDevices(const Instance& instance);

class Device {
  public:
    // Owning. Throws bv::Error when no usable device exists, naming what to install.
    explicit Device(const DeviceOptions& options = {});
    // Borrowing. Throws bv::Error when a handle is null or the queue family cannot compute.
    explicit Device(const BorrowedDevice& borrowed);
    ~Device();

    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;
    Device(Device&& other) noexcept;
    Device& operator=(Device&& other) noexcept;

    VkInstance instance() const { return m_instance; }
    VkPhysicalDevice physicalDevice() const { return m_physicalDevice; }
    VkDevice handle() const { return m_device; }
    VkQueue queue() const { return m_queue; }
    std::uint32_t queueFamily() const { return m_queueFamily; }

    const DeviceInfo& info() const { return m_info; }
    std::string description() const { return describeDevice(m_info); }
    bool ownsDevice() const { return m_owner != nullptr; }
    bool float64Enabled() const { return m_float64Enabled; }
    // timestampValidBits of the queue family; 0 means no timestamps (QueryPool refuses).
    std::uint32_t timestampValidBits() const;

    // Validation is only reported for an owning Device that enabled it.
    bool validationEnabled() const;
    std::vector<std::string> validationMessages() const;

    void waitIdle() const;

    // Whether VK_EXT_pipeline_creation_feedback is on (an owning Device enables it where the
    // driver has it): pipelines can then say whether the pipeline cache served them.
    bool creationFeedbackEnabled() const { return m_creationFeedback; }
    // Whether VK_KHR_pipeline_executable_properties is on (DeviceOptions::pipelineStatistics).
    bool pipelineStatisticsEnabled() const { return m_pipelineStatistics; }
    // Wall time of the owning constructor's phases: instance, physical devices, device info,
    // device (empty for a borrowed device).
    const std::vector<PhaseTime>& creationTimes() const { return m_creationTimes; }

  private:
    void destroy();

    std::shared_ptr<Instance> m_owner; // set only when this Device created or shares the instance
    VkInstance m_instance = VK_NULL_HANDLE;
    VkPhysicalDevice m_physicalDevice = VK_NULL_HANDLE;
    VkDevice m_device = VK_NULL_HANDLE;
    std::uint32_t m_queueFamily = 0;
    VkQueue m_queue = VK_NULL_HANDLE;
    bool m_float64Enabled = false;
    DeviceInfo m_info;
    bool m_creationFeedback = false;
    bool m_pipelineStatistics = false;
    std::vector<PhaseTime> m_creationTimes;
};

} // namespace bv::vk
