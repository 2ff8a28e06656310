#include "app/DetectorSignal.h"

#include "compute/amorphous/Background.h"
#include "compute/detector_response/GpuPsf.h"
#include "compute/detector_response/Psf.h"

#include <sstream>

namespace bv::app {

namespace {

// What the background of `run` depends on (compute/amorphous/Background.cpp's setup), as
// numbers: equal keys give the same layer.
std::vector<double> backgroundKey(const ResolvedExperiment& run, const BackgroundRequest& b,
                                  bool fast) {
    std::vector<double> k = {b.thickness, b.density, b.molecularWeight, fast ? 1.0 : 0.0,
                             run.kahnFactor, run.polarization ? 1.0 : 0.0,
                             run.pointPixel ? 1.0 : 0.0, run.curved ? 1.0 : 0.0,
                             static_cast<double>(run.oversample), run.fluence, run.beamSize,
                             static_cast<double>(run.roi.xmin), static_cast<double>(run.roi.xmax),
                             static_cast<double>(run.roi.ymin), static_cast<double>(run.roi.ymax)};
    const auto add = [&k](const glm::dvec3& v) { k.insert(k.end(), {v.x, v.y, v.z}); };
    add(run.axes.beam);
    add(run.axes.polarization);
    for (const PanelGeometry& p : run.panels) {
        k.insert(k.end(), {p.pixelSize, static_cast<double>(p.fastPixels),
                           static_cast<double>(p.slowPixels)});
        add(p.pix0);
        add(p.fdet);
        add(p.sdet);
        add(p.odet);
    }
    for (const Source& s : run.sources) {
        add(s.direction);
        k.push_back(s.wavelength);
    }
    return k;
}

} // namespace

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
    if (!b.material.empty()) {
        std::vector<double> key = backgroundKey(resolved, b, fast);
        if (key != m_backgroundKey || b.material != m_backgroundMaterial ||
            m_background.size() != out.photons.size()) {
            m_background.clear(); // a failure below leaves no stale layer
            m_backgroundKey.clear();
            m_background = amorphous::backgroundImage(
                resolved, {b.material, b.thickness, b.density, b.molecularWeight}, width, height,
                &m_device, fast);
            m_backgroundKey = std::move(key);
            m_backgroundMaterial = b.material;
            ++m_backgroundsComputed;
        }
        for (std::size_t i = 0; i < out.photons.size() && i < m_background.size(); ++i)
            out.photons[i] += m_background[i];
    }
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
