// The pipeline cache on disk: keyed to the device, saved atomically, loaded by the next
// PipelineCache, and a bad file is ignored rather than handed to the driver.

#include "compute/vk/Device.h"
#include "compute/vk/Pipeline.h"
#include "compute/vk/PipelineCache.h"

#include <shaders/braggview_vk_test_shaders.h>

#include <QTest>

#include <cstring>
#include <fstream>
#include <memory>

using namespace bv::vk;

namespace {

DeviceInfo someGpu() {
    DeviceInfo gpu;
    gpu.name = "GeForce";
    gpu.vendorID = 0x10de;
    gpu.deviceID = 0x2684;
    gpu.driverVersion = 0x87a1c000;
    for (std::size_t i = 0; i < gpu.pipelineCacheUUID.size(); ++i)
        gpu.pipelineCacheUUID[i] = static_cast<std::uint8_t>(0x11 * (i % 16));
    return gpu;
}

// What a driver's vkGetPipelineCacheData starts with, then some payload.
std::vector<char> driverData(const DeviceInfo& device) {
    std::vector<char> data(32 + 40, 'x');
    const std::uint32_t header[4] = {32, VK_PIPELINE_CACHE_HEADER_VERSION_ONE, device.vendorID,
                                     device.deviceID};
    std::memcpy(data.data(), header, sizeof header);
    std::memcpy(data.data() + 16, device.pipelineCacheUUID.data(), VK_UUID_SIZE);
    return data;
}

void writeFile(const std::string& path, const std::vector<char>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::vector<char> readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A pipeline built through the cache, so the cache has something to save.
void buildPipeline(const Device& device, const PipelineCache& cache) {
    const DescriptorSetLayout setLayout(
        device, {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER}});
    const PipelineLayout layout(device, {setLayout.handle()}, sizeof(std::uint32_t));
    const ComputePipeline pipeline(device, fill_comp_spv, fill_comp_spv_size, layout,
                                   SpecializationConstants().add(0, 64u).add(1, 2u), &cache);
    QVERIFY(pipeline.handle() != VK_NULL_HANDLE);
}

} // namespace

class TestVkPipelineCache : public QObject {
    Q_OBJECT

  private:
    std::unique_ptr<Device> m_device;

  private slots:
    void fileNameIsKeyedToDeviceAndDriver() {
        const DeviceInfo gpu = someGpu();
        QCOMPARE(pipelineCacheFileName(gpu), std::string("pipeline-cache-10de-2684-87a1c000-"
                                                         "00112233445566778899aabbccddeeff.bin"));
        DeviceInfo updated = gpu;
        updated.driverVersion += 1;
        QVERIFY(pipelineCacheFileName(updated) != pipelineCacheFileName(gpu));
    }

    void wrappedDataRoundTrips() {
        const DeviceInfo gpu = someGpu();
        const std::vector<char> data = driverData(gpu);
        const std::vector<char> file = wrapPipelineCacheData(data);
        QCOMPARE(file.size(), data.size() + 24);
        QVERIFY(unwrapPipelineCacheData(file, gpu).value() == data);
    }

    void badFilesAreRecognized_data() {
        QTest::addColumn<int>("damage");
        QTest::addColumn<QString>("reason");
        QTest::newRow("empty") << 0 << "not a braggview pipeline cache file";
        QTest::newRow("truncated") << 1 << "truncated";
        QTest::newRow("flipped byte") << 2 << "corrupt";
        QTest::newRow("other device") << 3 << "another GPU or driver";
        QTest::newRow("not a Vulkan header") << 4 << "no valid Vulkan pipeline cache header";
    }

    void badFilesAreRecognized() {
        QFETCH(int, damage);
        QFETCH(QString, reason);
        const DeviceInfo gpu = someGpu();
        std::vector<char> file = wrapPipelineCacheData(driverData(gpu));
        DeviceInfo reader = gpu;
        switch (damage) {
        case 0:
            file.clear();
            break;
        case 1:
            file.resize(file.size() - 5);
            break;
        case 2:
            file[40] ^= 0x20;
            break;
        case 3:
            reader.deviceID = 0x1234;
            break;
        case 4:
            file = wrapPipelineCacheData(std::vector<char>(64, 'z'));
            break;
        }
        const auto unwrapped = unwrapPipelineCacheData(file, reader);
        QVERIFY(!unwrapped);
        QVERIFY2(QString::fromStdString(unwrapped.error()).contains(reason),
                 unwrapped.error().c_str());
    }

    void initTestCase() {
        try {
            DeviceOptions options;
            options.validation = true;
            m_device = std::make_unique<Device>(options);
        } catch (const bv::Error& error) {
            QFAIL(error.what()); // no skipping: CI has lavapipe
        }
        QVERIFY(m_device->validationEnabled());
    }

    void cleanup() {
        if (m_device)
            QVERIFY(m_device->validationMessages().empty());
    }

    void savedCacheIsLoadedByTheNextRun() {
        QTemporaryDir temporary;
        const std::string directory = temporary.path().toStdString() + "/cache/braggview";
        std::string path;
        {
            const PipelineCache cache(*m_device, directory); // no file yet: starts empty
            QCOMPARE(cache.loadedBytes(), std::size_t(0));
            QVERIFY(cache.ignoredReason().empty());
            buildPipeline(*m_device, cache);
            cache.save(); // creates the directory
            path = cache.filePath();
        }
        QCOMPARE(QString::fromStdString(path),
                 QString::fromStdString(directory + "/" + pipelineCacheFileName(m_device->info())));
        QVERIFY(QFileInfo(QString::fromStdString(path)).size() > 24);
        // Atomic save: only the final file is left.
        QCOMPARE(QDir(QString::fromStdString(directory)).entryList(QDir::Files).size(), 1);

        const PipelineCache next(*m_device, directory);
        QVERIFY(next.loadedBytes() > 0);
        QVERIFY2(next.ignoredReason().empty(), next.ignoredReason().c_str());
        buildPipeline(*m_device, next);
        next.save(); // replacing the file works too
    }

    void corruptFileIsIgnored() {
        QTemporaryDir temporary;
        const std::string directory = temporary.path().toStdString();
        const PipelineCache first(*m_device, directory);
        buildPipeline(*m_device, first);
        first.save();

        std::vector<char> bytes = readFile(first.filePath());
        bytes[bytes.size() / 2] ^= 0x5a;
        writeFile(first.filePath(), bytes);
        const PipelineCache flipped(*m_device, directory);
        QCOMPARE(flipped.loadedBytes(), std::size_t(0));
        QVERIFY2(QString::fromStdString(flipped.ignoredReason()).contains("corrupt"),
                 flipped.ignoredReason().c_str());
        buildPipeline(*m_device, flipped);

        writeFile(first.filePath(), std::vector<char>(1000, '\x7f'));
        const PipelineCache garbage(*m_device, directory);
        QCOMPARE(garbage.loadedBytes(), std::size_t(0));
        QVERIFY(!garbage.ignoredReason().empty());
        buildPipeline(*m_device, garbage);
        garbage.save(); // and the bad file is replaced by a good one
        QVERIFY(PipelineCache(*m_device, directory).loadedBytes() > 0);
    }

    void memoryOnlyCacheAndUnwritableDirectory() {
        const PipelineCache inMemory(*m_device, "");
        QVERIFY(inMemory.filePath().empty());
        buildPipeline(*m_device, inMemory);
        inMemory.save(); // nothing to do

        const PipelineCache nowhere(*m_device, "/dev/null/braggview");
        buildPipeline(*m_device, nowhere);
        QVERIFY_THROWS_EXCEPTION(bv::Error, nowhere.save());
    }

    void cleanupTestCase() { m_device.reset(); }
};

QTEST_APPLESS_MAIN(TestVkPipelineCache)
#include "tst_vkpipelinecache.moc"
