// libFuzzer target: bv::vk::readSpirvInterface (compute/vk/SpirvInterface.h), the reader of
// braggview-bench --shader's SPIR-V. Input: the bytes of a SPIR-V file (little-endian words;
// a trailing part word is left out, as the bench refuses such a file before reading it).
// Only bv::Error may escape the reader.

#include "FuzzInput.h"

#include "compute/core/Error.h"
#include "compute/vk/SpirvInterface.h"

#include <cstring>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::uint32_t> words(size / sizeof(std::uint32_t));
    if (!words.empty())
        std::memcpy(words.data(), data, words.size() * sizeof(std::uint32_t));
    try {
        const bv::vk::SpirvInterface found = bv::vk::readSpirvInterface(words);
        bv::fuzz::require(words.size() >= 5,
                          "readSpirvInterface: accepted a module without a header");
        (void)found;
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
    }
    return 0;
}
