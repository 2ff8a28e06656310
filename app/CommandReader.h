#pragma once
// The viewer's reader of nanoBragg's words (its start-up arguments, an -img header to open).
// Words -> request is compute/cli's job, and of the viewer only the program's main() includes
// cli: main() hands its parser in once, before a window opens, so that the rest of app/ deals
// in requests, never words (docs/architecture.md). Test programs hand it in the same way.
//
//     bv::app::setCommandReader([](const std::vector<std::string>& words) {
//         return bv::cli::parseCommandLine(words);
//     });
//     bv::RunRequest r = bv::app::readCommand({"-img", "header.img"});

#include "compute/request/RunRequest.h"

#include <string>
#include <vector>

namespace bv::app {

using CommandReader = RunRequest (*)(const std::vector<std::string>& words);

void setCommandReader(CommandReader reader);

// The request `words` state; throws bv::Error for bad words (the reader's message), and when
// no reader was handed in (a programming error, said as such).
RunRequest readCommand(const std::vector<std::string>& words);

} // namespace bv::app
