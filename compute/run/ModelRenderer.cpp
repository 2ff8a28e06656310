#include "compute/run/ModelRenderer.h"

#include "compute/core/Error.h"
#include "compute/random/ReferenceRandom.h"
#include "compute/run/PreparedRun.h"

#include <chrono>
#include <sstream>

namespace bv::run {

namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point& mark) {
    const Clock::time_point now = Clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - mark).count();
    mark = now;
    return ms;
}

} // namespace

ModelRenderer::ModelRenderer(engine::Simulator& simulator)
    : m_simulator(simulator), m_gather(simulator.device()) {}

void ModelRenderer::setPlanFor(const Experiment& e, const std::vector<std::uint16_t>& mask,
                               engine::Simulator::PlanInputs inputs) {
    Clock::time_point mark = Clock::now();
    random::ReferenceRandom rng; // as prepareQuietly: the run's own generator, warnings dropped
    std::ostringstream quiet;
    const PreparedRun prepared = prepare(e, mask, rng, quiet, [&](const ResolvedExperiment&) {
        m_times.resolve += millisecondsSince(mark);
    });
    m_times.plan += millisecondsSince(mark);
    m_simulator.setPlan(prepared.plan, referenceLoop(prepared.resolved), inputs);
    m_times.setPlan += millisecondsSince(mark);
    m_runStart = mark; // the run follows at once
}

void ModelRenderer::prepareImage(const Experiment& e) {
    m_simulator.setImageReadback(true);
    setPlanFor(e, e.mask, engine::Simulator::PlanInputs::Compared);
    m_maskUploaded = false;
    m_rendering = Rendering::Image;
}

void ModelRenderer::preparePixels(const Experiment& e) {
    if (m_mask.empty())
        throw Error("a fit's pixels were rendered before they were chosen (internal error)");
    m_simulator.setImageReadback(false);
    // the first rendering with the chosen pixels' mask compares and uploads it; the next ones
    // have the same mask and structure factors (the class's contract)
    setPlanFor(e, m_mask,
               m_maskUploaded ? engine::Simulator::PlanInputs::Same
                              : engine::Simulator::PlanInputs::Compared);
    m_maskUploaded = true;
    m_rendering = Rendering::Pixels;
}

std::vector<float> ModelRenderer::readBack() {
    Clock::time_point mark = m_runStart;
    m_times.run += millisecondsSince(mark);
    m_times.gpu += m_simulator.gpuMilliseconds();
    ++m_times.renderings;
    const Rendering rendering = m_rendering;
    m_rendering = Rendering::None;
    std::vector<float> values;
    if (rendering == Rendering::Image) {
        values = m_simulator.image();
        m_imagePixels = values.size();
    } else {
        values = m_gather.values(m_simulator.imageBuffer());
        m_simulator.setImageReadback(true);
    }
    m_times.readBack += millisecondsSince(mark);
    return values;
}

std::vector<float> ModelRenderer::image(const Experiment& e) {
    prepareImage(e);
    m_simulator.run();
    return readBack();
}

std::vector<float> ModelRenderer::pixels(const Experiment& e) {
    preparePixels(e);
    m_simulator.run();
    return readBack();
}

void ModelRenderer::startImage(const Experiment& e) {
    prepareImage(e);
    m_simulator.start();
}

void ModelRenderer::startPixels(const Experiment& e) {
    preparePixels(e);
    m_simulator.start();
}

std::vector<float> ModelRenderer::finish() {
    if (m_rendering == Rendering::None)
        throw Error("a fit's rendering was finished before it was started (internal error)");
    m_simulator.finish();
    return readBack();
}

void ModelRenderer::setPixels(const std::vector<std::size_t>& pixels) {
    if (m_imagePixels == 0)
        throw Error("the pixels of a fit were chosen before its first image (internal error)");
    m_mask.assign(m_imagePixels, 0);
    std::vector<std::uint32_t> indices;
    indices.reserve(pixels.size());
    for (std::size_t i : pixels) {
        if (i >= m_imagePixels)
            throw Error("a fitted pixel lies outside the image (internal error)");
        m_mask[i] = 1;
        indices.push_back(static_cast<std::uint32_t>(i));
    }
    m_gather.setPixels(indices);
    m_maskUploaded = false;
}

} // namespace bv::run
