#include "compute/engine/Simulator.h"

#include "compute/core/Error.h"
#include "compute/engine/GpuLayout.h"
#include "compute/engine/SimulatorInternals.h"
#include "compute/vk/Device.h"

#include <chrono>
#include <future>
#include <iterator>

// The Simulator's pipelines: the generic one, the specialised ones per shape (kept, least
// recently used let go, built at once or on a worker thread) and their command buffers.
namespace bv::engine {

using simulator_detail::kSerialGridExitBit;
using simulator_detail::serialGridExit;

Simulator::VariantKey Simulator::variantKey(const plan::Plan& p) const {
    const bool table = p.structureFactors && p.structureFactors->hasTable();
    const std::pair<SpecId, bool> flags[] = {{SpecInterpolate, table && p.interpolate},
                                             {SpecOversampleThick, p.oversampleThick},
                                             {SpecOversamplePolar, p.oversamplePolar},
                                             {SpecOversampleOmega, p.oversampleOmega},
                                             {SpecCurved, p.curved},
                                             {SpecPointPixel, p.pointPixel},
                                             {SpecPolarization, p.polarization},
                                             {SpecThickness, p.thickModelled},
                                             {SpecWater, p.waterPresent},
                                             {SpecTable, table},
                                             {SpecMask, p.mask && !p.mask->empty()},
                                             {SpecDmin, p.dmin > 0.0},
                                             {SpecSerialGridExit, serialGridExit(p)},
                                             {SpecPanels, p.stackedPanels}};
    VariantKey key;
    key.bits = static_cast<std::uint32_t>(p.shape) & 3u;
    for (const auto& [id, on] : flags)
        key.bits |= (on ? 1u : 0u) << shapeBit(id);
    key.oversample = p.oversample;
    key.sources = static_cast<std::int32_t>(p.sources.size());
    key.orientations = static_cast<std::int32_t>(p.orientations.size());
    return key;
}

vk::SpecializationConstants Simulator::specializationConstants(const VariantKey& key,
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
        .add(SpecOrientationCount, key.orientations);
    return constants;
}

Simulator::KernelInputs Simulator::kernelInputs() const {
    if (!m_current)
        throw Error("nothing to trace: no plan was set (internal error)");
    // the generic constants: one trace pipeline serves every plan (it reads the shape from the
    // parameter block), and its numbers are the specialised pipeline's bit for bit
    return {m_setLayout.handle(), m_set, 0u, specializationConstants(m_currentKey, false),
            m_paramsInStorage};
}

void Simulator::saveCache(const vk::ComputePipeline& built) {
    // rewritten only when the build added to the driver's data: a warm start writes nothing
    // (and where the driver says the cache served the pipeline, its data is not even read)
    try {
        m_cacheSaved =
            built.cacheUse() != vk::ComputePipeline::CacheUse::Hit && m_cache.saveIfChanged();
    } catch (const Error& e) {
        m_warnings.push_back(std::string("pipeline cache not saved: ") + e.what());
    }
}

std::unique_ptr<Simulator::Variant> Simulator::newVariant(vk::ComputePipeline pipeline,
                                                           bool specialised) {
    auto v = std::make_unique<Variant>();
    v->pipeline = std::move(pipeline);
    v->specialised = specialised;
    for (int part = 0; part <= m_options.maxSlices; ++part)
        v->parts.emplace_back(m_commandPool);
    ++m_pipelinesBuilt;
    saveCache(v->pipeline);
    return v;
}

Simulator::Variant& Simulator::genericVariant() {
    if (m_generic)
        return *m_generic;
    m_planTimer.restart();
    vk::ComputePipeline pipeline(m_device, m_module, m_pipelineLayout,
                                 specializationConstants({}, false), &m_cache);
    m_planTimer.mark("generic pipeline");
    m_generic = newVariant(std::move(pipeline), false);
    m_planTimer.mark("pipeline cache save");
    return *m_generic;
}

Simulator::Variant& Simulator::keepSpecialised(const VariantKey& key,
                                               vk::ComputePipeline pipeline) {
    auto& ready = m_builds->ready;
    ready.emplace_front(key, newVariant(std::move(pipeline), true));
    // the least recently used goes (never the one running: it is at the front or generic);
    // its command buffers are not in flight (a submission is made only after the one before
    // has finished, and only the current variant's)
    while (static_cast<int>(ready.size()) > kSpecialisedPipelines) {
        auto last = std::prev(ready.end());
        if (last->second.get() == m_current)
            break;
        ready.erase(last);
    }
    return *ready.front().second;
}

void Simulator::takeFinishedBuild() {
    auto& building = m_builds->building;
    if (!building ||
        building->pipeline.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        return;
    const VariantKey key = building->key;
    try {
        vk::ComputePipeline pipeline = building->pipeline.get();
        m_lastBuildMilliseconds = std::chrono::duration<double, std::milli>(
                                      std::chrono::steady_clock::now() - building->started)
                                      .count();
        building.reset();
        keepSpecialised(key, std::move(pipeline));
    } catch (const std::exception& e) {
        building.reset();
        m_builds->failed.push_back(key);
        m_warnings.push_back(std::string("a specialised pipeline could not be built, the "
                                         "generic one runs instead: ") +
                             e.what());
    }
    if (m_builds->wanted) {
        const VariantKey next = *m_builds->wanted;
        m_builds->wanted.reset();
        requestBackgroundBuild(next);
    }
}

Simulator::Variant* Simulator::readySpecialised(const VariantKey& key) {
    takeFinishedBuild();
    auto& ready = m_builds->ready;
    for (auto it = ready.begin(); it != ready.end(); ++it)
        if (it->first == key) {
            ready.splice(ready.begin(), ready, it); // most recently used
            return ready.front().second.get();
        }
    return nullptr;
}

void Simulator::requestBackgroundBuild(const VariantKey& key) {
    for (const VariantKey& failed : m_builds->failed)
        if (failed == key)
            return;
    for (const auto& entry : m_builds->ready)
        if (entry.first == key)
            return;
    auto& building = m_builds->building;
    if (building) {
        if (building->key != key)
            m_builds->wanted = key; // after this one; a newer wish replaces an older
        return;
    }
    // the worker uses only objects that live as long as this Simulator (whose destructor
    // waits for it) and Vulkan calls that are safe beside the owner's (pipeline creation; the
    // pipeline cache is internally synchronised)
    building = Builds::Pending{key, {}, std::chrono::steady_clock::now()};
    building->pipeline =
        std::async(std::launch::async, [this, constants = specializationConstants(key, true)] {
            return vk::ComputePipeline(m_device, m_module, m_pipelineLayout, constants, &m_cache);
        });
}

Simulator::Variant& Simulator::buildSpecialisedNow(const VariantKey& key) {
    auto& building = m_builds->building;
    if (building && building->key == key) {
        building->pipeline.wait(); // already on its way
        takeFinishedBuild();
        if (Variant* v = readySpecialised(key))
            return *v;
        return genericVariant(); // the build failed (a warning says so)
    }
    m_planTimer.restart();
    const auto start = std::chrono::steady_clock::now();
    vk::ComputePipeline pipeline(m_device, m_module, m_pipelineLayout,
                                 specializationConstants(key, true), &m_cache);
    m_lastBuildMilliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    m_planTimer.mark("specialised pipeline");
    Variant& v = keepSpecialised(key, std::move(pipeline));
    m_planTimer.mark("pipeline cache save");
    return v;
}

void Simulator::waitForBackgroundBuild() {
    while (m_builds->building) {
        m_builds->building->pipeline.wait();
        takeFinishedBuild(); // may start the wanted one
    }
}

bool Simulator::specialised() const {
    return m_current && m_current->specialised;
}

int Simulator::pipelinesHeld() const {
    return (m_generic ? 1 : 0) + static_cast<int>(m_builds->ready.size());
}

Simulator::Variant* Simulator::choosePipeline(const plan::Plan& p) {
    using Mode = SimulatorOptions::Specialisation;
    if (Variant* v = readySpecialised(m_currentKey))
        return v;
    Mode mode = m_options.specialisation;
    if (!m_options.shaderCode.empty())
        mode = Mode::Wait; // a benchmark's shader variant may not have the generic path
    if (mode == Mode::Automatic) {
        const std::uint64_t work = static_cast<std::uint64_t>(p.fastPixels) *
                                   static_cast<std::uint64_t>(p.slowPixels) * m_stepsPerPixel;
        mode = work >= m_options.specialiseWork ? Mode::Wait : Mode::Generic;
    }
    if (mode == Mode::Wait)
        return &buildSpecialisedNow(m_currentKey);
    if (mode == Mode::Background)
        requestBackgroundBuild(m_currentKey);
    return &genericVariant();
}

void Simulator::switchToSpecialisedIfReady() {
    if (!m_current || m_current->specialised ||
        m_options.specialisation == SimulatorOptions::Specialisation::Generic)
        return;
    Variant* v = readySpecialised(m_currentKey);
    if (!v)
        return;
    if (!v->recorded)
        record(*v);
    m_current = v; // the slices left continue the same sums: the image does not change
}

void Simulator::record(Variant& v) {
    const bool searchesGridExit = ((m_currentKey.bits >> kSerialGridExitBit) & 1u) != 0;
    const VkDeviceSize imageBytes =
        static_cast<VkDeviceSize>(m_fast) * static_cast<VkDeviceSize>(m_slow) * sizeof(float);
    for (std::uint32_t slot = 0; slot < static_cast<std::uint32_t>(m_options.maxSlices); ++slot) {
        vk::CommandBuffer& cmd = v.parts[slot];
        cmd.begin();
        if (slot == 0) {
            // the last run's copy of the image must be done before the image is cleared
            cmd.barrier(VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
            // pixels outside the ROI's box are never dispatched, masked ones never written: 0
            vkCmdFillBuffer(cmd.handle(), m_image->buffer.handle(), 0, imageBytes, 0u);
            // the grid's edge: not found yet, in any pixel
            if (searchesGridExit)
                vkCmdFillBuffer(cmd.handle(), m_gridExit->buffer.handle(), 0, VK_WHOLE_SIZE,
                                kNoGridExit);
            cmd.barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
            if (m_timer) {
                m_timer->reset(cmd);
                m_timer->writeTimestamp(cmd, 0, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
            }
        } else {
            // the next slice continues the sums the last one left in the state buffer (a
            // barrier orders against everything submitted before it, other buffers included)
            cmd.barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        }
        cmd.bindCompute(v.pipeline, m_pipelineLayout, m_set);
        const GpuPush push{slot};
        cmd.pushConstants(m_pipelineLayout, &push, sizeof(push));
        vkCmdDispatchIndirect(cmd.handle(), m_slices->buffer.handle(),
                              slot * sizeof(GpuSliceEntry));
        if (m_timer)
            m_timer->writeTimestamp(cmd, slot + 1, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
        cmd.end();
    }
    vk::CommandBuffer& copy = v.parts[static_cast<std::size_t>(m_options.maxSlices)];
    copy.begin();
    copy.computeToTransferBarrier();
    copy.copyBuffer(m_image->buffer, *m_readback, imageBytes);
    if (searchesGridExit)
        copy.copyBuffer(m_gridExit->buffer, *m_gridExitReadback, gridExitHeaderBytes());
    copy.transferToHostBarrier();
    copy.end();
    v.recorded = true;
    ++m_recordCount;
}

} // namespace bv::engine
