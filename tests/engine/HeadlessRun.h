#pragma once
// Running the headless mode inside a test: its exit status and what it printed on each stream.

#include "compute/headless/Headless.h"

#include <sstream>
#include <string>
#include <vector>

namespace bv::testing {

struct HeadlessRun {
    int status = 0;
    std::string out, err;
};

inline HeadlessRun runHeadless(const std::vector<std::string>& args) {
    std::ostringstream out, err;
    HeadlessRun r;
    r.status = bv::headless::runHeadless(args, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

} // namespace bv::testing
