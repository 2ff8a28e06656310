#pragma once
// The pixel trace: why one pixel has its value, as the chain of quantities the diffraction
// shader computed for it (position, diffracted direction, q, h,k,l, F_cell, F_latt,
// polarization, solid angle, the sum, the scale). The numbers come from the shader itself:
// its trace variant (shaders/diffraction_trace_*.comp = diffraction.glsl with BV_TRACE) runs
// the pixel's whole loop in one invocation on the Simulator's own tables and records what it
// computes (shaders/trace.glsl); nothing here recomputes the physics.
//
//   engine::Simulator simulator(device);
//   simulator.setPlan(plan, loop);
//   simulator.run();
//   engine::PixelTracer tracer(simulator);
//   engine::PixelTrace t = tracer.trace(140, 100);  // t.value: the image's value there
//   std::cout << engine::formatTrace(t);
//
// PixelTracer owns: the trace shader's module, its descriptor set layout, pool and set, a
// pipeline layout, one pipeline per shader variant met (kept for reuse), the trace buffer, a
// command pool, command buffer and fence. Borrows: the Simulator (its tables, descriptor set
// and device), which must outlive it. A trace is a one-off: its command buffer is recorded
// for each call, and the call waits for the GPU. Not thread-safe; it submits to the device's
// queue, which no other thread may use at the same time. The Simulator's image is not touched,
// and a trace may even run while the Simulator's run is in flight (it then describes the plan
// being computed, not the image of the last run).

#include "compute/engine/GpuLayout.h"
#include "compute/model/Precision.h"
#include "compute/vk/Buffer.h"
#include "compute/vk/Commands.h"
#include "compute/vk/Pipeline.h"

#include <glm/vec3.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bv::engine {

class Simulator;

// One step of the orientation loop (one phi step x mosaic domain) in one unit.
struct TraceStep {
    std::uint32_t step = 0;        // in the pixel's flattened loop (Simulator.h, "Slicing")
    std::uint32_t unit = 0;        // TraceUnit::unit
    std::uint32_t orientation = 0; // row of the orientation table as the loop meets it
    glm::dvec3 hkl{0.0};           // fractional Miller indices
    glm::dvec3 hkl0{0.0};          // the nearest whole indices
    double F_latt = 0.0;           // |lattice factor| (the shader drops signs: F_latt^2 enters)
    double F_cell = 0.0;           // structure factor; 0 when F_latt was 0 (not looked up)
    double added = 0.0;            // (F_cell F_latt)^2, what the step added to the sum
    double sum = 0.0;              // the pixel's sum after the step
    bool latticeZero = false;      // F_latt was 0: the step added nothing
};

// One unit of the loop: a sensor layer, a sub-pixel and a source; the orientations run inside.
struct TraceUnit {
    std::uint32_t unit = 0;
    int layer = 0, subS = 0, subF = 0, source = 0;
    glm::dvec3 position{0.0};   // m, from the sample to the sub-pixel
    double distance = 0.0;      // m, |position|
    glm::dvec3 diffracted{0.0}; // unit vector along the diffracted ray
    glm::dvec3 scattering{0.0}; // q = (diffracted - incident)/lambda, 1/m
    double lambda = 0.0;        // m
    // the per-pixel factors as they stand after the unit's start (the reference's last-value
    // rules: computed once per pixel unless an -oversample_* flag says every time)
    double omega = 0.0;   // sr, solid angle of the pixel
    double polar = 0.0;   // polarization factor
    double capture = 0.0; // fraction of the photons the sensor layer absorbs
    bool dminSkipped = false;
    std::uint32_t stepsRun = 0;     // orientation steps run (0 when skipped)
    std::optional<TraceStep> first; // its first orientation step (the reference traces it)
};

struct PixelTrace {
    enum class Status {
        Computed,
        Outside, // outside the ROI: the image holds 0 there
        Masked,  // masked: the image holds 0 there
    };
    int fast = 0, slow = 0;
    Precision precision = Precision::Precise;
    Status status = Status::Computed;

    std::uint64_t stepsPerPixel = 0; // layers x sub-pixels x sources x orientations
    std::uint64_t unitsRun = 0;      // units entered (layers x sub-pixels x sources)
    std::uint64_t stepsRun = 0;      // orientation steps run (not skipped by dmin)
    std::uint64_t stepsAdded = 0;    // of those, steps with F_latt != 0 (or water present)
    std::vector<TraceUnit> units;    // the first kTraceUnits units, in loop order
    std::vector<TraceStep> steps;    // the first kTraceSteps orientation steps, in loop order
    std::vector<TraceStep> largest;  // the kTraceLargest steps that added most, largest first

    // value = photonScale * sum * capture * polar * omega, where a factor with its
    // -oversample_* flag on is already inside the sum (applied after every step) instead
    double background = 0.0;  // the sum's starting value
    double sum = 0.0;         // I, the sum of (F_cell F_latt)^2 over the loop
    double photonScale = 0.0; // m^2: r_e^2 * fluence / steps
    double capture = 0.0;     // the last values of the per-pixel factors
    double polar = 0.0;
    double omega = 0.0; // sr
    bool oversampleThick = false, oversamplePolar = false, oversampleOmega = false;
    double value = 0.0;     // photons, in the shader's precision
    float imageValue = 0.f; // as the image stores it (float)
};

class PixelTracer {
  public:
    explicit PixelTracer(const Simulator& simulator);
    PixelTracer(const PixelTracer&) = delete;
    PixelTracer& operator=(const PixelTracer&) = delete;

    // Runs the trace variant of the Simulator's current plan for pixel (fast, slow) and
    // returns what it recorded. Throws bv::Error when no plan was set or the pixel is not on
    // the detector.
    PixelTrace trace(int fast, int slow);

    int pipelineCount() const { return static_cast<int>(m_pipelines.size()); }

  private:
    template <typename Real> PixelTrace read(int fast, int slow);

    const Simulator& m_simulator;
    Precision m_precision;
    vk::ShaderModule m_module;
    vk::DescriptorSetLayout m_setLayout;
    vk::PipelineLayout m_pipelineLayout;
    vk::DescriptorPool m_descriptorPool;
    VkDescriptorSet m_set = VK_NULL_HANDLE;
    vk::Buffer m_buffer;
    vk::CommandPool m_commandPool;
    vk::CommandBuffer m_commands;
    vk::Fence m_fence;
    std::map<std::uint32_t, vk::ComputePipeline> m_pipelines; // by the Simulator's variant key
};

// The trace as a tree of rows (quantity, value, unit) for a reader: the pixel's value and the
// factors that make it, then the loop's counts, each unit with its geometry and first step,
// the largest contributions and the first steps. Shared by the viewer's trace panel and the
// headless -printout_pixel.
struct TraceRow {
    std::string quantity;
    std::string value;
    std::string unit;
    std::vector<TraceRow> children;
};
std::vector<TraceRow> traceRows(const PixelTrace& trace);
// The same rows as indented text, one per line.
std::string formatTrace(const PixelTrace& trace);

} // namespace bv::engine
