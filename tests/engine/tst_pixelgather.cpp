// engine::PixelGather on a real Vulkan driver (lavapipe here and in CI, validation on): the
// chosen floats of a storage buffer, in the order asked for, with the indices written straight
// into mappable memory and through the staging copy a discrete GPU needs, a second choice of
// pixels after the first, and nothing chosen.

#include "compute/engine/PixelGather.h"
#include "compute/vk/Buffer.h"
#include "compute/vk/Device.h"

#include <QTest>

#include <cstdint>
#include <vector>

class TestPixelGather : public QObject {
    Q_OBJECT
  private slots:
    void chosenValuesInOrder_data() {
        QTest::addColumn<bool>("staged");
        QTest::newRow("mappable") << false;
        QTest::newRow("staged") << true;
    }
    void chosenValuesInOrder() {
        QFETCH(bool, staged);
        bv::vk::DeviceOptions options;
        options.validation = true;
        const bv::vk::Device device(options);
        QVERIFY2(device.validationEnabled(),
                 "VK_LAYER_KHRONOS_validation missing: install vulkan-validationlayers");
        // an "image" whose value tells its index: 0.5, 1.5, 2.5, ...
        std::vector<float> image(3000);
        for (std::size_t i = 0; i < image.size(); ++i)
            image[i] = float(i) + 0.5f;
        bv::vk::Buffer buffer(device, image.size() * sizeof(float),
                              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, bv::vk::MemoryUse::Upload,
                              "a test image");
        buffer.write(image.data(), image.size() * sizeof(float));

        bv::engine::PixelGather gather(device, staged);
        QVERIFY(gather.values(buffer.handle()).empty()); // nothing chosen yet
        // out of order, repeated, the last pixel, more than one workgroup (64)
        const std::vector<std::uint32_t> first = {2999, 0, 17, 17, 1500, 64, 65, 63, 2048, 1};
        std::vector<std::uint32_t> many;
        for (std::uint32_t i = 5; i < 3000; i += 7)
            many.push_back(i);
        const std::vector<const std::vector<std::uint32_t>*> choices = {&first, &many, &first};
        for (const std::vector<std::uint32_t>* chosen : choices) {
            gather.setPixels(*chosen);
            QCOMPARE(gather.pixelCount(), chosen->size());
            const std::vector<float> values = gather.values(buffer.handle());
            QCOMPARE(values.size(), chosen->size());
            for (std::size_t r = 0; r < chosen->size(); ++r)
                QCOMPARE(values[r], image[(*chosen)[r]]);
            // asked again without a new choice: the same (the staged copy is not repeated)
            QCOMPARE(gather.values(buffer.handle()), values);
        }
        gather.setPixels({});
        QVERIFY(gather.values(buffer.handle()).empty());
    }
};

QTEST_GUILESS_MAIN(TestPixelGather)
#include "tst_pixelgather.moc"
