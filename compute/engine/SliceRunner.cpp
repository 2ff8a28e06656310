#include "compute/engine/SliceRunner.h"

#include "compute/engine/GpuLayout.h"
#include "compute/vk/Check.h"
#include "compute/vk/Device.h"

#include <algorithm>
#include <limits>

namespace bv::engine {

SliceRunner::SliceRunner(const vk::Device& device)
    : m_device(device), m_fence(device),
      // host-visible and coherent: written by the host while the shader runs (requestCancel)
      m_cancel(device, sizeof(GpuCancel), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
               vk::MemoryUse::HostSignal, "the cancel word") {
    m_cancelWord = static_cast<volatile std::uint32_t*>(m_cancel.map());
    *m_cancelWord = 0u;
    m_timestamps = device.timestampValidBits() > 0;
}

SliceRunner::~SliceRunner() {
    waitIdle();
}

void SliceRunner::waitIdle() {
    // nothing may be in flight when the buffers go (run() waits, unless it was interrupted by
    // an exception)
    if (m_inFlight && m_fence.handle() != VK_NULL_HANDLE) {
        const VkFence fence = m_fence.handle();
        vkWaitForFences(m_device.handle(), 1, &fence, VK_TRUE,
                        std::numeric_limits<std::uint64_t>::max());
    }
}

int SliceRunner::finishedParts() const {
    // From the fences, not the timestamp queries: reading the query of a slice still on the
    // device blocks on lavapipe, which froze the viewer's GUI thread for the length of a long
    // slice (docs/robustness.md, A3). The parts before the last submission are done (each
    // submission waits for the one before); the last one's are when its fence is signaled.
    return m_inFlight && m_fence.isSignaled() ? m_nextPart : m_partsDone;
}

void SliceRunner::submit(int first, int end) {
    const std::vector<VkCommandBuffer> buffers = m_parts(first, end);
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

void SliceRunner::start(int slices, Parts parts) {
    m_slices = slices;
    m_parts = std::move(parts);
    m_submissions = 0;
    clearCancel();
    submit(0, 1);
}

bool SliceRunner::poll() {
    if (!m_inFlight)
        return true;
    if (!m_fence.isSignaled())
        return false;
    if (m_nextPart < partCount()) {
        submit(m_nextPart, m_nextPart + 1); // one slice at a time: a caller may stop here
        return false;
    }
    return true;
}

bool SliceRunner::finish() {
    if (!m_inFlight)
        return false;
    m_fence.wait();
    if (m_nextPart < partCount()) {
        submit(m_nextPart, partCount());
        m_fence.wait();
    }
    m_inFlight = false;
    m_partsDone = m_nextPart;
    readTimestamps();
    return true;
}

bool SliceRunner::cancel() {
    if (!m_inFlight)
        return false;
    m_fence.wait();
    m_inFlight = false;
    m_partsDone = m_nextPart;
    m_nextPart = partCount();
    return true;
}

void SliceRunner::run(int slices, Parts parts, const Progress& progress) {
    // one submission per slice (the last one with the copy), so that no single submission
    // holds the GPU for longer than a slice; progress is reported as slices finish
    m_slices = slices;
    m_parts = std::move(parts);
    m_submissions = 0;
    clearCancel();
    const int total = m_slices;
    for (int slice = 0; slice < total; ++slice) {
        submit(slice, slice + 1 == total ? partCount() : slice + 1);
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
                progress(std::min(finishedParts(), total), total);
            }
            progress(slice + 1, total);
        } else {
            m_fence.wait();
        }
    }
    finish();
}

void SliceRunner::clearCancel() {
    *m_cancelWord = 0u; // made visible to the device by the submission that follows
    m_cancelled.store(false);
}

void SliceRunner::requestCancel() {
    m_cancelled.store(true);
    *m_cancelWord = 1u; // host-coherent: the shader's next read of the word sees it...
    // ...once it has left the CPU: a GPU's host-visible memory is often write-combined (the
    // H100's is), and a lone store can wait in a write-combining buffer; a full fence drains
    // it (mfence on x86)
    std::atomic_thread_fence(std::memory_order_seq_cst);
}

void SliceRunner::resetTimer(int slots) {
    m_timer.reset();
    if (m_timestamps)
        m_timer = std::make_unique<vk::QueryPool>(m_device, static_cast<std::uint32_t>(slots + 1));
    m_dispatchMilliseconds.clear();
    m_gpuMilliseconds = 0.0;
}

void SliceRunner::readTimestamps() {
    m_dispatchMilliseconds.clear();
    m_gpuMilliseconds = 0.0;
    if (!m_timer)
        return;
    // the slots after the active slices were not submitted: their queries hold nothing
    const std::vector<std::uint64_t> ticks = m_timer->ticks(static_cast<std::uint32_t>(m_slices) + 1);
    const std::uint32_t bits = m_device.timestampValidBits();
    const float period = m_device.info().limits.timestampPeriod;
    const std::size_t last = static_cast<std::size_t>(m_slices); // unused slots follow
    for (std::size_t i = 1; i <= last; ++i)
        m_dispatchMilliseconds.push_back(
            vk::timestampMilliseconds(ticks[i - 1], ticks[i], bits, period));
    m_gpuMilliseconds = vk::timestampMilliseconds(ticks[0], ticks[last], bits, period);
}

} // namespace bv::engine
