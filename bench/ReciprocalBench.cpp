// braggview-bench-reciprocal: what the reciprocal-space view costs (docs/performance.md).
// Builds the Ewald scene of a nanoBragg command line (resolve + plan::ewaldScene, the work the
// viewer repeats when the experiment changes), turns it into vertices (scene::drawScene) and
// draws it offscreen at 1920 x 1080 with the viewer's renderer (scene::SceneRenderer), the
// camera orbiting a little each frame. Prints the median and p95 of:
//   scene build   resolve + ewaldScene (CPU), for the experiment as given
//   rebuild       a parameter change (the wavelength, then phi0, alternately): resolve +
//                 ewaldScene + drawScene (CPU)
//   draw          the render pass on the GPU (timestamp queries)
//   frame         record + submit + wait, wall time, camera move only (no upload)
//   frame+upload  the same with a new drawing each frame (what phi animation costs)
// Qt-free: runs on the GPU machine, which has only a Vulkan driver.
//
//   braggview-bench-reciprocal [--frames N] [--device D] [--case NAME | -- <nanoBragg arguments>]

#include "bench/BenchSupport.h"
#include "compute/cli/CommandLine.h"
#include "compute/request/Inputs.h"
#include "compute/core/Error.h"
#include "compute/model/Resolve.h"
#include "compute/plan/EwaldScene.h"
#include "compute/run/PreparedRun.h"
#include "compute/vk/Buffer.h"
#include "compute/vk/Commands.h"
#include "compute/vk/Device.h"
#include "compute/vk/Instance.h"
#include "compute/vk/QueryPool.h"
#include "render/scene/OffscreenTarget.h"
#include "render/scene/OrbitCamera.h"
#include "render/scene/ReciprocalDrawing.h"
#include "render/scene/SceneRenderer.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// A protein-sized cell at 1 Angstrom on a 1024-pixel detector: a few thousand nodes in view.
const char* const kDefaultArguments = "-cell 78 78 38 90 90 90 -lambda 1 -N 10 -default_F 100 "
                                      "-distance 100 -detpixels 1024 -pixel 0.1";

int usage() {
    std::fprintf(stderr, "usage: braggview-bench-reciprocal [--frames N] [--device D] "
                         "[--case NAME | -- <nanoBragg arguments>]\n");
    return 2;
}

void print(const char* what, const std::vector<double>& ms) {
    std::printf("%-14s median %8.3f ms   p95 %8.3f ms   (%zu runs)\n", what,
                bv::bench::stats(ms).median, bv::bench::percentile(ms, 0.95), ms.size());
}

} // namespace

int main(int argc, char** argv) {
    bv::vk::skipMesaDeviceSelectLayer();
    int frames = 200;
    std::string device, args;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (a == "--frames" && hasValue)
            frames = std::atoi(argv[++i]);
        else if (a == "--device" && hasValue)
            device = argv[++i];
        else if (const int taken = bv::bench::caseWords(i, argc, argv, "braggview-bench-reciprocal", args)) {
            if (taken < 0)
                return 2;
        } else
            return usage();
    }
    if (args.empty())
        args = kDefaultArguments;
    if (frames < 1)
        return usage();

    try {
        bv::RunRequest cl = bv::cli::parseCommandLine(bv::bench::words(args));
        std::ostringstream quiet;
        bv::request::loadInputs(cl, quiet);
        bv::Experiment experiment = cl.experiment;
        auto build = [&] {
            const bv::ResolvedExperiment r = bv::run::resolveQuietly(experiment);
            return bv::plan::ewaldScene(r, r.structureFactors, r.phi0, {});
        };

        std::vector<double> buildMs;
        bv::plan::EwaldScene scene;
        for (int i = 0; i < 20; ++i) {
            const auto t0 = Clock::now();
            scene = build();
            buildMs.push_back(millisecondsSince(t0));
        }
        std::vector<double> rebuildMs;
        const bv::Experiment start = experiment;
        for (int i = 0; i < 40; ++i) {
            const auto t0 = Clock::now();
            experiment = start;
            if (i % 2 == 0)
                experiment.beam.wavelength *= 1.0 + 0.002 * (i % 7);
            else
                experiment.crystal.phi0 += 0.01 * i;
            const bv::scene::SceneDrawing rebuilt = bv::scene::drawScene(build(), {});
            rebuildMs.push_back(millisecondsSince(t0));
        }
        experiment = start;

        bv::vk::DeviceOptions options;
        options.deviceOverride = device;
        options.graphicsQueue = true;
        bv::vk::Device vulkan(options);
        if (!(vulkan.info().queueFamilies[vulkan.queueFamily()].flags & VK_QUEUE_GRAPHICS_BIT))
            throw bv::Error("the queue braggview chose on " + vulkan.description() +
                            " cannot draw (no graphics): the reciprocal view needs one that can");
        const VkExtent2D extent{1920, 1080};
        bv::scene::OffscreenTarget target(vulkan, extent);
        bv::scene::SceneRenderer renderer(vulkan, {target.renderPass(), 0, VK_SAMPLE_COUNT_1_BIT});
        bv::scene::OrbitCamera camera;
        camera.setViewport(int(extent.width), int(extent.height));
        const bv::scene::SceneBounds bounds = bv::scene::sceneBounds(scene);
        camera.frame(bounds.centre, bounds.radius, scene.spindle, -scene.beam, 0.6, 0.35);
        bv::scene::SceneDrawing drawing = bv::scene::drawScene(scene, {});
        drawing.generation = 1;
        renderer.setDrawing(drawing);

        bv::vk::CommandPool pool(vulkan);
        bv::vk::CommandBuffer commands(pool);
        bv::vk::Fence fence(vulkan);
        bv::vk::QueryPool timer(vulkan, 2);
        const float clear[4] = {0.05f, 0.06f, 0.09f, 1.0f};
        std::vector<double> drawMs, frameMs, uploadFrameMs;
        for (int f = 0; f < 2 * frames + 5; ++f) {
            const bool withUpload = f >= frames + 5;
            if (withUpload) { // a new drawing each frame: what phi animation makes
                bv::scene::SceneDrawing next = drawing;
                next.generation = static_cast<std::uint64_t>(f) + 2;
                renderer.setDrawing(std::move(next));
            }
            camera.orbit(0.01, 0.0);
            const auto t0 = Clock::now();
            commands.begin();
            timer.reset(commands);
            timer.writeTimestamp(commands, 0, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
            target.begin(commands.handle(), clear);
            renderer.record(commands.handle(), 0, extent, camera.viewProjection());
            target.end(commands.handle());
            timer.writeTimestamp(commands, 1, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
            commands.end();
            bv::vk::submitAndWait(vulkan, commands, fence);
            const double wall = millisecondsSince(t0);
            if (f < 5)
                continue; // warm-up
            drawMs.push_back(timer.elapsedMilliseconds(0, 1));
            (withUpload ? uploadFrameMs : frameMs).push_back(wall);
        }

        std::printf("device: %s\n", vulkan.description().c_str());
        std::printf("scene: %zu nodes (d_min %.2f A), %zu line vertices, %zu points; 1920x1080\n",
                    scene.nodes.size(), scene.dMin, drawing.lines.size(), drawing.points.size());
        print("scene build", buildMs);
        print("rebuild", rebuildMs);
        print("draw (GPU)", drawMs);
        print("frame", frameMs);
        print("frame+upload", uploadFrameMs);
        std::printf("uploads: %llu\n", static_cast<unsigned long long>(renderer.uploads()));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "braggview-bench-reciprocal: %s\n", e.what());
        return 1;
    }
    return 0;
}
