// braggview-check-gpu-psf: the separable Gaussian PSF on the Vulkan device (GpuPsf.h) against
// two other routes to the same numbers:
//  1. its 1-D kernel's products g(dx) g(dy) against noisify's 2-D pixel integral of the
//     Gaussian (Psf.h, psfKernel: the reference's formula), to 1e-12;
//  2. its image against a direct 2-D convolution on the host in double with that kernel over
//     the same square support, light off the image lost, to 1e-5 of the image's maximum
//     (the device sums in float), on an image of several workgroups whose sides are not
//     multiples of them (64 x 4 in the rows pass, 64 x 32 in the columns pass);
//  3. the same image when the passes run several times in one submission (how the bench
//     times them at the GPU's working clock): the same floats.
// Exit 0 when both hold; prints the worst differences.
#include "compute/core/Error.h"
#include "compute/detector_response/GpuPsf.h"
#include "compute/detector_response/Psf.h"
#include "compute/vk/Device.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

int main() {
    using namespace bv::detector;
    try {
        int status = 0;
        for (const double fwhm : {0.7, 2.2, 3.0}) {
            const int r = gaussianPsfRadius(fwhm);
            const std::vector<double> g = gaussianPsfKernel1D(fwhm, r);
            double worstKernel = 0.0, total = 0.0;
            for (int dy = -r; dy <= r; ++dy)
                for (int dx = -r; dx <= r; ++dx) {
                    const double separable = g[dx + r] * g[dy + r];
                    total += separable;
                    worstKernel =
                        std::max(worstKernel,
                                 std::fabs(separable - psfKernel(PsfShape::Gauss, fwhm, dx, dy)));
                }
            std::printf("fwhm %g: radius %d, kernel total %.15f, worst |g g - noisify's| %.3g\n",
                        fwhm, r, total, worstKernel);
            if (worstKernel > 1e-12 || std::fabs(total - 1.0) > 1e-9)
                status = 1;
        }

        const int w = 157, h = 101;
        std::vector<float> image(static_cast<std::size_t>(w) * h);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                image[static_cast<std::size_t>(y) * w + x] = static_cast<float>(
                    ((x * 37 + y * 91) % 113) + ((x == 70 && y == 40) ? 5000 : 0) +
                    ((x == 1 && y == h - 2) ? 3000 : 0));
        const bv::vk::Device device;
        for (const double fwhm : {1.0, 3.0, 6.0}) {
            const std::vector<float> gpu = gaussianPsfOnDevice(device, image, w, h, fwhm);
            GaussianPsfPass repeated(device);
            double ms = 0.0;
            if (repeated.apply(image, w, h, fwhm, &ms, 3) != gpu) {
                std::printf("fwhm %g: three passes in one submission give another image\n", fwhm);
                status = 1;
            }
            const int r = gaussianPsfRadius(fwhm);
            const std::vector<double> g = gaussianPsfKernel1D(fwhm, r);
            double worst = 0.0, peak = 0.0;
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x) {
                    double sum = 0.0;
                    for (int dy = -r; dy <= r; ++dy)
                        for (int dx = -r; dx <= r; ++dx) {
                            const int sx = x - dx, sy = y - dy;
                            if (sx >= 0 && sx < w && sy >= 0 && sy < h)
                                sum += image[static_cast<std::size_t>(sy) * w + sx] * g[dx + r] *
                                       g[dy + r];
                        }
                    peak = std::max(peak, sum);
                    worst =
                        std::max(worst, std::fabs(sum - gpu[static_cast<std::size_t>(y) * w + x]));
                }
            std::printf("fwhm %g on %s: worst |device - host 2-D| / max = %.3g\n", fwhm,
                        device.description().c_str(), worst / peak);
            if (!(worst / peak <= 1e-5))
                status = 1;
        }
        std::printf("%s\n", status == 0 ? "PASS" : "FAIL");
        return status;
    } catch (const bv::Error& e) {
        std::fprintf(stderr, "braggview-check-gpu-psf: %s\n", e.what());
        return 2;
    }
}
