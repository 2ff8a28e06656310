#pragma once
// The device of a QVulkanWindow as compute/vk borrows it: the window owns the instance, the
// device and its graphics queue; a vk::Device made from this only uses them. Both windows of
// the viewer draw through such a device (ImageRenderer, ReciprocalWindow).
//
//     m_device = std::make_unique<vk::Device>(borrowedDevice(*window));

#include "compute/vk/Device.h"

#include <QVulkanInstance>
#include <QVulkanWindow>

namespace bv::render {

inline vk::BorrowedDevice borrowedDevice(const QVulkanWindow& window) {
    vk::BorrowedDevice borrowed;
    borrowed.instance = window.vulkanInstance()->vkInstance();
    borrowed.physicalDevice = window.physicalDevice();
    borrowed.device = window.device();
    borrowed.queueFamily = window.graphicsQueueFamilyIndex();
    borrowed.queue = window.graphicsQueue();
    return borrowed;
}

} // namespace bv::render
