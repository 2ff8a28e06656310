#pragma once
// One Vulkan device and one Simulator for every frame of a batch: a frame costs its uploads
// (what changed since the last frame) and its dispatches; the recorded command buffer is
// reused (engine::Simulator::recordCount()). What a frame's image turns into is the products
// step's (compute/products/Products.h).

#include "compute/engine/CounterNoise.h"
#include "compute/engine/Simulator.h"
#include "compute/model/Resolve.h"
#include "compute/plan/Plan.h"
#include "compute/vk/Instance.h"

#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace bv::vk {
class Device;
}

namespace bv::headless {

class FrameRunner {
  public:
    // `instance`: one the batch's runners share, or null for one of its own
    FrameRunner(const std::string& deviceOverride, Precision precision,
                std::shared_ptr<vk::Instance> instance = nullptr);
    ~FrameRunner();
    FrameRunner(const FrameRunner&) = delete;
    FrameRunner& operator=(const FrameRunner&) = delete;

    const vk::Device& device() const { return *m_device; }
    const engine::Simulator& simulator() const { return *m_simulator; }
    // for a caller that runs it itself (Python: run with progress, requestCancel on Ctrl-C)
    engine::Simulator& simulator() { return *m_simulator; }
    // "GPU: <device>, <precision> precision" as the single run prints it
    std::string description() const;

    // Takes the plan (uploading only what changed) without running it.
    void setPlan(const ResolvedExperiment& r, const plan::Plan& plan);
    // setPlan, then run(): once setPlan returns, the plan's borrowed tables (structure
    // factors, mask) may go, for what the run needs is on the device.
    std::vector<float> run(const ResolvedExperiment& r, const plan::Plan& plan);
    // -noise_generator counter: the Poisson deviates of the image run() returned last,
    // drawn on the device from its buffer (engine::CounterNoise)
    std::vector<float> counterNoise(std::size_t pixels, random::CounterKey key);
    // Runs the recorded commands of the plan set last and reads the image back.
    std::vector<float> run();

  private:
    std::unique_ptr<vk::Device> m_device;
    std::unique_ptr<engine::Simulator> m_simulator;
    std::unique_ptr<engine::CounterNoise> m_counterNoise; // made on first use
};

struct RankPlace;

// The devices a batch renders on, one entry per FrameRunner, each as DeviceOptions'
// deviceOverride takes it ("" automatic, "cpu", "1"), from -device (or BRAGGVIEW_DEVICE when
// -device is not given): automatic -> the one best device; "all" -> every usable GPU
// (vk::chooseAllDevices); a list -> its entries, a repeat making a second runner on the same
// device. Under mpirun (place.size > 1) a rank takes one entry, the (local rank mod
// entries)th, of the list or of "all", which is also what no -device means there. Throws
// bv::Error naming -device. The devices are listed (for "all" and under mpirun) with
// `instance`, made here when it is null (after the option is read: a typo is reported as such).
std::vector<std::string> batchDevices(const std::string& option, const RankPlace& place,
                                      std::shared_ptr<vk::Instance>& instance);

// A batch's runners, one per device entry; a frame takes one that no other frame uses.
class FrameRunners {
  public:
    // The runners of batchDevices(option, place), made one after the other on one Vulkan
    // instance (which also lists the devices): an instance costs the driver 80 ms or so, and
    // devices made at once on threads of their own took longer than in turn (two H200s:
    // 420-500 ms against 350-400).
    FrameRunners(const std::string& option, const RankPlace& place, Precision precision);
    std::size_t size() const { return m_runners.size(); }
    FrameRunner& at(std::size_t i) { return *m_runners.at(i); }
    const FrameRunner& at(std::size_t i) const { return *m_runners.at(i); }

    // A runner no frame uses, the first free one in the list (so that one device renders
    // every frame when it keeps up), waiting while every one is busy; give it back with
    // release() (Lease does both).
    std::size_t acquire();
    void release(std::size_t i);
    class Lease {
      public:
        Lease(FrameRunners& r, std::size_t i) : m_runners(r), m_index(i) {}
        ~Lease() { m_runners.release(m_index); }
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        FrameRunner& runner() { return m_runners.at(m_index); }

      private:
        FrameRunners& m_runners;
        std::size_t m_index;
    };

  private:
    std::vector<std::unique_ptr<FrameRunner>> m_runners;
    std::vector<bool> m_busy;
    std::mutex m_mutex;
    std::condition_variable m_freed;
};

} // namespace bv::headless
