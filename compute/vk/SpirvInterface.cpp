#include "compute/vk/SpirvInterface.h"

#include "compute/core/Error.h"

#include <map>
#include <set>
#include <utility>

namespace bv::vk {

namespace {

// SPIR-V's numbers (the specification's sections 2.3 and 3)
constexpr std::uint32_t kMagic = 0x07230203u;
constexpr std::size_t kHeaderWords = 5;
constexpr std::uint32_t kOpCapability = 17, kOpTypePointer = 32, kOpVariable = 59, kOpDecorate = 71;
constexpr std::uint32_t kCapabilityFloat64 = 10;
constexpr std::uint32_t kDecorationBufferBlock = 3, kDecorationBinding = 33,
                        kDecorationDescriptorSet = 34;
constexpr std::uint32_t kStorageClassStorageBuffer = 12;

} // namespace

SpirvInterface readSpirvInterface(const std::vector<std::uint32_t>& words) {
    if (words.size() < kHeaderWords || words[0] != kMagic)
        throw Error("not SPIR-V (no magic number)");
    SpirvInterface found;
    std::map<std::uint32_t, std::uint32_t> set, binding;
    std::set<std::uint32_t> bufferBlocks;
    std::map<std::uint32_t, std::pair<std::uint32_t, std::uint32_t>> pointers; // class, pointee
    std::map<std::uint32_t, std::uint32_t> variableTypes;
    for (std::size_t at = kHeaderWords; at < words.size();) {
        const std::uint32_t count = words[at] >> 16, op = words[at] & 0xffffu;
        if (count == 0 || count > words.size() - at)
            throw Error("not SPIR-V (the instruction at word " + std::to_string(at) +
                        (count == 0 ? " has no words)" : " runs past the end)"));
        const std::uint32_t* w = &words[at];
        if (op == kOpCapability && count >= 2 && w[1] == kCapabilityFloat64)
            found.float64 = true;
        else if (op == kOpDecorate && count >= 3 && w[2] == kDecorationBufferBlock)
            bufferBlocks.insert(w[1]);
        else if (op == kOpDecorate && count >= 4 && w[2] == kDecorationDescriptorSet)
            set[w[1]] = w[3];
        else if (op == kOpDecorate && count >= 4 && w[2] == kDecorationBinding)
            binding[w[1]] = w[3];
        else if (op == kOpTypePointer && count >= 4)
            pointers[w[1]] = {w[2], w[3]};
        else if (op == kOpVariable && count >= 4)
            variableTypes[w[2]] = w[1];
        at += count;
    }
    for (const auto& [id, type] : variableTypes) {
        const auto s = set.find(id), b = binding.find(id);
        const auto pointer = pointers.find(type);
        if (s == set.end() || b == binding.end() || s->second != 0 || b->second != 0 ||
            pointer == pointers.end())
            continue;
        found.blockZeroIsStorage = pointer->second.first == kStorageClassStorageBuffer ||
                                   bufferBlocks.count(pointer->second.second) != 0;
        return found;
    }
    throw Error("no variable at descriptor set 0, binding 0");
}

} // namespace bv::vk
