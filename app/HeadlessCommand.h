#pragma once
// "Copy headless command": the nanoBragg arguments that state the document's experiment, so
// that `braggview --headless <them>` (or nanoBragg itself, for what it knows) computes the
// image on screen. Every parameter the viewer can change is written out explicitly, in an
// order that survives the command line's side effects (an option that also sets the pivot
// comes before -pivot; -misset_seed comes last, where the reference's substring match of
// -misset cannot catch it). Numbers are written in the option's units with the shortest
// text that reads back to the same double.

#include "compute/cli/CommandLine.h"
#include "compute/engine/Simulator.h"

#include <QString>

#include <string>
#include <vector>

namespace bv::app {

std::vector<std::string> headlessArguments(const cli::CommandLine& commandLine,
                                           engine::Precision precision);
// "braggview --headless ..." with shell quoting where a word needs it
QString headlessCommand(const cli::CommandLine& commandLine, engine::Precision precision);

// The shortest decimal text that reads back as `value` (std::to_chars).
std::string shortestText(double value);

} // namespace bv::app
