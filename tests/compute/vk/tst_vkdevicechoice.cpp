// Device, queue family and memory type choice, on hand-written property tables: what a
// machine with a discrete GPU, a laptop, or a server with only lavapipe would report.

#include "compute/vk/DeviceChoice.h"

#include <QTest>

#include <string>
#include <vector>

using namespace bv::vk;

Q_DECLARE_METATYPE(std::vector<bv::vk::DeviceInfo>)
Q_DECLARE_METATYPE(bv::vk::MemoryInfo)
Q_DECLARE_METATYPE(bv::vk::MemoryUse)

namespace {

constexpr VkQueueFlags graphicsCompute =
    VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
constexpr VkDeviceSize GiB = 1024ull * 1024ull * 1024ull;

DeviceInfo device(const char* name, VkPhysicalDeviceType type,
                  std::vector<QueueFamilyInfo> families = {{graphicsCompute, 1, 64}},
                  std::uint32_t apiVersion = VK_API_VERSION_1_3) {
    DeviceInfo info;
    info.name = name;
    info.type = type;
    info.apiVersion = apiVersion;
    info.queueFamilies = std::move(families);
    return info;
}

const DeviceInfo discrete = device("GeForce", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU);
const DeviceInfo integrated = device("Iris Xe", VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU);
const DeviceInfo virtualGpu = device("virgl", VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU);
const DeviceInfo lavapipe = device("llvmpipe", VK_PHYSICAL_DEVICE_TYPE_CPU);
const DeviceInfo graphicsOnly =
    device("display-only GPU", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, {{VK_QUEUE_GRAPHICS_BIT}});
const DeviceInfo vulkan10 = device("old GPU", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU,
                                   {{graphicsCompute, 1, 64}}, VK_API_VERSION_1_0);

// A desktop GPU: VRAM, system memory, system memory cached, and a small BAR window.
MemoryInfo discreteMemory() {
    MemoryInfo memory;
    memory.heaps = {{8 * GiB, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT},
                    {16 * GiB, 0},
                    {256ull << 20, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT}};
    memory.types = {
        {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0},
        {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 1},
        {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
             VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
         1},
        {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
             VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
         2},
    };
    return memory;
}

// lavapipe: one heap, one type that is everything at once.
MemoryInfo lavapipeMemory() {
    MemoryInfo memory;
    memory.heaps = {{4 * GiB, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT}};
    memory.types = {{VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                         VK_MEMORY_PROPERTY_HOST_COHERENT_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                     0}};
    return memory;
}

// A GPU that reports no device-local memory type at all.
MemoryInfo hostOnlyMemory() {
    MemoryInfo memory;
    memory.heaps = {{2 * GiB, 0}};
    memory.types = {
        {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0}};
    return memory;
}

MemoryInfo deviceOnlyMemory() {
    MemoryInfo memory;
    memory.heaps = {{2 * GiB, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT}};
    memory.types = {{VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0}};
    return memory;
}

} // namespace

class TestVkDeviceChoice : public QObject {
    Q_OBJECT

  private slots:
    void chooseDevice_data() {
        QTest::addColumn<std::vector<DeviceInfo>>("devices");
        QTest::addColumn<QString>("override");
        QTest::addColumn<int>("expected"); // -1: no device, the reason must contain `reason`
        QTest::addColumn<QString>("reason");

        using List = std::vector<DeviceInfo>;
        QTest::newRow("discrete beats integrated and cpu")
            << List{lavapipe, integrated, discrete} << "" << 2 << "";
        QTest::newRow("integrated beats cpu") << List{lavapipe, integrated} << "" << 1 << "";
        QTest::newRow("virtual beats cpu") << List{lavapipe, virtualGpu} << "" << 1 << "";
        QTest::newRow("integrated beats virtual") << List{virtualGpu, integrated} << "" << 1 << "";
        QTest::newRow("first of two equals") << List{discrete, discrete} << "" << 0 << "";
        QTest::newRow("lavapipe alone") << List{lavapipe} << "" << 0 << "";
        QTest::newRow("override by index") << List{discrete, lavapipe} << "1" << 1 << "";
        QTest::newRow("override by index 0") << List{lavapipe, discrete} << "0" << 0 << "";
        QTest::newRow("override cpu") << List{discrete, lavapipe, integrated} << "cpu" << 1 << "";
        QTest::newRow("override CPU with blanks") << List{discrete, lavapipe} << " CPU " << 1 << "";
        QTest::newRow("no compute queue is skipped")
            << List{graphicsOnly, lavapipe} << "" << 1 << "";
        QTest::newRow("Vulkan 1.0 is skipped") << List{vulkan10, integrated} << "" << 1 << "";

        QTest::newRow("no device at all")
            << List{} << "" << -1 << "no Vulkan device found: install mesa-vulkan-drivers";
        QTest::newRow("no usable device")
            << List{graphicsOnly} << "" << -1 << "no queue family that can run compute";
        QTest::newRow("no usable device names the fix")
            << List{graphicsOnly, vulkan10} << "" << -1 << "mesa-vulkan-drivers";
        QTest::newRow("override index out of range")
            << List{lavapipe} << "3" << -1 << "there is no Vulkan device 3";
        QTest::newRow("override index without compute")
            << List{graphicsOnly, lavapipe} << "0" << -1 << "cannot be used";
        QTest::newRow("override cpu without cpu device")
            << List{discrete} << "cpu" << -1 << "mesa-vulkan-drivers";
    }

    void chooseDevice() {
        QFETCH(std::vector<DeviceInfo>, devices);
        QFETCH(QString, override);
        QFETCH(int, expected);
        QFETCH(QString, reason);

        const DeviceOverride choice = bv::vk::parseDeviceOverride(override.toStdString()).value();
        const Expected<DeviceChoice> chosen = bv::vk::chooseDevice(devices, choice);
        if (expected < 0) {
            QVERIFY(!chosen);
            QVERIFY2(chosen.error().find(reason.toStdString()) != std::string::npos,
                     chosen.error().c_str());
            QVERIFY_THROWS_EXCEPTION(bv::Error, chosen.value());
        } else {
            QVERIFY2(chosen.ok(), chosen.error().c_str());
            QCOMPARE(chosen->deviceIndex, std::size_t(expected));
            QCOMPARE(chosen->queueFamily, 0u);
        }
    }

    void parseDeviceOverride_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("index");

        const int none = int(DeviceOverride::Kind::None);
        const int index = int(DeviceOverride::Kind::Index);
        const int cpu = int(DeviceOverride::Kind::Cpu);
        QTest::newRow("empty") << "" << true << none << 0;
        QTest::newRow("blank") << "  " << true << none << 0;
        QTest::newRow("0") << "0" << true << index << 0;
        QTest::newRow("12") << " 12\n" << true << index << 12;
        QTest::newRow("cpu") << "cpu" << true << cpu << 0;
        QTest::newRow("Cpu") << "Cpu" << true << cpu << 0;
        QTest::newRow("gpu") << "gpu" << false << none << 0;
        QTest::newRow("negative") << "-1" << false << none << 0;
        QTest::newRow("fraction") << "1.5" << false << none << 0;
        QTest::newRow("cpu0") << "cpu0" << false << none << 0;
        QTest::newRow("huge") << "99999999999" << false << none << 0;
    }

    void parseDeviceOverride() {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(int, kind);
        QFETCH(int, index);

        const Expected<DeviceOverride> parsed = bv::vk::parseDeviceOverride(text.toStdString());
        QCOMPARE(parsed.ok(), valid);
        if (valid) {
            QCOMPARE(int(parsed->kind), kind);
            QCOMPARE(parsed->index, std::uint32_t(index));
        } else {
            // The reason quotes the variable and the value.
            QVERIFY2(parsed.error().find("BRAGGVIEW_DEVICE='") != std::string::npos,
                     parsed.error().c_str());
        }
    }

    // A batch's -device: automatic, all, or a list whose entries may repeat.
    void parseDeviceList_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<bool>("all");
        QTest::addColumn<QString>("entries"); // i<index> or c, space-separated
        QTest::newRow("automatic") << "" << true << false << "";
        QTest::newRow("all") << "all" << true << true << "";
        QTest::newRow("ALL with blanks") << " ALL " << true << true << "";
        QTest::newRow("one index") << "1" << true << false << "i1";
        QTest::newRow("two indices") << "0,1" << true << false << "i0 i1";
        QTest::newRow("blanks around entries") << " 2 , 0 " << true << false << "i2 i0";
        QTest::newRow("cpu twice") << "cpu,CPU" << true << false << "c c";
        QTest::newRow("index repeated") << "0,0,1" << true << false << "i0 i0 i1";
        QTest::newRow("empty entry") << "0,,1" << false << false << "";
        QTest::newRow("trailing comma") << "0," << false << false << "";
        QTest::newRow("a word in the list") << "0,gpu" << false << false << "";
        QTest::newRow("all in a list") << "all,0" << false << false << "";
    }
    void parseDeviceList() {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(bool, all);
        QFETCH(QString, entries);
        const Expected<DeviceList> parsed = bv::vk::parseDeviceList(text.toStdString(), "-device");
        QCOMPARE(parsed.ok(), valid);
        if (!valid) {
            QVERIFY2(parsed.error().find("-device") != std::string::npos, parsed.error().c_str());
            return;
        }
        QCOMPARE(parsed->all, all);
        QStringList got;
        for (const DeviceOverride& e : parsed->entries)
            got << (e.kind == DeviceOverride::Kind::Cpu ? QString("c")
                                                        : "i" + QString::number(e.index));
        QCOMPARE(got.join(' '), entries);
    }

    // "all": every usable device of the best kind present, in the driver's order.
    void chooseAllDevices_data() {
        using List = std::vector<DeviceInfo>;
        QTest::addColumn<List>("devices");
        QTest::addColumn<QString>("chosen");
        QTest::newRow("two GPUs and lavapipe") << List{discrete, lavapipe, discrete} << "0 2";
        QTest::newRow("discrete beats integrated") << List{integrated, discrete} << "1";
        QTest::newRow("lavapipe alone") << List{lavapipe} << "0";
        QTest::newRow("an old GPU is left out") << List{vulkan10, discrete, discrete} << "1 2";
        QTest::newRow("none") << List{} << "";
    }
    void chooseAllDevices() {
        QFETCH(std::vector<DeviceInfo>, devices);
        QFETCH(QString, chosen);
        const Expected<std::vector<std::size_t>> all = bv::vk::chooseAllDevices(devices);
        if (chosen.isEmpty()) {
            QVERIFY(!all);
            QVERIFY2(all.error().find("mesa-vulkan-drivers") != std::string::npos,
                     all.error().c_str());
            return;
        }
        QVERIFY2(all.ok(), all.error().c_str());
        QStringList got;
        for (std::size_t i : *all)
            got << QString::number(i);
        QCOMPARE(got.join(' '), chosen);
    }

    void overrideFromOptionOrEnvironment() {
        // BRAGGVIEW_DEVICE is used when no option is given...
        QCOMPARE(deviceOverrideFrom("", "cpu")->kind, DeviceOverride::Kind::Cpu);
        QCOMPARE(deviceOverrideFrom("", nullptr)->kind, DeviceOverride::Kind::None);
        // ...and the option wins over it.
        const Expected<DeviceOverride> fromOption = deviceOverrideFrom("1", "cpu");
        QCOMPARE(fromOption->kind, DeviceOverride::Kind::Index);
        QCOMPARE(fromOption->index, 1u);
        // An invalid environment value is an error naming the variable, not silently ignored.
        const Expected<DeviceOverride> bad = deviceOverrideFrom("", "nvidia");
        QVERIFY(!bad);
        QVERIFY(bad.error().find("BRAGGVIEW_DEVICE='nvidia'") != std::string::npos);
        QVERIFY(deviceOverrideFrom("gpu", nullptr).error().find("device option") !=
                std::string::npos);
    }

    void chooseComputeQueueFamily_data() {
        QTest::addColumn<std::vector<DeviceInfo>>("devices"); // one device
        QTest::addColumn<int>("expected");

        const auto families = [](std::vector<QueueFamilyInfo> list) {
            return std::vector<DeviceInfo>{
                device("GPU", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, std::move(list))};
        };
        QTest::newRow("graphics+compute") << families({{graphicsCompute, 16, 64}}) << 0;
        QTest::newRow("dedicated compute preferred")
            << families({{graphicsCompute, 16, 64},
                         {VK_QUEUE_TRANSFER_BIT, 2, 64},
                         {VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT, 8, 64}})
            << 2;
        QTest::newRow("timestamps preferred over dedicated")
            << families({{graphicsCompute, 1, 64}, {VK_QUEUE_COMPUTE_BIT, 1, 0}}) << 0;
        QTest::newRow("family with no queues skipped")
            << families({{VK_QUEUE_COMPUTE_BIT, 0, 64}, {graphicsCompute, 1, 36}}) << 1;
        QTest::newRow("no compute") << families({{VK_QUEUE_GRAPHICS_BIT, 1, 64}}) << -1;
    }

    void chooseComputeQueueFamily() {
        QFETCH(std::vector<DeviceInfo>, devices);
        QFETCH(int, expected);
        const Expected<std::uint32_t> family = bv::vk::chooseComputeQueueFamily(devices.at(0));
        if (expected < 0)
            QVERIFY(!family);
        else
            QCOMPARE(family.value(), std::uint32_t(expected));
    }

    // An offscreen renderer (the reciprocal view's bench) needs a family that draws: the H100
    // lists graphics+compute first and a dedicated compute family after it, which compute
    // work prefers.
    void chooseGraphicsQueueFamily_data() {
        QTest::addColumn<std::vector<DeviceInfo>>("devices"); // one device
        QTest::addColumn<int>("expected");
        const auto families = [](std::vector<QueueFamilyInfo> list) {
            return std::vector<DeviceInfo>{
                device("GPU", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, std::move(list))};
        };
        QTest::newRow("graphics+compute first")
            << families({{graphicsCompute, 16, 64}, {VK_QUEUE_COMPUTE_BIT, 8, 64}}) << 0;
        QTest::newRow("graphics+compute after compute")
            << families({{VK_QUEUE_COMPUTE_BIT, 8, 64}, {graphicsCompute, 16, 64}}) << 1;
        QTest::newRow("timestamps preferred")
            << families({{graphicsCompute, 1, 0}, {graphicsCompute, 1, 64}}) << 1;
        QTest::newRow("compute only") << families({{VK_QUEUE_COMPUTE_BIT, 8, 64}}) << -1;
    }

    void chooseGraphicsQueueFamily() {
        QFETCH(std::vector<DeviceInfo>, devices);
        QFETCH(int, expected);
        const Expected<std::uint32_t> family = bv::vk::chooseGraphicsQueueFamily(devices.at(0));
        if (expected < 0)
            QVERIFY(!family);
        else
            QCOMPARE(family.value(), std::uint32_t(expected));
    }

    void chooseMemoryType_data() {
        QTest::addColumn<MemoryInfo>("memory");
        QTest::addColumn<MemoryUse>("use");
        QTest::addColumn<quint32>("allowed"); // VkMemoryRequirements::memoryTypeBits
        QTest::addColumn<quint64>("size");
        QTest::addColumn<int>("expected"); // -1: none

        const quint64 MiB = 1 << 20;
        QTest::newRow("discrete: image in VRAM")
            << discreteMemory() << MemoryUse::DeviceLocal << 0xfu << 64 * MiB << 0;
        QTest::newRow("discrete: upload in system memory")
            << discreteMemory() << MemoryUse::Upload << 0xfu << MiB << 1;
        QTest::newRow("discrete: readback cached")
            << discreteMemory() << MemoryUse::Readback << 0xfu << MiB << 2;
        QTest::newRow("discrete: VRAM type not allowed -> BAR")
            << discreteMemory() << MemoryUse::DeviceLocal << 0xeu << MiB << 3;
        QTest::newRow("discrete: only host types allowed -> host-visible fallback")
            << discreteMemory() << MemoryUse::DeviceLocal << 0x6u << MiB << 1;
        QTest::newRow("discrete: too big for VRAM -> system memory")
            << discreteMemory() << MemoryUse::DeviceLocal << 0xfu << quint64(10 * GiB) << 1;
        // a word the host writes while a shader polls it: the BAR (device-local and
        // host-visible), where the H100 saw the host's store; system memory it never did
        QTest::newRow("discrete: host signal in the BAR")
            << discreteMemory() << MemoryUse::HostSignal << 0xfu << quint64(4) << 3;
        QTest::newRow("host signal without a BAR -> system memory")
            << discreteMemory() << MemoryUse::HostSignal << 0x7u << quint64(4) << 1;
        QTest::newRow("lavapipe: host signal")
            << lavapipeMemory() << MemoryUse::HostSignal << 0x1u << quint64(4) << 0;
        QTest::newRow("lavapipe: device-local")
            << lavapipeMemory() << MemoryUse::DeviceLocal << 0x1u << MiB << 0;
        QTest::newRow("lavapipe: upload")
            << lavapipeMemory() << MemoryUse::Upload << 0x1u << MiB << 0;
        QTest::newRow("lavapipe: readback")
            << lavapipeMemory() << MemoryUse::Readback << 0x1u << MiB << 0;
        QTest::newRow("no device-local type -> host-visible")
            << hostOnlyMemory() << MemoryUse::DeviceLocal << 0x1u << MiB << 0;
        QTest::newRow("readback without cached -> coherent")
            << hostOnlyMemory() << MemoryUse::Readback << 0x1u << MiB << 0;
        QTest::newRow("upload with no host-visible type")
            << deviceOnlyMemory() << MemoryUse::Upload << 0x1u << MiB << -1;
        QTest::newRow("no allowed type")
            << discreteMemory() << MemoryUse::DeviceLocal << 0x0u << MiB << -1;
        QTest::newRow("larger than every heap")
            << discreteMemory() << MemoryUse::DeviceLocal << 0xfu << quint64(1024 * GiB) << -1;
    }

    void chooseMemoryType() {
        QFETCH(MemoryInfo, memory);
        QFETCH(MemoryUse, use);
        QFETCH(quint32, allowed);
        QFETCH(quint64, size);
        QFETCH(int, expected);

        const Expected<std::uint32_t> type = bv::vk::chooseMemoryType(memory, allowed, use, size);
        if (expected < 0) {
            QVERIFY(!type);
            QVERIFY2(type.error().find("MiB") != std::string::npos, type.error().c_str());
        } else {
            QVERIFY2(type.ok(), type.error().c_str());
            QCOMPARE(type.value(), std::uint32_t(expected));
        }
    }

    void checkBufferRequest() {
        DeviceInfo gpu = discrete;
        gpu.memory = discreteMemory();
        gpu.limits.maxStorageBufferRange = 4 * GiB - 1;
        gpu.limits.maxUniformBufferRange = 65536;
        const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

        QVERIFY(bv::vk::checkBufferRequest(gpu, 64 << 20, storage, "the image").ok());
        // Bigger than one storage buffer may be, though the heap would hold it.
        const Status tooLong = bv::vk::checkBufferRequest(gpu, 6 * GiB, storage, "the image");
        QVERIFY(!tooLong);
        QVERIFY2(tooLong.error().find("the image is larger than this GPU's largest storage "
                                      "buffer (6144 MiB requested)") != std::string::npos,
                 tooLong.error().c_str());
        // A transfer buffer has no range limit, but no heap holds 1 TiB.
        const Status tooBig = bv::vk::checkBufferRequest(
            gpu, 1024 * GiB, VK_BUFFER_USAGE_TRANSFER_DST_BIT, "the readback buffer");
        QVERIFY(!tooBig);
        QVERIFY2(tooBig.error().find("the GPU has not enough memory for the readback buffer "
                                     "(1048576 MiB requested)") != std::string::npos,
                 tooBig.error().c_str());
        QVERIFY(!bv::vk::checkBufferRequest(gpu, 65537, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                                            "the parameters"));
        // a storage buffer viewed in part as a uniform buffer: the storage limit holds
        QVERIFY(bv::vk::checkBufferRequest(gpu, 1048576,
                                           storage | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                                           "the orientation table"));
        QVERIFY(!bv::vk::checkBufferRequest(gpu, 0, storage, "nothing"));
    }

    void describeDevice() {
        DeviceInfo cpu = lavapipe;
        cpu.apiVersion = VK_MAKE_API_VERSION(0, 1, 3, 230);
        QCOMPARE(bv::vk::describeDevice(cpu), std::string("llvmpipe (CPU, Vulkan 1.3.230)"));
    }
};

QTEST_APPLESS_MAIN(TestVkDeviceChoice)
#include "tst_vkdevicechoice.moc"
