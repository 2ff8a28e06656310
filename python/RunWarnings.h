#pragma once
// What the Python module says before a run starts: compute/run/RunNotices.h's notices (values
// that look like a slip of units, the cost of a long run and why), as Python warnings
// (UserWarning), which Python prints on stderr at once, before the GPU works; a program can
// filter them, or turn them into errors, with the warnings module.

#include "compute/headless/FrameRunner.h"
#include "compute/run/RunNotices.h"
#include "compute/vk/Device.h"

#include <pybind11/pybind11.h>

namespace bv::python {

inline void warnBeforeTheRun(const run::PreparedRun& prepared, const headless::FrameRunner& runner) {
    for (const std::string& notice :
         run::runNotices(prepared, runner.device().info(), runner.simulator().precision()))
        if (PyErr_WarnEx(PyExc_UserWarning, notice.c_str(), 1) < 0)
            throw pybind11::error_already_set(); // warnings made errors: the run does not start
}

} // namespace bv::python
