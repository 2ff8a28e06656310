// What a frame's noise costs (docs/numerics/counter-noise.md, "Cost"): the reference's serial
// generator (io::noiseImage), the counter generator on the CPU (1 and all threads) and on the
// device (engine::CounterNoise: one dispatch on the image buffer, read back), for a float image
// given on the command line scaled to a few mean levels. Median of 7 after one warm-up. Then
// the identity on this device: 4 million pixels' deviates from the device against the CPU's
// bits (exit status 1 when any differs).
//
//   braggview-bench-noise floatimage.bin 512 512 [device]

#include "compute/engine/CounterNoise.h"
#include "compute/io/FloatImageFile.h"
#include "compute/io/NoiseImage.h"
#include "compute/random/CounterRandom.h"
#include "compute/vk/Buffer.h"
#include "compute/vk/Device.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

double medianMs(const std::function<void()>& work) {
    work(); // warm-up (pipeline, caches)
    std::vector<double> ms;
    for (int i = 0; i < 7; ++i) {
        const auto start = std::chrono::steady_clock::now();
        work();
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[3];
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s floatimage.bin width height [device]\n", argv[0]);
        return 2;
    }
    const int width = std::stoi(argv[2]), height = std::stoi(argv[3]);
    const std::vector<float> base =
        bv::io::readFloatImage(argv[1], static_cast<std::size_t>(width) * height);
    bv::vk::DeviceOptions options;
    options.deviceOverride = argc > 4 ? argv[4] : "";
    const bv::vk::Device device(options);
    bv::engine::CounterNoise gpu(device);
    std::printf("device: %s; CPU threads: %u\n", device.description().c_str(),
                std::thread::hardware_concurrency());
    std::printf("%10s %12s %14s %14s %14s\n", "scale", "mean photons", "reference ms",
                "counter CPU ms", "counter GPU ms");
    for (const float scale : {1.0f, 100.0f, 10000.0f}) {
        std::vector<float> image = base;
        double sum = 0;
        for (float& v : image) {
            v *= scale;
            sum += v;
        }
        bv::vk::Buffer buffer(device, image.size() * sizeof(float),
                              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, bv::vk::MemoryUse::Upload,
                              "the bench image");
        buffer.write(image.data(), image.size() * sizeof(float));
        const bv::io::Roi roi{0, width - 1, 0, height - 1};
        const bv::random::CounterKey key = bv::random::counterKey(-1, 0);
        const double reference = medianMs([&] {
            bv::random::ReferenceRandom rng;
            long seed = -1;
            bv::io::noiseImage(rng, seed, image, width, height, 40.0, roi);
        });
        const double cpu1 = medianMs([&] { bv::random::counterPoissonImage(image, key, 1); });
        const double cpuAll = medianMs([&] { bv::random::counterPoissonImage(image, key, 0); });
        const double onDevice = medianMs([&] { gpu.deviates(buffer.handle(), image.size(), key); });
        std::printf("%10g %12.4g %14.2f %7.2f/%-6.2f %14.2f\n", double(scale),
                    sum / double(image.size()), reference, cpu1, cpuAll, onDevice);
    }
    // the identity on this device: 2^22 pixels of means log-spaced from 0.01 to 1e9
    std::vector<float> means(std::size_t{1} << 22);
    for (std::size_t i = 0; i < means.size(); ++i)
        means[i] = static_cast<float>(0.01 * std::pow(1.0e11, double(i % 65521) / 65520.0));
    bv::vk::Buffer buffer(device, means.size() * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                          bv::vk::MemoryUse::Upload, "the identity check's means");
    buffer.write(means.data(), means.size() * sizeof(float));
    const bv::random::CounterKey key = bv::random::counterKey(-2026, 13);
    const std::vector<float> onDevice = gpu.deviates(buffer.handle(), means.size(), key);
    const std::vector<float> onCpu = bv::random::counterPoissonImage(means, key, 0);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < means.size(); ++i)
        differ += std::memcmp(&onDevice[i], &onCpu[i], sizeof(float)) != 0;
    std::printf("identity: %zu of %zu pixels (means 0.01 to 1e9) differ between device and CPU\n",
                differ, means.size());
    return differ == 0 ? 0 : 1;
}
