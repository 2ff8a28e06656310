// The vk wrappers end to end on a real Vulkan driver (lavapipe here and in CI), with the
// validation layer on: build a specialized compute pipeline from an embedded shader, record a
// command buffer once, submit it twice with different uniform values, read the result back,
// time it, and run the same on a Device that borrows another's handles. There is no skip: a
// machine without a Vulkan device fails here.

#include "compute/vk/Buffer.h"
#include "compute/vk/Commands.h"
#include "compute/vk/Device.h"
#include "compute/vk/Pipeline.h"
#include "compute/vk/QueryPool.h"

#include <shaders/braggview_vk_test_shaders.h>

#include <QTest>

#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

using namespace bv::vk;

static_assert(!std::is_copy_constructible_v<Buffer> &&
              std::is_nothrow_move_constructible_v<Buffer>);
static_assert(!std::is_copy_assignable_v<Device> && std::is_nothrow_move_assignable_v<Device>);
static_assert(!std::is_copy_constructible_v<ComputePipeline> &&
              std::is_nothrow_move_constructible_v<ComputePipeline>);
static_assert(!std::is_copy_constructible_v<CommandBuffer>);

namespace {

// Everything fill.comp needs: out[i] = i * k + base, k a specialization constant, base a
// uniform, count a push constant.
struct FillProgram {
    static constexpr std::uint32_t groupSize = 64;

    FillProgram(const Device& device, std::uint32_t k)
        : setLayout(device, {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                             {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER}}),
          layout(device, {setLayout.handle()}, sizeof(std::uint32_t)),
          pipeline(device, fill_comp_spv, fill_comp_spv_size, layout,
                   SpecializationConstants().add(0, groupSize).add(1, k).add(2, true)),
          pool(device, 1,
               {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}, {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1}}),
          set(pool.allocate(setLayout)) {}

    DescriptorSetLayout setLayout;
    PipelineLayout layout;
    ComputePipeline pipeline;
    DescriptorPool pool;
    VkDescriptorSet set; // owned by pool
};

// One complete run: values in a device-local buffer, copied to a readback buffer.
std::vector<std::uint32_t> runFill(const Device& device, std::uint32_t k, std::uint32_t base,
                                   std::uint32_t count) {
    FillProgram program(device, k);
    const VkDeviceSize bytes = count * sizeof(std::uint32_t);
    Buffer values(device, bytes,
                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                  MemoryUse::DeviceLocal, "the test values");
    Buffer params(device, 16, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, MemoryUse::Upload,
                  "the test parameters");
    Buffer readback(device, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback,
                    "the test readback");
    params.write(&base, sizeof base);
    program.pool.write(program.set, {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, values.handle()},
                                     {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, params.handle()}});

    CommandPool pool(device);
    CommandBuffer commands(pool);
    commands.begin();
    commands.bindCompute(program.pipeline, program.layout, program.set);
    commands.pushConstants(program.layout, &count, sizeof count);
    commands.dispatch((count + FillProgram::groupSize - 1) / FillProgram::groupSize);
    commands.computeToTransferBarrier();
    commands.copyBuffer(values, readback, bytes);
    commands.transferToHostBarrier();
    commands.end();
    Fence fence(device);
    submitAndWait(device, commands, fence);

    std::vector<std::uint32_t> result(count);
    readback.read(result.data(), bytes);
    return result;
}

// The first index where values[i] != i * k + base, or -1.
int firstWrong(const std::vector<std::uint32_t>& values, std::uint32_t k, std::uint32_t base) {
    for (std::size_t i = 0; i < values.size(); ++i)
        if (values[i] != static_cast<std::uint32_t>(i) * k + base)
            return static_cast<int>(i);
    return -1;
}

QString joined(const std::vector<std::string>& lines) {
    QStringList list;
    for (const std::string& line : lines)
        list << QString::fromStdString(line);
    return list.join('\n');
}

} // namespace

class TestVkCompute : public QObject {
    Q_OBJECT

  private:
    std::unique_ptr<Device> m_device;

  private slots:
    void initTestCase() {
        try {
            DeviceOptions options;
            options.applicationName = "braggview vk tests";
            options.validation = true;
            m_device = std::make_unique<Device>(options);
        } catch (const bv::Error& error) {
            QFAIL(error.what()); // no skipping: CI has lavapipe
        }
        qInfo("running on %s", m_device->description().c_str());
        QVERIFY2(m_device->validationEnabled(),
                 "VK_LAYER_KHRONOS_validation missing: install vulkan-validationlayers");
        QVERIFY(m_device->ownsDevice());
    }

    // Every test leaves the validation log empty.
    void cleanup() {
        if (m_device)
            QVERIFY2(m_device->validationMessages().empty(),
                     qPrintable(joined(m_device->validationMessages())));
    }

    void cleanupTestCase() {
        m_device.reset(); // device and instance destruction are validated too (no crash here)
    }

    void specializationConstantsAreFourBytesEach() {
        SpecializationConstants constants;
        constants.add(0, 64u).add(1, -3).add(2, 1.5f).add(3, true).add(1, 7);
        const VkSpecializationInfo info = constants.info();
        QCOMPARE(info.mapEntryCount, 4u); // id 1 given twice: the second value replaces the first
        QCOMPARE(info.dataSize, std::size_t(16));
        std::uint32_t words[4];
        std::memcpy(words, info.pData, sizeof words);
        QCOMPARE(words[0], 64u);
        QCOMPARE(static_cast<std::int32_t>(words[1]), 7);
        float scale = 0;
        std::memcpy(&scale, &words[2], sizeof scale);
        QCOMPARE(scale, 1.5f);
        QCOMPARE(words[3], std::uint32_t(VK_TRUE));
        QCOMPARE(info.pMapEntries[3].constantID, 3u);
        QCOMPARE(info.pMapEntries[3].offset, 12u);
        QCOMPARE(info.pMapEntries[3].size, std::size_t(4));
    }

    void timestampMilliseconds_data() {
        QTest::addColumn<quint64>("begin");
        QTest::addColumn<quint64>("end");
        QTest::addColumn<quint32>("validBits");
        QTest::addColumn<float>("periodNs");
        QTest::addColumn<double>("ms");

        QTest::newRow("1 ns ticks") << quint64(1000) << quint64(2'001'000) << 64u << 1.0f << 2.0;
        QTest::newRow("lavapipe-like") << quint64(0) << quint64(500'000) << 64u << 1.0f << 0.5;
        QTest::newRow("83.3 ns ticks")
            << quint64(0) << quint64(12'000) << 64u << 83.333f << 0.999996;
        QTest::newRow("36-bit counter wrapped")
            << quint64((1ull << 36) - 100) << quint64(900) << 36u << 1.0f << 0.001;
        QTest::newRow("bits above validBits ignored")
            << quint64(0xffff'0000'0000'0010ull) << quint64(0x1234'0000'0000'0020ull) << 32u
            << 10.0f << 0.00016;
        QTest::newRow("no timestamps") << quint64(5) << quint64(10) << 0u << 1.0f << 0.0;
    }

    void timestampMilliseconds() {
        QFETCH(quint64, begin);
        QFETCH(quint64, end);
        QFETCH(quint32, validBits);
        QFETCH(float, periodNs);
        QFETCH(double, ms);
        QVERIFY(qAbs(bv::vk::timestampMilliseconds(begin, end, validBits, periodNs) - ms) <
                1e-9 + 1e-6 * ms);
    }

    void recordOnceSubmitTwice() {
        const Device& device = *m_device;
        const std::uint32_t k = 7;
        const std::uint32_t count = 1000; // not a multiple of the group size: the shader guards
        const VkDeviceSize bytes = count * sizeof(std::uint32_t);
        FillProgram program(device, k);

        Buffer values(device, bytes,
                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                      MemoryUse::DeviceLocal, "the test values");
        Buffer params(device, 16, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, MemoryUse::Upload,
                      "the test parameters");
        Buffer readback(device, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback,
                        "the test readback");
        QVERIFY(params.isMappable());
        QVERIFY(readback.isMappable());
        program.pool.write(program.set, {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, values.handle()},
                                         {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, params.handle()}});

        // Recorded once...
        CommandPool pool(device);
        CommandBuffer commands(pool);
        QueryPool timer(device, 2);
        commands.begin();
        timer.reset(commands);
        timer.writeTimestamp(commands, 0, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
        commands.bindCompute(program.pipeline, program.layout, program.set);
        commands.pushConstants(program.layout, &count, sizeof count);
        commands.dispatch((count + FillProgram::groupSize - 1) / FillProgram::groupSize);
        timer.writeTimestamp(commands, 1, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
        commands.computeToTransferBarrier();
        commands.copyBuffer(values, readback, bytes);
        commands.transferToHostBarrier();
        commands.end();

        // ...submitted twice; between the submits only the uniform changes.
        Fence fence(device);
        for (const std::uint32_t base : {0u, 1'000'000u}) {
            params.write(&base, sizeof base);
            submitAndWait(device, commands, fence);
            QVERIFY(fence.isSignaled());

            std::vector<std::uint32_t> result(count);
            readback.read(result.data(), bytes);
            QCOMPARE(firstWrong(result, k, base), -1);
            QCOMPARE(result[999], 999u * k + base);

            const double ms = timer.elapsedMilliseconds(0, 1);
            QVERIFY(ms >= 0.0);
            qInfo("base %u: dispatch took %.3f ms on the GPU", base, ms);
        }
    }

    void persistentMapping() {
        Buffer buffer(*m_device, 256, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Upload,
                      "the mapped buffer");
        void* first = buffer.map();
        QCOMPARE(buffer.map(), first); // mapped once, stays mapped
        const std::uint32_t word = 0xC0FFEEu;
        buffer.write(&word, sizeof word, 252);
        std::uint32_t back = 0;
        buffer.read(&back, sizeof back, 252);
        QCOMPARE(back, word);
        QVERIFY_THROWS_EXCEPTION(bv::Error, buffer.write(&word, sizeof word, 253));
        buffer.unmap();
        QVERIFY(!buffer.isMapped());

        Buffer moved = std::move(buffer); // the memory moves with it
        QVERIFY(moved.handle() != VK_NULL_HANDLE);
        QVERIFY(buffer.handle() == VK_NULL_HANDLE);
        moved.read(&back, sizeof back, 252);
        QCOMPARE(back, word);
    }

    void borrowedDeviceLeavesHandlesAlone() {
        BorrowedDevice handles;
        handles.instance = m_device->instance();
        handles.physicalDevice = m_device->physicalDevice();
        handles.device = m_device->handle();
        handles.queueFamily = m_device->queueFamily();
        handles.queue = m_device->queue();
        {
            const Device borrowed(handles);
            QVERIFY(!borrowed.ownsDevice());
            QCOMPARE(borrowed.handle(), m_device->handle());
            QCOMPARE(borrowed.info().name, m_device->info().name);
            QCOMPARE(firstWrong(runFill(borrowed, 3, 11, 100), 3, 11), -1);
        } // destroys nothing
        QCOMPARE(firstWrong(runFill(*m_device, 5, 0, 100), 5, 0), -1);

        handles.queue = VK_NULL_HANDLE;
        QVERIFY_THROWS_EXCEPTION(bv::Error, Device{handles});
    }

    void environmentFlag_data() {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<bool>("on");
        QTest::newRow("1") << QByteArray("1") << true;
        QTest::newRow("true") << QByteArray("True") << true;
        QTest::newRow("on") << QByteArray("on") << true;
        QTest::newRow("0") << QByteArray("0") << false;
        QTest::newRow("empty") << QByteArray("") << false;
        QTest::newRow("other") << QByteArray("verbose") << false;
    }

    void environmentFlag() {
        QFETCH(QByteArray, value);
        QFETCH(bool, on);
        QCOMPARE(bv::vk::environmentFlag(value.constData()), on);
        QCOMPARE(bv::vk::environmentFlag(nullptr), false);
    }

    // The empty-log checks mean something: with BRAGGVIEW_VALIDATION=1 and no option, a
    // deliberate mistake (a buffer of 0 bytes, made behind the wrappers' back) is reported.
    void validationCatchesMistakes() {
        qputenv("BRAGGVIEW_VALIDATION", "1");
        const Device device(DeviceOptions{});
        qunsetenv("BRAGGVIEW_VALIDATION");
        QVERIFY(device.validationEnabled());

        VkBufferCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
        info.size = 0;
        info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        VkBuffer buffer = VK_NULL_HANDLE;
        if (vkCreateBuffer(device.handle(), &info, nullptr, &buffer) == VK_SUCCESS)
            vkDestroyBuffer(device.handle(), buffer, nullptr);
        const std::vector<std::string> messages = device.validationMessages();
        QVERIFY(!messages.empty());
        QVERIFY2(QString::fromStdString(messages.front()).contains("VkBufferCreateInfo-size"),
                 messages.front().c_str());
    }

    void absurdBufferIsAnError_data() {
        QTest::addColumn<quint32>("usage");
        QTest::addColumn<QString>("message");
        QTest::newRow("storage: over maxStorageBufferRange")
            << quint32(VK_BUFFER_USAGE_STORAGE_BUFFER_BIT)
            << "the absurd image is larger than this GPU's largest storage buffer (1048576 MiB "
               "requested)";
        QTest::newRow("transfer: over every heap")
            << quint32(VK_BUFFER_USAGE_TRANSFER_DST_BIT)
            << "the GPU has not enough memory for the absurd image (1048576 MiB requested)";
    }

    void absurdBufferIsAnError() {
        QFETCH(quint32, usage);
        QFETCH(QString, message);
        const VkDeviceSize oneTiB = 1ull << 40;
        try {
            Buffer buffer(*m_device, oneTiB, usage, MemoryUse::DeviceLocal, "the absurd image");
            QFAIL("a 1 TiB buffer was created");
        } catch (const bv::Error& error) {
            QVERIFY2(QString(error.what()).contains(message), error.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestVkCompute)
#include "tst_vkcompute.moc"
