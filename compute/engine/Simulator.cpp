#include "compute/engine/Simulator.h"

#include "compute/core/Error.h"
#include "compute/engine/DiffractionShaders.h"
#include "compute/engine/GpuLayout.h"
#include "compute/engine/SimulatorInternals.h"
#include "compute/plan/RunCost.h"
#include "compute/vk/Check.h"
#include "compute/vk/Device.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace bv::engine {

using simulator_detail::kSerialGridExitBit;

namespace {

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
                                     vk::MemoryUse::HostSignal, "the cancel word");
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
    if (p.stackedPanels) {
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
    *m_cancelWord = 1u; // host-coherent: the shader's next read of the word sees it...
    // ...once it has left the CPU: a GPU's host-visible memory is often write-combined (the
    // H100's is), and a lone store can wait in a write-combining buffer; a full fence drains
    // it (mfence on x86)
    std::atomic_thread_fence(std::memory_order_seq_cst);
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

SimulatorOptions::Specialisation interactiveSpecialisation(const vk::Device& device) {
    return device.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU
               ? SimulatorOptions::Specialisation::Wait
               : SimulatorOptions::Specialisation::Background;
}

} // namespace bv::engine
