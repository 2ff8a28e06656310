#include "compute/detector_response/GpuPsf.h"

#include "compute/core/Error.h"
#include "compute/io/PrintfFormat.h"
#include "compute/vk/Buffer.h"
#include "compute/vk/ComputePass.h"
#include "compute/vk/Device.h"
#include "compute/vk/QueryPool.h"
#include "compute/vk/StagedBuffer.h"

#include <shaders/braggview_psf_shaders.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace bv::detector {

namespace {

struct PassConstants {
    std::int32_t width, height, radius, axis;
};
static_assert(sizeof(PassConstants) == 16, "psf_gauss.comp's Pass block is four words");

constexpr std::uint32_t kGroupX = 64, kGroupY = 4; // psf_gauss.comp's local size
constexpr std::uint32_t kColumnRows = 8;            // its rows an invocation of the columns pass

} // namespace

int gaussianPsfRadius(double fwhmPixels) {
    return std::max(1, static_cast<int>(std::ceil(3.0 * fwhmPixels)));
}

std::vector<double> gaussianPsfKernel1D(double fwhmPixels, int radius) {
    const double a = std::sqrt(std::log(16.0)) / fwhmPixels;
    std::vector<double> k;
    for (int d = -radius; d <= radius; ++d)
        k.push_back(0.5 * (std::erf(a * (d + 0.5)) - std::erf(a * (d - 0.5))));
    return k;
}

// all four in the GPU's memory: the passes read each pixel 2r + 1 times
struct GaussianPsfPass::Buffers {
    Buffers(const vk::Device& device, std::size_t imageBytes, std::size_t kernelBytes)
        : input(device, imageBytes, "the PSF's input image"),
          middle(device, imageBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                 vk::MemoryUse::DeviceLocal, "the PSF's rows pass"),
          output(device, imageBytes, "the PSF's output image"),
          weights(device, kernelBytes, "the PSF's kernel") {}
    vk::StagedBuffer input;
    vk::Buffer middle;
    vk::StagedBuffer output;
    vk::StagedBuffer weights;
};

GaussianPsfPass::GaussianPsfPass(const vk::Device& device)
    : m_device(device), m_pass(std::make_unique<vk::ComputePass>(
                            device, psf_gauss_comp_spv, psf_gauss_comp_spv_size, 5,
                            static_cast<std::uint32_t>(sizeof(PassConstants)))) {}

GaussianPsfPass::~GaussianPsfPass() = default;

std::vector<float> gaussianPsfOnDevice(const vk::Device& device, const std::vector<float>& image,
                                       int width, int height, double fwhmPixels,
                                       double* gpuMilliseconds) {
    GaussianPsfPass pass(device);
    return pass.apply(image, width, height, fwhmPixels, gpuMilliseconds);
}

std::vector<float> GaussianPsfPass::apply(const std::vector<float>& image, int width, int height,
                                          double fwhmPixels, double* gpuMilliseconds,
                                          int timedRepeats) {
    const vk::Device& device = m_device;
    vk::ComputePass& pass = *m_pass;
    if (width <= 0 || height <= 0 || image.size() != static_cast<std::size_t>(width) * height)
        throw Error("point spread function: the image is not " + std::to_string(width) + " x " +
                    std::to_string(height) + " pixels");
    if (!(fwhmPixels > 0.0) || !std::isfinite(fwhmPixels) || fwhmPixels > std::max(width, height))
        throw Error("point spread function: a full width at half maximum of " +
                    io::formatG(fwhmPixels) + " pixels (positive, at most the image's side)");
    if (timedRepeats < 1)
        throw Error("point spread function: " + std::to_string(timedRepeats) +
                    " repeats (internal error)");
    const int radius = std::min(gaussianPsfRadius(fwhmPixels), std::max(width, height));
    const std::vector<double> k64 = gaussianPsfKernel1D(fwhmPixels, radius);
    const std::vector<float> kernel(k64.begin(), k64.end());

    const std::size_t bytes = image.size() * sizeof(float);
    const std::size_t kernelBytes = kernel.size() * sizeof(float);
    if (!m_buffers || m_buffers->input.size() != bytes || m_buffers->weights.size() != kernelBytes) {
        m_buffers.reset(); // the old ones first: two images' worth may not fit
        m_buffers = std::make_unique<Buffers>(device, bytes, kernelBytes);
    }
    vk::StagedBuffer& input = m_buffers->input;
    vk::Buffer& middle = m_buffers->middle;
    vk::StagedBuffer& output = m_buffers->output;
    vk::StagedBuffer& weights = m_buffers->weights;
    input.write(image.data(), bytes);
    weights.write(kernel.data(), kernel.size() * sizeof(float));

    pass.bind({input.handle(), middle.handle(), output.handle(), weights.handle(), middle.handle()});
    const std::uint32_t gx = (static_cast<std::uint32_t>(width) + kGroupX - 1) / kGroupX;
    const std::uint32_t gy = (static_cast<std::uint32_t>(height) + kGroupY - 1) / kGroupY;
    const bool timed = gpuMilliseconds != nullptr && device.timestampValidBits() > 0;
    vk::QueryPool queries;
    if (timed)
        queries = vk::QueryPool(device, 2);

    if (input.staged()) { // the image to the GPU in a submission of its own, outside the timing
        vk::CommandBuffer& upload = pass.begin();
        input.recordUpload(upload);
        weights.recordUpload(upload);
        pass.submitAndWait();
    }
    vk::CommandBuffer& commands = pass.begin();
    if (timed) {
        queries.reset(commands);
        // after the uploads (a top-of-pipe stamp would not wait for them): the passes alone
        queries.writeTimestamp(commands, 0, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
    }
    const PassConstants alongRows{width, height, radius, 0};
    const PassConstants alongColumns{width, height, radius, 1};
    for (int repeat = 0; repeat < timedRepeats; ++repeat) {
        if (repeat > 0) // the last columns pass is done with both images before they are rewritten
            commands.barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
        pass.push(&alongRows, sizeof alongRows);
        commands.dispatch(gx, gy);
        // the rows pass is complete before the columns read it
        commands.barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
        pass.push(&alongColumns, sizeof alongColumns);
        commands.dispatch(gx, (gy + kColumnRows - 1) / kColumnRows);
    }
    if (timed)
        queries.writeTimestamp(commands, 1, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    if (output.staged())
        output.recordDownload(commands);
    else
        commands.barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    pass.submitAndWait();
    if (timed)
        *gpuMilliseconds = queries.elapsedMilliseconds(0, 1) / timedRepeats;

    std::vector<float> result(image.size());
    output.read(result.data(), bytes);
    return result;
}

} // namespace bv::detector
