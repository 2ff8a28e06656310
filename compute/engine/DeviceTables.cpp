#include "compute/engine/DeviceTables.h"

#include "compute/core/Error.h"
#include "compute/engine/GpuTables.h"
#include "compute/plan/RunCost.h"
#include "compute/vk/Device.h"

#include <algorithm>
#include <cmath>

namespace bv::engine {

namespace {

// a buffer capacity for bytes: powers of two from 256, so that growing tables rarely
// replace their buffer
VkDeviceSize roundUpCapacity(std::size_t bytes) {
    VkDeviceSize capacity = 256;
    while (capacity < bytes)
        capacity *= 2;
    return capacity;
}

} // namespace

DeviceTables::DeviceTables(const vk::Device& device, const TableOptions& options,
                           const vk::DescriptorSetLayout& setLayout, VkBuffer cancelWord,
                           std::vector<std::string>& warnings)
    : m_device(device), m_options(options), m_warnings(warnings), m_cancelWord(cancelWord),
      m_gridExitReadback(std::make_unique<vk::Buffer>(
          device, sizeof(GpuGridExit<double>), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
          vk::MemoryUse::Readback, "the readback of the HKL grid's edge")) {
    m_descriptorPool = vk::DescriptorPool(
        device, 1,
        {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 4}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 13}});
    m_set = m_descriptorPool.allocate(setLayout);
    m_commandPool = vk::CommandPool(device);
    m_uploadCommands = vk::CommandBuffer(m_commandPool);
    m_fence = vk::Fence(device);

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
    // read as storage buffers, or through uniform-buffer views where they are small
    m_orientations = makeBuffer("the crystal orientation table",
                                storage | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                                vk::MemoryUse::DeviceLocal);
    m_sources = makeBuffer("the source table", storage | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                           vk::MemoryUse::DeviceLocal);
    m_amplitudes = makeBuffer("the structure factor table", storage, vk::MemoryUse::DeviceLocal);
    m_mask = makeBuffer("the pixel mask", storage, vk::MemoryUse::DeviceLocal);
    m_image = makeBuffer("the intensity image",
                         VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                             VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                         vk::MemoryUse::DeviceLocal);
    m_slices = makeBuffer("the slice table",
                          storage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                              VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                          vk::MemoryUse::DeviceLocal);
    m_states = makeBuffer("the per-pixel state between slices", VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                          vk::MemoryUse::DeviceLocal);
    m_freshUnitsBuffer =
        makeBuffer("the table of fresh units", storage, vk::MemoryUse::DeviceLocal);
    m_gridExit = makeBuffer("the search for the HKL grid's edge",
                            storage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, vk::MemoryUse::DeviceLocal);
    m_panels = makeBuffer("the detector's panels", storage, vk::MemoryUse::DeviceLocal);
    m_panelRows = makeBuffer("the panel of each image row", storage, vk::MemoryUse::DeviceLocal);
    // every binding needs a buffer before the first plan arrives; the three with uniform-buffer
    // views start as large as the shader's declared blocks (params.glsl: kUniformRows,
    // sliceRows), since a driver may read all of a block (lavapipe does), and never shrink
    for (DeviceBuffer* b :
         {m_params.get(), m_orientations.get(), m_sources.get(), m_amplitudes.get(), m_mask.get(),
          m_image.get(), m_slices.get(), m_states.get(), m_freshUnitsBuffer.get(), m_gridExit.get(),
          m_panels.get(), m_panelRows.get()}) {
        const VkDeviceSize bytes = b == m_orientations.get() || b == m_sources.get()
                                       ? uniformLimit()
                                   : b == m_slices.get() ? kMaxSliceSlots * sizeof(GpuSliceEntry)
                                                         : 256;
        b->buffer = vk::Buffer(device, bytes, b->usage, b->use, b->label);
    }
    writeDescriptors();
}

std::size_t DeviceTables::gridExitHeaderBytes() const {
    return m_options.precision == Precision::Precise ? sizeof(GpuGridExit<double>)
                                                     : sizeof(GpuGridExit<float>);
}

VkDeviceSize DeviceTables::uniformLimit() const {
    return std::min<VkDeviceSize>(kUniformTableBytes,
                                  m_device.info().limits.maxUniformBufferRange);
}

void DeviceTables::writeDescriptors() {
    const VkDescriptorType params = m_options.paramsInStorage ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
                                                              : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    m_descriptorPool.write(
        m_set,
        {{BindingParams, params, m_params->buffer.handle()},
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
         {BindingCancel, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, m_cancelWord},
         {BindingOrientationsUniform, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
          m_orientations->buffer.handle(), 0, uniformLimit()},
         {BindingSourcesUniform, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, m_sources->buffer.handle(), 0,
          uniformLimit()},
         {BindingSlicesUniform, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, m_slices->buffer.handle(), 0,
          kMaxSliceSlots * sizeof(GpuSliceEntry)}});
    ++m_bindingGeneration;
}

void DeviceTables::resize(int fast, int slow) {
    m_fast = fast;
    m_slow = slow;
    const std::size_t pixels = static_cast<std::size_t>(fast) * static_cast<std::size_t>(slow);
    m_image->buffer =
        vk::Buffer(m_device, pixels * sizeof(float), m_image->usage, m_image->use, m_image->label);
    m_readback = std::make_unique<vk::Buffer>(m_device, pixels * sizeof(float),
                                              VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                              vk::MemoryUse::Readback, "the image readback buffer");
    ++m_imageGeneration;
    writeDescriptors();
}

void DeviceTables::write(DeviceBuffer& target, const void* data, std::size_t bytes) {
    if (bytes == 0)
        return;
    if (target.capacity() < bytes) {
        target.buffer =
            vk::Buffer(m_device, roundUpCapacity(bytes), target.usage, target.use, target.label);
        m_rebound = true;
    }
    if (target.buffer.isMappable() &&
        !(m_options.stagedUploads && target.use == vk::MemoryUse::DeviceLocal)) {
        target.buffer.write(data, bytes);
        return;
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
        return;
    }
    m_staging->write(data, bytes, offset);
    m_stagingUsed = offset + bytes;
    m_pendingCopies.push_back({target.buffer.handle(), offset, bytes});
}

void DeviceTables::flushUploads() {
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

template <typename Real> void DeviceTables::writeTables(const plan::Plan& p, unsigned parts) {
    if (parts & plan::FrameChanged) {
        GpuParams<Real> params = gpuParams<Real>(p, m_freshRows);
        params.shape |= tableBits();
        write(*m_params, &params, sizeof(params));
        const auto [panels, rows] = gpuPanels<Real>(p);
        write(*m_panels, panels);
        write(*m_panelRows, rows);
    }
}

std::uint64_t loopIterationsPerStep(const plan::Plan& p) {
    std::uint64_t n = 2;
    if (p.interpolate)
        n += 2;
    if (p.thickSteps > 1 || p.oversampleThick || p.oversamplePolar || p.oversampleOmega)
        n += 1;
    const glm::dvec3& N = p.cells;
    if (p.shape == LatticeShape::Square && !(N.x == N.y && N.y == N.z)) {
        n += 12;
        for (int axis = 0; axis < 3; ++axis)
            if (N[axis] == std::floor(N[axis]) && N[axis] >= 2.0 && N[axis] <= 16.0)
                n += static_cast<std::uint64_t>(N[axis]);
    }
    return n;
}

std::uint64_t cpuStepsPerSlice(const plan::Plan& p) {
    constexpr std::uint64_t kBudget = 60000; // of lavapipe's 65535 loop iterations
    const std::uint64_t perStep =
        loopIterationsPerStep(p) * rowsPerInvocation(plan::stepsPerPixel(p));
    return std::clamp<std::uint64_t>(kBudget / perStep, 1, kCpuStepsPerSlice);
}

void DeviceTables::writeSlices(const plan::Plan& p, std::uint64_t workPerSlice) {
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
    std::uint64_t count = (work + workPerSlice - 1) / workPerSlice;
    if (m_options.loopLimit) {
        const std::uint64_t most = cpuStepsPerSlice(p);
        const std::uint64_t needed = (steps + most - 1) / most;
        count = std::max(count, needed);
        if (needed > slots)
            m_warnings.push_back(
                "a pixel's " + std::to_string(steps) + " steps need " + std::to_string(needed) +
                " dispatches of at most " + std::to_string(most) +
                " on this CPU device, and a run has " + std::to_string(slots) +
                ": lavapipe ends a shader's loops after 65535 iterations, so pixels may be cut "
                "short (fewer phi steps, mosaic domains or sources, or a GPU)");
    }
    count = std::clamp<std::uint64_t>(count, 1, std::min<std::uint64_t>(slots, steps));
    if (count > 1) {
        // the state that carries each pixel's sums from one slice to the next
        const std::size_t bytes =
            static_cast<std::size_t>(m_fast) * static_cast<std::size_t>(m_slow) * 4 *
            (m_options.precision == Precision::Precise ? sizeof(double) : sizeof(float));
        if (m_states->capacity() < bytes) {
            try {
                m_states->buffer =
                    vk::Buffer(m_device, bytes, m_states->usage, m_states->use, m_states->label);
                m_rebound = true;
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
            m_rebound = true;
        }
    }
    m_activeSlices = static_cast<int>(search ? 2 * count : count);

    std::vector<GpuSliceEntry> table(static_cast<std::size_t>(m_options.maxSlices));
    const std::uint32_t groupsX =
        static_cast<std::uint32_t>((width + m_options.localSizeX - 1) / m_options.localSizeX);
    const std::uint32_t rows = rowsPerInvocation(steps);
    const std::uint32_t groupsY = static_cast<std::uint32_t>(
        (height + m_options.localSizeY * rows - 1) / (m_options.localSizeY * rows));
    for (std::uint64_t i = 0; i < count; ++i) {
        GpuSliceEntry& e = table[i];
        e.groupsX = groupsX;
        e.groupsY = groupsY;
        e.groupsZ = groupsX > 0 && groupsY > 0 ? 1u : 0u;
        e.rows = rows;
        e.begin = static_cast<std::uint32_t>(steps * i / count);
        e.end = static_cast<std::uint32_t>(steps * (i + 1) / count);
        e.total = static_cast<std::uint32_t>(steps);
        if (search) { // the search slice runs first, over the same steps
            table[i + count] = e;
            e.search = 1;
        }
    }
    write(*m_slices, table);
}

bool DeviceTables::orderOrientations(const plan::Plan& p, const ReferenceLoop& loop) {
    // the table as the reference's loop meets it (SerialOrder.h)
    OrderedOrientations ordered = engine::orderOrientations(p, loop.phiAngles, loop.threads);
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
    const bool changed = rows.size() != m_ordered.size() ||
                         !std::equal(rows.begin(), rows.end(), m_ordered.begin(), same);
    m_ordered = std::move(rows);
    return changed;
}

unsigned DeviceTables::changedParts(const plan::Plan& p, bool sameInputs) {
    unsigned parts =
        m_havePlan ? plan::changedParts(m_lastPlan, p)
                   : (plan::FrameChanged | plan::SourcesChanged | plan::OrientationsChanged |
                      plan::StructureFactorsChanged | plan::MaskChanged | plan::ImageSizeChanged);
    // the plan only borrows its structure factors and mask: compare their contents with what
    // was uploaded last (an object changed in place keeps its address); the orientation table
    // uploaded is the ordered one (the caller adds OrientationsChanged)
    parts &= ~(plan::StructureFactorsChanged | plan::MaskChanged | plan::OrientationsChanged);
    if (sameInputs && m_havePlan && m_fast == p.fastPixels && m_slow == p.slowPixels)
        return parts; // the caller's word: the last plan's tables, unchanged (megabytes each)
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
    return parts;
}

void DeviceTables::remember(const plan::Plan& p, unsigned parts) {
    m_lastPlan = p;
    m_lastPlan.structureFactors = nullptr;
    m_lastPlan.mask = nullptr;
    const StructureFactors* f = p.structureFactors;
    const bool table = f && f->hasTable();
    if (parts & plan::StructureFactorsChanged) {
        m_lastAmplitudes = table ? f->F : std::vector<double>{};
        m_lastGrid = table ? StructureFactors{f->hMin, f->hMax, f->kMin, f->kMax, f->lMin,
                                              f->lMax, {},      0.0,     0}
                           : StructureFactors{};
    }
    if ((parts & plan::MaskChanged))
        m_lastMask = p.mask ? *p.mask : std::vector<std::uint16_t>{};
    m_havePlan = true;
}

unsigned DeviceTables::upload(const plan::Plan& p, const ReferenceLoop& loop,
                              std::uint64_t workPerSlice, vk::PhaseTimer& timer, bool sameInputs) {
    const bool orderedChanged = orderOrientations(p, loop);
    unsigned parts = changedParts(p, sameInputs);
    if (!m_havePlan || orderedChanged)
        parts |= plan::OrientationsChanged;
    timer.mark("plan order and diff");
    if (parts & plan::ImageSizeChanged) {
        resize(p.fastPixels, p.slowPixels);
        timer.mark("image buffers");
    }

    const bool precise = m_options.precision == Precision::Precise;
    // the orientation rows (fresh ones included) and the sources through uniform-buffer views
    // where both fit; the parameter block carries the choice to the generic pipeline
    const std::size_t rowBytes =
        precise ? sizeof(GpuOrientation<double>) : sizeof(GpuOrientation<float>);
    const std::size_t sourceBytes = precise ? sizeof(GpuSource<double>) : sizeof(GpuSource<float>);
    // (the shader declares 64 KiB blocks: not on a device whose views are shorter)
    const bool uniformTables = !m_options.paramsInStorage &&
                               uniformLimit() == kUniformTableBytes &&
                               m_ordered.size() * rowBytes <= uniformLimit() &&
                               p.sources.size() * sourceBytes <= uniformLimit();
    if (uniformTables != m_uniformTables) {
        m_uniformTables = uniformTables;
        parts |= plan::FrameChanged;
    }
    precise ? writeTables<double>(p, parts) : writeTables<float>(p, parts);
    writeSlices(p, workPerSlice);
    // (the fast shader's source rows hold the flat detector too: they follow its moves)
    const bool detectorMoved = !m_havePlan || p.pix0 != m_lastPlan.pix0 ||
                               p.fdet != m_lastPlan.fdet || p.sdet != m_lastPlan.sdet ||
                               p.odet != m_lastPlan.odet;
    if ((parts & plan::SourcesChanged) || (!precise && detectorMoved))
        precise ? write(*m_sources, gpuSources<double>(p)) : write(*m_sources, gpuSources<float>(p));
    // the ordered rows, then the first unit's fresh rows after them
    if (parts & plan::OrientationsChanged)
        precise ? write(*m_orientations, gpuOrientations<double>(m_ordered))
                : write(*m_orientations, gpuOrientations<float>(m_ordered));
    if (parts & plan::StructureFactorsChanged)
        precise ? write(*m_amplitudes, gpuAmplitudes<double>(p))
                : write(*m_amplitudes, gpuAmplitudes<float>(p));
    if (parts & plan::MaskChanged)
        write(*m_mask, gpuMask(p.mask ? *p.mask : std::vector<std::uint16_t>{}));
    if (m_freshUnitsChanged || (parts & plan::ImageSizeChanged))
        write(*m_freshUnitsBuffer, m_freshUnits);
    flushUploads();
    if (m_rebound) {
        // a new buffer behind a binding: the recorded commands refer to the old descriptors
        writeDescriptors();
        m_rebound = false;
    }
    timer.mark("upload");
    remember(p, parts);
    return parts;
}

} // namespace bv::engine
