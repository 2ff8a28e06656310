#include "compute/vk/DeviceChoice.h"

#include "compute/vk/Check.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace bv::vk {

namespace {

const char* const installHint =
    "install mesa-vulkan-drivers for the CPU driver lavapipe, or a GPU driver";

// Lower is better.
int typeRank(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return 3;
    default:
        return 4;
    }
}

std::string versionText(std::uint32_t version) {
    return std::to_string(VK_API_VERSION_MAJOR(version)) + "." +
           std::to_string(VK_API_VERSION_MINOR(version)) + "." +
           std::to_string(VK_API_VERSION_PATCH(version));
}

std::string deviceList(const std::vector<DeviceInfo>& devices) {
    std::string text;
    for (std::size_t i = 0; i < devices.size(); ++i)
        text += (i ? "; " : "") + std::to_string(i) + ": " + describeDevice(devices[i]);
    return text;
}

// Empty when the device can run the simulator, else why not.
std::string unusableReason(const DeviceInfo& device, std::uint32_t minApiVersion) {
    if (device.apiVersion < minApiVersion)
        return "it supports Vulkan " + versionText(device.apiVersion) + ", braggview needs " +
               versionText(minApiVersion);
    const auto family = chooseComputeQueueFamily(device);
    return family ? std::string() : family.error();
}

std::string trimmed(std::string_view text) {
    const auto blank = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    while (!text.empty() && blank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && blank(text.back()))
        text.remove_suffix(1);
    return std::string(text);
}

} // namespace

std::string deviceTypeName(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return "CPU";
    default:
        return "other";
    }
}

std::string describeDevice(const DeviceInfo& device) {
    return device.name + " (" + deviceTypeName(device.type) + ", Vulkan " +
           versionText(device.apiVersion) + ")";
}

Expected<DeviceOverride> parseDeviceOverride(std::string_view text, std::string_view source) {
    std::string word = trimmed(text);
    if (word.empty())
        return DeviceOverride{};
    std::string lower = word;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower == "cpu")
        return DeviceOverride{DeviceOverride::Kind::Cpu, 0};
    const bool digits = word.size() <= 9 && std::all_of(word.begin(), word.end(), [](char c) {
                            return std::isdigit(static_cast<unsigned char>(c)) != 0;
                        });
    if (!digits)
        return fail(std::string(source) + "='" + word +
                    "' is neither a device index (0, 1, ...) nor the word 'cpu'");
    return DeviceOverride{DeviceOverride::Kind::Index,
                          static_cast<std::uint32_t>(std::stoul(word))};
}

Expected<DeviceOverride> deviceOverrideFrom(std::string_view option, const char* environmentValue) {
    if (!trimmed(option).empty())
        return parseDeviceOverride(option, "the device option");
    return parseDeviceOverride(environmentValue ? environmentValue : "", "BRAGGVIEW_DEVICE");
}

Expected<DeviceList> parseDeviceList(std::string_view text, std::string_view source) {
    const std::string word = trimmed(text);
    DeviceList list;
    std::string lower = word;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower == "all") {
        list.all = true;
        return list;
    }
    if (word.empty())
        return list;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = word.find(',', start);
        const std::string entry = trimmed(std::string_view(word).substr(
            start, comma == std::string::npos ? std::string::npos : comma - start));
        if (entry.empty())
            return fail(std::string(source) + "='" + word +
                        "': an empty entry; give 'all' or a comma list of device indices "
                        "and 'cpu' (0,1)");
        auto one = parseDeviceOverride(entry, source);
        if (!one)
            return fail(one.error() + " (in the list '" + word + "')");
        list.entries.push_back(one.value());
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return list;
}

Expected<std::vector<std::size_t>> chooseAllDevices(const std::vector<DeviceInfo>& devices,
                                                    std::uint32_t minApiVersion) {
    const Expected<DeviceChoice> best = chooseDevice(devices, {}, minApiVersion);
    if (!best)
        return fail(best.error());
    const int rank = typeRank(devices[best.value().deviceIndex].type);
    std::vector<std::size_t> all;
    for (std::size_t i = 0; i < devices.size(); ++i)
        if (typeRank(devices[i].type) == rank && unusableReason(devices[i], minApiVersion).empty())
            all.push_back(i);
    return all;
}

Expected<std::uint32_t> chooseComputeQueueFamily(const DeviceInfo& device) {
    int bestScore = -1;
    std::uint32_t best = 0;
    for (std::uint32_t i = 0; i < device.queueFamilies.size(); ++i) {
        const QueueFamilyInfo& family = device.queueFamilies[i];
        if (!(family.flags & VK_QUEUE_COMPUTE_BIT) || family.queueCount == 0)
            continue;
        const int score = (family.timestampValidBits > 0 ? 2 : 0) +
                          ((family.flags & VK_QUEUE_GRAPHICS_BIT) ? 0 : 1);
        if (score > bestScore) {
            bestScore = score;
            best = i;
        }
    }
    if (bestScore < 0)
        return fail("it has no queue family that can run compute shaders");
    return best;
}

Expected<std::uint32_t> chooseGraphicsQueueFamily(const DeviceInfo& device) {
    const VkQueueFlags both = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    int bestScore = -1;
    std::uint32_t best = 0;
    for (std::uint32_t i = 0; i < device.queueFamilies.size(); ++i) {
        const QueueFamilyInfo& family = device.queueFamilies[i];
        if ((family.flags & both) != both || family.queueCount == 0)
            continue;
        const int score = family.timestampValidBits > 0 ? 1 : 0;
        if (score > bestScore) {
            bestScore = score;
            best = i;
        }
    }
    if (bestScore < 0)
        return fail("it has no queue family that can draw and compute");
    return best;
}

Expected<DeviceChoice> chooseDevice(const std::vector<DeviceInfo>& devices,
                                    const DeviceOverride& choice, std::uint32_t minApiVersion) {
    if (devices.empty())
        return fail(std::string("no Vulkan device found: ") + installHint);

    const auto chosen = [&](std::size_t index) -> Expected<DeviceChoice> {
        const std::string why = unusableReason(devices[index], minApiVersion);
        if (!why.empty())
            return fail("Vulkan device " + std::to_string(index) + ", " +
                        describeDevice(devices[index]) + ", cannot be used: " + why);
        return DeviceChoice{index, chooseComputeQueueFamily(devices[index]).value()};
    };

    if (choice.kind == DeviceOverride::Kind::Index) {
        if (choice.index >= devices.size())
            return fail("there is no Vulkan device " + std::to_string(choice.index) +
                        "; the devices are: " + deviceList(devices));
        return chosen(choice.index);
    }

    std::size_t best = devices.size();
    std::string skipped;
    for (std::size_t i = 0; i < devices.size(); ++i) {
        const DeviceInfo& device = devices[i];
        if (choice.kind == DeviceOverride::Kind::Cpu && device.type != VK_PHYSICAL_DEVICE_TYPE_CPU)
            continue;
        const std::string why = unusableReason(device, minApiVersion);
        if (!why.empty()) {
            skipped += "; " + describeDevice(device) + ": " + why;
            continue;
        }
        if (best == devices.size() || typeRank(device.type) < typeRank(devices[best].type))
            best = i;
    }
    if (best != devices.size())
        return chosen(best);
    if (choice.kind == DeviceOverride::Kind::Cpu)
        return fail("no usable CPU Vulkan device (asked for 'cpu'" + skipped + "): " + installHint +
                    "; the devices are: " + deviceList(devices));
    return fail("no usable Vulkan device (" + skipped.substr(2) + "): " + installHint);
}

Expected<std::uint32_t> chooseMemoryType(const MemoryInfo& memory, std::uint32_t allowedTypes,
                                         MemoryUse use, VkDeviceSize size) {
    VkMemoryPropertyFlags required = 0;
    VkMemoryPropertyFlags preferred = 0;
    switch (use) {
    case MemoryUse::DeviceLocal:
        preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
        break;
    case MemoryUse::Upload:
        required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        break;
    case MemoryUse::Readback:
        required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
        break;
    case MemoryUse::HostSignal:
        required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
        break;
    }
    // Protected and AMD device-coherent memory are for special purposes, never picked here.
    const VkMemoryPropertyFlags avoided =
        VK_MEMORY_PROPERTY_PROTECTED_BIT | VK_MEMORY_PROPERTY_DEVICE_COHERENT_BIT_AMD;

    const auto find = [&](VkMemoryPropertyFlags wanted) -> std::uint32_t {
        for (std::uint32_t i = 0; i < memory.types.size() && i < 32; ++i) {
            const MemoryTypeInfo& type = memory.types[i];
            const bool heapFits =
                type.heapIndex < memory.heaps.size() && memory.heaps[type.heapIndex].size >= size;
            if ((allowedTypes & (1u << i)) && (type.flags & wanted) == wanted &&
                !(type.flags & avoided) && heapFits)
                return i;
        }
        return std::numeric_limits<std::uint32_t>::max();
    };
    std::uint32_t index = find(required | preferred);
    if (index == std::numeric_limits<std::uint32_t>::max())
        index = find(required);
    if (index != std::numeric_limits<std::uint32_t>::max())
        return index;

    const char* what = use == MemoryUse::DeviceLocal  ? "GPU memory"
                       : use == MemoryUse::Upload     ? "host-visible, coherent memory for uploads"
                       : use == MemoryUse::HostSignal ? "host-visible, coherent memory for a flag"
                                                      : "host-visible, coherent memory for readback";
    return fail("the GPU has no suitable " + std::string(what) + " for " +
                std::to_string(mebibytes(size)) + " MiB (no memory type of the " +
                std::to_string(memory.types.size()) + " fits); update the GPU driver");
}

Status checkBufferRequest(const DeviceInfo& device, VkDeviceSize size, VkBufferUsageFlags usage,
                          const std::string& label) {
    const std::string requested = " (" + std::to_string(mebibytes(size)) + " MiB requested)";
    if (size == 0)
        return fail("cannot create " + label + " of 0 bytes");
    if ((usage & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) && size > device.limits.maxStorageBufferRange)
        return fail(label + " is larger than this GPU's largest storage buffer" + requested +
                    ", the limit is " +
                    std::to_string(device.limits.maxStorageBufferRange / 1048576) +
                    " MiB: use a smaller detector or fewer sources/mosaic domains");
    // a uniform buffer is bound whole; one that is also a storage buffer may be viewed as a
    // uniform buffer in part (the engine's small tables), and the storage limit holds for it
    if ((usage & VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT) &&
        !(usage & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) && size > device.limits.maxUniformBufferRange)
        return fail(label + " is larger than this GPU's largest uniform buffer" + requested +
                    ", the limit is " + std::to_string(device.limits.maxUniformBufferRange) +
                    " bytes");
    VkDeviceSize largestHeap = 0;
    for (const MemoryHeapInfo& heap : device.memory.heaps)
        largestHeap = std::max(largestHeap, heap.size);
    if (size > largestHeap)
        return fail("the GPU has not enough memory for " + label + requested +
                    ", its largest "
                    "memory heap has " +
                    std::to_string(largestHeap / 1048576) +
                    " MiB: use a smaller detector or fewer sources/mosaic domains");
    return Ok{};
}

} // namespace bv::vk
