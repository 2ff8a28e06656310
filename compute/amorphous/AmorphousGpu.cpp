#include "compute/amorphous/AmorphousGpu.h"

#include "compute/core/Error.h"
#include "compute/model/Units.h"
#include "compute/vk/Buffer.h"
#include "compute/vk/ComputePass.h"
#include "compute/vk/Device.h"
#include "compute/vk/QueryPool.h"
#include "compute/vk/StagedBuffer.h"

#include <shaders/braggview_amorphous_shaders.h>

#include <cmath>
#include <cstdint>

namespace bv::amorphous {

namespace {

constexpr std::uint32_t kGroup = 8;                           // amorphous.glsl's local size

// amorphous.glsl's push constants
struct PassConstants {
    std::int32_t fpixels, spixels, oversample, sourceCount;
    std::int32_t splinePoints, roiXmin, roiXmax, roiYmin;
    std::int32_t roiYmax, flags, pad0, pad1;
};
static_assert(sizeof(PassConstants) == 48, "the shader's Pass block is twelve words");

// the shader's params[] (indices kPix0 ... kSteps), the polarization axis normalised to the
// fixed point the CPU loop starts from
std::vector<double> parameters(const NonBraggSetup& s) {
    glm::dvec3 axis = s.polar;
    for (int i = 0; i < 4; ++i) {
        const double m = std::sqrt(axis.x * axis.x + axis.y * axis.y + axis.z * axis.z);
        if (m != 0.0)
            axis = {axis.x / m, axis.y / m, axis.z / m};
    }
    const int steps = static_cast<int>(s.sources.size()) * s.oversample * s.oversample;
    std::vector<double> p;
    for (const glm::dvec3& v : {s.pix0, s.fdet, s.sdet, s.odet, s.beam, axis})
        p.insert(p.end(), {v.x, v.y, v.z});
    p.insert(p.end(),
             {s.options.pixelSize, s.closeDistance, s.distance, s.options.polarization,
              units::kThomsonCrossSection, s.fluence, s.molecules, static_cast<double>(steps)});
    return p;
}

template <class Real> std::vector<Real> narrowed(const std::vector<double>& values) {
    return std::vector<Real>(values.begin(), values.end());
}

// in the GPU's memory: every pixel reads the geometry, the sources and the spline
template <class Real>
vk::StagedBuffer upload(const vk::Device& device, const std::vector<double>& values,
                        const char* label) {
    const std::vector<Real> data = narrowed<Real>(values);
    vk::StagedBuffer buffer(device, data.size() * sizeof(Real), label);
    buffer.write(data.data(), data.size() * sizeof(Real));
    return buffer;
}

template <class Real>
AmorphousImage render(const vk::Device& device, vk::ComputePass& pass, const NonBraggSetup& s,
                      double* gpuMilliseconds) {
    std::vector<double> sources;
    for (const AmorphousSource& src : s.sources)
        sources.insert(sources.end(),
                       {src.position.x, src.position.y, src.position.z, src.weight, src.lambda});
    std::vector<double> spline = s.spline.x();
    spline.insert(spline.end(), s.spline.y().begin(), s.spline.y().end());

    const std::size_t pixels = static_cast<std::size_t>(s.fpixels) * s.spixels;
    vk::StagedBuffer params = upload<Real>(device, parameters(s), "the amorphous pass's geometry");
    vk::StagedBuffer sourceBuffer = upload<Real>(device, sources, "the amorphous pass's sources");
    vk::StagedBuffer splineBuffer =
        upload<Real>(device, spline, "the amorphous pass's .stol spline");
    // written in the GPU's memory and copied out after the timed dispatch
    vk::StagedBuffer image(device, pixels * sizeof(float), "the amorphous image");
    vk::StagedBuffer omega(device, pixels * sizeof(Real), "the amorphous image's solid angles");

    pass.bind({params.handle(), sourceBuffer.handle(), splineBuffer.handle(), image.handle(),
               omega.handle()});
    const NonBraggOptions& o = s.options;
    const PassConstants constants{s.fpixels,
                                  s.spixels,
                                  s.oversample,
                                  static_cast<std::int32_t>(s.sources.size()),
                                  static_cast<std::int32_t>(s.spline.points()),
                                  s.roiXmin,
                                  s.roiXmax,
                                  s.roiYmin,
                                  s.roiYmax,
                                  (o.noPolar ? 1 : 0) | (o.curved ? 2 : 0) |
                                      (o.pointPixel ? 4 : 0) | (o.Fmap ? 8 : 0),
                                  0,
                                  0};
    const bool timed = device.timestampValidBits() > 0 && gpuMilliseconds != nullptr;
    vk::QueryPool queries;
    if (timed)
        queries = vk::QueryPool(device, 2);
    vk::CommandBuffer& commands = pass.begin();
    for (const vk::StagedBuffer* input : {&params, &sourceBuffer, &splineBuffer})
        input->recordUpload(commands);
    if (timed) {
        queries.reset(commands);
        // after the uploads (a top-of-pipe stamp would not wait for them): the passes alone
        queries.writeTimestamp(commands, 0, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
    }
    pass.push(&constants, sizeof constants);
    commands.dispatch((static_cast<std::uint32_t>(s.fpixels) + kGroup - 1) / kGroup,
                      (static_cast<std::uint32_t>(s.spixels) + kGroup - 1) / kGroup);
    if (timed)
        queries.writeTimestamp(commands, 1, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    if (image.staged()) {
        image.recordDownload(commands);
        omega.recordDownload(commands);
    } else {
        commands.barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    }
    pass.submitAndWait();
    if (timed)
        *gpuMilliseconds = queries.elapsedMilliseconds(0, 1);

    AmorphousImage result;
    result.pixels.resize(pixels);
    image.read(result.pixels.data(), pixels * sizeof(float));
    std::vector<Real> omegas(pixels);
    omega.read(omegas.data(), pixels * sizeof(Real));
    for (Real w : omegas)
        result.omegaSum += static_cast<double>(w);
    return result;
}

} // namespace

AmorphousPass::AmorphousPass(const vk::Device& device, AmorphousPrecision precision)
    : m_device(device), m_precision(precision) {
    if (precision == AmorphousPrecision::Precise && !device.float64Enabled())
        throw Error("--nonbragg: " + device.description() +
                    " has no double precision (shaderFloat64): use -precision fast, or "
                    "-engine host for the CPU loop");
    const bool fast = precision == AmorphousPrecision::Fast;
    m_pass = std::make_unique<vk::ComputePass>(
        device, fast ? amorphous_fast_comp_spv : amorphous_precise_comp_spv,
        fast ? amorphous_fast_comp_spv_size : amorphous_precise_comp_spv_size, 5,
        static_cast<std::uint32_t>(sizeof(PassConstants)));
}

AmorphousImage AmorphousPass::render(const NonBraggSetup& setup, double* gpuMilliseconds) {
    if (m_precision == AmorphousPrecision::Fast)
        return amorphous::render<float>(m_device, *m_pass, setup, gpuMilliseconds);
    return amorphous::render<double>(m_device, *m_pass, setup, gpuMilliseconds);
}

AmorphousImage renderAmorphousOnDevice(const vk::Device& device, const NonBraggSetup& setup,
                                       AmorphousPrecision precision, double* gpuMilliseconds) {
    AmorphousPass pass(device, precision);
    return pass.render(setup, gpuMilliseconds);
}

} // namespace bv::amorphous
