// engine::CounterNoise (shaders/counter_noise.comp) on the Vulkan driver (lavapipe here and in
// CI, validation on) against random::counterPoissonImage on the CPU: the same bits for means
// from 0.01 to 1e9, both sides of each method's switch, and whatever the split of the image
// into dispatches (firstPixel), which is what makes the noise the same on any number of GPUs.

#include "HeadlessRun.h"
#include "compute/core/Error.h"
#include "compute/engine/CounterNoise.h"
#include "compute/io/FloatImageFile.h"
#include "compute/io/Smv.h"
#include "compute/random/CounterRandom.h"
#include "compute/vk/Buffer.h"
#include "compute/vk/Device.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

using namespace bv;

namespace {

// a run whose image has means from 0 to several thousand photons
// clang-format off
const std::vector<std::string> kRun = {
    "-cell", "100", "100", "100", "90", "90", "90", "-default_F", "100", "-N", "5",
    "-lambda", "1", "-distance", "100", "-detpixels", "64", "-pixel", "0.1", "-fluence", "1e31",
    "-seed", "5", "-noprogress", "-nopgm", "-noise_generator", "counter"};
// clang-format on

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

// the noise image's pixels from a float image and the key, on the CPU: the deviate plus the
// -adc pedestal of 40, clipped at 65535
std::vector<std::uint16_t> expectedNoise(const std::vector<float>& image, random::CounterKey key) {
    const std::vector<float> deviates = random::counterPoissonImage(image, key, 2);
    std::vector<std::uint16_t> pixels;
    for (const float d : deviates)
        pixels.push_back(static_cast<std::uint16_t>(std::min(d + 40.0f, 65535.0f)));
    return pixels;
}

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

    // the headless run draws its noise on the device (-v names the phase); the noise image
    // is what the CPU makes of the run's own float image with key (-seed, frame 0)
    void headlessRunDrawsTheCpusNoise() {
        QTemporaryDir dir;
        const std::string f = dir.filePath("f.bin").toStdString();
        const std::string n = dir.filePath("n.img").toStdString();
        const testing::HeadlessRun r = testing::runHeadless(
            with(kRun, {"-floatfile", f, "-intfile", dir.filePath("i.img").toStdString(),
                        "-noisefile", n, "-v"}));
        QVERIFY2(r.status == 0, r.err.c_str());
        QVERIFY2(r.out.find("counter noise") != std::string::npos, r.out.c_str());
        const std::vector<float> image = io::readFloatImage(f, 64 * 64);
        QVERIFY(*std::max_element(image.begin(), image.end()) > 100.0f);
        QCOMPARE(io::readSmv(n).data, expectedNoise(image, random::counterKey(-5, 0)));
    }

    // a series: frame i keyed by (its seed -(5 + i), i); the same bytes with one CPU thread
    // or three making the files
    void seriesFramesAreKeyedAndThreadsChangeNothing() {
        QTemporaryDir one, three;
        for (const auto& [dir, threads] : {std::pair{&one, "1"}, std::pair{&three, "3"}}) {
            const testing::HeadlessRun r = testing::runHeadless(
                with(kRun, {"-series", "3", "-osc", "1", "-threads", threads, "-floatfile",
                            dir->filePath("f_#.bin").toStdString(), "-noisefile",
                            dir->filePath("n_#.img").toStdString()}));
            QVERIFY2(r.status == 0, r.err.c_str());
        }
        for (const char* frame : {"1", "2", "3"}) {
            const QString name = QString("n_%1.img").arg(frame);
            QCOMPARE(io::readSmv(one.filePath(name).toStdString()).data,
                     io::readSmv(three.filePath(name).toStdString()).data);
        }
        const std::vector<float> second =
            io::readFloatImage(one.filePath("f_2.bin").toStdString(), 64 * 64);
        QCOMPARE(io::readSmv(one.filePath("n_2.img").toStdString()).data,
                 expectedNoise(second, random::counterKey(-6, 1)));
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
