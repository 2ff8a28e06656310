#include "app/DetectorSignal.h"

#include "compute/amorphous/Background.h"
#include "compute/detector_response/GpuPsf.h"
#include "compute/detector_response/Psf.h"

#include <sstream>

namespace bv::app {

DetectorSignal::DetectorSignal(const vk::Device& device) : m_device(device) {}

DetectorSignal::~DetectorSignal() = default;

bool DetectorSignal::changesImage(const Experiment& e) {
    return !e.background.material.empty() || (e.response.enabled && !e.response.psf.empty());
}

DetectorSignal::Images DetectorSignal::make(std::vector<float> bragg,
                                            const ResolvedExperiment& resolved, int width,
                                            int height, const Experiment& e, bool fast) {
    Images out;
    out.photons = std::move(bragg);
    const BackgroundRequest& b = e.background;
    if (!b.material.empty())
        amorphous::addBackground(out.photons, resolved,
                                 {b.material, b.thickness, b.density, b.molecularWeight}, width,
                                 height, &m_device, fast);
    const ResponseRequest& q = e.response;
    if (!q.enabled || q.psf.empty()) {
        out.shown = out.photons;
        return out;
    }
    const double fwhmPixels = q.psfFwhm / resolved.panels.front().pixelSize;
    if (q.psf == "gauss") {
        if (!m_psf)
            m_psf = std::make_unique<detector::GaussianPsfPass>(m_device);
        out.shown = m_psf->apply(out.photons, width, height, fwhmPixels);
    } else {
        std::ostringstream log; // noisify's lines about the radius: not shown
        out.shown = detector::applyPsf(
            out.photons, width, height,
            detector::PsfSettings{detector::PsfShape::Fiber, fwhmPixels, q.psfRadius}, log);
    }
    return out;
}

VkBuffer DetectorSignal::upload(const std::vector<float>& shown) {
    const VkDeviceSize bytes = shown.size() * sizeof(float);
    if (!m_buffer || m_buffer->size() != bytes)
        m_buffer = std::make_unique<vk::Buffer>(m_device, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                vk::MemoryUse::Upload,
                                                "the image with its background and response");
    m_buffer->write(shown.data(), bytes);
    return m_buffer->handle();
}

} // namespace bv::app
