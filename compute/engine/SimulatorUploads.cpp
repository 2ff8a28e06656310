#include "compute/engine/Simulator.h"

#include "compute/core/Error.h"
#include "compute/engine/GpuLayout.h"
#include "compute/engine/SerialOrder.h"
#include "compute/engine/SimulatorInternals.h"
#include "compute/plan/RunCost.h"
#include "compute/vk/Device.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <glm/geometric.hpp>

// The Simulator's setPlan: what changed since the last plan goes into the buffers (the
// parameter block, the tables, the slice table), and the plan's pipeline is chosen.
namespace bv::engine {

using simulator_detail::serialGridExit;

namespace {

template <typename Real> GpuVec4<Real> vec4(const glm::dvec3& v, double w = 0.0) {
    return {static_cast<Real>(v.x), static_cast<Real>(v.y), static_cast<Real>(v.z),
            static_cast<Real>(w)};
}

// a buffer capacity for bytes: powers of two from 256, so that growing tables rarely
// replace their buffer
VkDeviceSize roundUpCapacity(std::size_t bytes) {
    VkDeviceSize capacity = 256;
    while (capacity < bytes)
        capacity *= 2;
    return capacity;
}

} // namespace

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
    std::vector<std::uint32_t> rows(static_cast<std::size_t>(p.slowPixels));
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

} // namespace bv::engine
