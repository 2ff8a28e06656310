#pragma once
// DetectorSignal: what the viewer shows of a run beyond its Bragg image, and where the window
// reads it. The amorphous background (-background) is added to the image, as the headless run
// adds it before its files; a detector response with a point spread function (-response_psf)
// spreads the photons shown by it. The response's noise terms (flicker, calibration, Poisson,
// readout) and its gain are not drawn on the live image: they are what the exported noise
// image holds (docs/detector-response.md, "In the viewer"). So the image shown stays in
// photons per pixel, deterministic, and is the headless float image when no PSF is set.
//
//     DetectorSignal signal(device);
//     if (DetectorSignal::changesImage(experiment)) {
//         DetectorSignal::Images out = signal.make(braggImage, resolved, w, h, experiment, fast);
//         VkBuffer shown = signal.upload(out.shown); // the window draws this buffer
//     }
//
// Qt-free; borrows the device (the image window's), which must outlive it.

#include "compute/model/Experiment.h"
#include "compute/model/Resolve.h"
#include "compute/vk/Buffer.h"

#include <memory>
#include <string>
#include <vector>

namespace bv::detector {
class GaussianPsfPass;
}

namespace bv::app {

class DetectorSignal {
  public:
    explicit DetectorSignal(const vk::Device& device);
    ~DetectorSignal();

    // whether the image shown differs from the Bragg image: a background, or a response
    // with a point spread function
    static bool changesImage(const Experiment& experiment);

    struct Images {
        std::vector<float> photons; // Bragg + background: the float image of the headless run
        std::vector<float> shown;   // photons through the PSF (photons itself without one)
    };
    // The background on the device (float when `fast`, else double where the device has it),
    // the Gaussian PSF on the device (GaussianPsfPass: the fixed radius 3 fwhm), the fibre
    // PSF on the host (noisify's scatter, its -response_psf_radius). Throws bv::Error (a bad
    // .stol file, a curved detector, a PSF wider than the image).
    Images make(std::vector<float> bragg, const ResolvedExperiment& resolved, int width,
                int height, const Experiment& experiment, bool fast);

    // `shown` into a buffer of the device the window can draw (reused while the size stays);
    // the caller makes sure no frame reads the buffer meanwhile.
    VkBuffer upload(const std::vector<float>& shown);
    VkBuffer buffer() const { return m_buffer ? m_buffer->handle() : VK_NULL_HANDLE; }

    // backgrounds computed (not taken from the cache), for the tests
    int backgroundsComputed() const { return m_backgroundsComputed; }

  private:
    const vk::Device& m_device;
    // The last background and what it was computed from (every value of the run and the
    // layer that nonBragg's loop reads): a change of the crystal, the most common slider,
    // reuses it; on lavapipe a 512 x 512 layer with 5 x 5 sub-pixels takes seconds.
    std::vector<double> m_backgroundKey;
    std::string m_backgroundMaterial;
    std::vector<float> m_background;
    int m_backgroundsComputed = 0;
    std::unique_ptr<detector::GaussianPsfPass> m_psf;
    std::unique_ptr<vk::Buffer> m_buffer;
};

} // namespace bv::app
