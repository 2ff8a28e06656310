#pragma once
// nonBragg's amorphous image on a Vulkan device: shaders/amorphous.glsl, one invocation per
// pixel, the loop of AmorphousImage.cpp (the reference's) in double (precise: native float64,
// which the device must have) or float (fast). One dispatch over the image, read back.
//
//   vk::Device device(options);
//   AmorphousImage image = renderAmorphousOnDevice(device, setup, AmorphousPrecision::Precise);
//
// Precise agrees with the CPU loop within the precise parity bars (bit for bit where the
// driver rounds double division and sqrt correctly); the curved detector's rotations take
// their sine and cosine from a double series in precise (GLSL has no double sine).
#include "compute/amorphous/AmorphousImage.h"

namespace bv::vk {
class Device;
}

namespace bv::amorphous {

enum class AmorphousPrecision { Precise, Fast };

// Throws bv::Error on a Vulkan failure and for precise on a device without float64.
AmorphousImage renderAmorphousOnDevice(const vk::Device& device, const NonBraggSetup& setup,
                                       AmorphousPrecision precision, double* gpuMilliseconds = nullptr);

} // namespace bv::amorphous
