#include "compute/vk/Check.h"

#include "compute/core/Error.h"

namespace bv::vk {

std::string resultName(VkResult result) {
    switch (result) {
    case VK_SUCCESS:
        return "VK_SUCCESS";
    case VK_NOT_READY:
        return "VK_NOT_READY";
    case VK_TIMEOUT:
        return "VK_TIMEOUT";
    case VK_INCOMPLETE:
        return "VK_INCOMPLETE";
    case VK_ERROR_OUT_OF_HOST_MEMORY:
        return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
        return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED:
        return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST:
        return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED:
        return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT:
        return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT:
        return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT:
        return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER:
        return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS:
        return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_FORMAT_NOT_SUPPORTED:
        return "VK_ERROR_FORMAT_NOT_SUPPORTED";
    case VK_ERROR_FRAGMENTED_POOL:
        return "VK_ERROR_FRAGMENTED_POOL";
    case VK_ERROR_OUT_OF_POOL_MEMORY:
        return "VK_ERROR_OUT_OF_POOL_MEMORY";
    case VK_ERROR_INVALID_SHADER_NV:
        return "VK_ERROR_INVALID_SHADER_NV";
    default:
        return "VkResult " + std::to_string(static_cast<int>(result));
    }
}

namespace {

std::string explain(VkResult result) {
    switch (result) {
    case VK_ERROR_OUT_OF_HOST_MEMORY:
        return "the computer ran out of memory (VK_ERROR_OUT_OF_HOST_MEMORY); close other "
               "programs or use a smaller detector";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
        return "the GPU ran out of memory (VK_ERROR_OUT_OF_DEVICE_MEMORY); use a smaller "
               "detector or fewer sources/mosaic domains";
    case VK_ERROR_DEVICE_LOST:
        return "the GPU was lost (VK_ERROR_DEVICE_LOST): the driver reset it, often because one "
               "dispatch ran too long; restart and split heavy settings into smaller slices";
    case VK_ERROR_INCOMPATIBLE_DRIVER:
    case VK_ERROR_INITIALIZATION_FAILED:
        return "no working Vulkan driver (" + resultName(result) +
               "): install mesa-vulkan-drivers for the CPU driver lavapipe, or a GPU driver";
    case VK_TIMEOUT:
        return "the GPU did not finish in time (VK_TIMEOUT)";
    default:
        return "the Vulkan driver reported " + resultName(result);
    }
}

} // namespace

void check(VkResult result, const std::string& what) {
    if (result != VK_SUCCESS)
        throw Error(what + " failed: " + explain(result));
}

unsigned long long mebibytes(unsigned long long bytes) {
    constexpr unsigned long long MiB = 1024ull * 1024ull;
    return bytes / MiB + (bytes % MiB != 0 ? 1 : 0);
}

} // namespace bv::vk
