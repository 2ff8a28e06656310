#pragma once
// Which physical device, which queue family, which memory type: pure functions over plain
// structs describing what the driver reports. Device fills these structs from the driver
// (queryDeviceInfo); the tests fill them by hand. Nothing here calls Vulkan.
//
// The rule: a discrete GPU first, then integrated, then virtual, then a CPU driver (lavapipe),
// lowest index on a tie; a device needs a compute queue and Vulkan 1.1. An override by index
// ("1") or by the word "cpu" takes precedence, from DeviceOptions or BRAGGVIEW_DEVICE.

#include "compute/vk/Expected.h"

#include <vulkan/vulkan.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bv::vk {

struct QueueFamilyInfo {
    VkQueueFlags flags = 0;
    std::uint32_t queueCount = 1;
    std::uint32_t timestampValidBits = 0; // 0: no timestamps on this family
};

struct MemoryTypeInfo {
    VkMemoryPropertyFlags flags = 0;
    std::uint32_t heapIndex = 0;
};

struct MemoryHeapInfo {
    VkDeviceSize size = 0;
    VkMemoryHeapFlags flags = 0;
};

struct MemoryInfo {
    std::vector<MemoryTypeInfo> types;
    std::vector<MemoryHeapInfo> heaps;
};

// The limits the engine checks its requests against.
struct DeviceLimits {
    VkDeviceSize maxStorageBufferRange = 0;
    VkDeviceSize maxUniformBufferRange = 0;
    std::uint32_t maxPushConstantsSize = 0;
    std::array<std::uint32_t, 3> maxComputeWorkGroupCount{};
    std::array<std::uint32_t, 3> maxComputeWorkGroupSize{};
    std::uint32_t maxComputeWorkGroupInvocations = 0;
    VkDeviceSize minStorageBufferOffsetAlignment = 1;
    float timestampPeriod = 1.0f; // nanoseconds per timestamp tick
};

struct DeviceInfo {
    std::string name;
    VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
    std::uint32_t apiVersion = VK_API_VERSION_1_1;
    std::uint32_t driverVersion = 0;
    std::uint32_t vendorID = 0;
    std::uint32_t deviceID = 0;
    std::array<std::uint8_t, VK_UUID_SIZE> pipelineCacheUUID{};
    bool float64 = false; // shaderFloat64
    std::vector<QueueFamilyInfo> queueFamilies;
    MemoryInfo memory;
    DeviceLimits limits;
};

// "discrete GPU", "integrated GPU", "virtual GPU", "CPU", "other".
std::string deviceTypeName(VkPhysicalDeviceType type);
// "llvmpipe (LLVM 15.0.6, 256 bits) (CPU, Vulkan 1.3.230)"
std::string describeDevice(const DeviceInfo& device);

// A user's choice of device: none, an index into the driver's list, or "the CPU device".
struct DeviceOverride {
    enum class Kind { None, Index, Cpu };
    Kind kind = Kind::None;
    std::uint32_t index = 0;
};

// "" -> None, "2" -> Index 2, "cpu" (any case) -> Cpu; surrounding blanks are ignored.
// Anything else is a failure whose reason quotes the text and names `source` (the option or
// environment variable it came from).
Expected<DeviceOverride> parseDeviceOverride(std::string_view text,
                                             std::string_view source = "BRAGGVIEW_DEVICE");

// The explicit option wins; when it is empty, the BRAGGVIEW_DEVICE value (may be null) is used.
Expected<DeviceOverride> deviceOverrideFrom(std::string_view option, const char* environmentValue);

// A batch's devices (-device of a -series or --job): "" (automatic: the one chooseDevice
// picks), "all", or a comma list of entries as parseDeviceOverride reads them ("0,1",
// "cpu,cpu"). An entry may repeat: each entry is a logical device of its own, with its own
// Simulator, so "cpu,cpu" runs two renderers on the one CPU device (docs/series.md).
struct DeviceList {
    bool all = false;
    std::vector<DeviceOverride> entries; // empty with all == false: automatic
};
Expected<DeviceList> parseDeviceList(std::string_view text,
                                     std::string_view source = "the device option");

// What "all" means: every usable device of the best type present (every discrete GPU; none:
// every integrated one; ...; lavapipe alone only where there is nothing else), in the
// driver's order. A CPU driver beside GPUs is left out: it would compete with the threads
// that make the frames' files, and a GPU renders a frame in a fraction of its time.
Expected<std::vector<std::size_t>>
chooseAllDevices(const std::vector<DeviceInfo>& devices,
                 std::uint32_t minApiVersion = VK_API_VERSION_1_1);

// The queue family for compute work: it must support compute; a family with timestamps is
// preferred, then one without graphics (a dedicated compute queue), then the lowest index.
Expected<std::uint32_t> chooseComputeQueueFamily(const DeviceInfo& device);
// The queue family for drawing and compute: both bits; timestamps preferred, then the
// lowest index.
Expected<std::uint32_t> chooseGraphicsQueueFamily(const DeviceInfo& device);

struct DeviceChoice {
    std::size_t deviceIndex = 0;
    std::uint32_t queueFamily = 0;
};

Expected<DeviceChoice> chooseDevice(const std::vector<DeviceInfo>& devices,
                                    const DeviceOverride& choice = {},
                                    std::uint32_t minApiVersion = VK_API_VERSION_1_1);

// What a buffer's memory is for.
enum class MemoryUse {
    DeviceLocal, // big GPU-side buffers: device-local preferred, any other type as fallback
    Upload,      // host writes, GPU reads: host-visible + host-coherent
    Readback,    // GPU writes, host reads: host-visible + host-coherent, host-cached preferred
    HostSignal,  // a word the host writes while a shader reads it (a cancel flag): host-visible
                 // + host-coherent, device-local preferred (where the GPU reads it from its own
                 // memory, not a copy of system memory cached on its side)
};

// The memory type for a resource whose VkMemoryRequirements allow `allowedTypes` and need
// `size` bytes: the first type with the required flags and all preferred flags, else the first
// with the required flags. A type whose heap is smaller than `size` is not a candidate.
Expected<std::uint32_t> chooseMemoryType(const MemoryInfo& memory, std::uint32_t allowedTypes,
                                         MemoryUse use, VkDeviceSize size = 0);

// Whether `size` bytes with `usage` fit the device's limits, checked before anything is
// allocated; the reason names `label` ("the intensity image") and the sizes in MiB.
Status checkBufferRequest(const DeviceInfo& device, VkDeviceSize size, VkBufferUsageFlags usage,
                          const std::string& label);

} // namespace bv::vk
