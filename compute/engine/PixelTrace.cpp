#include "compute/engine/PixelTrace.h"

#include "compute/engine/DiffractionShaders.h"
#include "compute/engine/Simulator.h"
#include "compute/core/Error.h"
#include "compute/vk/Device.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>

namespace bv::engine {

namespace {

std::size_t traceBytes(Precision precision) {
    return precision == Precision::Precise ? sizeof(GpuTrace<double>) : sizeof(GpuTrace<float>);
}

template <typename Real> glm::dvec3 xyz(const GpuVec4<Real>& v) {
    return {static_cast<double>(v.x), static_cast<double>(v.y), static_cast<double>(v.z)};
}

template <typename Real> TraceStep stepFrom(const GpuTraceStep<Real>& g) {
    TraceStep s;
    s.step = g.step;
    s.unit = g.unit;
    s.orientation = g.orientation;
    s.hkl = xyz(g.hkl);
    s.hkl0 = xyz(g.hkl0);
    s.F_latt = std::fabs(static_cast<double>(g.hkl.w)); // the shader keeps no meaningful sign
    s.F_cell = static_cast<double>(g.hkl0.w);
    s.added = static_cast<double>(g.sum.x);
    s.sum = static_cast<double>(g.sum.y);
    s.latticeZero = (g.flags & kTraceLatticeZero) != 0;
    return s;
}

} // namespace

PixelTracer::PixelTracer(const Simulator& simulator)
    : m_simulator(simulator), m_precision(simulator.precision()) {
    const vk::Device& device = simulator.device();
    m_module = diffractionShaderModule(device, {m_precision, simulator.paramsInStorage(), true});
    m_setLayout = vk::DescriptorSetLayout(device, {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}});
    m_descriptorPool = vk::DescriptorPool(device, 1, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}});
    m_set = m_descriptorPool.allocate(m_setLayout);
    m_buffer = vk::Buffer(device, traceBytes(m_precision), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                          vk::MemoryUse::Readback, "the pixel trace");
    m_descriptorPool.write(m_set, {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, m_buffer.handle()}});
    m_commandPool = vk::CommandPool(device);
    m_commands = vk::CommandBuffer(m_commandPool);
    m_fence = vk::Fence(device);
}

PixelTrace PixelTracer::trace(int fast, int slow) {
    const Simulator::KernelInputs inputs = m_simulator.kernelInputs();
    if (fast < 0 || slow < 0 || fast >= m_simulator.fastPixels() ||
        slow >= m_simulator.slowPixels())
        throw Error("pixel (" + std::to_string(fast) + ", " + std::to_string(slow) +
                    ") is not on the " + std::to_string(m_simulator.fastPixels()) + "x" +
                    std::to_string(m_simulator.slowPixels()) + " detector");
    const vk::Device& device = m_simulator.device();
    // set 0: the Simulator's tables, as its own pipelines see them; set 1: the trace
    if (m_pipelineLayout.handle() == VK_NULL_HANDLE)
        m_pipelineLayout =
            vk::PipelineLayout(device, {inputs.setLayout, m_setLayout.handle()}, sizeof(GpuPush));
    auto found = m_pipelines.find(inputs.variant);
    if (found == m_pipelines.end()) {
        vk::SpecializationConstants constants = inputs.constants;
        constants.add(SpecLocalSizeX, 1u).add(SpecLocalSizeY, 1u); // one invocation
        found = m_pipelines
                    .emplace(inputs.variant,
                             vk::ComputePipeline(device, m_module, m_pipelineLayout, constants))
                    .first;
    }

    // the header says which pixel; everything else starts at zero
    const std::size_t bytes = traceBytes(m_precision);
    std::vector<unsigned char> zero(bytes, 0);
    const std::int32_t pixel[2] = {fast, slow};
    std::memcpy(zero.data(), pixel, sizeof(pixel));
    m_buffer.write(zero.data(), bytes);

    m_commands.begin();
    m_commands.bindCompute(found->second, m_pipelineLayout);
    const VkDescriptorSet sets[2] = {inputs.set, m_set};
    vkCmdBindDescriptorSets(m_commands.handle(), VK_PIPELINE_BIND_POINT_COMPUTE,
                            m_pipelineLayout.handle(), 0, 2, sets, 0, nullptr);
    const GpuPush push{0}; // slot 0 of the slice table says how many steps a pixel has
    m_commands.pushConstants(m_pipelineLayout, &push, sizeof(push));
    m_commands.dispatch(1);
    m_commands.barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    m_commands.end();
    vk::submitAndWait(device, m_commands, m_fence);

    return m_precision == Precision::Precise ? read<double>(fast, slow) : read<float>(fast, slow);
}

template <typename Real> PixelTrace PixelTracer::read(int fast, int slow) {
    // 28 KiB at most: copied out of the mapping once
    auto g = std::make_unique<GpuTrace<Real>>();
    m_buffer.read(g.get(), sizeof(*g));

    PixelTrace t;
    t.fast = fast;
    t.slow = slow;
    t.precision = m_precision;
    t.stepsPerPixel = m_simulator.stepsPerPixel();
    switch (g->status) {
    case TraceComputed:
        t.status = PixelTrace::Status::Computed;
        break;
    case TraceOutside:
        t.status = PixelTrace::Status::Outside;
        return t;
    case TraceMasked:
        t.status = PixelTrace::Status::Masked;
        return t;
    default:
        throw Error("the pixel trace shader did not finish (status " + std::to_string(g->status) +
                    ")");
    }
    // lavapipe ends a shader's loops after 65535 iterations in all (docs/robustness.md,
    // "lavapipe's loop limit"), and the trace runs a pixel's whole loop in one invocation
    if (static_cast<std::uint64_t>(g->stepsWalked) < t.stepsPerPixel)
        throw Error("the trace of pixel (" + std::to_string(fast) + ", " + std::to_string(slow) +
                    ") stopped after " + std::to_string(g->stepsWalked) + " of its " +
                    std::to_string(t.stepsPerPixel) + " steps: " + m_simulator.device().description() +
                    " ends a shader's loops after 65535 iterations; trace it on a GPU, or with "
                    "fewer phi steps, mosaic domains, sources or sub-pixels");
    t.unitsRun = g->unitsRun;
    t.stepsRun = g->stepsRun;
    t.stepsAdded = g->stepsAdded;
    const std::uint32_t units = std::min<std::uint32_t>(g->unitsRun, kTraceUnits);
    for (std::uint32_t i = 0; i < units; ++i) {
        const GpuTraceUnit<Real>& gu = g->units[i];
        TraceUnit u;
        u.unit = gu.unit;
        u.layer = gu.layer;
        u.subS = gu.subS;
        u.subF = gu.subF;
        u.source = gu.source;
        u.position = xyz(gu.position);
        u.distance = static_cast<double>(gu.position.w);
        u.diffracted = xyz(gu.diffracted);
        u.omega = static_cast<double>(gu.diffracted.w);
        u.scattering = xyz(gu.scattering);
        u.polar = static_cast<double>(gu.scattering.w);
        u.capture = static_cast<double>(gu.factors.x);
        u.lambda = static_cast<double>(gu.factors.y);
        u.dminSkipped = gu.dminSkipped != 0;
        u.stepsRun = gu.stepsRun;
        if (gu.stepsRun > 0)
            u.first = stepFrom(gu.first);
        t.units.push_back(u);
    }
    const std::uint32_t steps = std::min<std::uint32_t>(g->stepsRun, kTraceSteps);
    for (std::uint32_t i = 0; i < steps; ++i)
        t.steps.push_back(stepFrom(g->steps[i]));
    const std::uint32_t largest = std::min<std::uint32_t>(g->stepsAdded, kTraceLargest);
    for (std::uint32_t i = 0; i < largest; ++i)
        t.largest.push_back(stepFrom(g->largest[i]));
    std::stable_sort(t.largest.begin(), t.largest.end(),
                     [](const TraceStep& a, const TraceStep& b) {
                         return a.added > b.added || (a.added == b.added && a.step < b.step);
                     });

    t.sum = static_cast<double>(g->totals.x);
    t.polar = static_cast<double>(g->totals.y);
    t.omega = static_cast<double>(g->totals.z);
    t.capture = static_cast<double>(g->totals.w);
    t.photonScale = static_cast<double>(g->result.x);
    t.value = static_cast<double>(g->result.y);
    t.imageValue = static_cast<float>(g->result.z);
    t.background = static_cast<double>(g->result.w);
    t.oversampleThick = (g->inside & TraceInsideCapture) != 0;
    t.oversamplePolar = (g->inside & TraceInsidePolar) != 0;
    t.oversampleOmega = (g->inside & TraceInsideOmega) != 0;
    return t;
}

// ---- the trace for a reader ----

namespace {

std::string number(double value, int digits = 10) {
    char text[64];
    std::snprintf(text, sizeof(text), "%.*g", digits, value);
    return text;
}

std::string vector3(const glm::dvec3& v, double scale = 1.0, int digits = 10) {
    return number(v.x * scale, digits) + ", " + number(v.y * scale, digits) + ", " +
           number(v.z * scale, digits);
}

// whole Miller indices, -0 written as 0
std::string whole(const glm::dvec3& v) {
    return number(v.x + 0.0, 6) + " " + number(v.y + 0.0, 6) + " " + number(v.z + 0.0, 6);
}

TraceRow row(std::string quantity, std::string value = {}, std::string unit = {}) {
    return TraceRow{std::move(quantity), std::move(value), std::move(unit), {}};
}

TraceRow stepRow(const std::string& title, const TraceStep& s) {
    TraceRow r = s.latticeZero ? row(title, "added nothing", "F_latt = 0")
                               : row(title, "added " + number(s.added), "(F_cell F_latt)^2");
    r.children.push_back(row("step", std::to_string(s.step), "of the pixel's loop"));
    r.children.push_back(row("unit", std::to_string(s.unit)));
    r.children.push_back(
        row("orientation", std::to_string(s.orientation), "(phi step x mosaic domain)"));
    r.children.push_back(row("h, k, l", vector3(s.hkl), "fractional"));
    r.children.push_back(row("nearest h, k, l", whole(s.hkl0)));
    r.children.push_back(row("F_latt", number(s.F_latt), "|lattice factor|"));
    if (!s.latticeZero)
        r.children.push_back(row("F_cell", number(s.F_cell), "structure factor"));
    r.children.push_back(row("sum after", number(s.sum)));
    return r;
}

std::string stepTitle(const TraceStep& s) {
    return "step " + std::to_string(s.step) + ", hkl " + whole(s.hkl0);
}

} // namespace

std::vector<TraceRow> traceRows(const PixelTrace& t) {
    std::vector<TraceRow> rows;
    rows.push_back(
        row("pixel (fast, slow)", std::to_string(t.fast) + ", " + std::to_string(t.slow)));
    if (t.status != PixelTrace::Status::Computed) {
        TraceRow value = row("value", "0", "photons");
        value.children.push_back(row(t.status == PixelTrace::Status::Masked
                                         ? "the pixel is masked: not simulated"
                                         : "the pixel is outside the ROI: not simulated"));
        rows.push_back(value);
        return rows;
    }

    // value = scale * sum * the factors not applied inside the sum
    std::string product = "scale, I";
    std::string inside;
    const char* inSum = "last value; inside the sum";
    if (!t.oversampleThick)
        product += ", capture";
    else
        inside += " capture";
    if (!t.oversamplePolar)
        product += ", polar";
    else
        inside += " polar";
    if (!t.oversampleOmega)
        product += ", omega";
    else
        inside += " omega";
    TraceRow value = row("value", number(t.value), "photons");
    value.children.push_back(row("product of", product));
    TraceRow sum = row("sum I", number(t.sum), "sum of (F_cell F_latt)^2");
    if (t.background != 0.0)
        sum.children.push_back(row("starting value", number(t.background), "water background"));
    if (!inside.empty())
        sum.children.push_back(row("times after every step", inside.substr(1), "-oversample_*"));
    value.children.push_back(sum);
    value.children.push_back(
        row("photon scale", number(t.photonScale), "r_e^2 fluence / steps (photons/sr)"));
    value.children.push_back(
        row("capture fraction", number(t.capture), t.oversampleThick ? inSum : ""));
    value.children.push_back(
        row("polarization factor", number(t.polar), t.oversamplePolar ? inSum : ""));
    value.children.push_back(row("solid angle omega", number(t.omega),
                                 t.oversampleOmega ? std::string("sr; ") + inSum : "sr"));
    value.children.push_back(row("image value", number(t.imageValue, 9), "photons, float"));
    rows.push_back(value);

    TraceRow loop = row("steps of the loop", std::to_string(t.stepsPerPixel));
    loop.children.push_back(row("precision", precisionName(t.precision)));
    loop.children.push_back(
        row("units", std::to_string(t.unitsRun), "(layers x sub-pixels x sources)"));
    loop.children.push_back(row("orientation steps run", std::to_string(t.stepsRun)));
    loop.children.push_back(
        row("skipped", std::to_string(t.stepsPerPixel - t.stepsRun), "beyond -dmin"));
    loop.children.push_back(row("steps that added", std::to_string(t.stepsAdded)));
    rows.push_back(loop);

    for (const TraceUnit& u : t.units) {
        TraceRow r =
            row("unit " + std::to_string(u.unit),
                "layer " + std::to_string(u.layer) + ", sub-pixel " + std::to_string(u.subS) + " " +
                    std::to_string(u.subF) + ", source " + std::to_string(u.source));
        r.children.push_back(row("position", vector3(u.position), "m, from the sample"));
        r.children.push_back(row("distance", number(u.distance), "m"));
        r.children.push_back(row("diffracted direction", vector3(u.diffracted), "unit vector"));
        r.children.push_back(row("wavelength", number(u.lambda * 1e10), "A"));
        r.children.push_back(
            row("q", vector3(u.scattering, 1e-10), "1/A, (diffracted - incident)/lambda"));
        r.children.push_back(row("solid angle omega", number(u.omega), "sr"));
        r.children.push_back(row("polarization factor", number(u.polar)));
        r.children.push_back(row("capture fraction", number(u.capture)));
        if (u.dminSkipped)
            r.children.push_back(row("skipped", "beyond -dmin"));
        else
            r.children.push_back(row("orientation steps", std::to_string(u.stepsRun)));
        if (u.first)
            r.children.push_back(stepRow("first step", *u.first));
        rows.push_back(r);
    }
    if (t.unitsRun > t.units.size())
        rows.push_back(row("units not shown", std::to_string(t.unitsRun - t.units.size())));

    TraceRow largest = row("largest contributions", std::to_string(t.largest.size()), "steps");
    for (const TraceStep& s : t.largest)
        largest.children.push_back(stepRow(stepTitle(s), s));
    rows.push_back(largest);
    TraceRow first = row("first steps", std::to_string(t.steps.size()), "steps");
    for (const TraceStep& s : t.steps)
        first.children.push_back(stepRow(stepTitle(s), s));
    rows.push_back(first);
    return rows;
}

namespace {

void printRows(std::ostringstream& out, const std::vector<TraceRow>& rows, int depth) {
    for (const TraceRow& r : rows) {
        out << std::string(static_cast<std::size_t>(2 * depth), ' ') << r.quantity;
        if (!r.value.empty())
            out << ": " << r.value;
        if (!r.unit.empty())
            out << " " << r.unit;
        out << "\n";
        printRows(out, r.children, depth + 1);
    }
}

} // namespace

std::string formatTrace(const PixelTrace& trace) {
    std::ostringstream out;
    printRows(out, traceRows(trace), 0);
    return out.str();
}

} // namespace bv::engine
