#pragma once
// PipelineVariants: the Simulator's pipelines per shape (docs/performance.md, "Pipelines per
// shape") and their command buffers. The generic pipeline runs any plan, reading the plan's
// shape (flags, lattice shape, loop counts) from the parameter block; a specialised one has
// them as specialization constants. The last kSpecialised specialised ones are kept (least
// recently used goes first), built at once or on a worker thread, all through one
// VkPipelineCache saved on disk. Each pipeline has its command buffers, recorded once (one per
// dispatch slot, then the readback copy) and only re-submitted; record() is the counted
// exception.
//
// Owns: the pipeline cache, the shader module, the descriptor set layout of the tables
// (shaders/params.glsl's bindings) and the pipeline layout, the pipelines and their command
// buffers; borrows the vk::Device (which must outlive it) and the warning list it appends to.
// The destructor waits for a build on the worker thread.

#include "compute/engine/GpuTables.h"
#include "compute/model/Precision.h"
#include "compute/plan/Plan.h"
#include "compute/vk/Buffer.h"
#include "compute/vk/Commands.h"
#include "compute/vk/PhaseTimer.h"
#include "compute/vk/Pipeline.h"
#include "compute/vk/PipelineCache.h"
#include "compute/vk/QueryPool.h"

#include <chrono>
#include <cstdint>
#include <future>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bv::vk {
class Device;
}

namespace bv::engine {

// A pipeline with its command buffers: one per dispatch slot (the first also clears the
// image and starts the clock), then the readback copy; a run submits the active slots and
// the copy.
struct PipelineVariant {
    vk::ComputePipeline pipeline;
    bool specialised = false;
    std::vector<vk::CommandBuffer> parts;
    bool recorded = false;
};

// What a recording refers to: the tables' set and buffers, the image's size, the timer.
struct RecordTargets {
    VkDescriptorSet set = VK_NULL_HANDLE;
    const vk::Buffer* image = nullptr;
    const vk::Buffer* readback = nullptr;
    const vk::Buffer* slices = nullptr;
    const vk::Buffer* gridExit = nullptr;
    const vk::Buffer* gridExitReadback = nullptr;
    VkDeviceSize imageBytes = 0;
    VkDeviceSize gridExitHeaderBytes = 0;
    bool searchesGridExit = false;
    vk::QueryPool* timer = nullptr; // null: no timestamps
};

struct VariantOptions {
    Precision precision = Precision::Precise; // the one in use
    bool paramsInStorage = false;
    std::string cacheDirectory;
    std::vector<std::uint32_t> shaderCode; // empty: the built-in shader
    std::uint32_t localSizeX = 8, localSizeY = 8;
    int maxSlices = 32;
};

class PipelineVariants {
  public:
    static constexpr int kSpecialised = 8;

    // Marks "pipeline cache load" and "shader module" on timer.
    PipelineVariants(const vk::Device& device, VariantOptions options,
                     std::vector<std::string>& warnings, vk::PhaseTimer& timer);
    ~PipelineVariants();
    PipelineVariants(const PipelineVariants&) = delete;
    PipelineVariants& operator=(const PipelineVariants&) = delete;

    const vk::DescriptorSetLayout& setLayout() const { return m_setLayout; }
    const vk::PipelineLayout& layout() const { return m_layout; }

    // The pipeline to run the shape `key` on: a specialised one when it is built; else,
    // by `mode`, one built now (Wait), the generic one while it is built on the worker
    // (Background), or the generic one (Generic); it becomes the current one. Marks its
    // builds on timer.
    enum class Mode { Generic, Background, Wait };
    PipelineVariant& choose(const VariantKey& key, Mode mode, vk::PhaseTimer& timer);
    // The variant a run submits (null before the first choose), never let go; a run on the
    // generic pipeline moves to the specialised one at a slice boundary (setCurrent).
    PipelineVariant* current() const { return m_current; }
    void setCurrent(PipelineVariant& variant) { m_current = &variant; }
    // The specialised variant of key when it is built (taking in a finished background
    // build first), else null.
    PipelineVariant* readySpecialised(const VariantKey& key);
    void waitForBackgroundBuild();

    // Records the variant's command buffers for the targets.
    void record(PipelineVariant& variant, const RecordTargets& targets);
    // The tables' buffers or the image's size changed: every recording is stale.
    void invalidateRecordings();
    int recordCount() const { return m_recordCount; }

    vk::SpecializationConstants specializationConstants(const VariantKey& key,
                                                        bool specialised) const;
    int pipelinesBuilt() const { return m_pipelinesBuilt; }
    int pipelinesHeld() const;
    double lastBuildMilliseconds() const { return m_lastBuildMilliseconds; }
    std::size_t cacheLoadedBytes() const { return m_cache.loadedBytes(); }
    bool cacheSaved() const { return m_cacheSaved; }

  private:
    PipelineVariant& generic(vk::PhaseTimer& timer);
    PipelineVariant& buildSpecialisedNow(const VariantKey& key, vk::PhaseTimer& timer);
    void requestBackgroundBuild(const VariantKey& key);
    void takeFinishedBuild();
    PipelineVariant& keepSpecialised(const VariantKey& key, vk::ComputePipeline pipeline);
    // a pipeline with its command buffers (not recorded yet), counted, the cache saved
    std::unique_ptr<PipelineVariant> newVariant(vk::ComputePipeline pipeline, bool specialised);
    void saveCache(const vk::ComputePipeline& built);

    const vk::Device& m_device;
    VariantOptions m_options;
    std::vector<std::string>& m_warnings;
    vk::PipelineCache m_cache;
    vk::ShaderModule m_module;
    vk::DescriptorSetLayout m_setLayout;
    vk::PipelineLayout m_layout;
    vk::CommandPool m_commandPool;

    std::unique_ptr<PipelineVariant> m_generic;
    // the specialised pipelines, most recently used first, and the one being built on a
    // worker thread (at most one at a time: while values move, only the newest shape asked
    // for is built next)
    std::list<std::pair<VariantKey, std::unique_ptr<PipelineVariant>>> m_ready;
    struct Pending {
        VariantKey key;
        std::future<vk::ComputePipeline> pipeline;
        std::chrono::steady_clock::time_point started;
    };
    std::optional<Pending> m_building;
    std::optional<VariantKey> m_wanted; // asked for while another was being built
    std::vector<VariantKey> m_failed;   // builds that threw: those shapes stay generic
    PipelineVariant* m_current = nullptr;

    int m_recordCount = 0;
    int m_pipelinesBuilt = 0;
    double m_lastBuildMilliseconds = 0.0;
    bool m_cacheSaved = false;
};

} // namespace bv::engine
