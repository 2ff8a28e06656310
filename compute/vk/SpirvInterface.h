#pragma once
// What a SPIR-V module declares of its interface, read from its words (the SPIR-V
// specification, sections 2.3-2.4 and 3): whether it uses 64-bit floats, and the storage of the
// block at descriptor set 0, binding 0. braggview-bench --shader reads a shader variant's file
// with it, so that a variant that does not fit the device or the precision is refused before
// the driver sees it (compute/engine/DiffractionShaders.h).

#include <cstdint>
#include <vector>

namespace bv::vk {

struct SpirvInterface {
    bool float64 = false;            // OpCapability Float64
    bool blockZeroIsStorage = false; // the block at set 0, binding 0 is a storage buffer
};

// Throws bv::Error for words that are not SPIR-V (no magic number, an instruction of no words
// or running past the end) or that hold no variable at set 0, binding 0.
SpirvInterface readSpirvInterface(const std::vector<std::uint32_t>& words);

} // namespace bv::vk
