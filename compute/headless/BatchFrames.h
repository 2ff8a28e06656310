#pragma once
// The loop over a batch's frames, shared by -series and --job (Batch.h): each frame's
// command line from a FrameSource, resolved, rendered on one of the FrameRunners, its files
// written by the products step (compute/products/Products.h), one line per frame, a
// progress bar, the batch's manifest (Manifest.h) and a job's resume (frames whose manifest
// line and files match what they now describe are skipped; the others say why they render).

#include "compute/request/RunRequest.h"
#include "compute/headless/Batch.h"
#include "compute/products/OutputFiles.h"

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace bv::headless {

// One frame to render: its number, its files and how the log line names it.
struct BatchFrame {
    int number = 0;
    products::OutputFiles files;
    std::string label;
};

// Hands the executor each frame's command line (inputs loaded) and noise seed.
class FrameSource {
  public:
    virtual ~FrameSource() = default;
    // valid until the next call
    virtual const RunRequest& prepare(std::size_t index, long& noiseSeed) = 0;
};

struct RunSettings {
    std::string device;
    Precision precision = Precision::Precise;
    bool resume = false;
    bool progress = true;
    bool verbose = false;
    // a frame whose plan is set first, before frame 0, so that the tables are sized for the
    // largest frame and nothing is re-recorded later (Series: a later frame at phi exactly 0)
    std::optional<std::size_t> primeFrame;
    // -nexusfile of a -series: one NeXus file that every frame is appended to, renamed into
    // place after the last (a job's -nexusfile is a frame's file, in BatchFrame::files)
    std::string nexusFile;
    // -threads: CPU threads making the frames' files while the GPU renders (0: productThreads)
    int threads = 0;
    // the batch's manifest (Manifest.h), "" for none; with `resume`, a frame is skipped only
    // when its line there and its files on disk are what the frame now describes
    std::string manifest;
};

// The CPU threads a batch makes its files with: `requested` when > 0, else the cores this
// process may run on (its CPU affinity, which a container or taskset narrows), at least 1.
int productThreads(int requested);

// Renders `frames` on the devices of settings.device (batchDevices, FrameRunner.h): while
// the devices render, the main thread prepares the next frames and up to
// productThreads(settings.threads) frames have their files made on CPU threads, each from its
// own image and generator, so the files are those of a serial loop on one device. Lines,
// NeXus frames and the report follow frame order (FrameLog.h), printed on `out` (progress and
// warnings on `err`); a frame's problem stops the run after the frames before it. Under
// mpirun (Ranks.h) this process renders only the frames i with i % ranks == rank, and rank 0
// prints every frame's line and writes the series' NeXus file; an error stops every rank.
BatchReport runFrames(const std::vector<BatchFrame>& frames, FrameSource& source,
                      const RunSettings& settings, std::ostream& out, std::ostream& err);

} // namespace bv::headless
