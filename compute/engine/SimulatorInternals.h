#pragma once
// The Simulator's private parts shared by its source files (Simulator.cpp: construction and
// runs; SimulatorPipelines.cpp: the pipelines per shape and their recordings;
// SimulatorUploads.cpp: the plan's tables into buffers). Not for other code.

#include "compute/engine/GpuLayout.h"
#include "compute/engine/Simulator.h"
#include "compute/vk/Buffer.h"
#include "compute/vk/Commands.h"
#include "compute/vk/Pipeline.h"

#include <chrono>
#include <future>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bv::engine {

// A storage (or uniform) buffer whose size may grow; capacity() bytes are allocated.
struct Simulator::DeviceBuffer {
    std::string label;
    VkBufferUsageFlags usage = 0;
    vk::MemoryUse use = vk::MemoryUse::DeviceLocal;
    vk::Buffer buffer;
    VkDeviceSize capacity() const { return buffer.size(); }
};

struct Simulator::Variant {
    vk::ComputePipeline pipeline;
    bool specialised = false;
    // recorded once: one command buffer per slice slot (the first also clears the image and
    // starts the clock), then the readback copy; a run submits the active slots and the copy
    std::vector<vk::CommandBuffer> parts;
    bool recorded = false;
};

// The specialised pipelines, most recently used first, and the one being built on a worker
// thread (at most one at a time: while values move, only the newest shape asked for is
// built next).
struct Simulator::Builds {
    std::list<std::pair<VariantKey, std::unique_ptr<Variant>>> ready;
    struct Pending {
        VariantKey key;
        std::future<vk::ComputePipeline> pipeline;
        std::chrono::steady_clock::time_point started;
    };
    std::optional<Pending> building;
    std::optional<VariantKey> wanted; // asked for while another was being built
    std::vector<VariantKey> failed;   // builds that threw: those shapes stay generic
};
namespace simulator_detail {

constexpr unsigned kSerialGridExitBit = shapeBit(SpecSerialGridExit);

// whether the plan follows the reference's rule at the HKL grid's edge: search slices first
inline bool serialGridExit(const plan::Plan& p) {
    return p.interpolate && p.interpolationEdge == InterpolationEdge::Reference &&
           p.structureFactors && p.structureFactors->hasTable();
}

} // namespace simulator_detail

} // namespace bv::engine
