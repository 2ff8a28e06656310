#pragma once
// One run's preparation, the same for every front end (the single headless run, a batch's
// frames, the viewer, the Python module, the benches and the pixel-trace tool): an
// Experiment whose input files are loaded -> resolve() -> the plan -> a Simulator that takes
// the plan with the reference's serial loop (docs/architecture.md, "Data flow as built").
//
//     random::ReferenceRandom rng;     // the run's generator: misset, mosaic domains, noise
//     const run::PreparedRun prepared = run::prepare(experiment, rng, log);
//     run::setPlan(simulator, prepared);
//     simulator.run();
//
// The plan borrows the Experiment's structure factors and mask: keep the Experiment while
// the plan is used (until Simulator::setPlan returns, which copies them to the device).

#include "compute/engine/Simulator.h"
#include "compute/model/Resolve.h"
#include "compute/plan/Plan.h"
#include "compute/plan/Preview.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <vector>

namespace bv::random {
class ReferenceRandom;
}

namespace bv::run {

// A run ready for a Simulator: the experiment with everything the reference derives from it,
// and its flat GPU-ready tables.
struct PreparedRun {
    ResolvedExperiment resolved;
    plan::Plan plan;
};

// Called with the resolved experiment before its plan is made: the headless run prints the
// reference's summary there (and times the two phases apart).
using ResolvedStep = std::function<void(const ResolvedExperiment&)>;

// Resolves `experiment` with `rng` (which is left where the run's noise continues it),
// printing the reference's warnings on `log`, and makes its plan. Throws bv::Error for what
// the experiment cannot be.
PreparedRun prepare(const Experiment& experiment, random::ReferenceRandom& rng, std::ostream& log,
                    const ResolvedStep& onResolved = {});
// The same with a mask of the caller's in place of the experiment's (a fit's chosen pixels:
// run::ModelRenderer).
PreparedRun prepare(const Experiment& experiment, const std::vector<std::uint16_t>& mask,
                    random::ReferenceRandom& rng, std::ostream& log,
                    const ResolvedStep& onResolved = {});

// The same with a generator of its own and the warnings dropped: for a run whose generator
// and log nobody reads (a batch's first plan, set to size the tables; the benches).
PreparedRun prepareQuietly(const Experiment& experiment);
// Its first step alone (what a batch checks before its frames, the reciprocal view's scene).
ResolvedExperiment resolveQuietly(const Experiment& experiment);

// The viewer's preview of `exact` (prepared from `experiment`): the same experiment sampled
// with `counts` (plan::reduceSampling), and its plan.
PreparedRun preparePreview(const Experiment& experiment, const PreparedRun& exact,
                           const plan::SamplingCounts& counts);

// How the reference's serial loop ran `resolved` (the phi angles its rows carry over, and
// OMP_NUM_THREADS's thread count), for the Simulator and the CPU trace alike.
engine::ReferenceLoop referenceLoop(const ResolvedExperiment& resolved);

// Hands the plan to `simulator` (which uploads what changed since its last plan), with the
// reference's serial loop of the experiment the plan was made from.
void setPlan(engine::Simulator& simulator, const ResolvedExperiment& resolved,
             const plan::Plan& plan);
inline void setPlan(engine::Simulator& simulator, const PreparedRun& prepared) {
    setPlan(simulator, prepared.resolved, prepared.plan);
}

} // namespace bv::run
