#include "compute/engine/PipelineVariants.h"

#include "compute/core/Error.h"
#include "compute/engine/DiffractionShaders.h"
#include "compute/vk/Device.h"

#include <iterator>

// The pipelines per shape: the generic one, the specialised ones (kept, least recently used
// let go, built at once or on a worker thread) and their command buffers.
namespace bv::engine {

PipelineVariants::PipelineVariants(const vk::Device& device, VariantOptions options,
                                   std::vector<std::string>& warnings, vk::PhaseTimer& timer)
    : m_device(device), m_options(std::move(options)), m_warnings(warnings) {
    m_cache = vk::PipelineCache(device, m_options.cacheDirectory);
    timer.mark("pipeline cache load");
    if (!m_cache.ignoredReason().empty())
        m_warnings.push_back("pipeline cache " + m_cache.filePath() +
                             " not used: " + m_cache.ignoredReason());

    if (!m_options.shaderCode.empty()) {
        const DiffractionShader found = diffractionShaderInterface(m_options.shaderCode);
        if (found.precision != m_options.precision)
            throw Error(std::string("the shader variant is a ") + precisionName(found.precision) +
                        " build; this run is " + precisionName(m_options.precision) +
                        " (give the matching -precision)");
        if (found.paramsInStorage != m_options.paramsInStorage)
            throw Error(std::string("the shader variant reads its parameters from a ") +
                        (found.paramsInStorage ? "storage" : "uniform") + " buffer; this device (" +
                        (m_options.paramsInStorage ? "a CPU device" : "a GPU") + ") takes a " +
                        (m_options.paramsInStorage ? "storage buffer: build a *_cpu.comp variant"
                                                   : "uniform buffer: build a variant of "
                                                     "diffraction_fast.comp or _precise.comp"));
        m_module = vk::ShaderModule(device, m_options.shaderCode.data(),
                                    m_options.shaderCode.size() * sizeof(std::uint32_t));
    } else
        m_module =
            diffractionShaderModule(device, {m_options.precision, m_options.paramsInStorage, false});
    timer.mark("shader module");

    // a uniform buffer on GPUs, a storage buffer on CPU devices (shaders/params.glsl:
    // lavapipe recompiles the shader for new uniform values)
    const VkDescriptorType params = m_options.paramsInStorage ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
                                                              : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    m_setLayout =
        vk::DescriptorSetLayout(device, {{BindingParams, params},
                                         {BindingOrientations, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                         {BindingSources, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                         {BindingAmplitudes, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                         {BindingMask, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                         {BindingImage, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                         {BindingSlices, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                         {BindingStates, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                         {BindingFreshUnits, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                         {BindingGridExit, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                         {BindingPanels, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                         {BindingPanelRows, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                         {BindingCancel, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                         {BindingOrientationsUniform, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER},
                                         {BindingSourcesUniform, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER},
                                         {BindingSlicesUniform, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER}});
    m_layout = vk::PipelineLayout(device, {m_setLayout.handle()}, sizeof(GpuPush));
    m_commandPool = vk::CommandPool(device);
}

PipelineVariants::~PipelineVariants() {
    // a background build uses this object's module, layout and cache
    if (m_building)
        m_building->pipeline.wait();
}

vk::SpecializationConstants PipelineVariants::specializationConstants(const VariantKey& key,
                                                                      bool specialised) const {
    vk::SpecializationConstants constants;
    constants.add(SpecLocalSizeX, m_options.localSizeX).add(SpecLocalSizeY, m_options.localSizeY);
    constants.add(SpecSpecialised, specialised);
    if (!specialised)
        return constants; // the shader's defaults stand; it reads the parameter block
    constants.add(SpecShape, static_cast<std::int32_t>(key.bits & 3u));
    for (std::uint32_t id = SpecInterpolate; id <= SpecPanels; ++id)
        constants.add(id, ((key.bits >> shapeBit(SpecId(id))) & 1u) != 0);
    constants.add(SpecOversample, key.oversample)
        .add(SpecSourceCount, key.sources)
        .add(SpecOrientationCount, key.orientations)
        .add(SpecCellsA, key.cells[0])
        .add(SpecCellsB, key.cells[1])
        .add(SpecCellsC, key.cells[2])
        .add(SpecUniformTables, ((key.bits >> shapeBit(SpecUniformTables)) & 1u) != 0);
    return constants;
}

void PipelineVariants::saveCache(const vk::ComputePipeline& built) {
    // rewritten only when the build added to the driver's data: a warm start writes nothing
    // (and where the driver says the cache served the pipeline, its data is not even read)
    try {
        m_cacheSaved =
            built.cacheUse() != vk::ComputePipeline::CacheUse::Hit && m_cache.saveIfChanged();
    } catch (const Error& e) {
        m_warnings.push_back(std::string("pipeline cache not saved: ") + e.what());
    }
}

std::unique_ptr<PipelineVariant> PipelineVariants::newVariant(vk::ComputePipeline pipeline,
                                                              bool specialised) {
    auto v = std::make_unique<PipelineVariant>();
    v->pipeline = std::move(pipeline);
    v->specialised = specialised;
    for (int part = 0; part <= m_options.maxSlices; ++part)
        v->parts.emplace_back(m_commandPool);
    ++m_pipelinesBuilt;
    saveCache(v->pipeline);
    return v;
}

PipelineVariant& PipelineVariants::generic(vk::PhaseTimer& timer) {
    if (m_generic)
        return *m_generic;
    timer.restart();
    vk::ComputePipeline pipeline(m_device, m_module, m_layout, specializationConstants({}, false),
                                 &m_cache);
    timer.mark("generic pipeline");
    m_generic = newVariant(std::move(pipeline), false);
    timer.mark("pipeline cache save");
    return *m_generic;
}

PipelineVariant& PipelineVariants::keepSpecialised(const VariantKey& key,
                                                   vk::ComputePipeline pipeline) {
    m_ready.emplace_front(key, newVariant(std::move(pipeline), true));
    // the least recently used goes (never the one running: it is at the front or generic);
    // its command buffers are not in flight (a submission is made only after the one before
    // has finished, and only the current variant's)
    while (static_cast<int>(m_ready.size()) > kSpecialised) {
        auto last = std::prev(m_ready.end());
        if (last->second.get() == m_current)
            break;
        m_ready.erase(last);
    }
    return *m_ready.front().second;
}

void PipelineVariants::takeFinishedBuild() {
    if (!m_building ||
        m_building->pipeline.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        return;
    const VariantKey key = m_building->key;
    try {
        vk::ComputePipeline pipeline = m_building->pipeline.get();
        m_lastBuildMilliseconds = std::chrono::duration<double, std::milli>(
                                      std::chrono::steady_clock::now() - m_building->started)
                                      .count();
        m_building.reset();
        keepSpecialised(key, std::move(pipeline));
    } catch (const std::exception& e) {
        m_building.reset();
        m_failed.push_back(key);
        m_warnings.push_back(std::string("a specialised pipeline could not be built, the "
                                         "generic one runs instead: ") +
                             e.what());
    }
    if (m_wanted) {
        const VariantKey next = *m_wanted;
        m_wanted.reset();
        requestBackgroundBuild(next);
    }
}

PipelineVariant* PipelineVariants::readySpecialised(const VariantKey& key) {
    takeFinishedBuild();
    for (auto it = m_ready.begin(); it != m_ready.end(); ++it)
        if (it->first == key) {
            m_ready.splice(m_ready.begin(), m_ready, it); // most recently used
            return m_ready.front().second.get();
        }
    return nullptr;
}

void PipelineVariants::requestBackgroundBuild(const VariantKey& key) {
    for (const VariantKey& failed : m_failed)
        if (failed == key)
            return;
    for (const auto& entry : m_ready)
        if (entry.first == key)
            return;
    if (m_building) {
        if (m_building->key != key)
            m_wanted = key; // after this one; a newer wish replaces an older
        return;
    }
    // the worker uses only objects that live as long as this one (whose destructor waits for
    // it) and Vulkan calls that are safe beside the owner's (pipeline creation; the pipeline
    // cache is internally synchronised)
    m_building = Pending{key, {}, std::chrono::steady_clock::now()};
    m_building->pipeline =
        std::async(std::launch::async, [this, constants = specializationConstants(key, true)] {
            return vk::ComputePipeline(m_device, m_module, m_layout, constants, &m_cache);
        });
}

PipelineVariant& PipelineVariants::buildSpecialisedNow(const VariantKey& key,
                                                       vk::PhaseTimer& timer) {
    if (m_building && m_building->key == key) {
        m_building->pipeline.wait(); // already on its way
        takeFinishedBuild();
        if (PipelineVariant* v = readySpecialised(key))
            return *v;
        return generic(timer); // the build failed (a warning says so)
    }
    timer.restart();
    const auto start = std::chrono::steady_clock::now();
    vk::ComputePipeline pipeline(m_device, m_module, m_layout, specializationConstants(key, true),
                                 &m_cache);
    m_lastBuildMilliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    timer.mark("specialised pipeline");
    PipelineVariant& v = keepSpecialised(key, std::move(pipeline));
    timer.mark("pipeline cache save");
    return v;
}

void PipelineVariants::waitForBackgroundBuild() {
    while (m_building) {
        m_building->pipeline.wait();
        takeFinishedBuild(); // may start the wanted one
    }
}

int PipelineVariants::pipelinesHeld() const {
    return (m_generic ? 1 : 0) + static_cast<int>(m_ready.size());
}

PipelineVariant& PipelineVariants::choose(const VariantKey& key, Mode mode,
                                          vk::PhaseTimer& timer) {
    PipelineVariant* v = readySpecialised(key);
    if (!v) {
        if (mode == Mode::Wait)
            v = &buildSpecialisedNow(key, timer);
        else {
            if (mode == Mode::Background)
                requestBackgroundBuild(key);
            v = &generic(timer);
        }
    }
    m_current = v;
    return *v;
}

void PipelineVariants::invalidateRecordings() {
    if (m_generic)
        m_generic->recorded = false;
    for (auto& entry : m_ready)
        entry.second->recorded = false;
}

void PipelineVariants::record(PipelineVariant& v, const RecordTargets& t) {
    for (std::uint32_t slot = 0; slot < static_cast<std::uint32_t>(m_options.maxSlices); ++slot) {
        vk::CommandBuffer& cmd = v.parts[slot];
        cmd.begin();
        if (slot == 0) {
            // the last run's copy of the image must be done before the image is cleared
            cmd.barrier(VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
            // pixels outside the ROI's box are never dispatched, masked ones never written: 0
            vkCmdFillBuffer(cmd.handle(), t.image->handle(), 0, t.imageBytes, 0u);
            // the grid's edge: not found yet, in any pixel
            if (t.searchesGridExit)
                vkCmdFillBuffer(cmd.handle(), t.gridExit->handle(), 0, VK_WHOLE_SIZE,
                                kNoGridExit);
            cmd.barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
            if (t.timer) {
                t.timer->reset(cmd);
                t.timer->writeTimestamp(cmd, 0, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
            }
        } else {
            // the next slice continues the sums the last one left in the state buffer (a
            // barrier orders against everything submitted before it, other buffers included)
            cmd.barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        }
        cmd.bindCompute(v.pipeline, m_layout, t.set);
        const GpuPush push{slot};
        cmd.pushConstants(m_layout, &push, sizeof(push));
        vkCmdDispatchIndirect(cmd.handle(), t.slices->handle(), slot * sizeof(GpuSliceEntry));
        if (t.timer)
            t.timer->writeTimestamp(cmd, slot + 1, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
        cmd.end();
    }
    vk::CommandBuffer& copy = v.parts[static_cast<std::size_t>(m_options.maxSlices)];
    copy.begin();
    copy.computeToTransferBarrier();
    copy.copyBuffer(*t.image, *t.readback, t.imageBytes);
    if (t.searchesGridExit)
        copy.copyBuffer(*t.gridExit, *t.gridExitReadback, t.gridExitHeaderBytes);
    copy.transferToHostBarrier();
    copy.end();
    v.recorded = true;
    ++m_recordCount;
}

} // namespace bv::engine
