#pragma once
// Many frames in one run: a -series (Series.h) or a job file (Job.h). One device, one
// Simulator, one pipeline and, as long as the frames share the detector and the shader
// variant, one recorded command buffer: each frame only uploads what changed (for a series,
// the orientation table) and re-submits it. Each frame's files are written by the products
// step (compute/products/Products.h) beside their targets and renamed together, so a file on
// disk is complete; a job therefore resumes after an interruption by skipping every frame
// whose files all exist (-restart renders them again).
//
//     std::ostringstream out, err;
//     bv::headless::BatchReport report = bv::headless::runBatch(
//         {"-cell", "50", ..., "-series", "20", "-noisefile", "sim_#####.img", "-seed", "1"},
//         out, err);
//     report.recordCount; // 1
//
// runHeadless() routes here when isBatch() says so and turns exceptions into exit status 1.

#include <iosfwd>
#include <string>
#include <vector>

namespace bv::headless {

// A job (first argument --job or -job) or a series (-series anywhere).
bool isBatch(const std::vector<std::string>& args);

struct BatchReport {
    int frames = 0;        // in the series or job
    int rendered = 0;      // rendered and written by this run
    int skipped = 0;       // complete on disk already (jobs)
    int recordCount = 0;   // command buffer recordings of the one Simulator
    int pipelineCount = 0; // pipeline variants built
    // plan::PlanPart bits that each rendered frame's setPlan uploaded
    std::vector<unsigned> uploadedParts;
    std::vector<std::string> writtenFiles;
    // wall time of each rendered frame's phases, ms: setPlan + dispatches + read-back, the GPU's
    // own time of the dispatches (timestamps; 0 without), and the files (noise, statistics,
    // compression, writing); the main thread's serial part, which no second device shares:
    // the frame's request, resolve() and plan (prepareMs), then its wait while the runner
    // takes the plan (planMs: setPlan, part of renderMs)
    struct FrameTiming {
        double renderMs = 0.0, gpuMs = 0.0, filesMs = 0.0, prepareMs = 0.0, planMs = 0.0;
    };
    std::vector<FrameTiming> timings;
    double seconds = 0.0; // the whole run, from before the first frame to after the last
};

// Runs a series or job, printing what the reference prints for its first frame and then a
// line per frame on `out`; a progress bar with the rate and the time left on `err` when that
// is the process's terminal. Throws bv::Error (request::UsageError for the reference's usage
// stops) before any file is written for a problem with the command line, the job file or
// the file names; a frame's own problem stops the run after the frames before it.
BatchReport runBatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace bv::headless
