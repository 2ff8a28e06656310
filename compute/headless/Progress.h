#pragma once
// The progress bar of a series or job: frames done of all, the rate of this run's rendering
// and the time left, redrawn in place on one line of a terminal (never written to a file or
// pipe: runBatch shows it only when stderr is a terminal).
//
//   [##########----------]  7/20 frames  2.31 frames/s  0:06 left
//
//     FrameProgress bar(std::cerr, 20);
//     bar.skipped();               // a frame already complete on disk
//     bar.startClock();            // before the first frame renders
//     bar.done();                  // one frame rendered and written
//     bar.clear(); out << "..."; bar.draw(); // print a line without tearing the bar
//     bar.finish();

#include <chrono>
#include <iosfwd>
#include <string>

namespace bv::headless {

// "0:07", "12:34", "1:02:03"; "--:--" for a negative or non-finite time.
std::string formatDuration(double seconds);

// The bar's text: `finished` of `total` frames, of which `rendered` were rendered in
// `seconds` by this run (the others were skipped); the rate and the time left come from
// those alone, and are left out until one frame was rendered.
std::string progressLine(int finished, int total, int rendered, double seconds, int barWidth = 20);

class FrameProgress {
  public:
    FrameProgress(std::ostream& stream, int total, bool enabled);
    void startClock(); // the rate and the time left count from now
    void skipped();    // a frame counted as finished without rendering
    void done();       // a frame rendered
    void draw();       // (re)draws the bar
    void clear();      // erases the bar from the line (before printing something else)
    void finish();     // erases it for good

  private:
    using Clock = std::chrono::steady_clock;
    std::ostream& m_stream;
    int m_total = 0;
    bool m_enabled = false;
    bool m_drawn = false;
    int m_finished = 0, m_rendered = 0;
    Clock::time_point m_start = Clock::now();
    std::size_t m_width = 0; // characters of the last drawing
};

} // namespace bv::headless
