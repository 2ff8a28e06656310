#include "compute/engine/DiffractionShaders.h"

#include "compute/core/Error.h"
#include "compute/vk/SpirvInterface.h"

#include <shaders/braggview_shaders.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace bv::engine {

namespace {

struct Code {
    const std::uint32_t* words;
    std::size_t bytes;
};

Code embeddedCode(const DiffractionShader& which) {
    // [trace][paramsInStorage][precise]
    const Code builds[2][2][2] = {
        {{{diffraction_fast_comp_spv, diffraction_fast_comp_spv_size},
          {diffraction_precise_comp_spv, diffraction_precise_comp_spv_size}},
         {{diffraction_fast_cpu_comp_spv, diffraction_fast_cpu_comp_spv_size},
          {diffraction_precise_cpu_comp_spv, diffraction_precise_cpu_comp_spv_size}}},
        {{{diffraction_trace_fast_comp_spv, diffraction_trace_fast_comp_spv_size},
          {diffraction_trace_precise_comp_spv, diffraction_trace_precise_comp_spv_size}},
         {{diffraction_trace_fast_cpu_comp_spv, diffraction_trace_fast_cpu_comp_spv_size},
          {diffraction_trace_precise_cpu_comp_spv, diffraction_trace_precise_cpu_comp_spv_size}}},
    };
    return builds[which.trace ? 1 : 0][which.paramsInStorage ? 1 : 0]
                 [which.precision == Precision::Precise ? 1 : 0];
}

} // namespace

vk::ShaderModule diffractionShaderModule(const vk::Device& device, const DiffractionShader& which) {
    const Code code = embeddedCode(which);
    return vk::ShaderModule(device, code.words, code.bytes);
}

std::vector<std::uint32_t> diffractionShaderCode(const DiffractionShader& which) {
    const Code code = embeddedCode(which);
    return std::vector<std::uint32_t>(code.words, code.words + code.bytes / sizeof(std::uint32_t));
}

DiffractionShader diffractionShaderInterface(const std::vector<std::uint32_t>& spirv) {
    try {
        const vk::SpirvInterface found = vk::readSpirvInterface(spirv);
        DiffractionShader shader;
        shader.precision = found.float64 ? Precision::Precise : Precision::Fast;
        shader.paramsInStorage = found.blockZeroIsStorage;
        return shader;
    } catch (const Error& e) {
        throw Error(std::string("the shader is not a build of shaders/diffraction.glsl: ") +
                    e.what());
    }
}

} // namespace bv::engine
