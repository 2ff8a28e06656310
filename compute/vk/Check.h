#pragma once
// Turning a VkResult into a bv::Error whose message says what failed and what to do about it.

#include <vulkan/vulkan.h>

#include <string>

namespace bv::vk {

// "VK_ERROR_DEVICE_LOST", ... ; "VkResult N" for codes it does not know.
std::string resultName(VkResult result);

// Throws bv::Error("<what> failed: <explanation>") unless result is VK_SUCCESS.
void check(VkResult result, const std::string& what);

// Whole MiB, rounded up, for messages ("(1048576 MiB requested)").
unsigned long long mebibytes(unsigned long long bytes);

} // namespace bv::vk
