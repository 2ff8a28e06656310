#pragma once
// Simulator: runs the diffraction compute shader (shaders/diffraction.glsl) for a Plan on one
// Vulkan device and reads the image back.
//
//   vk::Device device;                 // or a vk::Device borrowing the viewer's handles
//   engine::Simulator simulator(device);
//   simulator.setPlan(plan);           // uploads what changed since the last plan
//   simulator.run();                   // submits the recorded commands and waits
//   std::vector<float> photons = simulator.image();
//
// Resources: buffers for one detector size (a new size reallocates them); pipelines (below),
// each with its command buffers, recorded ONCE and then only re-submitted. A recording is
// redone only when the detector size changes, a table outgrows its buffer (capacities grow
// by doubling) or a plan first needs the state buffer of sliced runs; recordCount() counts
// them.
//
// Slicing: each pixel's serial loop (layers x sub-pixels x sources x orientations, in that
// order) is one range of "steps"; a plan whose work (pixels x steps) exceeds workPerSlice is
// cut into consecutive step ranges, one dispatch each, all accumulating into the same pixels.
// The running sum and the last-value factors travel between dispatches in a per-pixel state
// buffer, so the result is the same, bit for bit, however the work is cut, -oversample_*
// flags included (docs/numerics/slicing.md). Each of the maxSlices indirect dispatch slots is
// its own command buffer, recorded once, and each slice its own submission (the readback
// copy goes with the last), so no submission holds the GPU for the whole image and a run can
// be stopped between slices; setPlan fills a slice table, so a plan that needs a different
// cut does not need a new recording. After each slice the image holds the sum so far, scaled
// like the final one (a viewer may show it refining).
//
// Pipelines (docs/performance.md, "Pipelines per shape"): the generic one runs any plan,
// reading the plan's shape (flags, lattice shape, loop counts: oversample, sources,
// orientations) from the parameter block; a specialised one has them as specialization
// constants, which makes it faster (much so on lavapipe, whose LLVM then divides by known
// counts and drops the flags' branches) but costs a compile per shape. The last
// kSpecialisedPipelines specialised ones are kept (least recently used goes first, so memory
// stays flat however many shapes pass). SimulatorOptions::specialisation says when one is
// built: in the background, the run using the generic pipeline until it is ready and switching
// to it at the next slice (the viewer); at once, blocking setPlan (runs long enough to repay the
// compile); or never. The images are the same bit for bit either way.
//
// Cancelling: requestCancel() (any thread) sets a word the shader reads at the top of each
// unit of every pixel's loop, so a run stops within a unit's work, also inside a long slice;
// its image is then garbage (wasCancelled()) and the next start() clears the word.
//
// Precision::Precise needs shaderFloat64; on a device without it the Simulator runs the fast
// shader and says so in notice().
//
// Composed of three parts, each with its header: DeviceTables (the buffers and their uploads
// from the plan's diff, the slice table), PipelineVariants (the pipelines per shape, their
// command buffers and the pipeline cache) and SliceRunner (the submissions of a run, slice by
// slice, the cancel word and the timestamps).
//
// Borrows the vk::Device, which must outlive the Simulator. Not thread-safe; run() submits
// to the device's queue, which no other thread may use at the same time.

#include "compute/engine/DeviceTables.h"
#include "compute/engine/GpuTables.h"
#include "compute/engine/PipelineVariants.h"
#include "compute/engine/SerialOrder.h"
#include "compute/engine/SliceRunner.h"
#include "compute/model/Precision.h"
#include "compute/plan/Plan.h"
#include "compute/vk/PhaseTimer.h"
#include "compute/vk/Pipeline.h"

#include <algorithm>
#include <cstdint>
#include <glm/vec3.hpp>
#include <optional>
#include <string>
#include <vector>

namespace bv::vk {
class Device;
}

namespace bv::engine {

using bv::Precision; // compute/model/Precision.h
using bv::precisionFromName;
using bv::precisionName;

// ReferenceLoop (SerialOrder.h): how the reference's serial loop ran, for what it carries
// from pixel to pixel.

// Where the reference's serial loop first left the HKL grid with tricubic interpolation on
// (InterpolationEdge::Reference): the pixel, the step of its loop (as in the slice table:
// layers, sub-pixels, sources, orientations) and that step's fractional Miller indices, for
// the reference's warning. From that step on the image uses the nearest grid value.
struct GridExit {
    int fast = 0, slow = 0;
    std::uint32_t step = 0;
    glm::dvec3 hkl{0.0};
};

struct SimulatorOptions {
    Precision precision = Precision::Precise;
    // where the VkPipelineCache file lives: nullopt is the default directory
    // ($XDG_CACHE_HOME/braggview or ~/.cache/braggview), "" keeps the cache in memory only
    std::optional<std::string> pipelineCacheDirectory;
    int maxSlices = 32; // dispatch slots in the recorded command buffer (2 to kMaxSliceSlots)
    // pixel-steps (pixels x steps of each pixel's loop) per dispatch, about; more work than
    // this is cut into slices, at most maxSlices. 0: by the device, 2^28 on a GPU (2 ms on an
    // H100, tens of ms on a consumer GPU in precise mode), 2^26 on a CPU device such as
    // lavapipe (about half a second on two cores); docs/numerics/slicing.md.
    std::uint64_t workPerSlice = 0;
    // false for a run that nobody watches fill in (the headless program, a batch): on a GPU
    // its default slice is then 2^30 pixel-steps, as each cut costs a state write and read per
    // pixel and a dispatch's tail (heavy_1024 on the H100: 2 slices 1.22 ms, 1 slice 1.16 ms
    // fast; 2.80 and 2.65 ms precise), and 2^30 is still under a second on a consumer GPU. A
    // CPU device keeps its 2^26, whose slices a progress bar counts.
    bool watched = true;
    // copy every table through a staging buffer even where the GPU's memory is mappable (as a
    // discrete GPU's device-local memory usually is not): lets lavapipe test that path
    bool stagedUploads = false;
    // the GPUs' shader on a CPU device too: the parameter block and the small orientation and
    // source tables in uniform buffers (GpuLayout.h, kUniformTableBytes). Lets lavapipe test
    // that path; slow there, where each new set of uniform values compiles a new variant
    bool gpuShaderOnCpu = false;
    // workgroup size (specialization constants 0 and 1): 16x8 gave a 4096^2 image of one-step
    // pixels 9 % on an H200 against 8x8 and moved the long loops by less than the spread
    // (docs/performance.md, sessions 4 and 9)
    std::uint32_t localSizeX = 16;
    std::uint32_t localSizeY = 8;
    // SPIR-V words to run instead of the built-in shader of `precision`, for benchmarks of
    // shader variants (braggview-bench --shader); it must declare the same interface and use
    // the same precision (tables are laid out for it). Empty: the built-in shader.
    std::vector<std::uint32_t> shaderCode;
    // When a pipeline specialised to the plan's shape is built (see the top of this file):
    //   Generic:    never; the generic pipeline runs everything
    //   Background: on a worker thread; runs use the generic pipeline until it is ready (the
    //               viewer: setPlan never waits for a compile)
    //   Wait:       in setPlan, which waits for it (one pipeline per shape, as a batch wants)
    //   Automatic:  Wait for a plan of at least specialiseWork pixel-steps, else Generic
    enum class Specialisation { Generic, Background, Wait, Automatic };
    Specialisation specialisation = Specialisation::Automatic;
    // pixel-steps from which Automatic waits for a specialised pipeline; 0: always. On lavapipe
    // the specialised pipeline compiles faster than the generic one (~60 against ~300 ms, at
    // the first dispatch) and runs 4.9-5.3x faster, so it pays for every run; on a GPU it is
    // what ran before there was a generic pipeline (one per flag set, compiled in setPlan), the
    // pipeline cache on disk serves it again, and the generic one's speed there is not
    // measured (docs/performance.md, "Pipelines per shape").
    // BRAGGVIEW_PIPELINE=generic|specialised in the environment overrides Automatic.
    std::uint64_t specialiseWork = 0;
};

// How an interactive caller (the viewer, and the benchmarks that stand for it) gets its
// pipelines per shape, never compiled on its own thread: GPU drivers compile at creation, so
// in the background; lavapipe creates in ~10 ms and compiles on its queue at the first
// dispatch, where the generic pipeline is slower, so it waits (docs/performance.md).
SimulatorOptions::Specialisation interactiveSpecialisation(const vk::Device& device);

class Simulator {
  public:
    explicit Simulator(const vk::Device& device, const SimulatorOptions& options = {});
    ~Simulator();
    Simulator(const Simulator&) = delete;
    Simulator& operator=(const Simulator&) = delete;

    // The precision in use (Fast when Precise was asked for on a device without float64).
    Precision precision() const { return m_precision; }
    // Why the precision in use differs from the one asked for; empty when it does not.
    const std::string& notice() const { return m_notice; }
    // Problems that did not stop the work (the pipeline cache could not be saved, ...).
    const std::vector<std::string>& warnings() const { return m_warnings; }

    // Takes the plan: uploads the tables that differ from the last plan's (all of them the
    // first time), picks the pipeline variant, records its commands if it has none yet.
    // Throws bv::Error for a plan the shader cannot run (no pixels, no sources, ...) or one
    // that does not fit the device. The plan's borrowed tables are read here, not kept.
    // `loop` switches on the reference's phi carry-over (SerialOrder.h); by default the plan's
    // orientations are used exactly as they are.
    // `inputs`: Same is the caller's word that the structure factors and the mask the plan
    // borrows are the very ones of the last setPlan, unchanged, and the detector's size too (a
    // fit renders one experiment again and again with new parameter values): their contents,
    // megabytes each, are then not compared. Compared looks.
    enum class PlanInputs { Compared, Same };
    void setPlan(const plan::Plan& plan, const ReferenceLoop& loop = {},
                 PlanInputs inputs = PlanInputs::Compared);
    // Pixel-steps per dispatch for the plans set from now on (SimulatorOptions::workPerSlice,
    // at least 1): the viewer cuts runs finer while values move, so that a new value can stop
    // one soon. The image is the same however a run is cut.
    void setWorkPerSlice(std::uint64_t pixelSteps) {
        m_options.workPerSlice = std::max<std::uint64_t>(pixelSteps, 1);
    }
    std::uint64_t workPerSlice() const { return m_options.workPerSlice; }
    // plan::PlanPart bits uploaded by the last setPlan.
    unsigned lastUploadedParts() const { return m_lastUploaded; }

    // Submits the recorded commands and waits. progress, when given, is called from this
    // thread with (dispatches finished, dispatches in all) while the GPU works, and at the end.
    using Progress = SliceRunner::Progress; // std::function<void(int finished, int total)>
    void run(const Progress& progress = {});

    // The same in pieces, for a caller that must not block (the viewer's render loop). Each
    // slice is its own submission, so no submission holds the GPU for longer than a slice and
    // a caller can stop between them: start() submits the first slice and returns;
    // isFinished() polls and, when a slice is done, submits the next one (so it must be
    // called until it answers true, or finish() or cancel() called); finishedSlices() counts
    // the dispatches done so far (from the submissions' fences; it never waits); finish()
    // submits what is left at once, waits and reads the timestamps; cancel() waits for the
    // slice on the GPU and submits nothing more (the image then holds the partial sum).
    // setPlan() and image() are only allowed when no run is in flight.
    void start();
    bool isFinished();
    int finishedSlices() const;
    void finish();
    void cancel();
    // Stops the run in flight within a unit of each pixel's loop (a word the shader reads),
    // also in the middle of a slice. Any thread may call it; the owner then calls cancel() (or
    // finish()), which no longer waits for the rest of the slice. The run's image is garbage:
    // wasCancelled() is true until the next start() or run().
    void requestCancel();
    bool wasCancelled() const { return m_runner.wasCancelled(); }
    // submissions made by the last run (slices + the readback copy when it ran to the end)
    int lastSubmissionCount() const { return m_runner.submissions(); }

    // The image on the GPU (fast-major floats, fastPixels() x slowPixels()), for a renderer on
    // the same device; written by the dispatches, read back by the copy at the end of a run.
    VkBuffer imageBuffer() const;

    // The image of the last run: photons per pixel, fast index fastest, 0 outside the ROI
    // and on masked pixels.
    std::vector<float> image() const;
    // Whether a run ends with the copy of the whole image (and the grid exit) to the host, for
    // image() and gridExit(); on by default. A caller that reads the image on the device
    // (engine::PixelGather: a fit's pixels) turns it off and spares the frame's copy; image()
    // then still holds the last run's that had it, and gridExit() is nullopt.
    void setImageReadback(bool on) { m_imageReadback = on; }
    bool imageReadback() const { return m_imageReadback; }

    int fastPixels() const { return m_tables.fastPixels(); }
    int slowPixels() const { return m_tables.slowPixels(); }
    // Where the last finished run left the HKL grid (GridExit); nullopt when no step did, or
    // when the plan does not follow the reference's rule (no table, no interpolation, or
    // InterpolationEdge::Local).
    const std::optional<GridExit>& gridExit() const { return m_lastGridExit; }

    // dispatches the current plan is cut into (with the reference's grid-edge rule, half of
    // them search slices), and the steps of each pixel's loop
    int sliceCount() const { return m_tables.activeSlices(); }
    std::uint64_t stepsPerPixel() const { return m_tables.stepsPerPixel(); }
    // GPU time of the last run (first dispatch start to last dispatch end) and of each
    // dispatch (the interval between consecutive ends), in ms; 0/empty without timestamps.
    bool hasTimestamps() const { return m_runner.hasTimestamps(); }
    double gpuMilliseconds() const { return m_runner.gpuMilliseconds(); }
    const std::vector<double>& dispatchMilliseconds() const {
        return m_runner.dispatchMilliseconds();
    }

    int recordCount() const { return m_variants.recordCount(); }
    // pipelines built so far (generic and specialised, including those let go since)
    int pipelineCount() const { return m_variants.pipelinesBuilt(); }
    // pipelines held now (the generic one and at most kSpecialisedPipelines specialised ones)
    int pipelinesHeld() const { return m_variants.pipelinesHeld(); }
    static constexpr int kSpecialisedPipelines = PipelineVariants::kSpecialised;
    // whether the current plan runs on a pipeline specialised to its shape (false: the
    // generic one, until the background build is done)
    bool specialised() const;
    // Waits for the background build of a specialised pipeline, if one runs (tests, benches).
    void waitForBackgroundBuild() { m_variants.waitForBackgroundBuild(); }
    // wall time of the last specialised pipeline build, in ms (0: none yet)
    double lastBuildMilliseconds() const { return m_variants.lastBuildMilliseconds(); }
    // bytes of pipeline cache read from disk when this Simulator started (0: a cold start)
    std::size_t pipelineCacheLoadedBytes() const { return m_variants.cacheLoadedBytes(); }
    // Whether the pipeline cache served the pipeline of the current plan's variant (from the
    // driver's creation feedback; Unknown where the driver gives none), and whether the cache
    // file was rewritten for it (only when the driver's cache data changed).
    vk::ComputePipeline::CacheUse pipelineCacheUse() const;
    bool pipelineCacheSaved() const { return m_variants.cacheSaved(); }
    // The driver's statistics of the current variant's pipeline (registers, ...), when the
    // Device was created with DeviceOptions::pipelineStatistics; empty otherwise.
    std::vector<std::string> pipelineStatistics() const;
    // Wall time of the constructor's phases and of the last setPlan's (docs/performance.md).
    const std::vector<vk::PhaseTime>& constructionTimes() const { return m_constructionTimes; }
    const std::vector<vk::PhaseTime>& lastPlanTimes() const { return m_planTimer.phases(); }
    std::string deviceDescription() const;

    // For another variant of the diffraction shader run on this Simulator's tables (the pixel
    // trace, PixelTrace.h): the descriptor set of the tables and its layout, and the
    // specialization constants of the current plan's variant with their packed key (equal
    // keys, equal constants). Valid until the next setPlan, which may rewrite the set; throws
    // bv::Error before the first one.
    struct KernelInputs {
        VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
        VkDescriptorSet set = VK_NULL_HANDLE;
        std::uint32_t variant = 0;
        vk::SpecializationConstants constants;
        bool paramsInStorage = false; // the *_cpu shaders' parameter block (shaders/params.glsl)
    };
    // whether the parameter block is a storage buffer (CPU devices) or a uniform buffer
    bool paramsInStorage() const { return m_paramsInStorage; }
    // the last plan's orientation and source tables are read through uniform-buffer views
    // (GPUs, or SimulatorOptions::gpuShaderOnCpu; both tables within kUniformTableBytes)
    bool tablesInUniformBuffers() const { return m_tables.tableBits() != 0; }
    KernelInputs kernelInputs() const;
    const vk::Device& device() const { return m_device; }
    bool isRunning() const { return m_runner.isRunning(); }

  private:
    static SimulatorOptions settled(const vk::Device& device, SimulatorOptions options);
    void checkPlan(const plan::Plan& plan) const;
    // the pipeline mode for the plan (SimulatorOptions::specialisation, resolved)
    PipelineVariants::Mode modeFor(const plan::Plan& plan) const;
    void record(PipelineVariant& variant);
    // the command buffers of parts [first, end) of the run: the active slices, then the copy;
    // at a slice boundary a run on the generic pipeline goes on with the specialised one when
    // it has become ready
    std::vector<VkCommandBuffer> parts(int first, int end);
    void readGridExit();

    const vk::Device& m_device;
    SimulatorOptions m_options;
    Precision m_precision = Precision::Precise;
    std::string m_notice;
    // the parameter block is a storage buffer on CPU devices, a uniform buffer on GPUs
    // (shaders/params.glsl: lavapipe recompiles the shader for new uniform values)
    bool m_paramsInStorage = false;
    std::vector<std::string> m_warnings;
    vk::PhaseTimer m_constructionTimer;
    vk::PhaseTimer m_planTimer;

    // built in this order: the tables bind the runner's cancel word (the destructor waits
    // for a submission in flight before any of them goes)
    PipelineVariants m_variants;
    SliceRunner m_runner;
    DeviceTables m_tables;
    std::uint64_t m_recordedImage = 0, m_recordedBindings = 0; // the tables' generations seen

    VariantKey m_currentKey; // the current plan's shape (whichever pipeline runs it)
    std::optional<GridExit> m_lastGridExit;
    unsigned m_lastUploaded = 0;
    bool m_imageReadback = true;
    std::vector<vk::PhaseTime> m_constructionTimes;
};

} // namespace bv::engine
