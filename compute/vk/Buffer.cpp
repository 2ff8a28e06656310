#include "compute/vk/Buffer.h"

#include "compute/core/Error.h"
#include "compute/vk/Check.h"
#include "compute/vk/Device.h"

#include <cstring>

namespace bv::vk {

Buffer::Buffer(const Device& device, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use,
               const std::string& label)
    : m_size(size), m_label(label) {
    checkBufferRequest(device.info(), size, usage, label).value();
    const std::string outOfMemory = "the GPU has not enough memory for " + label + " (" +
                                    std::to_string(mebibytes(size)) +
                                    " MiB requested): use a smaller detector or fewer "
                                    "sources/mosaic domains, or close other programs using the GPU";

    VkBufferCreateInfo bufferInfo{};
    bufferInfo.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    bufferInfo.size = size;
    bufferInfo.usage = usage;
    bufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkBuffer buffer = VK_NULL_HANDLE;
    const VkResult created = vkCreateBuffer(device.handle(), &bufferInfo, nullptr, &buffer);
    if (created == VK_ERROR_OUT_OF_DEVICE_MEMORY || created == VK_ERROR_OUT_OF_HOST_MEMORY)
        throw Error(outOfMemory);
    check(created, "creating " + label);
    m_buffer = {device.handle(), buffer};

    VkMemoryRequirements requirements{};
    vkGetBufferMemoryRequirements(device.handle(), buffer, &requirements);
    const auto type =
        chooseMemoryType(device.info().memory, requirements.memoryTypeBits, use, requirements.size);
    if (!type)
        throw Error(type.error() + " (" + label + ")");
    m_memoryFlags = device.info().memory.types[*type].flags;

    VkMemoryAllocateInfo allocateInfo{};
    allocateInfo.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    allocateInfo.allocationSize = requirements.size;
    allocateInfo.memoryTypeIndex = *type;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    const VkResult allocated = vkAllocateMemory(device.handle(), &allocateInfo, nullptr, &memory);
    if (allocated == VK_ERROR_OUT_OF_DEVICE_MEMORY || allocated == VK_ERROR_OUT_OF_HOST_MEMORY)
        throw Error(outOfMemory);
    check(allocated, "allocating memory for " + label);
    m_memory = {device.handle(), memory};
    check(vkBindBufferMemory(device.handle(), buffer, memory, 0), "binding memory to " + label);
}

Buffer::Buffer(Buffer&& other) noexcept
    : m_memory(std::move(other.m_memory)), m_buffer(std::move(other.m_buffer)),
      m_size(std::exchange(other.m_size, 0)), m_memoryFlags(std::exchange(other.m_memoryFlags, 0)),
      m_label(std::move(other.m_label)), m_mapped(std::exchange(other.m_mapped, nullptr)) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
    if (this != &other) {
        m_buffer = std::move(other.m_buffer);
        m_memory = std::move(other.m_memory); // freeing the old memory also unmaps it
        m_size = std::exchange(other.m_size, 0);
        m_memoryFlags = std::exchange(other.m_memoryFlags, 0);
        m_label = std::move(other.m_label);
        m_mapped = std::exchange(other.m_mapped, nullptr);
    }
    return *this;
}

bool Buffer::isMappable() const {
    const VkMemoryPropertyFlags needed =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    return (m_memoryFlags & needed) == needed;
}

void* Buffer::map() {
    if (m_mapped)
        return m_mapped;
    if (!m_memory)
        throw Error("cannot map an empty buffer (internal error)");
    if (!isMappable())
        throw Error(m_label + " lives in GPU-only memory and cannot be mapped; copy it through "
                              "an Upload or Readback buffer (internal error)");
    check(vkMapMemory(m_memory.device(), m_memory.get(), 0, VK_WHOLE_SIZE, 0, &m_mapped),
          "mapping " + m_label);
    return m_mapped;
}

void Buffer::unmap() {
    if (m_mapped)
        vkUnmapMemory(m_memory.device(), m_memory.get());
    m_mapped = nullptr;
}

void Buffer::checkRange(std::size_t bytes, std::size_t offset) const {
    if (offset > m_size || bytes > m_size - offset)
        throw Error("access of " + std::to_string(bytes) + " bytes at offset " +
                    std::to_string(offset) + " is outside " + m_label + " of " +
                    std::to_string(m_size) + " bytes (internal error)");
}

void Buffer::write(const void* data, std::size_t bytes, std::size_t offset) {
    checkRange(bytes, offset);
    std::memcpy(static_cast<char*>(map()) + offset, data, bytes);
}

void Buffer::read(void* data, std::size_t bytes, std::size_t offset) {
    checkRange(bytes, offset);
    std::memcpy(data, static_cast<const char*>(map()) + offset, bytes);
}

} // namespace bv::vk
