#pragma once
// SliceRunner: a run of the Simulator on the device, one submission per slice (the readback
// copy goes with the last), so that no submission holds the GPU for the whole image and a
// caller can stop between slices; the cancel word the shader reads inside a slice; the
// fence of the submissions and the timestamps of the dispatches.
//
//   SliceRunner runner(device);
//   runner.start(slices, parts);   // parts(first, end): the command buffers to submit
//   while (!runner.poll()) ...;    // submits the next slice when one is done
//   runner.finish();               // or cancel()
//
// A run has `slices` parts and then the copy; parts(first, end) is asked for the command
// buffers of parts [first, end) at each submission (the Simulator switches to a specialised
// pipeline there). Owns the cancel word's buffer (host-visible, coherent, mapped), the fence
// and the timestamp queries; borrows the vk::Device, which must outlive it. Not thread-safe,
// except requestCancel().

#include "compute/vk/Buffer.h"
#include "compute/vk/Commands.h"
#include "compute/vk/QueryPool.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace bv::vk {
class Device;
}

namespace bv::engine {

class SliceRunner {
  public:
    using Parts = std::function<std::vector<VkCommandBuffer>(int first, int end)>;
    using Progress = std::function<void(int finished, int total)>;

    explicit SliceRunner(const vk::Device& device);
    ~SliceRunner(); // waits for a submission in flight
    SliceRunner(const SliceRunner&) = delete;
    SliceRunner& operator=(const SliceRunner&) = delete;

    // The cancel word (GpuCancel), for the tables' descriptor set.
    VkBuffer cancelBuffer() const { return m_cancel.handle(); }

    // Clears the cancel word and submits the first slice.
    void start(int slices, Parts parts);
    // Whether the run is over; when a slice has finished, submits the next one.
    bool poll();
    // Submits what is left at once and waits; false when nothing was in flight.
    bool finish();
    // Waits for the slice on the GPU and submits nothing more; false when nothing was in
    // flight.
    bool cancel();
    // Every slice, one submission each, progress reported while the GPU works; then finish().
    void run(int slices, Parts parts, const Progress& progress);
    // Waits for the submission in flight, if any (before the buffers it uses go).
    void waitIdle();

    // Parts (slices, then the copy) known to be done: from the fences, never waiting.
    int finishedParts() const;
    int submissions() const { return m_submissions; }
    bool isRunning() const { return m_inFlight; }

    // Any thread: the shader stops at its next unit of work (Simulator::requestCancel).
    void requestCancel();
    bool wasCancelled() const { return m_cancelled.load(); }

    // Timestamps: a query for the start and one after each of `slots` dispatch slots, recorded
    // by the Simulator's command buffers (none on a device without timestamps).
    void resetTimer(int slots);
    vk::QueryPool* timer() const { return m_timer.get(); }
    bool hasTimestamps() const { return m_timestamps; }
    double gpuMilliseconds() const { return m_gpuMilliseconds; }
    const std::vector<double>& dispatchMilliseconds() const { return m_dispatchMilliseconds; }

  private:
    int partCount() const { return m_slices + 1; } // the slices, then the copy
    // submits parts [first, end) as one submission, fenced
    void submit(int first, int end);
    void clearCancel();
    void readTimestamps();

    const vk::Device& m_device;
    vk::Fence m_fence;
    vk::Buffer m_cancel;                            // GpuCancel, host-visible and coherent
    volatile std::uint32_t* m_cancelWord = nullptr; // its mapping
    std::atomic<bool> m_cancelled{false};

    Parts m_parts;
    int m_slices = 0;
    bool m_inFlight = false; // submitted, fence not yet waited for
    int m_nextPart = 0;      // the next part to submit
    int m_partsDone = 0;     // parts known to have finished (finishedSlices)
    int m_submissions = 0;

    bool m_timestamps = false;
    std::unique_ptr<vk::QueryPool> m_timer;
    double m_gpuMilliseconds = 0.0;
    std::vector<double> m_dispatchMilliseconds;
};

} // namespace bv::engine
