#pragma once
// Which embedded build of shaders/diffraction.glsl a kernel runs: one per precision, per kind
// of parameter block (a uniform buffer on GPUs, a storage buffer on CPU devices:
// shaders/params.glsl says why) and per purpose (the image, or one pixel's trace). The
// Simulator and the PixelTracer choose here, so that the two always agree.

#include "compute/model/Precision.h"
#include "compute/vk/Pipeline.h"

namespace bv::vk {
class Device;
}

namespace bv::engine {

struct DiffractionShader {
    Precision precision = Precision::Fast;
    bool paramsInStorage = false; // the *_cpu.comp builds
    bool trace = false;           // the diffraction_trace_*.comp builds
};

vk::ShaderModule diffractionShaderModule(const vk::Device& device, const DiffractionShader& which);

} // namespace bv::engine
