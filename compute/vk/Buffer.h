#pragma once
// A VkBuffer with its own VkDeviceMemory, memory type chosen by chooseMemoryType.
//
// Owns: the buffer and its memory (and the mapping). Borrows: the VkDevice.
// The request is checked against maxStorageBufferRange/maxUniformBufferRange and the heap
// sizes before anything is allocated; every failure, out-of-memory included, is a bv::Error
// naming the label and the MiB requested.
//
// Host access: map() maps once and keeps the mapping until unmap() or destruction
// (persistent mapping). Only host-visible, host-coherent memory is mappable, so no flush is
// ever needed; isMappable() tells whether a DeviceLocal buffer happens to be (lavapipe's only
// memory type is), so the caller can skip a staging copy.

#include "compute/vk/DeviceChoice.h"
#include "compute/vk/DeviceHandle.h"

#include <vulkan/vulkan.h>

#include <cstddef>
#include <string>
#include <utility>

namespace bv::vk {

class Device;

class Buffer {
  public:
    Buffer() = default;
    // label names the buffer in error messages: "the intensity image".
    Buffer(const Device& device, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use,
           const std::string& label = "a GPU buffer");
    Buffer(Buffer&& other) noexcept;
    Buffer& operator=(Buffer&& other) noexcept;

    VkBuffer handle() const { return m_buffer.get(); }
    VkDeviceSize size() const { return m_size; }
    VkMemoryPropertyFlags memoryFlags() const { return m_memoryFlags; }
    bool isMappable() const;

    // The start of the buffer in host memory; throws bv::Error when the memory is not mappable.
    void* map();
    void unmap();
    bool isMapped() const { return m_mapped != nullptr; }

    // Copies through the (persistent) mapping; throws bv::Error when out of range.
    void write(const void* data, std::size_t bytes, std::size_t offset = 0);
    void read(void* data, std::size_t bytes, std::size_t offset = 0);

  private:
    void checkRange(std::size_t bytes, std::size_t offset) const;

    DeviceHandle<VkDeviceMemory, vkFreeMemory> m_memory; // declared first: freed last
    DeviceHandle<VkBuffer, vkDestroyBuffer> m_buffer;
    VkDeviceSize m_size = 0;
    VkMemoryPropertyFlags m_memoryFlags = 0;
    std::string m_label;
    void* m_mapped = nullptr; // a view of m_memory; freeing the memory unmaps it
};

} // namespace bv::vk
