#include "compute/headless/FrameRunner.h"

#include "compute/core/Error.h"
#include "compute/headless/Ranks.h"
#include "compute/run/PreparedRun.h"
#include "compute/vk/Device.h"

#include <cstdlib>

namespace bv::headless {

FrameRunner::FrameRunner(const std::string& deviceOverride, Precision precision,
                         std::shared_ptr<vk::Instance> instance) {
    vk::DeviceOptions deviceOptions;
    deviceOptions.deviceOverride = deviceOverride;
    deviceOptions.instance = std::move(instance);
    m_device = std::make_unique<vk::Device>(deviceOptions);
    engine::SimulatorOptions options;
    options.precision = precision;
    options.watched = false; // larger slices on a GPU
    m_simulator = std::make_unique<engine::Simulator>(*m_device, options);
}

FrameRunner::~FrameRunner() = default;

std::string FrameRunner::description() const {
    return "GPU: " + m_device->description() + ", " +
           engine::precisionName(m_simulator->precision()) + " precision" +
           (m_device->validationEnabled() ? ", Vulkan validation on" : "");
}

void FrameRunner::setPlan(const ResolvedExperiment& r, const plan::Plan& plan) {
    // the reference's serial loop, as run by as many OpenMP threads as OMP_NUM_THREADS says
    run::setPlan(*m_simulator, r, plan);
}

std::vector<float> FrameRunner::run(const ResolvedExperiment& r, const plan::Plan& plan) {
    setPlan(r, plan);
    return run();
}

std::vector<float> FrameRunner::run() {
    m_simulator->run();
    return m_simulator->image();
}

std::vector<float> FrameRunner::counterNoise(std::size_t pixels, random::CounterKey key) {
    if (!m_counterNoise)
        m_counterNoise = std::make_unique<engine::CounterNoise>(*m_device);
    return m_counterNoise->deviates(m_simulator->imageBuffer(), pixels, key);
}

std::vector<std::string> batchDevices(const std::string& option, const RankPlace& place,
                                      std::shared_ptr<vk::Instance>& instance) {
    const char* environment = std::getenv("BRAGGVIEW_DEVICE");
    const bool fromOption = !option.empty();
    const std::string text = fromOption ? option : (environment ? environment : "");
    const vk::DeviceList list =
        vk::parseDeviceList(text, fromOption ? "-device" : "BRAGGVIEW_DEVICE").value();
    const bool ranks = place.size > 1;
    if (!list.all && list.entries.empty() && !ranks)
        return {""}; // the one device chooseDevice picks
    std::vector<std::string> devices;
    if (list.all || list.entries.empty()) {
        if (!instance)
            instance = std::make_shared<vk::Instance>();
        const std::vector<std::size_t> all = vk::chooseAllDevices(vk::listDevices(*instance)).value();
        for (std::size_t index : all)
            devices.push_back(std::to_string(index));
    } else {
        for (const vk::DeviceOverride& entry : list.entries)
            devices.push_back(entry.kind == vk::DeviceOverride::Kind::Cpu
                                  ? std::string("cpu")
                                  : std::to_string(entry.index));
    }
    if (ranks) // one device per rank, the ranks of a node spread over its devices
        return {devices[static_cast<std::size_t>(place.localRank) % devices.size()]};
    return devices;
}

FrameRunners::FrameRunners(const std::string& option, const RankPlace& place,
                           Precision precision) {
    std::shared_ptr<vk::Instance> instance;
    const std::vector<std::string> devices = batchDevices(option, place, instance);
    if (!instance)
        instance = std::make_shared<vk::Instance>();
    for (const std::string& device : devices)
        m_runners.push_back(std::make_unique<FrameRunner>(device, precision, instance));
    m_busy.assign(m_runners.size(), false);
}

std::size_t FrameRunners::acquire() {
    std::unique_lock<std::mutex> lock(m_mutex);
    for (;;) {
        for (std::size_t i = 0; i < m_busy.size(); ++i)
            if (!m_busy[i]) {
                m_busy[i] = true;
                return i;
            }
        m_freed.wait(lock);
    }
}

void FrameRunners::release(std::size_t i) {
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_busy.at(i) = false;
    }
    m_freed.notify_all();
}

} // namespace bv::headless
