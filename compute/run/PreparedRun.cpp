#include "compute/run/PreparedRun.h"

#include "compute/engine/SerialOrder.h"
#include "compute/random/ReferenceRandom.h"

#include <sstream>

namespace bv::run {

PreparedRun prepare(const Experiment& experiment, random::ReferenceRandom& rng, std::ostream& log,
                    const ResolvedStep& onResolved) {
    return prepare(experiment, experiment.mask, rng, log, onResolved);
}

PreparedRun prepare(const Experiment& experiment, const std::vector<std::uint16_t>& mask,
                    random::ReferenceRandom& rng, std::ostream& log,
                    const ResolvedStep& onResolved) {
    PreparedRun prepared;
    prepared.resolved = resolve(experiment, rng, log);
    if (onResolved)
        onResolved(prepared.resolved);
    prepared.plan = plan::makePlan(prepared.resolved, mask);
    return prepared;
}

PreparedRun prepareQuietly(const Experiment& experiment) {
    random::ReferenceRandom rng;
    std::ostringstream quiet;
    return prepare(experiment, rng, quiet);
}

ResolvedExperiment resolveQuietly(const Experiment& experiment) {
    random::ReferenceRandom rng;
    std::ostringstream quiet;
    return resolve(experiment, rng, quiet);
}

PreparedRun preparePreview(const Experiment& experiment, const PreparedRun& exact,
                           const plan::SamplingCounts& counts) {
    PreparedRun preview;
    preview.resolved = plan::reduceSampling(exact.resolved, counts);
    preview.plan = plan::makePlan(preview.resolved, experiment.mask);
    return preview;
}

engine::ReferenceLoop referenceLoop(const ResolvedExperiment& resolved) {
    return {engine::phiAngles(resolved), engine::referenceThreads()};
}

void setPlan(engine::Simulator& simulator, const ResolvedExperiment& resolved,
             const plan::Plan& plan) {
    simulator.setPlan(plan, referenceLoop(resolved));
}

} // namespace bv::run
