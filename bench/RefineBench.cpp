// braggview-bench-refine [SIZE] [--precision fast|precise] [--whole-frame | --both]
//
// What one refinement costs (docs/performance.md, docs/refinement.md "Speed"): a noisy truth
// frame of SIZE x SIZE pixels (default 512; the 2048^2 case of docs/performance.md's session 3
// with -detpixels SIZE) is rendered here and given Poisson noise, its experiment perturbed
// (distance 0.3 mm, beam 0.5 and 1 pixel, orientation 0.05 deg, the cubic cell 0.17 %, mosaic
// spread 25 %) and refined back with -refine distance,beam,orientation,cell,mosaic (8
// parameters, and the scale and background) through headless's own fit (refineOnDevice).
// Printed, one figure a line: wall time of the fit, renderings, GPU time summed from the
// timestamp queries, where the renderings' wall time went (resolve, plan, setPlan, run,
// read-back) and the rest (the fit on the host), then each refined value beside the truth.
// --whole-frame runs the fit the way it was made before run::ModelRenderer (each rendering a
// whole preparation and the frame read back), --both runs both, fitted pixels first.
// Numbers go to docs/performance.md, never into tests.
#include "compute/cli/CommandLine.h"
#include "compute/core/Error.h"
#include "compute/engine/Simulator.h"
#include "compute/headless/Refine.h"
#include "compute/random/CounterRandom.h"
#include "compute/refine/RefinedParameters.h"
#include "compute/request/Inputs.h"
#include "compute/run/PreparedRun.h"
#include "compute/vk/Device.h"

#include "BenchSupport.h"

#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace bv;

std::string caseWords(int size, bool perturbed) {
    const double centre = 0.1 * size / 2; // mm: the beam's place on the truth's detector
    std::ostringstream w;
    w << (perturbed
              ? "-cell 60.1 60.1 60.1 90 90 90 -misset 10.05 20 30 -distance 150.3 -mosaic 0.15"
              : "-cell 60 60 60 90 90 90 -misset 10 20 30 -distance 150 -mosaic 0.2")
      << " -N 12 -default_F 100 -lambda 1 -detpixels " << size
      << " -pixel 0.1 -phi 0 -osc 0.5 -phisteps 2 -mosaic_dom 8 -oversample 1 -fluence 1e30";
    if (perturbed)
        w << " -Xbeam " << centre + 0.05 << " -Ybeam " << centre + 0.1;
    return w.str();
}

RunRequest benchRequest(const std::string& words, Precision precision) {
    RunRequest r = cli::parseCommandLine(bench::words(words));
    std::ostringstream quiet;
    request::loadInputs(r, quiet);
    r.precision = precision;
    r.refine = {"distance", "beam", "orientation", "cell", "mosaic"};
    return r;
}

glm::dmat3 cellOf(const Experiment& e) {
    const glm::dmat3 reciprocal = *e.crystal.mosflmMatrix / (e.beam.wavelength * 1e10);
    return glm::transpose(glm::inverse(reciprocal));
}

void fit(const char* name, headless::RenderPath path, const RunRequest& perturbed,
         const io::MeasuredImage& measured, engine::Simulator& simulator,
         const std::map<std::string, double>& truth, const glm::dmat3& trueCell) {
    const ResolvedExperiment resolved = run::resolveQuietly(perturbed.experiment);
    const Experiment start = refine::canonicalStart(perturbed.experiment, resolved);
    run::RenderTimes t;
    const int pipelines = simulator.pipelineCount(), records = simulator.recordCount();
    const auto begin = std::chrono::steady_clock::now();
    const refine::FitReport report =
        headless::refineOnDevice(perturbed, measured, simulator, start, path, &t);
    const double wall =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
    const int n = std::max(t.renderings, 1);
    std::printf("[%s] fit wall time                    %10.1f ms\n", name, wall);
    std::printf("[%s] renderings                       %10d\n", name, t.renderings);
    std::printf("[%s] fitted pixels                    %10zu (%zu spots)\n", name, report.pixels,
                report.spots);
    std::printf("[%s] iterations                       %10d\n", name, report.iterations);
    std::printf("[%s] GPU time, summed (timestamps)    %10.1f ms  (%.3f ms a rendering)\n", name,
                t.gpu, t.gpu / n);
    std::printf("[%s] renderings' wall time            %10.1f ms  (%.3f ms a rendering)\n", name,
                t.total(), t.total() / n);
    std::printf("[%s]   resolve                        %10.1f ms\n", name, t.resolve);
    std::printf("[%s]   plan                           %10.1f ms\n", name, t.plan);
    std::printf("[%s]   setPlan (diff, uploads)        %10.1f ms\n", name, t.setPlan);
    std::printf("[%s]   run (submit and wait)          %10.1f ms\n", name, t.run);
    std::printf("[%s]   read-back                      %10.1f ms\n", name, t.readBack);
    std::printf("[%s] fit on the host (the rest)       %10.1f ms\n", name, wall - t.total());
    const refine::FitReport::HostTimes& h = report.hostMs;
    std::printf("[%s]   spot regions, background, start %9.1f ms\n", name, h.setup);
    std::printf("[%s]   normal equations, differences  %10.1f ms\n", name, h.normalEquations);
    std::printf("[%s]   trial steps' costs             %10.1f ms\n", name, h.costs);
    std::printf("[%s]   after the fit (RMSD, sigma)    %10.1f ms\n", name, h.after);
    std::printf("[%s] pipelines built, recordings      %10d, %d\n", name,
                simulator.pipelineCount() - pipelines, simulator.recordCount() - records);
    std::printf("[%s] spot RMSD                        %10.4f -> %.4f pixels\n", name,
                report.startSpotRmsd, report.endSpotRmsd);
    for (const refine::FittedValue& v : report.values) {
        const auto it = truth.find(v.name);
        if (it != truth.end())
            std::printf("[%s] %-16s truth %12.6f start %12.6f refined %12.6f error %10.3g\n", name,
                        v.name.c_str(), it->second, v.start, v.value, v.value - it->second);
        else if (v.name.rfind("orientation", 0) != 0)
            std::printf("[%s] %-16s start %12.6f refined %12.6f\n", name, v.name.c_str(), v.start,
                        v.value);
    }
    // the orientation: the largest angle between a refined cell vector and the truth's
    const glm::dmat3 refined = cellOf(report.refined);
    double worst = 0.0;
    for (int i = 0; i < 3; ++i) {
        const double c = glm::dot(glm::normalize(refined[i]), glm::normalize(trueCell[i]));
        worst = std::max(worst, std::acos(std::min(1.0, c)) * 180.0 / M_PI);
    }
    std::printf("[%s] orientation error (largest cell-vector angle) %.5f deg\n", name, worst);
}

} // namespace

int main(int argc, char** argv) {
    int size = 512;
    Precision precision = Precision::Fast;
    bool fitted = true, whole = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--precision" && i + 1 < argc)
            precision =
                std::strcmp(argv[++i], "precise") == 0 ? Precision::Precise : Precision::Fast;
        else if (a == "--whole-frame")
            fitted = false, whole = true;
        else if (a == "--both")
            whole = true;
        else if (!a.empty() && a[0] != '-')
            size = std::atoi(a.c_str());
        else {
            std::fprintf(stderr, "usage: braggview-bench-refine [SIZE] [--precision fast|precise] "
                                 "[--whole-frame | --both]\n");
            return 2;
        }
    }
    try {
        const vk::Device device;
        engine::SimulatorOptions options;
        options.precision = precision;
        engine::Simulator simulator(device, options);
        std::printf("device %s, %s precision, %dx%d pixels\n", device.description().c_str(),
                    engine::precisionName(simulator.precision()), size, size);
        std::printf("truth     %s\n", caseWords(size, false).c_str());
        std::printf("perturbed %s\n", caseWords(size, true).c_str());
        std::printf("refined   distance,beam,orientation,cell,mosaic (8 parameters) + scale, "
                    "background\n");
        std::printf("fit wall time: the whole fit, from its first rendering to the report (not "
                    "the device, the Simulator or the truth frame); GPU time: the renderings' "
                    "dispatches\n");

        // the measured frame: the truth's image, Poisson noise (counter generator, seed 3)
        const RunRequest truthRequest = benchRequest(caseWords(size, false), precision);
        const run::PreparedRun truthRun = run::prepareQuietly(truthRequest.experiment);
        run::setPlan(simulator, truthRun);
        simulator.run();
        io::MeasuredImage measured;
        measured.format = "bench";
        measured.width = measured.height = size;
        measured.pixels = random::counterPoissonImage(simulator.image(), random::counterKey(-3, 0));
        measured.hasData.assign(measured.pixels.size(), 1);

        // the truth's values of the parameters, as the fit names them
        const Experiment truthStart =
            refine::canonicalStart(truthRequest.experiment, truthRun.resolved);
        const refine::ParameterSet truthSet(truthStart, truthRun.resolved, truthRequest.refine);
        std::map<std::string, double> truth;
        for (const refine::Parameter& p : truthSet.parameters())
            if (p.group != refine::Group::Orientation)
                truth[p.name] = p.start;

        const RunRequest perturbed = benchRequest(caseWords(size, true), precision);
        if (fitted)
            fit("fitted pixels", headless::RenderPath::FittedPixels, perturbed, measured, simulator,
                truth, cellOf(truthStart));
        if (whole)
            fit("whole frame", headless::RenderPath::WholeFrame, perturbed, measured, simulator,
                truth, cellOf(truthStart));
    } catch (const bv::Error& e) {
        std::fprintf(stderr, "braggview-bench-refine: %s\n", e.what());
        return 1;
    }
    return 0;
}
