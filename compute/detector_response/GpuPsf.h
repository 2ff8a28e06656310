#pragma once
// The Gaussian point spread function on a Vulkan device: two passes of shaders/psf_gauss.comp
// (rows, then columns) with the pixel-integrated kernel g(dx) g(dy), which is noisify's
// Gaussian kernel exactly (Psf.h). Not noisify's scatter: its square support has the fixed
// radius below for every pixel (noisify's disc shrinks with the pixel's photons), and light
// that falls off the image is lost rather than spread back evenly. docs/detector-response.md.
//
//     std::vector<float> out = detector::gaussianPsfOnDevice(device, image, w, h, 3.0);
#include "compute/vk/ComputePass.h"

#include <memory>
#include <vector>

namespace bv::vk {
class Device;
}

namespace bv::detector {

// The radius rule: ceil(3 fwhm) pixels, at least 1; the Gaussian's weight beyond it is below
// 2e-12 of the total (3 fwhm = 7.1 sigma).
int gaussianPsfRadius(double fwhmPixels);

// The 1-D kernel, 2r + 1 weights for offsets -r..r: (erf(a(d + 1/2)) - erf(a(d - 1/2))) / 2
// with a = sqrt(ln 16) / fwhm.
std::vector<double> gaussianPsfKernel1D(double fwhmPixels, int radius);

// Owns the pipeline and the image's buffers in the GPU's memory (kept between calls: a series
// blurs frames of one size, and memory fresh from the driver is slower at its first touch);
// borrows the device, which must outlive it.
class GaussianPsfPass {
  public:
    explicit GaussianPsfPass(const vk::Device& device);
    ~GaussianPsfPass();
    // Throws bv::Error for a width that is not positive and finite or wider than the image,
    // an image of the wrong size, and on a Vulkan failure. `gpuMilliseconds`: the two
    // passes' time (when the queue has timestamps). `timedRepeats` > 1 (benches) runs the
    // two passes that many times back to back in one submission, the same image each time,
    // and gives their mean: a single pass of a fraction of a millisecond after tens of
    // milliseconds of host work runs at whatever clock the GPU has dropped to meanwhile
    // (docs/performance.md, session 10).
    std::vector<float> apply(const std::vector<float>& image, int width, int height,
                             double fwhmPixels, double* gpuMilliseconds = nullptr,
                             int timedRepeats = 1);

  private:
    struct Buffers;
    const vk::Device& m_device;
    std::unique_ptr<vk::ComputePass> m_pass;
    std::unique_ptr<Buffers> m_buffers; // for the last call's image and kernel sizes
};

// One call on a pass made for it.
std::vector<float> gaussianPsfOnDevice(const vk::Device& device, const std::vector<float>& image,
                                       int width, int height, double fwhmPixels,
                                       double* gpuMilliseconds = nullptr);

} // namespace bv::detector
