#pragma once
// Which embedded build of shaders/diffraction.glsl a kernel runs: one per precision, per kind
// of parameter block (a uniform buffer on GPUs, a storage buffer on CPU devices:
// shaders/params.glsl says why) and per purpose (the image, or one pixel's trace). The
// Simulator and the PixelTracer choose here, so that the two always agree.

#include "compute/model/Precision.h"
#include "compute/vk/Pipeline.h"

#include <cstdint>
#include <vector>

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

// The embedded SPIR-V of one build.
std::vector<std::uint32_t> diffractionShaderCode(const DiffractionShader& which);

// What a SPIR-V build of diffraction.glsl expects, read from the code itself: precise where it
// declares the Float64 capability, paramsInStorage where the block at set 0, binding 0 is a
// storage buffer (`trace` is left false). A benchmark's variant (braggview-bench --shader) is
// checked against the device and precision it would run with before a pipeline is made:
// a mismatched layout is undefined behaviour to the driver (lavapipe crashes on it). Throws
// bv::Error for words that are not SPIR-V or hold no block at that binding.
DiffractionShader diffractionShaderInterface(const std::vector<std::uint32_t>& spirv);

} // namespace bv::engine
