#include "compute/engine/Simulator.h"

#include "compute/core/Error.h"
#include "compute/engine/GpuLayout.h"
#include "compute/plan/RunCost.h"
#include "compute/vk/Device.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace bv::engine {

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

Precision precisionOn(const vk::Device& device, Precision asked) {
    return asked == Precision::Precise && !device.float64Enabled() ? Precision::Fast : asked;
}

bool paramsInStorageOn(const vk::Device& device, const SimulatorOptions& o) {
    return device.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU && !o.gpuShaderOnCpu;
}

VariantOptions variantOptions(const vk::Device& device, const SimulatorOptions& o) {
    VariantOptions v;
    v.precision = precisionOn(device, o.precision);
    v.paramsInStorage = paramsInStorageOn(device, o);
    v.cacheDirectory = o.pipelineCacheDirectory.value_or(vk::defaultPipelineCacheDirectory());
    v.shaderCode = o.shaderCode;
    v.localSizeX = o.localSizeX;
    v.localSizeY = o.localSizeY;
    v.maxSlices = o.maxSlices;
    return v;
}

TableOptions tableOptions(const vk::Device& device, const SimulatorOptions& o) {
    TableOptions t;
    t.precision = precisionOn(device, o.precision);
    t.paramsInStorage = paramsInStorageOn(device, o);
    t.stagedUploads = o.stagedUploads;
    t.maxSlices = o.maxSlices;
    t.localSizeX = o.localSizeX;
    t.localSizeY = o.localSizeY;
    t.loopLimit = device.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    return t;
}

} // namespace

SimulatorOptions Simulator::settled(const vk::Device& device, SimulatorOptions options) {
    // two: the grid-exit rule runs a search slice before the image's (DeviceTables)
    if (options.maxSlices < 2)
        options.maxSlices = 2;
    options.maxSlices = std::min(options.maxSlices, kMaxSliceSlots);
    if (options.workPerSlice == 0)
        options.workPerSlice = device.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU
                                   ? std::uint64_t(1) << 26
                                   : std::uint64_t(1) << (options.watched ? 28 : 30);
    if (options.specialiseWork == 0)
        options.specialiseWork = 1; // always (SimulatorOptions::specialiseWork says why)
    // BRAGGVIEW_PIPELINE=generic|specialised overrides Automatic (the parity suite runs both)
    if (const char* forced = std::getenv("BRAGGVIEW_PIPELINE");
        forced && options.specialisation == SimulatorOptions::Specialisation::Automatic) {
        const std::string value = forced;
        if (value == "generic")
            options.specialisation = SimulatorOptions::Specialisation::Generic;
        else if (value == "specialised")
            options.specialisation = SimulatorOptions::Specialisation::Wait;
        else if (!value.empty())
            throw Error("BRAGGVIEW_PIPELINE: expected generic or specialised, not " + value);
    }
    const auto& limits = device.info().limits;
    if (options.localSizeX == 0 || options.localSizeY == 0 ||
        options.localSizeX * options.localSizeY > limits.maxComputeWorkGroupInvocations ||
        options.localSizeX > limits.maxComputeWorkGroupSize[0] ||
        options.localSizeY > limits.maxComputeWorkGroupSize[1])
        throw Error("workgroup size " + std::to_string(options.localSizeX) + "x" +
                    std::to_string(options.localSizeY) + " is not possible on " +
                    device.description());
    return options;
}

Simulator::Simulator(const vk::Device& device, const SimulatorOptions& options)
    : m_device(device), m_options(settled(device, options)),
      m_precision(precisionOn(device, options.precision)),
      m_paramsInStorage(paramsInStorageOn(device, options)),
      m_variants(device, variantOptions(device, m_options), m_warnings, m_constructionTimer),
      m_runner(device), m_tables(device, tableOptions(device, m_options), m_variants.setLayout(),
                                 m_runner.cancelBuffer(), m_warnings) {
    if (m_precision != m_options.precision)
        m_notice = device.description() +
                   " has no double precision in shaders (shaderFloat64); using the fast "
                   "single-precision shader instead";
    m_constructionTimer.mark("layouts, pools, buffers");
    m_constructionTimes = m_constructionTimer.phases();
}

Simulator::~Simulator() {
    // nothing may be in flight when the buffers go (run() waits, unless it was interrupted by
    // an exception); PipelineVariants waits for a background build itself
    m_runner.waitIdle();
}

std::string Simulator::deviceDescription() const {
    return m_device.description();
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

PipelineVariants::Mode Simulator::modeFor(const plan::Plan& p) const {
    using Mode = SimulatorOptions::Specialisation;
    Mode mode = m_options.specialisation;
    if (!m_options.shaderCode.empty())
        mode = Mode::Wait; // a benchmark's shader variant may not have the generic path
    if (mode == Mode::Automatic) {
        const std::uint64_t work = static_cast<std::uint64_t>(p.fastPixels) *
                                   static_cast<std::uint64_t>(p.slowPixels) *
                                   m_tables.stepsPerPixel();
        mode = work >= m_options.specialiseWork ? Mode::Wait : Mode::Generic;
    }
    return mode == Mode::Wait         ? PipelineVariants::Mode::Wait
           : mode == Mode::Background ? PipelineVariants::Mode::Background
                                      : PipelineVariants::Mode::Generic;
}

void Simulator::setPlan(const plan::Plan& p, const ReferenceLoop& loop, PlanInputs inputs) {
    if (m_runner.isRunning())
        throw Error("a new plan was set while the simulation runs (internal error)");
    m_planTimer.clear();
    checkPlan(p);
    const unsigned parts =
        m_tables.upload(p, loop, m_options.workPerSlice, m_planTimer, inputs == PlanInputs::Same);
    if (m_tables.imageGeneration() != m_recordedImage) {
        m_runner.resetTimer(m_options.maxSlices); // the timestamps of the last size mean nothing
        m_recordedImage = m_tables.imageGeneration();
    }
    if (m_tables.bindingGeneration() != m_recordedBindings) {
        // a new buffer behind a binding: the recorded commands refer to the old descriptors
        m_variants.invalidateRecordings();
        m_recordedBindings = m_tables.bindingGeneration();
    }

    m_currentKey = variantKey(p);
    m_currentKey.bits |= m_tables.tableBits();
    PipelineVariant& current = m_variants.choose(m_currentKey, modeFor(p), m_planTimer);
    if (!current.recorded) {
        m_planTimer.restart();
        record(current);
        m_planTimer.mark("record");
    }
    m_lastUploaded = parts;
}

void Simulator::record(PipelineVariant& variant) {
    RecordTargets t;
    t.set = m_tables.set();
    t.image = &m_tables.image();
    t.readback = m_tables.readback();
    t.slices = &m_tables.slices();
    t.gridExit = &m_tables.gridExit();
    t.gridExitReadback = m_tables.gridExitReadback();
    t.imageBytes = static_cast<VkDeviceSize>(m_tables.fastPixels()) *
                   static_cast<VkDeviceSize>(m_tables.slowPixels()) * sizeof(float);
    t.gridExitHeaderBytes = m_tables.gridExitHeaderBytes();
    t.searchesGridExit = m_currentKey.searchesGridExit();
    t.timer = m_runner.timer();
    m_variants.record(variant, t);
}

std::vector<VkCommandBuffer> Simulator::parts(int first, int end) {
    PipelineVariant* current = m_variants.current();
    if (!current->specialised &&
        m_options.specialisation != SimulatorOptions::Specialisation::Generic) {
        if (PipelineVariant* v = m_variants.readySpecialised(m_currentKey)) {
            if (!v->recorded)
                record(*v);
            // the slices left continue the same sums: the image does not change
            m_variants.setCurrent(*v);
            current = v;
        }
    }
    std::vector<VkCommandBuffer> buffers;
    const int slices = m_tables.activeSlices();
    for (int i = first; i < end; ++i) {
        if (i >= slices && !m_imageReadback)
            continue; // the copy: not wanted (setImageReadback)
        const int part = i < slices ? i : m_options.maxSlices;
        buffers.push_back(current->parts[static_cast<std::size_t>(part)].handle());
    }
    return buffers;
}

void Simulator::start() {
    if (!m_variants.current())
        throw Error("nothing to simulate: no plan was set (internal error)");
    if (m_runner.isRunning())
        throw Error("the simulation is already running (internal error)");
    m_lastGridExit.reset();
    m_runner.start(m_tables.activeSlices(), [this](int first, int end) { return parts(first, end); });
}

bool Simulator::isFinished() {
    return m_runner.poll();
}

int Simulator::finishedSlices() const {
    return std::min(m_runner.finishedParts(), m_tables.activeSlices());
}

void Simulator::finish() {
    if (!m_runner.finish())
        return;
    readGridExit();
    if (m_runner.wasCancelled())
        m_lastGridExit.reset(); // the search stopped part way: what it found means nothing
}

void Simulator::readGridExit() {
    m_lastGridExit.reset();
    if (!m_variants.current() || !m_currentKey.searchesGridExit() || !m_imageReadback)
        return;
    const void* head = m_tables.gridExitReadback()->map();
    const int fast = m_tables.fastPixels();
    m_lastGridExit = m_precision == Precision::Precise ? gridExitFrom<double>(head, fast)
                                                       : gridExitFrom<float>(head, fast);
}

void Simulator::requestCancel() {
    m_runner.requestCancel();
}

void Simulator::cancel() {
    if (m_runner.cancel())
        m_lastGridExit.reset(); // the search may not have finished
}

void Simulator::run(const Progress& progress) {
    if (!m_variants.current())
        throw Error("nothing to simulate: no plan was set (internal error)");
    if (m_runner.isRunning())
        throw Error("the simulation is already running (internal error)");
    m_runner.run(m_tables.activeSlices(), [this](int first, int end) { return parts(first, end); },
                 progress);
    readGridExit();
    if (m_runner.wasCancelled())
        m_lastGridExit.reset(); // the search stopped part way: what it found means nothing
}

VkBuffer Simulator::imageBuffer() const {
    return m_tables.image().handle();
}

std::vector<float> Simulator::image() const {
    if (m_runner.isRunning())
        throw Error("the image is read while the simulation runs (internal error)");
    const std::size_t count = static_cast<std::size_t>(m_tables.fastPixels()) *
                              static_cast<std::size_t>(m_tables.slowPixels());
    vk::Buffer* readback = m_tables.readback();
    if (!readback || count == 0)
        return std::vector<float>(count, 0.0f);
    // constructed from the mapped memory: one pass over the new pages, not a zero fill and
    // then a copy (64 MiB at 4096^2)
    const float* mapped = static_cast<const float*>(readback->map());
    return std::vector<float>(mapped, mapped + count);
}

bool Simulator::specialised() const {
    return m_variants.current() && m_variants.current()->specialised;
}

vk::ComputePipeline::CacheUse Simulator::pipelineCacheUse() const {
    const PipelineVariant* current = m_variants.current();
    return current ? current->pipeline.cacheUse() : vk::ComputePipeline::CacheUse::Unknown;
}

std::vector<std::string> Simulator::pipelineStatistics() const {
    const PipelineVariant* current = m_variants.current();
    return current ? current->pipeline.statistics() : std::vector<std::string>{};
}

Simulator::KernelInputs Simulator::kernelInputs() const {
    if (!m_variants.current())
        throw Error("nothing to trace: no plan was set (internal error)");
    // the generic constants: one trace pipeline serves every plan (it reads the shape from the
    // parameter block), and its numbers are the specialised pipeline's bit for bit
    return {m_variants.setLayout().handle(), m_tables.set(), 0u,
            m_variants.specializationConstants(m_currentKey, false), m_paramsInStorage};
}

SimulatorOptions::Specialisation interactiveSpecialisation(const vk::Device& device) {
    return device.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU
               ? SimulatorOptions::Specialisation::Wait
               : SimulatorOptions::Specialisation::Background;
}

} // namespace bv::engine
