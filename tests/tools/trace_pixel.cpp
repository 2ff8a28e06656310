// braggview-trace-pixel FAST SLOW ARGS...: one pixel of the simulation on the CPU, in double,
// printing the intermediate quantities the reference's traces name (tests/data/traces), so
// that a GPU pixel that departs from the reference can be followed step by step. ARGS is a
// nanoBragg command line; its input files are read from the working directory. The phi
// carry-over follows OMP_NUM_THREADS as the headless program's does.
//
//   braggview-trace-pixel 140 100 $(cat tests/data/golden/simple_cubic/args.txt)
//
// The GPU's own trace of a pixel (the shader's trace variant, compute/engine/PixelTrace.h) is
// printed by the headless program: braggview --headless ARGS -printout_pixel FAST SLOW.

#include "compute/cli/CommandLine.h"
#include "compute/request/Inputs.h"
#include "compute/engine/SerialOrder.h"
#include "compute/random/ReferenceRandom.h"
#include "compute/run/PreparedRun.h"
#include "tests/engine/ReferencePixel.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: braggview-trace-pixel FAST SLOW NANOBRAGG-ARGS...\n");
        return 2;
    }
    const int fpixel = std::atoi(argv[1]), spixel = std::atoi(argv[2]);
    try {
        bv::RunRequest cl =
            bv::cli::parseCommandLine(std::vector<std::string>(argv + 3, argv + argc));
        std::ostringstream log;
        bv::request::loadInputs(cl, log);
        bv::random::ReferenceRandom rng;
        const bv::run::PreparedRun prepared = bv::run::prepare(cl.experiment, rng, log);
        const bv::plan::Plan& p = prepared.plan;
        // the rows in the order the reference's serial loop met them, as the GPU's setPlan
        const bv::engine::ReferenceLoop loop = bv::run::referenceLoop(prepared.resolved);
        const bv::engine::OrderedOrientations ordered =
            bv::engine::orderOrientations(p, loop.phiAngles, loop.threads);

        bv::testing::ReferencePixelOptions options;
        options.rows = &ordered.rows;
        options.trace = stdout;
        const long long index = static_cast<long long>(spixel) * p.fastPixels + fpixel;
        for (const bv::engine::OrderedOrientations::Unit& u : ordered.freshUnits)
            if (u.pixel == index) {
                options.freshRows = &ordered.freshRows;
                options.freshUnit = u.unit;
            }
        bv::testing::referencePixel(p, fpixel, spixel, options);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "braggview-trace-pixel: %s\n", e.what());
        return 1;
    }
}
