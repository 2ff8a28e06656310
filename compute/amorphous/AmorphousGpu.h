#pragma once
// nonBragg's amorphous image on a Vulkan device: shaders/amorphous.glsl, one invocation per
// pixel, the loop of AmorphousImage.cpp (the reference's) in double (precise: native float64,
// which the device must have) or float (fast). One dispatch over the image, read back.
//
//   vk::Device device(options);
//   AmorphousPass pass(device, AmorphousPrecision::Precise);  // the pipeline, built once
//   AmorphousImage image = pass.render(setup);                // as often as wanted
//
// Precise agrees with the CPU loop within the precise parity bars (bit for bit where the
// driver rounds double division and sqrt correctly); the curved detector's rotations take
// their sine and cosine from a double series in precise (GLSL has no double sine).
#include "compute/amorphous/AmorphousImage.h"
#include "compute/vk/ComputePass.h"

#include <memory>

namespace bv::vk {
class Device;
}

namespace bv::amorphous {

enum class AmorphousPrecision { Precise, Fast };

// Owns the pass's pipeline (kept between renders: a driver that compiles at the first
// dispatch, such as lavapipe, compiles once); borrows the device, which must outlive it.
class AmorphousPass {
  public:
    // Throws bv::Error on a Vulkan failure and for precise on a device without float64.
    AmorphousPass(const vk::Device& device, AmorphousPrecision precision);
    // One dispatch over the image, read back; `gpuMilliseconds` the dispatch's time where the
    // queue has timestamps. Throws bv::Error on a Vulkan failure.
    AmorphousImage render(const NonBraggSetup& setup, double* gpuMilliseconds = nullptr);

  private:
    const vk::Device& m_device;
    AmorphousPrecision m_precision;
    std::unique_ptr<vk::ComputePass> m_pass;
};

// One render on a pass made for it.
AmorphousImage renderAmorphousOnDevice(const vk::Device& device, const NonBraggSetup& setup,
                                       AmorphousPrecision precision,
                                       double* gpuMilliseconds = nullptr);

} // namespace bv::amorphous
