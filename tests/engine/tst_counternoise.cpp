// engine::CounterNoise (shaders/counter_noise.comp) on the Vulkan driver (lavapipe here and in
// CI, validation on) against random::counterPoissonImage on the CPU: the same bits for means
// from 0.01 to 1e9, both sides of each method's switch, and whatever the split of the image
// into dispatches (firstPixel), which is what makes the noise the same on any number of GPUs.

#include "compute/core/Error.h"
#include "compute/engine/CounterNoise.h"
#include "compute/random/CounterRandom.h"
#include "compute/vk/Buffer.h"
#include "compute/vk/Device.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

using namespace bv;

namespace {

// the mean of pixel i: 64 log-spaced decades-long ramps from 0.01 to 1e7, the switches of the
// methods exactly and a float either side, and a few beyond (2^24 and 1e9: the normal
// approximation; 0 and below: no photons)
std::vector<float> testMeans(std::size_t count) {
    const float special[] = {0.0f,        -1.0f,       9.99999905f, 10.0f,  10.0000010f,
                             16777215.0f, 16777216.0f, 16777218.0f, 1.0e9f, 1.0e-30f};
    std::vector<float> means(count);
    for (std::size_t i = 0; i < count; ++i) {
        if (i % 97 < std::size(special))
            means[i] = special[i % 97];
        else
            means[i] = static_cast<float>(0.01 * std::pow(1.0e9, double(i % 4099) / 4098.0));
    }
    return means;
}

} // namespace

class TestCounterNoise : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        try {
            vk::DeviceOptions o;
            o.applicationName = "braggview counter noise tests";
            o.validation = true;
            m_device = std::make_unique<vk::Device>(o);
        } catch (const Error& error) {
            QFAIL(error.what()); // no skipping: CI has lavapipe
        }
        qInfo("running on %s", m_device->description().c_str());
    }

    void gpuGivesTheCpusBits_data() {
        QTest::addColumn<int>("pixels");
        QTest::addColumn<long>("seed");
        QTest::addColumn<unsigned>("frame");
        QTest::addRow("a 512x512 image") << 512 * 512 << -1L << 0u;
        QTest::addRow("a 2048x1024 image") << 2048 * 1024 << -77L << 5u;
        QTest::addRow("another seed and frame") << 100000 << -20260101L << 41u;
        QTest::addRow("a count not a multiple of the group") << 1001 << 7L << 2u;
    }
    void gpuGivesTheCpusBits() {
        QFETCH(int, pixels);
        QFETCH(long, seed);
        QFETCH(unsigned, frame);
        const std::vector<float> means = testMeans(static_cast<std::size_t>(pixels));
        const random::CounterKey key = random::counterKey(seed, frame);
        const std::vector<float> gpu = draw(means, key, 0);
        const std::vector<float> cpu = random::counterPoissonImage(means, key, 2);
        QCOMPARE(gpu.size(), cpu.size());
        int differ = 0;
        for (std::size_t i = 0; i < cpu.size(); ++i)
            if (std::memcmp(&gpu[i], &cpu[i], sizeof(float)) != 0 && differ++ < 5)
                qWarning("pixel %zu, mean %.9g: GPU %.9g, CPU %.9g", i, double(means[i]),
                         double(gpu[i]), double(cpu[i]));
        QCOMPARE(differ, 0);
    }

    void splitImageGivesTheSameBits() {
        // two dispatches, the second numbered from where the first stops: the whole image's
        // deviates (as two GPUs each given half would draw them)
        const std::vector<float> means = testMeans(30000);
        const random::CounterKey key = random::counterKey(-3, 9);
        const std::vector<float> whole = draw(means, key, 0);
        const std::size_t half = 12345;
        const std::vector<float> first = draw({means.begin(), means.begin() + half}, key, 0);
        const std::vector<float> second =
            draw({means.begin() + half, means.end()}, key, static_cast<std::uint32_t>(half));
        std::vector<float> joined = first;
        joined.insert(joined.end(), second.begin(), second.end());
        QVERIFY(std::memcmp(joined.data(), whole.data(), whole.size() * sizeof(float)) == 0);
    }

    void noValidationMessages() {
        const std::vector<std::string> messages = m_device->validationMessages();
        for (const std::string& m : messages)
            qWarning("%s", m.c_str());
        QVERIFY(messages.empty());
    }

  private:
    std::vector<float> draw(const std::vector<float>& means, random::CounterKey key,
                            std::uint32_t firstPixel) {
        vk::Buffer image(*m_device, means.size() * sizeof(float),
                         VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, vk::MemoryUse::Upload, "test means");
        image.write(means.data(), means.size() * sizeof(float));
        if (!m_noise)
            m_noise = std::make_unique<engine::CounterNoise>(*m_device);
        return m_noise->deviates(image.handle(), means.size(), key, firstPixel);
    }

    std::unique_ptr<vk::Device> m_device;
    std::unique_ptr<engine::CounterNoise> m_noise;
};

QTEST_APPLESS_MAIN(TestCounterNoise)
#include "tst_counternoise.moc"
