#include "compute/engine/DiffractionShaders.h"

#include <shaders/braggview_shaders.h>

#include <cstddef>
#include <cstdint>

namespace bv::engine {

vk::ShaderModule diffractionShaderModule(const vk::Device& device, const DiffractionShader& which) {
    struct Code {
        const std::uint32_t* words;
        std::size_t bytes;
    };
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
    const Code& code = builds[which.trace ? 1 : 0][which.paramsInStorage ? 1 : 0]
                             [which.precision == Precision::Precise ? 1 : 0];
    return vk::ShaderModule(device, code.words, code.bytes);
}

} // namespace bv::engine
