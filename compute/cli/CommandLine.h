#pragma once
// nanoBragg's command line, read into a run request (compute/request/RunRequest.h). Every
// option the reference accepts is accepted here under the spellings it effectively accepts
// (compute/request/Parameters.h holds the table), plus braggview's own (-precision, -device,
// -v, -h). Options take effect left to right, so a later option overrides an earlier one;
// -img and -mask headers are read first, so any option overrides what they say.
//
//     bv::RunRequest r = bv::cli::parseCommandLine({"-cell", "100", "100", "100",
//                                                   "90", "90", "90", "-default_F", "100"});
//     if (r.help) { std::cout << bv::cli::usageText(); return 0; }
//     bv::request::loadInputs(r, std::cerr); // matrix, sources, structure factors
//     bv::random::ReferenceRandom rng;
//     bv::ResolvedExperiment resolved = bv::resolve(r.experiment, rng, std::cout);
//
// Bad input throws bv::Error whose message names the option and what it expected.

#include "compute/request/RunRequest.h"
#include "compute/request/Usage.h"

#include <string>
#include <vector>

namespace bv::cli {

// The usage text and the preset list, views of the table (compute/request/Usage.h).
using request::detectorListText;
using request::usageText;

// `args` without the program name. Reads nothing but the headers (and mask pixels) of -img
// and -mask. The run seed defaults to -time(nullptr), as the reference's.
RunRequest parseCommandLine(const std::vector<std::string>& args);
// The options of `args` applied on top of `start` (a viewer session's request, inputs
// loaded), left to right as above: what they do not set stays as `start` has it, and the
// options given add to start.given.
RunRequest parseCommandLine(const std::vector<std::string>& args, RunRequest start);

} // namespace bv::cli
