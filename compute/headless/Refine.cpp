#include "compute/headless/Refine.h"

#include "compute/core/Error.h"
#include "compute/engine/Simulator.h"
#include "compute/io/AtomicFile.h"
#include "compute/io/RefinedExperiment.h"
#include "compute/refine/Refinement.h"
#include "compute/run/PreparedRun.h"
#include "compute/vk/Device.h"

#include <glm/matrix.hpp>

namespace bv::headless {

void runRefinement(const RunRequest& request, const io::MeasuredImage& measured, std::ostream& out,
                   std::ostream& err) {
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
    const refine::FitReport report = fit.run();
    refine::printFitReport(out, report);

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
                                   refine::refinedModels(start, report.refined));
        out << "refined experiment written to " << request.refinedExperiment << "\n";
    }
    (void)err;
}

} // namespace bv::headless
