#pragma once
// DeviceTables: the Simulator's buffers on the device and what goes into them. setPlan's
// upload() compares the plan with the last one (plan::changedParts, and the contents of the
// tables the plan only borrows) and writes only the tables that differ, as GpuTables.h makes
// them: straight into mappable memory, else through one staging buffer and one submission.
// Buffers are sized with headroom (powers of two from 256 bytes), so that more sources or
// mosaic domains rarely replace one; the image and its readback are sized to the detector.
// upload() also fills the slice table (how the plan's work is cut into dispatches).
//
// Owns: every table's buffer, the image and its readback, the descriptor pool and the one set
// that binds them all (the layout is PipelineVariants'), a command buffer and fence for the
// staged copies. Borrows: the vk::Device, the set layout and the cancel word's buffer (which
// must outlive it) and the warning list it appends to.

#include "compute/engine/GpuLayout.h"
#include "compute/engine/SerialOrder.h"
#include "compute/model/Precision.h"
#include "compute/plan/Plan.h"
#include "compute/vk/Buffer.h"
#include "compute/vk/Commands.h"
#include "compute/vk/PhaseTimer.h"
#include "compute/vk/Pipeline.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bv::vk {
class Device;
}

namespace bv::engine {

struct TableOptions {
    Precision precision = Precision::Precise; // the one in use: double or float tables
    bool paramsInStorage = false; // the parameter block is a storage buffer (and no table has a
                                  // uniform-buffer view: CPU devices)
    bool stagedUploads = false;               // SimulatorOptions::stagedUploads
    int maxSlices = 32;
    std::uint32_t localSizeX = 8, localSizeY = 8;
    // CPU devices: a pixel's steps in one dispatch kept under lavapipe's loop limit
    // (cpuStepsPerSlice), as far as maxSlices allows
    bool loopLimit = false;
};

// lavapipe (llvmpipe's shader compiler) ends a shader's loops after 65535 iterations in all,
// silently: a pixel with more steps in one dispatch would be cut short. A step of a
// specialised pipeline costs one or two of them where the compiler unrolls the inner loops,
// and more where it does not: cpuStepsPerSlice bounds them from the plan (docs/robustness.md,
// "lavapipe's loop limit").
constexpr std::uint64_t kCpuStepsPerSlice = 32768; // at most, whatever the plan

// The steps of a pixel one dispatch may hold on a CPU device for this plan: the loop
// iterations a step may cost there (loopIterationsPerStep) within 60000 of lavapipe's 65535
// (the rest for the loops around the steps), at most kCpuStepsPerSlice.
std::uint64_t cpuStepsPerSlice(const plan::Plan& plan);
// A bound on the loop iterations lavapipe counts for one step of a specialised pipeline,
// from its measured costs: 2 for the plain step, 2 more with tricubic interpolation, 1 more
// with a thick sensor or a per-step oversampled factor; where the axes' cell counts differ,
// 12 more and N more for each axis of N <= 16 cells. (Measured in session 19, when the
// shader looped over the axes and ran each axis's Chebyshev loop; since session 20 it runs
// one Chebyshev loop of the largest N for the three axes at once and no axis loop, fewer
// iterations, so the bound still holds, with room.)
std::uint64_t loopIterationsPerStep(const plan::Plan& plan);

class DeviceTables {
  public:
    DeviceTables(const vk::Device& device, const TableOptions& options,
                 const vk::DescriptorSetLayout& setLayout, VkBuffer cancelWord,
                 std::vector<std::string>& warnings);
    DeviceTables(const DeviceTables&) = delete;
    DeviceTables& operator=(const DeviceTables&) = delete;

    // Writes the plan's tables that changed (returns their plan::PlanPart bits) and the slice
    // table, cut at workPerSlice pixel-steps per dispatch. Marks its phases on timer.
    // sameInputs: the structure factors and mask the plan borrows are those of the last plan,
    // unchanged (Simulator::PlanInputs::Same): their contents are not compared.
    unsigned upload(const plan::Plan& plan, const ReferenceLoop& loop, std::uint64_t workPerSlice,
                    vk::PhaseTimer& timer, bool sameInputs = false);
    // Counted events that make recorded command buffers stale: the image made anew for a new
    // detector size, and the set pointed at any new buffer (a new size included).
    std::uint64_t imageGeneration() const { return m_imageGeneration; }
    std::uint64_t bindingGeneration() const { return m_bindingGeneration; }

    VkDescriptorSet set() const { return m_set; }
    const vk::Buffer& image() const { return m_image->buffer; }
    // host-visible: a run's copy of the image and of the GridExit head (null before a plan)
    vk::Buffer* readback() const { return m_readback.get(); }
    const vk::Buffer& slices() const { return m_slices->buffer; }
    const vk::Buffer& gridExit() const { return m_gridExit->buffer; }
    vk::Buffer* gridExitReadback() const { return m_gridExitReadback.get(); }
    // bytes of the GridExit head (GpuGridExit) in the precision in use
    std::size_t gridExitHeaderBytes() const;

    int fastPixels() const { return m_fast; }
    int slowPixels() const { return m_slow; }
    int activeSlices() const { return m_activeSlices; }
    std::uint64_t stepsPerPixel() const { return m_stepsPerPixel; }
    // the variant-key bits the uploaded tables decide (SpecUniformTables), for the key and
    // the parameter block alike
    std::uint32_t tableBits() const {
        return m_uniformTables ? 1u << shapeBit(SpecUniformTables) : 0u;
    }

  private:
    // A storage (or uniform) buffer whose size may grow; capacity() bytes are allocated.
    struct DeviceBuffer {
        std::string label;
        VkBufferUsageFlags usage = 0;
        vk::MemoryUse use = vk::MemoryUse::DeviceLocal;
        vk::Buffer buffer;
        VkDeviceSize capacity() const { return buffer.size(); }
    };
    struct PendingCopy {
        VkBuffer target;
        VkDeviceSize sourceOffset, bytes;
    };

    void resize(int fast, int slow);
    void writeDescriptors();
    VkDeviceSize uniformLimit() const; // kUniformTableBytes or the device's limit, the less
    // Copies bytes into the buffer (growing it when needed; m_rebound when it was replaced).
    void write(DeviceBuffer& target, const void* data, std::size_t bytes);
    template <typename T> void write(DeviceBuffer& target, const std::vector<T>& table) {
        write(target, table.data(), table.size() * sizeof(T));
    }
    void flushUploads();
    template <typename Real> void writeTables(const plan::Plan& plan, unsigned parts);
    void writeSlices(const plan::Plan& plan, std::uint64_t workPerSlice);
    // the orientation table as the reference's loop meets it; returns whether it changed
    bool orderOrientations(const plan::Plan& plan, const ReferenceLoop& loop);
    // which tables differ from the last plan's
    unsigned changedParts(const plan::Plan& plan, bool sameInputs);
    void remember(const plan::Plan& plan, unsigned parts);

    const vk::Device& m_device;
    TableOptions m_options;
    std::vector<std::string>& m_warnings;
    VkBuffer m_cancelWord;

    vk::DescriptorPool m_descriptorPool;
    VkDescriptorSet m_set = VK_NULL_HANDLE;
    vk::CommandPool m_commandPool;
    vk::CommandBuffer m_uploadCommands;
    vk::Fence m_fence;

    std::unique_ptr<DeviceBuffer> m_params, m_orientations, m_sources, m_amplitudes, m_mask,
        m_image, m_slices, m_states, m_freshUnitsBuffer, m_gridExit, m_panels, m_panelRows;
    std::unique_ptr<vk::Buffer> m_gridExitReadback;
    std::unique_ptr<vk::Buffer> m_readback;
    std::unique_ptr<vk::Buffer> m_staging;
    std::size_t m_stagingUsed = 0;
    std::vector<PendingCopy> m_pendingCopies;
    bool m_rebound = false; // a buffer behind a binding was replaced
    bool m_uniformTables = false; // orientations and sources read through uniform buffers
    std::uint64_t m_imageGeneration = 0, m_bindingGeneration = 0;

    int m_fast = 0, m_slow = 0;
    int m_activeSlices = 0;
    std::uint64_t m_stepsPerPixel = 0;

    bool m_havePlan = false;
    plan::Plan m_lastPlan;                // the tables compared by plan::changedParts
    std::vector<double> m_lastAmplitudes; // content last uploaded (the plan only borrows it)
    StructureFactors m_lastGrid;          // grid bounds of that content (F left empty)
    std::vector<std::uint16_t> m_lastMask;
    std::vector<plan::Orientation> m_ordered; // the orientation table as uploaded
    int m_freshRows = 0;
    std::vector<GpuFreshUnit> m_freshUnits; // one per row, as uploaded
    bool m_freshUnitsChanged = true;
};

} // namespace bv::engine
