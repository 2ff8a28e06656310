// What the driver spends before a batch on several GPUs can render (docs/performance.md,
// session 17): the instance, each device made in turn, every device made at once on threads
// of its own, and, where the driver groups physical devices (VK_KHR_device_group, core in
// Vulkan 1.1), one logical device over a whole group. Raw Vulkan, one compute queue a device,
// nothing else: what braggview's own start adds is measured by its -v timelines.
//
//     braggview-bench-device-start [ROUNDS]     (default 3)
//
// Each round makes a fresh instance. Wall ms, steady clock.

#include <vulkan/vulkan.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void check(VkResult result, const char* what) {
    if (result != VK_SUCCESS) {
        std::fprintf(stderr, "braggview-bench-device-start: %s failed (VkResult %d)\n", what,
                     static_cast<int>(result));
        std::exit(1);
    }
}

std::uint32_t computeFamily(VkPhysicalDevice device) {
    std::uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
    for (std::uint32_t i = 0; i < count; ++i)
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            return i;
    std::fprintf(stderr, "braggview-bench-device-start: a device without a compute queue\n");
    std::exit(1);
}

// One logical device with one compute queue on `devices` (one, or a group's members).
VkDevice makeDevice(const std::vector<VkPhysicalDevice>& devices) {
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{};
    queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queue.queueFamilyIndex = computeFamily(devices.front());
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    VkDeviceGroupDeviceCreateInfo group{};
    group.sType = VK_STRUCTURE_TYPE_DEVICE_GROUP_DEVICE_CREATE_INFO;
    group.physicalDeviceCount = static_cast<std::uint32_t>(devices.size());
    group.pPhysicalDevices = devices.data();
    VkDeviceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    info.pNext = devices.size() > 1 ? &group : nullptr;
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    VkDevice device = VK_NULL_HANDLE;
    check(vkCreateDevice(devices.front(), &info, nullptr, &device), "vkCreateDevice");
    return device;
}

std::string name(VkPhysicalDevice device) {
    VkPhysicalDeviceProperties p{};
    vkGetPhysicalDeviceProperties(device, &p);
    return p.deviceName;
}

} // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 3;
    for (int round = 1; round <= rounds; ++round) {
        Clock::time_point start = Clock::now();
        VkApplicationInfo app{};
        app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
        app.pApplicationName = "braggview-bench-device-start";
        app.apiVersion = VK_API_VERSION_1_1;
        VkInstanceCreateInfo instanceInfo{};
        instanceInfo.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
        instanceInfo.pApplicationInfo = &app;
        VkInstance instance = VK_NULL_HANDLE;
        check(vkCreateInstance(&instanceInfo, nullptr, &instance), "vkCreateInstance");
        const double instanceMs = msSince(start);

        std::uint32_t count = 0;
        vkEnumeratePhysicalDevices(instance, &count, nullptr);
        std::vector<VkPhysicalDevice> devices(count);
        vkEnumeratePhysicalDevices(instance, &count, devices.data());
        std::uint32_t groupCount = 0;
        vkEnumeratePhysicalDeviceGroups(instance, &groupCount, nullptr);
        std::vector<VkPhysicalDeviceGroupProperties> groups(groupCount);
        for (auto& g : groups)
            g.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES;
        vkEnumeratePhysicalDeviceGroups(instance, &groupCount, groups.data());
        std::printf("round %d: instance %.1f ms; %u physical device(s)", round, instanceMs, count);
        for (std::uint32_t i = 0; i < count; ++i)
            std::printf("%s %s", i == 0 ? ":" : ",", name(devices[i]).c_str());
        std::printf("; %u group(s) of", groupCount);
        for (const auto& g : groups)
            std::printf(" %u", g.physicalDeviceCount);
        std::printf("\n");

        // in turn
        std::vector<VkDevice> made;
        std::printf("  in turn:");
        start = Clock::now();
        for (VkPhysicalDevice d : devices) {
            const Clock::time_point one = Clock::now();
            made.push_back(makeDevice({d}));
            std::printf(" %.1f", msSince(one));
        }
        std::printf(" ms (%.1f in all)\n", msSince(start));
        for (VkDevice d : made)
            vkDestroyDevice(d, nullptr);

        // at once, a thread each
        if (count > 1) {
            made.assign(count, VK_NULL_HANDLE);
            std::vector<double> took(count);
            std::vector<std::thread> threads;
            start = Clock::now();
            for (std::uint32_t i = 0; i < count; ++i)
                threads.emplace_back([&, i] {
                    const Clock::time_point one = Clock::now();
                    made[i] = makeDevice({devices[i]});
                    took[i] = msSince(one);
                });
            for (std::thread& t : threads)
                t.join();
            std::printf("  at once:");
            for (double t : took)
                std::printf(" %.1f", t);
            std::printf(" ms (%.1f in all)\n", msSince(start));
            for (VkDevice d : made)
                vkDestroyDevice(d, nullptr);
        }

        // one logical device over each group of several
        for (const auto& g : groups) {
            if (g.physicalDeviceCount < 2)
                continue;
            const std::vector<VkPhysicalDevice> members(g.physicalDevices,
                                                        g.physicalDevices + g.physicalDeviceCount);
            start = Clock::now();
            const VkDevice d = makeDevice(members);
            std::printf("  a group of %u as one device: %.1f ms (subset allocation %s)\n",
                        g.physicalDeviceCount, msSince(start), g.subsetAllocation ? "yes" : "no");
            vkDestroyDevice(d, nullptr);
        }
        start = Clock::now();
        vkDestroyInstance(instance, nullptr);
        std::printf("  instance destroyed: %.1f ms\n", msSince(start));
    }
    return 0;
}
