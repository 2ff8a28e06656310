#pragma once
// The move-only ownership of one Vulkan object created from a VkDevice. Every wrapper class
// (Buffer, ShaderModule, ComputePipeline, ...) keeps its handle in one of these, so that class
// only says what it creates; moving and destroying are written once, here.
//
// Owns: the handle (destroyed with Destroy). Borrows: the VkDevice, which must outlive it.

#include <vulkan/vulkan.h>

#include <utility>

namespace bv::vk {

template <typename T, void (*Destroy)(VkDevice, T, const VkAllocationCallbacks*)>
class DeviceHandle {
  public:
    DeviceHandle() = default;
    DeviceHandle(VkDevice device, T handle) : m_device(device), m_handle(handle) {}
    ~DeviceHandle() { reset(); }

    DeviceHandle(const DeviceHandle&) = delete;
    DeviceHandle& operator=(const DeviceHandle&) = delete;
    DeviceHandle(DeviceHandle&& other) noexcept
        : m_device(std::exchange(other.m_device, VK_NULL_HANDLE)),
          m_handle(std::exchange(other.m_handle, VK_NULL_HANDLE)) {}
    DeviceHandle& operator=(DeviceHandle&& other) noexcept {
        if (this != &other) {
            reset();
            m_device = std::exchange(other.m_device, VK_NULL_HANDLE);
            m_handle = std::exchange(other.m_handle, VK_NULL_HANDLE);
        }
        return *this;
    }

    void reset() {
        if (m_handle != VK_NULL_HANDLE)
            Destroy(m_device, m_handle, nullptr);
        m_handle = VK_NULL_HANDLE;
    }

    T get() const { return m_handle; }
    VkDevice device() const { return m_device; }
    explicit operator bool() const { return m_handle != VK_NULL_HANDLE; }

  private:
    VkDevice m_device = VK_NULL_HANDLE;
    T m_handle = VK_NULL_HANDLE;
};

} // namespace bv::vk
