#pragma once
// The text nanoBragg prints before its pixel loop (convention, cell, crystal, sources,
// detector geometry, sampling), in its words and number formats, from the resolved
// experiment, so that a run's stdout reads like the reference's.

#include "compute/request/RunRequest.h"
#include "compute/model/Resolve.h"

#include <glm/vec3.hpp>
#include <iosfwd>
#include <string>

namespace bv::headless {

// braggview's first line (name, version, the physics' authors) and the command line's
// notices as WARNING lines: what every headless run, single or batch, prints first.
void printBanner(std::ostream& out, const RunRequest& commandLine);

void printSummary(std::ostream& out, const RunRequest& commandLine,
                  const ResolvedExperiment& r);

// The reference's warning where its loop first leaves the HKL grid with tricubic
// interpolation on (engine::GridExit), for that step's fractional indices, in its words:
// "WARNING: out of range for three point interpolation: h,k,l,h0,k0,l0: %g,%g,%g,%d,%d,%d "
// (no line end). The reference follows it with kFurtherWarnings, also without a line end.
std::string gridExitWarning(const glm::dvec3& hkl);
inline constexpr const char* kFurtherWarnings = "WARNING: further warnings will not be printed! ";

} // namespace bv::headless
