#include "compute/engine/Simulator.h"

#include "compute/core/Error.h"
#include "compute/engine/DiffractionShaders.h"
#include "compute/engine/GpuLayout.h"
#include "compute/engine/SerialOrder.h"
#include "compute/plan/RunCost.h"
#include "compute/vk/Check.h"
#include "compute/vk/Device.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <future>
#include <glm/geometric.hpp>
#include <limits>
#include <list>

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

namespace {

constexpr unsigned kSerialGridExitBit = shapeBit(SpecSerialGridExit);

template <typename Real> GpuVec4<Real> vec4(const glm::dvec3& v, double w = 0.0) {
    return {static_cast<Real>(v.x), static_cast<Real>(v.y), static_cast<Real>(v.z),
            static_cast<Real>(w)};
}

// the head of the GridExit buffer as read back
template <typename Real> std::optional<GridExit> gridExitFrom(const void* bytes, int fast) {
    GpuGridExit<Real> head;
    std::memcpy(&head, bytes, sizeof head);
    if (head.exitPixel == kNoGridExit || fast <= 0)
        return std::nullopt;
    GridExit exit;
    exit.fast = static_cast<int>(head.exitPixel % static_cast<std::uint32_t>(fast));
    exit.slow = static_cast<int>(head.exitPixel / static_cast<std::uint32_t>(fast));
    exit.step = head.exitStep;
    exit.hkl = {head.exitHkl.x, head.exitHkl.y, head.exitHkl.z};
    return exit;
}

// whether the plan follows the reference's rule at the HKL grid's edge: search slices first
bool serialGridExit(const plan::Plan& p) {
    return p.interpolate && p.interpolationEdge == InterpolationEdge::Reference &&
           p.structureFactors && p.structureFactors->hasTable();
}

// steps of each pixel's serial loop: layers x sub-pixels x sources x orientations
VkDeviceSize roundUpCapacity(std::size_t bytes) {
    VkDeviceSize capacity = 256;
    while (capacity < bytes)
        capacity *= 2;
    return capacity;
}

} // namespace

Simulator::Simulator(const vk::Device& device, const SimulatorOptions& options)
    : m_device(device), m_options(options), m_precision(options.precision) {
    m_paramsInStorage = device.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    // two: the grid-exit rule runs a search slice before the image's (uploadSlices)
    if (m_options.maxSlices < 2)
        m_options.maxSlices = 2;
    if (m_options.workPerSlice == 0)
        m_options.workPerSlice = device.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU
                                     ? std::uint64_t(1) << 26
                                     : std::uint64_t(1) << 28;
    if (m_options.specialiseWork == 0)
        m_options.specialiseWork = 1; // always (SimulatorOptions::specialiseWork says why)
    // BRAGGVIEW_PIPELINE=generic|specialised overrides Automatic (the parity suite runs both)
    if (const char* forced = std::getenv("BRAGGVIEW_PIPELINE");
        forced && m_options.specialisation == SimulatorOptions::Specialisation::Automatic) {
        const std::string value = forced;
        if (value == "generic")
            m_options.specialisation = SimulatorOptions::Specialisation::Generic;
        else if (value == "specialised")
            m_options.specialisation = SimulatorOptions::Specialisation::Wait;
        else if (!value.empty())
            throw Error("BRAGGVIEW_PIPELINE: expected generic or specialised, not " + value);
    }
    m_builds = std::make_unique<Builds>();
    const auto& limits = device.info().limits;
    if (m_options.localSizeX == 0 || m_options.localSizeY == 0 ||
        m_options.localSizeX * m_options.localSizeY > limits.maxComputeWorkGroupInvocations ||
        m_options.localSizeX > limits.maxComputeWorkGroupSize[0] ||
        m_options.localSizeY > limits.maxComputeWorkGroupSize[1])
        throw Error("workgroup size " + std::to_string(m_options.localSizeX) + "x" +
                    std::to_string(m_options.localSizeY) + " is not possible on " +
                    device.description());

    if (m_precision == Precision::Precise && !device.float64Enabled()) {
        m_precision = Precision::Fast;
        m_notice = device.description() +
                   " has no double precision in shaders (shaderFloat64); using the fast "
                   "single-precision shader instead";
    }

    vk::PhaseTimer timer;
    const std::string directory =
        m_options.pipelineCacheDirectory.value_or(vk::defaultPipelineCacheDirectory());
    m_cache = vk::PipelineCache(device, directory);
    timer.mark("pipeline cache load");
    if (!m_cache.ignoredReason().empty())
        m_warnings.push_back("pipeline cache " + m_cache.filePath() +
                             " not used: " + m_cache.ignoredReason());

    if (!m_options.shaderCode.empty())
        m_module = vk::ShaderModule(device, m_options.shaderCode.data(),
                                    m_options.shaderCode.size() * sizeof(std::uint32_t));
    else
        m_module = diffractionShaderModule(device, {m_precision, m_paramsInStorage, false});
    timer.mark("shader module");

    m_setLayout =
        vk::DescriptorSetLayout(device, {{BindingParams, paramsDescriptorType()},
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
                                         {BindingCancel, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}});
    m_pipelineLayout = vk::PipelineLayout(device, {m_setLayout.handle()}, sizeof(GpuPush));
    m_descriptorPool = vk::DescriptorPool(
        device, 1,
        {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 13}});
    m_set = m_descriptorPool.allocate(m_setLayout);
    m_commandPool = vk::CommandPool(device);
    m_uploadCommands = vk::CommandBuffer(m_commandPool);
    m_fence = vk::Fence(device);
    m_timestamps = device.timestampValidBits() > 0;

    auto makeBuffer = [](const std::string& label, VkBufferUsageFlags usage, vk::MemoryUse use) {
        auto b = std::make_unique<DeviceBuffer>();
        b->label = label;
        b->usage = usage;
        b->use = use;
        return b;
    };
    const VkBufferUsageFlags storage =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    // a uniform buffer on GPUs, a storage buffer on CPU devices (shaders/params.glsl)
    m_params = makeBuffer("the simulation parameters",
                          VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                          vk::MemoryUse::Upload);
    m_orientations =
        makeBuffer("the crystal orientation table", storage, vk::MemoryUse::DeviceLocal);
    m_sources = makeBuffer("the source table", storage, vk::MemoryUse::DeviceLocal);
    m_amplitudes = makeBuffer("the structure factor table", storage, vk::MemoryUse::DeviceLocal);
    m_mask = makeBuffer("the pixel mask", storage, vk::MemoryUse::DeviceLocal);
    m_image = makeBuffer("the intensity image",
                         VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                             VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                         vk::MemoryUse::DeviceLocal);
    m_slices = makeBuffer("the slice table", storage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                          vk::MemoryUse::DeviceLocal);
    m_states = makeBuffer("the per-pixel state between slices", VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                          vk::MemoryUse::DeviceLocal);
    m_freshUnitsBuffer =
        makeBuffer("the table of fresh units", storage, vk::MemoryUse::DeviceLocal);
    m_gridExit = makeBuffer("the search for the HKL grid's edge",
                            storage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, vk::MemoryUse::DeviceLocal);
    m_gridExitReadback = std::make_unique<vk::Buffer>(
        device, sizeof(GpuGridExit<double>), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        vk::MemoryUse::Readback, "the readback of the HKL grid's edge");
    m_panels = makeBuffer("the detector's panels", storage, vk::MemoryUse::DeviceLocal);
    m_panelRows = makeBuffer("the panel of each image row", storage, vk::MemoryUse::DeviceLocal);
    // host-visible and coherent: written by the host while the shader runs (requestCancel)
    m_cancel =
        std::make_unique<vk::Buffer>(device, sizeof(GpuCancel), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                     vk::MemoryUse::Upload, "the cancel word");
    m_cancelWord = static_cast<volatile std::uint32_t*>(m_cancel->map());
    *m_cancelWord = 0u;
    // every binding needs a buffer before the first plan arrives
    for (DeviceBuffer* b :
         {m_params.get(), m_orientations.get(), m_sources.get(), m_amplitudes.get(), m_mask.get(),
          m_image.get(), m_slices.get(), m_states.get(), m_freshUnitsBuffer.get(), m_gridExit.get(),
          m_panels.get(), m_panelRows.get()})
        b->buffer = vk::Buffer(device, 256, b->usage, b->use, b->label);
    writeDescriptors();
    timer.mark("layouts, pools, buffers");
    m_constructionTimes = timer.phases();
}

Simulator::~Simulator() {
    // a background build uses this Simulator's module, layout and cache
    if (m_builds && m_builds->building)
        m_builds->building->pipeline.wait();
    // nothing may be in flight when the buffers go (run() waits, unless it was interrupted by
    // an exception)
    if (m_inFlight && m_fence.handle() != VK_NULL_HANDLE) {
        const VkFence fence = m_fence.handle();
        vkWaitForFences(m_device.handle(), 1, &fence, VK_TRUE,
                        std::numeric_limits<std::uint64_t>::max());
    }
}

std::string Simulator::deviceDescription() const {
    return m_device.description();
}

void Simulator::writeDescriptors() {
    m_descriptorPool.write(
        m_set,
        {{BindingParams, paramsDescriptorType(), m_params->buffer.handle()},
         {BindingOrientations, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, m_orientations->buffer.handle()},
         {BindingSources, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, m_sources->buffer.handle()},
         {BindingAmplitudes, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, m_amplitudes->buffer.handle()},
         {BindingMask, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, m_mask->buffer.handle()},
         {BindingImage, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, m_image->buffer.handle()},
         {BindingSlices, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, m_slices->buffer.handle()},
         {BindingStates, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, m_states->buffer.handle()},
         {BindingFreshUnits, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
          m_freshUnitsBuffer->buffer.handle()},
         {BindingGridExit, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, m_gridExit->buffer.handle()},
         {BindingPanels, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, m_panels->buffer.handle()},
         {BindingPanelRows, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, m_panelRows->buffer.handle()},
         {BindingCancel, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, m_cancel->handle()}});
}

void Simulator::invalidateRecordings() {
    if (m_generic)
        m_generic->recorded = false;
    for (auto& entry : m_builds->ready)
        entry.second->recorded = false;
}

void Simulator::checkPlan(const plan::Plan& p) const {
    if (p.fastPixels <= 0 || p.slowPixels <= 0)
        throw Error("the detector has no pixels (" + std::to_string(p.fastPixels) + "x" +
                    std::to_string(p.slowPixels) + ")");
    if (static_cast<long long>(p.fastPixels) * p.slowPixels >
        std::numeric_limits<std::int32_t>::max() / 2)
        throw Error("the detector has too many pixels (" + std::to_string(p.fastPixels) + "x" +
                    std::to_string(p.slowPixels) + ")");
    if (p.oversample < 1)
        throw Error("the oversampling must be at least 1, not " + std::to_string(p.oversample));
    if (p.thickSteps < 1)
        throw Error("the detector needs at least one sensor layer, not " +
                    std::to_string(p.thickSteps));
    if (p.sources.empty())
        throw Error("the beam has no sources: nothing to simulate");
    if (p.orientations.empty())
        throw Error(
            "the crystal has no orientations (phi steps x mosaic domains): nothing to simulate");
    if (p.sources.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()) ||
        p.orientations.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
        throw Error("too many sources or crystal orientations for one simulation");
    if (plan::stepsPerPixel(p) > std::numeric_limits<std::uint32_t>::max())
        throw Error("each pixel would take " + std::to_string(plan::stepsPerPixel(p)) +
                    " steps (sensor layers x sub-pixels x sources x orientations), more than "
                    "the 4294967295 the shader counts: use fewer of them");
    if (p.mask && !p.mask->empty() &&
        p.mask->size() !=
            static_cast<std::size_t>(p.fastPixels) * static_cast<std::size_t>(p.slowPixels))
        throw Error("the mask has " + std::to_string(p.mask->size()) + " pixels but the detector " +
                    std::to_string(static_cast<long long>(p.fastPixels) * p.slowPixels));
    if (!p.panels.empty()) {
        const plan::StackedSize size = plan::stackedSize(p.panels);
        if (size.fast != p.fastPixels || size.slow != p.slowPixels)
            throw Error("the image is not the detector's panels stacked (internal error: use "
                        "plan::stackPanels)");
        if (p.curved)
            throw Error("a curved detector is one sphere about the sample; it cannot be made of "
                        "panels: use a flat detector or one panel");
    }
    const StructureFactors* f = p.structureFactors;
    if (f && f->hasTable()) {
        const long long cells = static_cast<long long>(f->hCount()) * f->kCount() * f->lCount();
        if (f->hCount() <= 0 || f->kCount() <= 0 || f->lCount() <= 0 ||
            cells != static_cast<long long>(f->F.size()))
            throw Error(
                "the structure factor table does not match its grid bounds (internal error)");
    }
}

void Simulator::resize(int fast, int slow) {
    m_fast = fast;
    m_slow = slow;
    const std::size_t pixels = static_cast<std::size_t>(fast) * static_cast<std::size_t>(slow);
    m_image->buffer =
        vk::Buffer(m_device, pixels * sizeof(float), m_image->usage, m_image->use, m_image->label);
    m_readback = std::make_unique<vk::Buffer>(m_device, pixels * sizeof(float),
                                              VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                              vk::MemoryUse::Readback, "the image readback buffer");

    m_timer.reset();
    if (m_timestamps)
        m_timer = std::make_unique<vk::QueryPool>(
            m_device, static_cast<std::uint32_t>(m_options.maxSlices + 1));
    m_dispatchMilliseconds.clear();
    m_gpuMilliseconds = 0.0;
    writeDescriptors();
    invalidateRecordings();
}

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
                                             {SpecPanels, !p.panels.empty()}};
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

Simulator::Variant& Simulator::genericVariant() {
    if (m_generic)
        return *m_generic;
    m_planTimer.restart();
    auto v = std::make_unique<Variant>();
    v->pipeline = vk::ComputePipeline(m_device, m_module, m_pipelineLayout,
                                      specializationConstants({}, false), &m_cache);
    ++m_pipelinesBuilt;
    for (int part = 0; part <= m_options.maxSlices; ++part)
        v->parts.emplace_back(m_commandPool);
    m_planTimer.mark("generic pipeline");
    saveCache(v->pipeline);
    m_planTimer.mark("pipeline cache save");
    m_generic = std::move(v);
    return *m_generic;
}

Simulator::Variant& Simulator::keepSpecialised(const VariantKey& key,
                                               vk::ComputePipeline pipeline) {
    auto v = std::make_unique<Variant>();
    v->pipeline = std::move(pipeline);
    v->specialised = true;
    for (int part = 0; part <= m_options.maxSlices; ++part)
        v->parts.emplace_back(m_commandPool);
    ++m_pipelinesBuilt;
    saveCache(v->pipeline);
    auto& ready = m_builds->ready;
    ready.emplace_front(key, std::move(v));
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

bool Simulator::upload(DeviceBuffer& target, const void* data, std::size_t bytes) {
    bool replaced = false;
    if (bytes == 0)
        return false;
    if (target.capacity() < bytes) {
        target.buffer =
            vk::Buffer(m_device, roundUpCapacity(bytes), target.usage, target.use, target.label);
        replaced = true;
    }
    if (target.buffer.isMappable() &&
        !(m_options.stagedUploads && target.use == vk::MemoryUse::DeviceLocal)) {
        target.buffer.write(data, bytes);
        return replaced;
    }
    // through the staging buffer; the copies run in flushUploads()
    const std::size_t offset = (m_stagingUsed + 15) / 16 * 16;
    if (!m_staging || m_staging->size() < offset + bytes) {
        flushUploads(); // the staging buffer is about to be replaced: copy what it holds now
        if (!m_staging || m_staging->size() < bytes)
            m_staging = std::make_unique<vk::Buffer>(
                m_device, roundUpCapacity(bytes), VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                vk::MemoryUse::Upload, "the upload staging buffer");
        m_staging->write(data, bytes, 0);
        m_stagingUsed = bytes;
        m_pendingCopies.push_back({target.buffer.handle(), 0, bytes});
        return replaced;
    }
    m_staging->write(data, bytes, offset);
    m_stagingUsed = offset + bytes;
    m_pendingCopies.push_back({target.buffer.handle(), offset, bytes});
    return replaced;
}

void Simulator::flushUploads() {
    if (m_pendingCopies.empty()) {
        m_stagingUsed = 0;
        return;
    }
    m_uploadCommands.begin();
    for (const PendingCopy& copy : m_pendingCopies) {
        VkBufferCopy region{copy.sourceOffset, 0, copy.bytes};
        vkCmdCopyBuffer(m_uploadCommands.handle(), m_staging->handle(), copy.target, 1, &region);
    }
    m_uploadCommands.barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                                 VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                             VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_UNIFORM_READ_BIT |
                                 VK_ACCESS_INDIRECT_COMMAND_READ_BIT);
    m_uploadCommands.end();
    vk::submitAndWait(m_device, m_uploadCommands, m_fence);
    m_pendingCopies.clear();
    m_stagingUsed = 0;
}

template <typename Real> void Simulator::uploadParams(const plan::Plan& p) {
    GpuParams<Real> g;
    g.pix0 = vec4<Real>(p.pix0);
    g.fdet = vec4<Real>(p.fdet);
    g.sdet = vec4<Real>(p.sdet);
    g.odet = vec4<Real>(p.odet);
    g.beam = vec4<Real>(p.beam);
    g.polarAxis = vec4<Real>(p.polarizationAxis);
    g.aStar = vec4<Real>(p.aStar);
    g.bStar = vec4<Real>(p.bStar);
    g.cStar = vec4<Real>(p.cStar);
    g.cells = vec4<Real>(p.cells, p.cells.x * p.cells.y * p.cells.z);
    g.pixelSize = static_cast<Real>(p.pixelSize);
    g.subpixelSize = static_cast<Real>(p.subpixelSize);
    g.distance = static_cast<Real>(p.distance);
    g.closeDistance = static_cast<Real>(p.closeDistance);
    g.thickStep = static_cast<Real>(p.thickStep);
    g.mu = static_cast<Real>(p.mu);
    g.kahn = static_cast<Real>(p.kahnFactor);
    g.dmin = static_cast<Real>(p.dmin);
    g.fudge = static_cast<Real>(p.fudge);
    g.photonScale = static_cast<Real>(p.photonScale);
    g.background = static_cast<Real>(p.background);
    const StructureFactors* f = p.structureFactors;
    g.defaultF = static_cast<Real>(f ? f->defaultF : 0.0);
    g.fastPixels = p.fastPixels;
    g.slowPixels = p.slowPixels;
    g.oversample = p.oversample;
    g.thickSteps = p.thickSteps;
    // the ROI clipped to the detector: the dispatch starts at its corner
    g.roiXmin = std::max(0, p.roi.xmin);
    g.roiXmax = std::min(p.fastPixels - 1, p.roi.xmax);
    g.roiYmin = std::max(0, p.roi.ymin);
    g.roiYmax = std::min(p.slowPixels - 1, p.roi.ymax);
    g.sourceCount = static_cast<std::int32_t>(p.sources.size());
    g.orientationCount = static_cast<std::int32_t>(p.orientations.size());
    g.freshRows = m_freshRows;
    g.shape = variantKey(p).bits; // what the generic pipeline reads instead of constants
    if (f && f->hasTable()) {
        g.hMin = f->hMin;
        g.hMax = f->hMax;
        g.kMin = f->kMin;
        g.kMax = f->kMax;
        g.lMin = f->lMin;
        g.lMax = f->lMax;
    }
    m_bindingsChanged |= upload(*m_params, &g, sizeof(g));
}

template <typename Real> void Simulator::uploadPanels(const plan::Plan& p) {
    // one entry and one row at least: every binding needs a buffer (the shader reads them only
    // with kPanels)
    std::vector<GpuPanel<Real>> table(std::max<std::size_t>(1, p.panels.size()));
    std::vector<std::uint32_t> rows(p.panels.empty() ? 1 : static_cast<std::size_t>(p.slowPixels));
    int firstRow = 0;
    for (std::size_t i = 0; i < p.panels.size(); ++i) {
        const plan::PanelEntry& panel = p.panels[i];
        GpuPanel<Real>& g = table[i];
        g.pix0 = vec4<Real>(panel.pix0);
        g.fdet = vec4<Real>(panel.fdet);
        g.sdet = vec4<Real>(panel.sdet);
        g.odet = vec4<Real>(panel.odet);
        g.pixelSize = static_cast<Real>(panel.pixelSize);
        g.subpixelSize = static_cast<Real>(panel.pixelSize / p.oversample);
        g.closeDistance = static_cast<Real>(panel.closeDistance);
        g.fastPixels = panel.fastPixels;
        g.slowPixels = panel.slowPixels;
        g.firstRow = firstRow;
        std::fill_n(rows.begin() + firstRow, panel.slowPixels, static_cast<std::uint32_t>(i));
        firstRow += panel.slowPixels;
    }
    m_bindingsChanged |= upload(*m_panels, table.data(), table.size() * sizeof(table[0]));
    m_bindingsChanged |= upload(*m_panelRows, rows.data(), rows.size() * sizeof(rows[0]));
}

template <typename Real> void Simulator::uploadSources(const plan::Plan& p) {
    std::vector<GpuSource<Real>> table;
    table.reserve(p.sources.size());
    for (const plan::SourceEntry& s : p.sources) {
        // u: the lab axis least along the beam, made perpendicular to it; v completes the frame
        const glm::dvec3 i = s.incident;
        const glm::dvec3 a =
            std::fabs(i.x) <= std::fabs(i.y) && std::fabs(i.x) <= std::fabs(i.z)
                ? glm::dvec3(1, 0, 0)
                : (std::fabs(i.y) <= std::fabs(i.z) ? glm::dvec3(0, 1, 0) : glm::dvec3(0, 0, 1));
        const glm::dvec3 u = glm::normalize(glm::cross(i, a));
        const glm::dvec3 v = glm::cross(i, u);
        table.push_back({vec4<Real>(i, s.wavelength), vec4<Real>(u), vec4<Real>(v)});
    }
    m_bindingsChanged |= upload(*m_sources, table.data(), table.size() * sizeof(table[0]));
}

template <typename Real> void Simulator::uploadOrientations(const plan::Plan&) {
    // the ordered rows, then the first unit's fresh rows after them
    std::vector<GpuOrientation<Real>> table;
    table.reserve(m_ordered.size());
    for (const plan::Orientation& o : m_ordered)
        table.push_back({vec4<Real>(o.a), vec4<Real>(o.b), vec4<Real>(o.c)});
    m_bindingsChanged |= upload(*m_orientations, table.data(), table.size() * sizeof(table[0]));
}

template <typename Real> void Simulator::uploadAmplitudes(const plan::Plan& p) {
    std::vector<Real> table;
    const StructureFactors* f = p.structureFactors;
    if (f && f->hasTable())
        for (double value : f->F)
            table.push_back(static_cast<Real>(value));
    else
        table.push_back(Real(0)); // the binding needs a buffer; the shader never reads it
    m_bindingsChanged |= upload(*m_amplitudes, table.data(), table.size() * sizeof(Real));
}

void Simulator::uploadSlices(const plan::Plan& p) {
    // the ROI's bounding box, clipped to the detector
    const int x0 = std::max(0, p.roi.xmin), x1 = std::min(p.fastPixels - 1, p.roi.xmax);
    const int y0 = std::max(0, p.roi.ymin), y1 = std::min(p.slowPixels - 1, p.roi.ymax);
    const std::uint64_t width = x1 >= x0 ? static_cast<std::uint64_t>(x1 - x0 + 1) : 0;
    const std::uint64_t height = y1 >= y0 ? static_cast<std::uint64_t>(y1 - y0 + 1) : 0;

    const std::uint64_t steps = plan::stepsPerPixel(p);
    m_stepsPerPixel = steps;

    // with the reference's rule at the grid's edge, every slice of the image is preceded by a
    // search slice over the same steps (shaders/params.glsl, GridExit): half the slots each
    const bool search = serialGridExit(p);
    const std::uint64_t slots = static_cast<std::uint64_t>(m_options.maxSlices) / (search ? 2 : 1);
    const std::uint64_t work = width * height * steps;
    std::uint64_t count = (work + m_options.workPerSlice - 1) / m_options.workPerSlice;
    count = std::clamp<std::uint64_t>(count, 1, std::min<std::uint64_t>(slots, steps));
    if (count > 1) {
        // the state that carries each pixel's sums from one slice to the next
        const std::size_t bytes =
            static_cast<std::size_t>(m_fast) * static_cast<std::size_t>(m_slow) * 4 *
            (m_precision == Precision::Precise ? sizeof(double) : sizeof(float));
        if (m_states->capacity() < bytes) {
            try {
                m_states->buffer =
                    vk::Buffer(m_device, bytes, m_states->usage, m_states->use, m_states->label);
                m_bindingsChanged = true;
            } catch (const Error& e) {
                m_warnings.push_back(std::string("rendering in one dispatch: ") + e.what());
                count = 1;
            }
        }
    }
    if (search) {
        // the header, then each pixel's first step off the grid
        const std::size_t bytes = gridExitHeaderBytes() + static_cast<std::size_t>(m_fast) *
                                                              static_cast<std::size_t>(m_slow) *
                                                              sizeof(std::uint32_t);
        if (m_gridExit->capacity() < bytes) {
            m_gridExit->buffer =
                vk::Buffer(m_device, bytes, m_gridExit->usage, m_gridExit->use, m_gridExit->label);
            m_bindingsChanged = true;
        }
    }
    m_activeSlices = static_cast<int>(search ? 2 * count : count);

    std::vector<GpuSliceEntry> table(static_cast<std::size_t>(m_options.maxSlices));
    const std::uint32_t groupsX =
        static_cast<std::uint32_t>((width + m_options.localSizeX - 1) / m_options.localSizeX);
    const std::uint32_t groupsY =
        static_cast<std::uint32_t>((height + m_options.localSizeY - 1) / m_options.localSizeY);
    for (std::uint64_t i = 0; i < count; ++i) {
        GpuSliceEntry& e = table[i];
        e.groupsX = groupsX;
        e.groupsY = groupsY;
        e.groupsZ = groupsX > 0 && groupsY > 0 ? 1u : 0u;
        e.begin = static_cast<std::uint32_t>(steps * i / count);
        e.end = static_cast<std::uint32_t>(steps * (i + 1) / count);
        e.total = static_cast<std::uint32_t>(steps);
        if (search) { // the search slice runs first, over the same steps
            table[i + count] = e;
            e.search = 1;
        }
    }
    m_bindingsChanged |= upload(*m_slices, table.data(), table.size() * sizeof(GpuSliceEntry));
}

void Simulator::setPlan(const plan::Plan& p, const ReferenceLoop& loop) {
    if (m_inFlight)
        throw Error("a new plan was set while the simulation runs (internal error)");
    m_planTimer.clear();
    checkPlan(p);
    {
        // the table as the reference's loop meets it (SerialOrder.h)
        OrderedOrientations ordered = orderOrientations(p, loop.phiAngles, loop.threads);
        std::vector<plan::Orientation> rows = std::move(ordered.rows);
        rows.insert(rows.end(), ordered.freshRows.begin(), ordered.freshRows.end());
        m_freshRows = ordered.freshSteps * p.mosaicDomains;
        std::vector<GpuFreshUnit> fresh(static_cast<std::size_t>(p.slowPixels));
        if (m_freshRows > 0)
            for (const OrderedOrientations::Unit& u : ordered.freshUnits) {
                GpuFreshUnit& entry = fresh[static_cast<std::size_t>(u.pixel / p.fastPixels)];
                entry.pixel = static_cast<std::int32_t>(u.pixel);
                entry.unit = static_cast<std::uint32_t>(u.unit);
            }
        m_freshUnitsChanged = fresh.size() != m_freshUnits.size() ||
                              !std::equal(fresh.begin(), fresh.end(), m_freshUnits.begin(),
                                          [](const GpuFreshUnit& x, const GpuFreshUnit& y) {
                                              return x.pixel == y.pixel && x.unit == y.unit;
                                          });
        m_freshUnits = std::move(fresh);
        auto same = [](const plan::Orientation& x, const plan::Orientation& y) {
            return x.a == y.a && x.b == y.b && x.c == y.c;
        };
        m_orderedChanged = rows.size() != m_ordered.size() ||
                           !std::equal(rows.begin(), rows.end(), m_ordered.begin(), same);
        m_ordered = std::move(rows);
    }
    unsigned parts =
        m_havePlan ? plan::changedParts(m_lastPlan, p)
                   : (plan::FrameChanged | plan::SourcesChanged | plan::OrientationsChanged |
                      plan::StructureFactorsChanged | plan::MaskChanged | plan::ImageSizeChanged);
    // the plan only borrows its structure factors and mask: compare their contents with what
    // was uploaded last (an object changed in place keeps its address); the orientation table
    // uploaded is the ordered one
    parts &= ~(plan::StructureFactorsChanged | plan::MaskChanged | plan::OrientationsChanged);
    if (!m_havePlan || m_orderedChanged)
        parts |= plan::OrientationsChanged;
    const StructureFactors* f = p.structureFactors;
    const bool table = f && f->hasTable();
    const bool sameTable =
        m_havePlan && (table ? (m_lastAmplitudes == f->F && m_lastGrid.hMin == f->hMin &&
                                m_lastGrid.hMax == f->hMax && m_lastGrid.kMin == f->kMin &&
                                m_lastGrid.kMax == f->kMax && m_lastGrid.lMin == f->lMin &&
                                m_lastGrid.lMax == f->lMax)
                             : m_lastAmplitudes.empty());
    if (!sameTable)
        parts |= plan::StructureFactorsChanged;
    static const std::vector<std::uint16_t> noMask;
    const std::vector<std::uint16_t>& mask = p.mask ? *p.mask : noMask;
    if (!m_havePlan || mask != m_lastMask || (parts & plan::ImageSizeChanged))
        parts |= plan::MaskChanged;
    if (m_fast != p.fastPixels || m_slow != p.slowPixels)
        parts |= plan::ImageSizeChanged | plan::MaskChanged;

    m_planTimer.mark("plan order and diff");
    if (parts & plan::ImageSizeChanged) {
        resize(p.fastPixels, p.slowPixels);
        m_planTimer.mark("image buffers");
    }

    const bool precise = m_precision == Precision::Precise;
    if (parts & plan::FrameChanged) {
        precise ? uploadParams<double>(p) : uploadParams<float>(p);
        precise ? uploadPanels<double>(p) : uploadPanels<float>(p);
    }
    uploadSlices(p);
    if (parts & plan::SourcesChanged)
        precise ? uploadSources<double>(p) : uploadSources<float>(p);
    if (parts & plan::OrientationsChanged)
        precise ? uploadOrientations<double>(p) : uploadOrientations<float>(p);
    if (parts & plan::StructureFactorsChanged)
        precise ? uploadAmplitudes<double>(p) : uploadAmplitudes<float>(p);
    if (parts & plan::MaskChanged) {
        // 16-bit values, two to a 32-bit word, pixel 2i in the low half (little-endian hosts;
        // Vulkan devices and their hosts share the byte order)
        std::vector<std::uint32_t> words(std::max<std::size_t>(1, (mask.size() + 1) / 2), 0u);
        if (!mask.empty())
            std::memcpy(words.data(), mask.data(), mask.size() * sizeof(std::uint16_t));
        m_bindingsChanged |= upload(*m_mask, words.data(), words.size() * sizeof(std::uint32_t));
    }
    if (m_freshUnitsChanged || (parts & plan::ImageSizeChanged))
        m_bindingsChanged |= upload(*m_freshUnitsBuffer, m_freshUnits.data(),
                                    m_freshUnits.size() * sizeof(GpuFreshUnit));
    flushUploads();
    if (m_bindingsChanged) {
        // a new buffer behind a binding: the recorded commands refer to the old descriptors
        writeDescriptors();
        invalidateRecordings();
        m_bindingsChanged = false;
    }
    m_planTimer.mark("upload");

    m_currentKey = variantKey(p);
    m_current = choosePipeline(p);
    if (!m_current->recorded) {
        m_planTimer.restart();
        record(*m_current);
        m_planTimer.mark("record");
    }

    m_lastPlan = p;
    m_lastPlan.structureFactors = nullptr;
    m_lastPlan.mask = nullptr;
    if (parts & plan::StructureFactorsChanged) {
        m_lastAmplitudes = table ? f->F : std::vector<double>{};
        m_lastGrid = table ? StructureFactors{f->hMin, f->hMax, f->kMin, f->kMax, f->lMin,
                                              f->lMax, {},      0.0,     0}
                           : StructureFactors{};
    }
    if (parts & plan::MaskChanged)
        m_lastMask = mask;
    m_havePlan = true;
    m_lastUploaded = parts;
}

vk::ComputePipeline::CacheUse Simulator::pipelineCacheUse() const {
    return m_current ? m_current->pipeline.cacheUse() : vk::ComputePipeline::CacheUse::Unknown;
}

std::vector<std::string> Simulator::pipelineStatistics() const {
    return m_current ? m_current->pipeline.statistics() : std::vector<std::string>{};
}

int Simulator::finishedSlices() const {
    // From the fences, not the timestamp queries: reading the query of a slice still on the
    // device blocks on lavapipe, which froze the viewer's GUI thread for the length of a long
    // slice (docs/robustness.md, A3). The parts before the last submission are done (each
    // submission waits for the one before); the last one's are when its fence is signaled.
    const int done = m_inFlight && m_fence.isSignaled() ? m_nextPart : m_partsDone;
    return std::min(done, m_activeSlices);
}

void Simulator::submitParts(int first, int end) {
    switchToSpecialisedIfReady();
    // parts first..end-1 of the run's sequence: the active slices, then the copy
    std::vector<VkCommandBuffer> buffers;
    for (int i = first; i < end; ++i) {
        const int part = i < m_activeSlices ? i : m_options.maxSlices;
        buffers.push_back(m_current->parts[static_cast<std::size_t>(part)].handle());
    }
    m_partsDone = first; // a submission is made once the one before it has finished
    m_fence.reset();
    VkSubmitInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    info.commandBufferCount = static_cast<std::uint32_t>(buffers.size());
    info.pCommandBuffers = buffers.data();
    vk::check(vkQueueSubmit(m_device.queue(), 1, &info, m_fence.handle()),
              "submitting work to the GPU");
    m_nextPart = end;
    ++m_submissions;
    m_inFlight = true;
}

void Simulator::start() {
    if (!m_current)
        throw Error("nothing to simulate: no plan was set (internal error)");
    if (m_inFlight)
        throw Error("the simulation is already running (internal error)");
    m_submissions = 0;
    m_lastGridExit.reset();
    clearCancel();
    submitParts(0, 1);
}

bool Simulator::isFinished() {
    if (!m_inFlight)
        return true;
    if (!m_fence.isSignaled())
        return false;
    if (m_nextPart < partCount()) {
        submitParts(m_nextPart, m_nextPart + 1); // one slice at a time: a caller may stop here
        return false;
    }
    return true;
}

void Simulator::finish() {
    if (!m_inFlight)
        return;
    m_fence.wait();
    if (m_nextPart < partCount()) {
        submitParts(m_nextPart, partCount());
        m_fence.wait();
    }
    m_inFlight = false;
    m_partsDone = m_nextPart;
    readTimestamps();
    readGridExit();
    if (m_cancelled.load())
        m_lastGridExit.reset(); // the search stopped part way: what it found means nothing
}

std::size_t Simulator::gridExitHeaderBytes() const {
    return m_precision == Precision::Precise ? sizeof(GpuGridExit<double>)
                                             : sizeof(GpuGridExit<float>);
}

void Simulator::readGridExit() {
    m_lastGridExit.reset();
    if (!m_current || ((m_currentKey.bits >> kSerialGridExitBit) & 1u) == 0)
        return;
    const void* head = m_gridExitReadback->map();
    m_lastGridExit = m_precision == Precision::Precise ? gridExitFrom<double>(head, m_fast)
                                                       : gridExitFrom<float>(head, m_fast);
}

void Simulator::clearCancel() {
    *m_cancelWord = 0u; // made visible to the device by the submission that follows
    m_cancelled.store(false);
}

void Simulator::requestCancel() {
    m_cancelled.store(true);
    *m_cancelWord = 1u; // host-coherent: the shader's next read of the word sees it
}

void Simulator::cancel() {
    if (!m_inFlight)
        return;
    m_fence.wait();
    m_inFlight = false;
    m_partsDone = m_nextPart;
    m_nextPart = partCount();
    m_lastGridExit.reset(); // the search may not have finished
}

void Simulator::run(const Progress& progress) {
    if (!m_current)
        throw Error("nothing to simulate: no plan was set (internal error)");
    if (m_inFlight)
        throw Error("the simulation is already running (internal error)");
    // one submission per slice (the last one with the copy), so that no single submission
    // holds the GPU for longer than a slice; progress is reported as slices finish
    m_submissions = 0;
    clearCancel();
    const int total = m_activeSlices;
    for (int slice = 0; slice < total; ++slice) {
        submitParts(slice, slice + 1 == total ? partCount() : slice + 1);
        if (progress) {
            for (;;) {
                const VkFence fence = m_fence.handle();
                const VkResult waited =
                    vkWaitForFences(m_device.handle(), 1, &fence, VK_TRUE, 100'000'000ull);
                if (waited == VK_SUCCESS)
                    break;
                if (waited != VK_TIMEOUT) {
                    m_inFlight = false;
                    vk::check(waited, "waiting for the GPU");
                }
                progress(finishedSlices(), total);
            }
            progress(slice + 1, total);
        } else {
            m_fence.wait();
        }
    }
    finish();
}

void Simulator::readTimestamps() {
    m_dispatchMilliseconds.clear();
    m_gpuMilliseconds = 0.0;
    if (!m_timer)
        return;
    // the slots after the active slices were not submitted: their queries hold nothing
    const std::vector<std::uint64_t> ticks =
        m_timer->ticks(static_cast<std::uint32_t>(m_activeSlices) + 1);
    const std::uint32_t bits = m_device.timestampValidBits();
    const float period = m_device.info().limits.timestampPeriod;
    const std::size_t last = static_cast<std::size_t>(m_activeSlices); // unused slots follow
    for (std::size_t i = 1; i <= last; ++i)
        m_dispatchMilliseconds.push_back(
            vk::timestampMilliseconds(ticks[i - 1], ticks[i], bits, period));
    m_gpuMilliseconds = vk::timestampMilliseconds(ticks[0], ticks[last], bits, period);
}

VkBuffer Simulator::imageBuffer() const {
    return m_image->buffer.handle();
}

std::vector<float> Simulator::image() const {
    if (m_inFlight)
        throw Error("the image is read while the simulation runs (internal error)");
    const std::size_t count = static_cast<std::size_t>(m_fast) * static_cast<std::size_t>(m_slow);
    if (!m_readback || count == 0)
        return std::vector<float>(count, 0.0f);
    // constructed from the mapped memory: one pass over the new pages, not a zero fill and
    // then a copy (64 MiB at 4096^2)
    const float* mapped = static_cast<const float*>(m_readback->map());
    return std::vector<float>(mapped, mapped + count);
}

} // namespace bv::engine
