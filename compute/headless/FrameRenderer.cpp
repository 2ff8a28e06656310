#include "compute/headless/FrameRenderer.h"

#include "compute/engine/SerialOrder.h"
#include "compute/vk/Device.h"

namespace bv::headless {

FrameRenderer::FrameRenderer(const std::string& deviceOverride, Precision precision) {
    vk::DeviceOptions deviceOptions;
    deviceOptions.deviceOverride = deviceOverride;
    m_device = std::make_unique<vk::Device>(deviceOptions);
    engine::SimulatorOptions options;
    options.precision = precision;
    m_simulator = std::make_unique<engine::Simulator>(*m_device, options);
}

FrameRenderer::~FrameRenderer() = default;

std::string FrameRenderer::description() const {
    return "GPU: " + m_device->description() + ", " +
           engine::precisionName(m_simulator->precision()) + " precision" +
           (m_device->validationEnabled() ? ", Vulkan validation on" : "");
}

void FrameRenderer::setPlan(const ResolvedExperiment& r, const plan::Plan& plan) {
    // the reference's serial loop, as run by as many OpenMP threads as OMP_NUM_THREADS says
    m_simulator->setPlan(plan, {engine::phiAngles(r), engine::referenceThreads()});
}

std::vector<float> FrameRenderer::render(const ResolvedExperiment& r, const plan::Plan& plan) {
    setPlan(r, plan);
    m_simulator->run();
    return m_simulator->image();
}

std::vector<float> FrameRenderer::counterNoise(std::size_t pixels, random::CounterKey key) {
    if (!m_counterNoise)
        m_counterNoise = std::make_unique<engine::CounterNoise>(*m_device);
    return m_counterNoise->deviates(m_simulator->imageBuffer(), pixels, key);
}

} // namespace bv::headless
