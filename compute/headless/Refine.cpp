#include "compute/headless/Refine.h"

#include "compute/core/Error.h"
#include "compute/engine/Simulator.h"
#include "compute/io/AtomicFile.h"
#include "compute/io/DialsExperiment.h"
#include "compute/io/DialsReflections.h"
#include "compute/io/RefinedExperiment.h"
#include "compute/model/Units.h"
#include "compute/refine/FitSampling.h"
#include "compute/refine/FrameSampling.h"
#include "compute/refine/Refinement.h"
#include "compute/refine/StartSize.h"
#include "compute/request/ExperimentFile.h"
#include "compute/run/ModelRenderer.h"
#include "compute/run/PreparedRun.h"
#include "compute/vk/Device.h"

#include <glm/matrix.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace bv::headless {

namespace {

refine::SpotMatch matchImage(const refine::ObservedSpots& spots, const std::vector<float>& image,
                             const io::MeasuredImage& measured, const ResolvedExperiment& resolved) {
    return refine::matchSpots(spots,
                              refine::simulatedSpots(image, measured.width, measured.height,
                                                     measured.hasData, resolved.panels),
                              resolved.panels.size());
}

void printFrameSampling(std::ostream& out, const refine::FrameSampling& search) {
    char line[240];
    for (std::size_t k = 0; k < search.rounds.size(); ++k) {
        const refine::FrameSampling::Round& round = search.rounds[k];
        const std::string from = k == 0 ? "" : " (round " + std::to_string(k + 1) + ")";
        if (!round.phi.empty()) {
            const refine::SamplingCandidate& best = round.phi[round.bestPhi];
            out << "the frame's phi sampling" << from << ", reduced chi-square over "
                << search.pixels << " spot pixels:";
            for (std::size_t i = 0; i < round.phi.size(); ++i) {
                const refine::SamplingCandidate& c = round.phi[i];
                std::snprintf(line, sizeof line, "%s %s of %d: %.5g", i ? "," : "",
                              c.sampling == PhiSampling::StepStart ? "start" : "centres",
                              c.steps, c.chiSquare);
                out << line;
            }
            std::snprintf(line, sizeof line, "%.3f", units::degreesFromRadians(best.turn));
            out << "\n  " << best.words()
                << (round.bestPhi == 0 ? " (nanoBragg's for these options) explain it as well as any\n"
                                       : " explain it best (the crystal " + std::string(line) +
                                             " deg about the spindle)\n");
        }
        if (!round.domains.empty()) {
            out << "the frame's mosaic domains" << from
                << ", drawn as nanoBragg draws them, reduced chi-square:";
            for (std::size_t i = 0; i < round.domains.size(); ++i) {
                std::snprintf(line, sizeof line, "%s %d: %.5g", i ? "," : "",
                              round.domains[i].domains, round.domains[i].chiSquare);
                out << line;
            }
            out << "\n  " << round.domains[round.bestDomains].domains << " domains"
                << (round.bestDomains == 0 ? " (nanoBragg's for these options) explain it as well as any\n"
                                           : " explain it best\n");
        }
    }
    if (search.changed)
        out << "fitted again from the start with the frame's sampling (-phisteps, -phi_sampling "
               "and -mosaic_domains set it)\n";
}

} // namespace

std::optional<refine::ObservedSpots> readObservedSpots(const RunRequest& request) {
    if (request.spots.empty())
        return std::nullopt;
    if (!request.compare && request.refine.empty())
        throw Error("-spots " + request.spots + ": with -compare or -refine, whose simulated "
                    "spots it is set against");
    const io::DialsReflections table = io::readDialsReflections(request.spots);
    return refine::observedSpots(request.spots, table, request::measuredImageNumber(request));
}

void printObservedSpots(std::ostream& out, const refine::ObservedSpots& spots,
                        const std::vector<float>& image, const io::MeasuredImage& measured,
                        const ResolvedExperiment& resolved) {
    refine::printSpotMatch(out, spots, matchImage(spots, image, measured, resolved), nullptr);
}

refine::FitReport refineOnDevice(const RunRequest& request, const io::MeasuredImage& measured,
                                 engine::Simulator& simulator, const Experiment& start,
                                 RenderPath path, run::RenderTimes* times,
                                 const refine::ProgressCallback& progress) {
    const ResolvedExperiment resolved = run::resolveQuietly(request.experiment);
    refine::ParameterSet set(start, resolved, request.refine);
    const refine::PixelChoice choice =
        request.refineAllPixels ? refine::PixelChoice::All : refine::PixelChoice::Spots;
    const refine::BackgroundChoice background = request.refineConstantBackground
                                                    ? refine::BackgroundChoice::Constant
                                                    : refine::BackgroundChoice::Local;
    refine::FitReport report;
    if (path == RenderPath::WholeFrame) {
        // every rendering a whole preparation and the frame's read-back (as before the
        // ModelRenderer; braggview-bench-refine --whole-frame compares the two)
        run::RenderTimes whole;
        const refine::ForwardModel render = [&](const Experiment& e) {
            using Clock = std::chrono::steady_clock;
            const Clock::time_point t0 = Clock::now();
            const run::PreparedRun prepared = run::prepareQuietly(e);
            const Clock::time_point t1 = Clock::now();
            run::setPlan(simulator, prepared);
            const Clock::time_point t2 = Clock::now();
            simulator.run();
            const Clock::time_point t3 = Clock::now();
            std::vector<float> image = simulator.image();
            const auto ms = [](Clock::time_point a, Clock::time_point b) {
                return std::chrono::duration<double, std::milli>(b - a).count();
            };
            whole.plan += ms(t0, t1);
            whole.setPlan += ms(t1, t2);
            whole.run += ms(t2, t3);
            whole.readBack += ms(t3, Clock::now());
            whole.gpu += simulator.gpuMilliseconds();
            ++whole.renderings;
            return image;
        };
        refine::Refinement fit(set, measured, render, choice, background);
        if (progress)
            fit.setProgress(progress);
        report = fit.run();
        if (times)
            *times = whole;
        return report;
    }
    // the forward model: the same plan with new parameter values, the fitted pixels only
    run::ModelRenderer renderer(simulator);
    refine::PixelModel model;
    model.image = [&](const Experiment& e) { return renderer.image(e); };
    model.setPixels = [&](const std::vector<std::size_t>& pixels) { renderer.setPixels(pixels); };
    model.pixels = [&](const Experiment& e) { return renderer.pixels(e); };
    refine::Refinement fit(set, measured, model, choice, background);
    if (progress)
        fit.setProgress(progress);
    report = fit.run();
    if (times)
        *times = renderer.times();
    return report;
}

void runRefinement(const RunRequest& request, const io::MeasuredImage& measured,
                   const refine::ObservedSpots* spots, std::ostream& out, std::ostream& err) {
    checkRefinement(request);
    if (const std::string warning = refine::groupsWarning(request.refine); !warning.empty())
        err << "braggview: warning: " << warning << "\n";
    vk::DeviceOptions deviceOptions;
    deviceOptions.deviceOverride = request.device;
    const vk::Device device(deviceOptions);
    engine::SimulatorOptions options;
    options.precision = request.precision;
    engine::Simulator simulator(device, options);
    out << "refinement on " << device.description() << ", "
        << engine::precisionName(simulator.precision()) << " precision\n";
    if (!simulator.notice().empty()) // precise asked of a device without float64, say
        err << "braggview: warning: " << simulator.notice() << "\n";
    refineAndReport(request, measured, spots, simulator, out);
}

void checkRefinement(const RunRequest& request) {
    if (!request.refinedExperiment.empty() && request.experimentFile.empty())
        throw Error("-refined_experiment " + request.refinedExperiment +
                    ": needs the -experiment the fit starts from (its models are written back)");
}

refine::FitReport refineAndReport(const RunRequest& request, const io::MeasuredImage& measured,
                                  const refine::ObservedSpots* spots,
                                  engine::Simulator& simulator, std::ostream& out,
                                  const refine::ProgressCallback& progress) {
    const auto render = [&](const Experiment& e) { // a whole image
        run::setPlan(simulator, run::prepareQuietly(e));
        simulator.run();
        return simulator.image();
    };
    RunRequest fitting = request; // with the crystal's size searched where none is stated
    const bool fitsSize =
        std::find(request.refine.begin(), request.refine.end(), "ncells") != request.refine.end();
    const std::optional<refine::StartSize> size =
        refine::chooseStartSize(fitting.experiment, fitting.refine, measured, render);
    const Experiment& stated = fitting.experiment;
    if (size) {
        out << "the start: no crystal size stated; " << size->cells
            << " cells along each axis correlates best with the frame (of";
        for (std::size_t i = 0; i < size->correlations.size(); ++i)
            out << (i ? ", " : " ") << refine::startSizeCandidates()[i] << ": "
                << std::round(size->correlations[i] * 1000.0) / 1000.0;
        out << (fitsSize ? "; -N sets it)\n"
                         : "; fitted too, as a size held at a guess would move the distance; "
                           "-N holds one)\n");
    }
    const ResolvedExperiment resolved = run::resolveQuietly(stated);
    const Experiment start = refine::canonicalStart(stated, resolved);
    const refine::ParameterSet set(start, resolved, fitting.refine);
    if (start.crystal.phi.steps != request.experiment.crystal.phi.steps) {
        const refine::RotationSampling r = refine::rotationSamplingForFit(resolved, stated.beam.wavelength);
        char line[320];
        std::snprintf(line, sizeof line,
                      "the rotation: %g deg in %d phi steps taken at their centres, chosen for "
                      "the fit (a reflection at %.2f A crosses the sphere in %.3g deg; "
                      "-phisteps and -phi_sampling set them)\n",
                      units::degreesFromRadians(r.oscillation), *start.crystal.phi.steps,
                      r.resolution, units::degreesFromRadians(r.crossing));
        out << line;
    }
    if (set.start().crystal.mosaicDomains != request.experiment.crystal.mosaicDomains)
        out << "the mosaic: " << *set.start().crystal.mosaicDomains
            << " domains, chosen for the fit (-mosaic_domains sets them)\n";
    if (!set.cellConstraint().empty())
        out << "the cell: " << set.cellConstraint() << "\n";
    const refine::SampledFit sampled = refine::fitFindingSampling(
        stated, start, fitting.refine, measured,
        [&](const Experiment& from, const std::vector<std::string>& groups, bool) {
            RunRequest fit = fitting;
            fit.refine = groups;
            return refineOnDevice(fit, measured, simulator, from, RenderPath::FittedPixels,
                                  nullptr, progress); // (Python's Ctrl-C: every fit)
        },
        render);
    refine::FitReport report = sampled.report;
    if (sampled.search)
        printFrameSampling(out, *sampled.search);
    if (sampled.oversampling)
        out << "the oversampling: nanoBragg's rule gives the fitted crystal "
            << sampled.oversampling->second << " where the start's gave "
            << sampled.oversampling->first << "; fitted again with " << sampled.oversampling->second
            << " (-oversample sets it)\n";
    report.cellConstraint = set.cellConstraint();
    if (spots) { // the whole images at the start and after, every spot in them
        report.observed = refine::FitReport::Observed{
            *spots, matchImage(*spots, render(set.experimentAt(set.startValues())), measured, resolved),
            matchImage(*spots, render(report.refined), measured, resolved)};
    }
    refine::printFitReport(out, report);

    writeRefinementFiles(request, report, out);
    return report;
}

void writeRefinementFiles(const RunRequest& request, const refine::FitReport& report,
                          std::ostream& out) {
    if (!request.fitReport.empty()) {
        io::AtomicFile file(request.fitReport);
        file.write(refine::fitReportJson(report));
        file.commit();
        out << "fit report written to " << request.fitReport << "\n";
    }
    if (!request.refinedExperiment.empty()) {
        io::writeRefinedExperiment(request.experimentFile,
                                   static_cast<std::size_t>(request.experimentId),
                                   request.refinedExperiment,
                                   refine::refinedModelsForFile(
                                       request.experiment, request::filedDetector(request),
                                       report.refined));
        out << "refined experiment written to " << request.refinedExperiment << "\n";
    }
}

} // namespace bv::headless
