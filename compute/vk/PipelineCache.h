#pragma once
// A VkPipelineCache kept on disk between runs, so the next start builds pipelines warm.
//
// Owns: the VkPipelineCache. Borrows: the VkDevice. The file lives in a directory the caller
// gives (the app passes defaultDirectory()) under a name keyed to the device and driver
// (pipelineCacheFileName), so a driver update starts a new file. A file that is unreadable,
// truncated, corrupt or from another device/driver is ignored: the cache starts empty and
// ignoredReason() says why. save() writes a temporary file and renames it over the old one;
// saveIfChanged() skips that when the driver's data is what the file already holds.
//
// File format: a 24-byte braggview header (magic "BVPCACHE", payload size, FNV-1a 64 hash of
// the payload) and then the driver's data exactly as vkGetPipelineCacheData returned it.

#include "compute/vk/DeviceChoice.h"
#include "compute/vk/DeviceHandle.h"

#include <vulkan/vulkan.h>

#include <cstddef>
#include <string>
#include <vector>

namespace bv::vk {

class Device;

// "pipeline-cache-<vendorID>-<deviceID>-<driverVersion>-<pipelineCacheUUID>.bin", all hex.
std::string pipelineCacheFileName(const DeviceInfo& device);

// $XDG_CACHE_HOME/braggview, else $HOME/.cache/braggview, else "" (no disk cache).
std::string defaultPipelineCacheDirectory();

// The file's contents wrapped for disk, and unwrapped back: the driver data, or the reason the
// file is not usable on `device` (bad magic/size/hash, or a Vulkan header from another device).
std::vector<char> wrapPipelineCacheData(const std::vector<char>& driverData);
Expected<std::vector<char>> unwrapPipelineCacheData(const std::vector<char>& file,
                                                    const DeviceInfo& device);

class PipelineCache {
  public:
    PipelineCache() = default;
    // directory "" keeps the cache in memory only; save() then does nothing.
    PipelineCache(const Device& device, const std::string& directory);

    VkPipelineCache handle() const { return m_cache.get(); }
    const std::string& filePath() const { return m_path; }
    // Bytes of driver data taken from the file (0: started empty).
    std::size_t loadedBytes() const { return m_loadedBytes; }
    // Why the file was not used (empty when it was used or did not exist).
    const std::string& ignoredReason() const { return m_ignoredReason; }

    // The driver's current data (vkGetPipelineCacheData).
    std::vector<char> data() const;
    // Writes data() atomically to filePath(), creating the directory. Throws bv::Error naming
    // the file when it cannot; a caller that only wants a warm start may log and go on.
    void save() const;
    // save() only when data() differs from what was loaded or last saved here: a warm start,
    // whose pipelines all came from the file, writes nothing. True when the file was written.
    bool saveIfChanged();

  private:
    void write(const std::vector<char>& driverData) const;

    DeviceHandle<VkPipelineCache, vkDestroyPipelineCache> m_cache;
    std::string m_path;
    std::size_t m_loadedBytes = 0;
    std::string m_ignoredReason;
    std::vector<char> m_onDisk; // the driver data the file holds, as far as this object knows
};

} // namespace bv::vk
