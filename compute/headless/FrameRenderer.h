#pragma once
// One Vulkan device and one Simulator for every frame of a batch: a frame costs its uploads
// (what changed since the last frame) and its dispatches; the recorded command buffer is
// reused (engine::Simulator::recordCount()). What a frame's image turns into is the products
// step's (compute/products/Products.h).

#include "compute/engine/CounterNoise.h"
#include "compute/engine/Simulator.h"
#include "compute/model/Resolve.h"
#include "compute/plan/Plan.h"

#include <memory>
#include <string>
#include <vector>

namespace bv::vk {
class Device;
}

namespace bv::headless {

class FrameRenderer {
  public:
    FrameRenderer(const std::string& deviceOverride, Precision precision);
    ~FrameRenderer();
    FrameRenderer(const FrameRenderer&) = delete;
    FrameRenderer& operator=(const FrameRenderer&) = delete;

    const vk::Device& device() const { return *m_device; }
    const engine::Simulator& simulator() const { return *m_simulator; }
    // "GPU: <device>, <precision> precision" as the single run prints it
    std::string description() const;

    // Takes the plan (uploading only what changed) without rendering it.
    void setPlan(const ResolvedExperiment& r, const plan::Plan& plan);
    // setPlan, then runs the recorded commands and reads the image back.
    std::vector<float> render(const ResolvedExperiment& r, const plan::Plan& plan);
    // -noise_generator counter: the Poisson deviates of the image render() returned last,
    // drawn on the device from its buffer (engine::CounterNoise)
    std::vector<float> counterNoise(std::size_t pixels, random::CounterKey key);

  private:
    std::unique_ptr<vk::Device> m_device;
    std::unique_ptr<engine::Simulator> m_simulator;
    std::unique_ptr<engine::CounterNoise> m_counterNoise; // made on first use
};

} // namespace bv::headless
