#include "compute/headless/Refine.h"

#include "compute/core/Error.h"
#include "compute/engine/Simulator.h"
#include "compute/io/AtomicFile.h"
#include "compute/io/DialsExperiment.h"
#include "compute/io/DialsReflections.h"
#include "compute/io/RefinedExperiment.h"
#include "compute/refine/Refinement.h"
#include "compute/run/PreparedRun.h"
#include "compute/vk/Device.h"

#include <glm/matrix.hpp>

namespace bv::headless {

namespace {

refine::SpotMatch matchImage(const refine::ObservedSpots& spots, const std::vector<float>& image,
                             const io::MeasuredImage& measured, const ResolvedExperiment& resolved) {
    return refine::matchSpots(spots,
                              refine::simulatedSpots(image, measured.width, measured.height,
                                                     measured.hasData, resolved.panels),
                              resolved.panels.size());
}

} // namespace

std::optional<refine::ObservedSpots> readObservedSpots(const RunRequest& request) {
    if (request.spots.empty())
        return std::nullopt;
    if (!request.compare && request.refine.empty())
        throw Error("-spots " + request.spots + ": with -compare or -refine, whose simulated "
                    "spots it is set against");
    const io::DialsReflections table = io::readDialsReflections(request.spots);
    // the measured frame's DIALS image number: -frame, or the scan's first image
    std::optional<long long> image = request.frame;
    if (!image && !request.experimentFile.empty()) {
        const io::DialsExperiment x = io::readDialsExperiment(
            request.experimentFile, static_cast<std::size_t>(request.experimentId),
            io::DialsModels::All);
        if (x.scan)
            image = x.scan->firstImage;
    }
    return refine::observedSpots(request.spots, table, image);
}

void printObservedSpots(std::ostream& out, const refine::ObservedSpots& spots,
                        const std::vector<float>& image, const io::MeasuredImage& measured,
                        const ResolvedExperiment& resolved) {
    refine::printSpotMatch(out, spots, matchImage(spots, image, measured, resolved), nullptr);
}

void runRefinement(const RunRequest& request, const io::MeasuredImage& measured,
                   const refine::ObservedSpots* spots, std::ostream& out, std::ostream& err) {
    if (!request.refinedExperiment.empty() && request.experimentFile.empty())
        throw Error("-refined_experiment " + request.refinedExperiment +
                    ": needs the -experiment the fit starts from (its models are written back)");
    const ResolvedExperiment resolved = run::resolveQuietly(request.experiment);
    const Experiment start = refine::canonicalStart(request.experiment, resolved);
    refine::ParameterSet set(start, resolved, request.refine);

    vk::DeviceOptions deviceOptions;
    deviceOptions.deviceOverride = request.device;
    const vk::Device device(deviceOptions);
    engine::SimulatorOptions options;
    options.precision = request.precision;
    engine::Simulator simulator(device, options);
    out << "refinement on " << device.description() << ", "
        << engine::precisionName(simulator.precision()) << " precision\n";
    if (!set.cellConstraint().empty())
        out << "the cell: " << set.cellConstraint() << "\n";
    // the forward model: one GPU rendering per call
    const refine::ForwardModel render = [&](const Experiment& e) {
        const run::PreparedRun prepared = run::prepareQuietly(e);
        run::setPlan(simulator, prepared);
        simulator.run();
        return simulator.image();
    };
    refine::Refinement fit(set, measured, render,
                           request.refineAllPixels ? refine::PixelChoice::All
                                                   : refine::PixelChoice::Spots);
    refine::FitReport report = fit.run();
    report.cellConstraint = set.cellConstraint();
    if (spots) // the whole images at the start and after, every spot in them
        report.observed = refine::FitReport::Observed{
            *spots, matchImage(*spots, render(set.experimentAt(set.startValues())), measured, resolved),
            matchImage(*spots, render(report.refined), measured, resolved)};
    refine::printFitReport(out, report);

    if (!request.fitReport.empty()) {
        io::AtomicFile file(request.fitReport);
        file.write(refine::fitReportJson(report));
        file.commit();
        out << "fit report written to " << request.fitReport << "\n";
    }
    if (!request.refinedExperiment.empty()) {
        const Experiment& r = report.refined;
        io::RefinedModels models;
        models.detectorShift = r.detector.panels.at(0).origin - start.detector.panels.at(0).origin;
        const glm::dmat3 reciprocal = *r.crystal.mosflmMatrix / (r.beam.wavelength * 1e10);
        const glm::dmat3 direct = glm::transpose(glm::inverse(reciprocal));
        models.a = direct[0];
        models.b = direct[1];
        models.c = direct[2];
        models.mosaicSpread = r.crystal.mosaicSpread;
        models.cells = r.crystal.cells;
        io::writeRefinedExperiment(request.experimentFile,
                                   static_cast<std::size_t>(request.experimentId),
                                   request.refinedExperiment, models);
        out << "refined experiment written to " << request.refinedExperiment << "\n";
    }
    (void)err;
}

} // namespace bv::headless
