#pragma once
// "Copy headless command": the nanoBragg arguments that state the document's experiment, so
// that `braggview --headless <them>` (or nanoBragg itself, for what it knows) computes the
// image on screen. The words are the parameter table's (compute/request/Parameters.h,
// commandWords): every parameter the viewer can change written out explicitly, in an order
// that survives the options' side effects, numbers with the shortest text that reads back to
// the same double.

#include "compute/engine/Simulator.h"
#include "compute/request/RunRequest.h"

#include <QString>

#include <string>
#include <vector>

namespace bv::app {

// The request's words with `precision` (the viewer's, which may differ from the request's)
std::vector<std::string> headlessArguments(const RunRequest& request, engine::Precision precision);
// "braggview --headless ..." with shell quoting where a word needs it
QString headlessCommand(const RunRequest& request, engine::Precision precision);

// The shortest decimal text that reads back as `value` (std::to_chars).
std::string shortestText(double value);

} // namespace bv::app
