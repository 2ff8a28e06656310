#include "compute/vk/PipelineCache.h"

#include "compute/core/Error.h"
#include "compute/vk/Check.h"
#include "compute/vk/Device.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <system_error>

namespace bv::vk {

namespace {

constexpr char magic[8] = {'B', 'V', 'P', 'C', 'A', 'C', 'H', 'E'};
constexpr std::size_t headerBytes = 24; // magic, uint64 payload size, uint64 FNV-1a hash

std::uint64_t fnv1a(const char* data, std::size_t size) {
    std::uint64_t hash = 14695981039346656037ull;
    for (std::size_t i = 0; i < size; ++i) {
        hash ^= static_cast<unsigned char>(data[i]);
        hash *= 1099511628211ull;
    }
    return hash;
}

std::string hex(std::uint32_t value, int digits) {
    char text[16];
    std::snprintf(text, sizeof text, "%0*x", digits, value);
    return text;
}

std::uint32_t readU32(const char* bytes) {
    std::uint32_t value = 0;
    std::memcpy(&value, bytes, sizeof value);
    return value;
}

} // namespace

std::string pipelineCacheFileName(const DeviceInfo& device) {
    std::string uuid;
    for (std::uint8_t byte : device.pipelineCacheUUID)
        uuid += hex(byte, 2);
    return "pipeline-cache-" + hex(device.vendorID, 4) + "-" + hex(device.deviceID, 4) + "-" +
           hex(device.driverVersion, 8) + "-" + uuid + ".bin";
}

std::string defaultPipelineCacheDirectory() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg && *xdg)
        return std::string(xdg) + "/braggview";
    const char* home = std::getenv("HOME");
    if (home && *home)
        return std::string(home) + "/.cache/braggview";
    return {};
}

std::vector<char> wrapPipelineCacheData(const std::vector<char>& driverData) {
    const std::uint64_t size = driverData.size();
    const std::uint64_t hash = fnv1a(driverData.data(), driverData.size());
    std::vector<char> file(headerBytes + driverData.size());
    std::memcpy(file.data(), magic, sizeof magic);
    std::memcpy(file.data() + 8, &size, sizeof size);
    std::memcpy(file.data() + 16, &hash, sizeof hash);
    if (!driverData.empty())
        std::memcpy(file.data() + headerBytes, driverData.data(), driverData.size());
    return file;
}

Expected<std::vector<char>> unwrapPipelineCacheData(const std::vector<char>& file,
                                                    const DeviceInfo& device) {
    if (file.size() < headerBytes || std::memcmp(file.data(), magic, sizeof magic) != 0)
        return fail("not a braggview pipeline cache file");
    std::uint64_t size = 0;
    std::uint64_t hash = 0;
    std::memcpy(&size, file.data() + 8, sizeof size);
    std::memcpy(&hash, file.data() + 16, sizeof hash);
    if (size != file.size() - headerBytes)
        return fail("the file is truncated");
    const char* data = file.data() + headerBytes;
    if (fnv1a(data, file.size() - headerBytes) != hash)
        return fail("the file is corrupt (checksum mismatch)");

    // The Vulkan header: length, version, vendorID, deviceID, pipelineCacheUUID.
    constexpr std::size_t vulkanHeaderBytes = 16 + VK_UUID_SIZE;
    if (size < vulkanHeaderBytes || readU32(data) < vulkanHeaderBytes ||
        readU32(data + 4) != VK_PIPELINE_CACHE_HEADER_VERSION_ONE)
        return fail("the driver data has no valid Vulkan pipeline cache header");
    if (readU32(data + 8) != device.vendorID || readU32(data + 12) != device.deviceID ||
        std::memcmp(data + 16, device.pipelineCacheUUID.data(), VK_UUID_SIZE) != 0)
        return fail("the file was written for another GPU or driver");
    return std::vector<char>(data, data + size);
}

PipelineCache::PipelineCache(const Device& device, const std::string& directory) {
    std::vector<char> initial;
    if (!directory.empty()) {
        m_path = (std::filesystem::path(directory) / pipelineCacheFileName(device.info())).string();
        std::ifstream in(m_path, std::ios::binary | std::ios::ate);
        if (in) {
            // one read of the whole file (a character-wise copy costs milliseconds per MiB)
            const std::streamoff size = in.tellg();
            std::vector<char> file(size > 0 ? static_cast<std::size_t>(size) : 0);
            in.seekg(0);
            if (!file.empty() && !in.read(file.data(), static_cast<std::streamsize>(file.size())))
                file.clear();
            auto unwrapped = unwrapPipelineCacheData(file, device.info());
            if (unwrapped)
                initial = *unwrapped;
            else
                m_ignoredReason = m_path + ": " + unwrapped.error();
        }
    }

    VkPipelineCacheCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
    info.initialDataSize = initial.size();
    info.pInitialData = initial.empty() ? nullptr : initial.data();
    VkPipelineCache cache = VK_NULL_HANDLE;
    if (!initial.empty() &&
        vkCreatePipelineCache(device.handle(), &info, nullptr, &cache) != VK_SUCCESS) {
        m_ignoredReason = m_path + ": the driver rejected the cached data";
        initial.clear();
        info.initialDataSize = 0;
        info.pInitialData = nullptr;
    }
    if (cache == VK_NULL_HANDLE)
        check(vkCreatePipelineCache(device.handle(), &info, nullptr, &cache),
              "creating the pipeline cache");
    m_cache = {device.handle(), cache};
    m_loadedBytes = initial.size();
    m_onDisk = std::move(initial);
}

std::vector<char> PipelineCache::data() const {
    std::size_t size = 0;
    check(vkGetPipelineCacheData(m_cache.device(), m_cache.get(), &size, nullptr),
          "reading the pipeline cache");
    std::vector<char> bytes(size);
    const VkResult result =
        vkGetPipelineCacheData(m_cache.device(), m_cache.get(), &size, bytes.data());
    if (result != VK_INCOMPLETE)
        check(result, "reading the pipeline cache");
    bytes.resize(size);
    return bytes;
}

bool PipelineCache::saveIfChanged() {
    if (m_path.empty() || !m_cache)
        return false;
    std::vector<char> current = data();
    if (!m_onDisk.empty() && current == m_onDisk)
        return false;
    write(current);
    m_onDisk = std::move(current);
    return true;
}

void PipelineCache::save() const {
    if (m_path.empty() || !m_cache)
        return;
    write(data());
}

void PipelineCache::write(const std::vector<char>& driverData) const {
    const std::vector<char> file = wrapPipelineCacheData(driverData);
    const std::filesystem::path path(m_path);
    // A unique temporary name beside the target: two processes saving at once do not collide.
    const std::filesystem::path temporary =
        path.string() + ".tmp-" + hex(static_cast<std::uint32_t>(std::random_device{}()), 8);
    std::error_code error;
    std::filesystem::create_directories(path.parent_path(), error);
    if (error)
        throw Error("cannot create the cache directory " + path.parent_path().string() + ": " +
                    error.message());
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out.write(file.data(), static_cast<std::streamsize>(file.size()));
        out.close();
        if (!out) {
            std::filesystem::remove(temporary, error);
            throw Error("cannot write the pipeline cache " + temporary.string() +
                        " (disk full or no permission?)");
        }
    }
    std::filesystem::rename(temporary, path, error);
    if (error) {
        const std::string reason = error.message();
        std::filesystem::remove(temporary, error);
        throw Error("cannot rename the pipeline cache to " + path.string() + ": " + reason);
    }
}

} // namespace bv::vk
