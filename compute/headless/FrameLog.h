#pragma once
// The ordered end of a batch's frames: whatever device, thread or rank made a frame, its line,
// its NeXus data and its place in the report follow frame order (BatchFrames.h). A frame's
// record is made where the frame was rendered and written; the log of the process that
// prints (the only one, or rank 0 under mpirun) takes records in any order and finishes the
// run of consecutive frames it holds. Records travel between ranks as bytes (toBytes,
// recordFromBytes).

#include "compute/headless/Batch.h"
#include "compute/products/NexusSeries.h"

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bv::headless {

class FrameProgress;

struct FrameRecord {
    std::size_t index = 0; // into the batch's frames
    bool skipped = false;  // complete on disk (a job's resume)
    std::string line;      // what the frame's line says
    // the reference's warning when interpolation left the HKL grid: printed for the first
    // such frame in frame order alone
    std::string gridExitLine;
    std::vector<std::string> written; // the frame's files
    BatchReport::FrameTiming timing;
    unsigned uploadedParts = 0;
    std::optional<products::NexusFrame> nexus; // a frame of the series' NeXus file
    std::string manifestLine; // the frame's line of the batch's manifest (Manifest.h), or ""
};

// The rendered frames' phases as one -v line, medians in ms: "per frame, median ms: main
// thread 1.20 + plan to the device 0.30, render 4.10, GPU 2.00, files 6.50". The main
// thread's two parts are what one process cannot spread over its devices.
std::string timingLine(const std::vector<BatchReport::FrameTiming>& timings);

std::vector<char> toBytes(const FrameRecord& record);
FrameRecord recordFromBytes(const std::vector<char>& bytes); // throws bv::Error when malformed

class FrameLog {
  public:
    // `say` prints a line; `appendNexus` adds a frame to the series' NeXus file (may be empty
    // when there is none). Finished frames are counted into `report` and `progress`.
    FrameLog(std::size_t frames, std::function<void(const std::string&)> say,
             std::function<void(const products::NexusFrame&)> appendNexus, BatchReport& report,
             FrameProgress& progress);

    // Takes a frame's record, then finishes every frame from next() on that it holds.
    void add(FrameRecord record);
    std::size_t next() const { return m_next; } // the first frame not finished
    bool complete() const { return m_next == m_frames; }
    // Called with each record as it is finished, in frame order (the manifest's lines).
    void onFinished(std::function<void(const FrameRecord&)> finished) {
        m_finished = std::move(finished);
    }

  private:
    std::size_t m_frames = 0, m_next = 0;
    std::map<std::size_t, FrameRecord> m_waiting; // records after a frame still missing
    std::function<void(const std::string&)> m_say;
    std::function<void(const products::NexusFrame&)> m_appendNexus;
    std::function<void(const FrameRecord&)> m_finished;
    BatchReport& m_report;
    FrameProgress& m_progress;
    bool m_warnedGridExit = false; // the reference warns once per run
};

} // namespace bv::headless
