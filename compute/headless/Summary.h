#pragma once
// The text nanoBragg prints before its pixel loop (convention, cell, crystal, sources,
// detector geometry, sampling), in its words and number formats, from the resolved
// experiment, so that a run's stdout reads like the reference's.

#include "compute/cli/CommandLine.h"
#include "compute/model/Resolve.h"

#include <iosfwd>

namespace bv::headless {

void printSummary(std::ostream& out, const cli::CommandLine& commandLine,
                  const ResolvedExperiment& r);

} // namespace bv::headless
