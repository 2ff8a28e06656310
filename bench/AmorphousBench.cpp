// braggview-bench-amorphous [SIZE] [FWHM] [REPEATS]: what the amorphous background and the
// Gaussian PSF cost on a SIZE x SIZE detector (default 4096, fwhm 3 pixels, 5 repeats):
// nonBragg's water image on the Vulkan device in both precisions and on the host's threads,
// then the separable PSF on the device, alone and 50 times back to back (its mean), each group
// after two seconds of passes that bring the GPU to its working clock (holdWorkingClock). GPU
// time from timestamps, wall time around the call (buffers, upload and readback included),
// median of the repeats after one warm-up.
// Numbers go to docs/performance.md, never into tests.
#include "compute/amorphous/AmorphousGpu.h"
#include "compute/amorphous/AmorphousImage.h"
#include "compute/amorphous/NonBraggSetup.h"
#include "compute/core/Error.h"
#include "compute/detector_response/GpuPsf.h"
#include "compute/vk/Device.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

// runs `work` (which returns GPU ms, or a negative number) repeats + 1 times; prints medians
void measure(const char* what, int repeats, const std::function<double()>& work) {
    std::vector<double> gpu, wall;
    for (int i = 0; i <= repeats; ++i) {
        const auto start = std::chrono::steady_clock::now();
        const double g = work();
        const double w =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        if (i == 0)
            continue; // warm-up: pipeline creation, first allocation
        wall.push_back(w);
        if (g >= 0.0)
            gpu.push_back(g);
    }
    std::printf("%-44s wall %9.3f ms", what, median(wall));
    if (!gpu.empty())
        std::printf("   GPU %9.3f ms", median(gpu));
    std::printf("\n");
}

// The GPU's governor lowers its SM clock after about a second of light use (on an H200 from
// 1980 to 525-570 MHz) and raises it again in steps of ~180 MHz every ~0.2 s of load; a
// pass of a fraction of a millisecond between the host's tens of milliseconds of copying is
// light use. So before each group of timings the GPU is held busy for two seconds with
// blocks of passes back to back: what follows is timed at the clock it works at beside a
// Bragg image or in a series (docs/performance.md, session 10, with the clock logged).
// Nothing on a CPU device (lavapipe), where 200 passes would take minutes.
void holdWorkingClock(const bv::vk::Device& device, bv::detector::GaussianPsfPass& pass,
                      const std::vector<float>& image, int size, double fwhm) {
    if (device.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU)
        return;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (std::chrono::steady_clock::now() < until)
        (void)pass.apply(image, size, size, fwhm, nullptr, 200);
}

} // namespace

int main(int argc, char** argv) {
    const int size = argc > 1 ? std::atoi(argv[1]) : 4096;
    const double fwhm = argc > 2 ? std::atof(argv[2]) : 3.0;
    const int repeats = argc > 3 ? std::atoi(argv[3]) : 5;
    try {
        using namespace bv;
        const amorphous::NonBraggSetup setup = amorphous::setUpNonBragg(
            amorphous::parseNonBraggArguments({"-stol", "water", "-detpixels", std::to_string(size),
                                               "-pixel", "0.1", "-distance", "200"}));
        const vk::Device device;
        std::printf("braggview-bench-amorphous: %d x %d pixels, water (%zu spline points), fwhm %g "
                    "pixels, on %s\n",
                    size, size, setup.spline.points(), fwhm, device.description().c_str());
        std::vector<float> image(static_cast<std::size_t>(size) * size, 1.0f);
        detector::GaussianPsfPass psf(device);
        holdWorkingClock(device, psf, image, size, fwhm);
        if (device.float64Enabled()) {
            amorphous::AmorphousPass precise(device, amorphous::AmorphousPrecision::Precise);
            measure("background, device, precise (double)", repeats, [&] {
                double ms = -1.0;
                image = precise.render(setup, &ms).pixels;
                return ms;
            });
        }
        amorphous::AmorphousPass fast(device, amorphous::AmorphousPrecision::Fast);
        holdWorkingClock(device, psf, image, size, fwhm);
        measure("background, device, fast (float)", repeats, [&] {
            double ms = -1.0;
            image = fast.render(setup, &ms).pixels;
            return ms;
        });
        measure("background, host threads (double)", std::min(repeats, 2), [&] {
            image = amorphous::renderAmorphous(setup).pixels;
            return -1.0;
        });
        holdWorkingClock(device, psf, image, size, fwhm);
        measure("gaussian PSF, device (two passes)", repeats, [&] {
            double ms = -1.0;
            (void)psf.apply(image, size, size, fwhm, &ms);
            return ms;
        });
        // the same passes 50 times back to back in one submission, their mean
        measure("gaussian PSF, device, 50 back to back", repeats, [&] {
            double ms = -1.0;
            (void)psf.apply(image, size, size, fwhm, &ms, 50);
            return ms;
        });
        return 0;
    } catch (const bv::Error& e) {
        std::fprintf(stderr, "braggview-bench-amorphous: %s\n", e.what());
        return 1;
    }
}
