#pragma once
// What resolve() makes of nanoBragg's words, for the tests that check a resolved experiment
// (the plan's preview sampling, the Ewald scene, the spots the shader draws).
//
//     const bv::ResolvedExperiment r = bv::testing::resolvedOf("-cell 10 10 10 90 90 90 ...");
//
// The resolved experiment borrows the Experiment's structure factors, so the Experiment is
// kept here, until the next call.

#include "compute/cli/CommandLine.h"
#include "compute/model/Resolve.h"
#include "compute/random/ReferenceRandom.h"
#include "tests/TestSupport.h"

#include <QString>

#include <sstream>
#include <string>
#include <vector>

namespace bv::testing {

inline ResolvedExperiment resolvedOf(const std::vector<std::string>& args) {
    static Experiment kept;
    kept = cli::parseCommandLine(args).experiment;
    random::ReferenceRandom rng;
    std::ostringstream log;
    return resolve(kept, rng, log);
}

inline ResolvedExperiment resolvedOf(const QString& options) {
    return resolvedOf(words(options));
}

} // namespace bv::testing
