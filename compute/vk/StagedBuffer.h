#pragma once
// StagedBuffer: a storage buffer in the GPU's own memory, with a host-side twin where that
// memory cannot be mapped. A one-shot pass that read its input from, or wrote its result to,
// host-visible memory would run at the speed of the bus instead of the GPU's memory (on the
// H100 a 4096^2 background pass took 5.5 ms that way, ~0.3 ms in device memory): the copies
// are recorded beside the dispatch, outside its timestamps, in the same submission.
//
//   vk::StagedBuffer input(device, bytes, "the PSF's input image");
//   input.write(pixels.data(), bytes);          // into the twin, or the buffer itself
//   vk::CommandBuffer& cmd = pass.begin();
//   input.recordUpload(cmd);                    // twin -> device memory (none where mappable)
//   ... barrier, dispatch reading input.handle(), writing output.handle() ...
//   output.recordDownload(cmd);                 // device memory -> twin
//   pass.submitAndWait();
//   output.read(result.data(), bytes);
//
// Owns: the device buffer and the twin. Borrows: the vk::Device.

#include "compute/vk/Buffer.h"

#include <cstddef>
#include <string>

namespace bv::vk {

class CommandBuffer;

class StagedBuffer {
  public:
    StagedBuffer(const Device& device, VkDeviceSize size, const std::string& label);

    VkBuffer handle() const { return m_device.handle(); }
    VkDeviceSize size() const { return m_device.size(); }
    bool staged() const { return m_twin.handle() != VK_NULL_HANDLE; }

    void write(const void* data, std::size_t bytes);
    void read(void* data, std::size_t bytes);

    // Record the copy to or from device memory, with the barrier that orders it after (upload:
    // before) the shader's access; nothing where the device memory is mapped directly.
    void recordUpload(CommandBuffer& commands) const;
    void recordDownload(CommandBuffer& commands) const;

  private:
    Buffer m_device;
    Buffer m_twin; // empty where m_device is mappable
};

} // namespace bv::vk
