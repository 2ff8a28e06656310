#include "compute/headless/Progress.h"

#include "compute/io/PrintfFormat.h"

#include <cmath>
#include <ostream>

namespace bv::headless {

std::string formatDuration(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0.0 || seconds > 1e8)
        return "--:--";
    const long long total = std::llround(seconds);
    const long long h = total / 3600, m = total / 60 % 60, s = total % 60;
    auto two = [](long long v) { return (v < 10 ? "0" : "") + std::to_string(v); };
    if (h > 0)
        return std::to_string(h) + ":" + two(m) + ":" + two(s);
    return std::to_string(m) + ":" + two(s);
}

std::string progressLine(int finished, int total, int rendered, double seconds, int barWidth) {
    if (total <= 0)
        return "";
    const int filled = static_cast<int>(static_cast<long long>(finished) * barWidth / total);
    std::string line = "[" + std::string(static_cast<std::size_t>(filled), '#') +
                       std::string(static_cast<std::size_t>(barWidth - filled), '-') + "] ";
    const std::string count = std::to_string(total);
    std::string done = std::to_string(finished);
    done.insert(0, count.size() > done.size() ? count.size() - done.size() : 0, ' ');
    line += done + "/" + count + " frames";
    if (rendered > 0 && seconds > 0.0) {
        const double rate = rendered / seconds;
        line += "  " + (rate >= 10.0 ? io::formatFixed(rate, 1) : io::formatFixed(rate, 2)) +
                " frames/s  " + formatDuration((total - finished) / rate) + " left";
    }
    return line;
}

FrameProgress::FrameProgress(std::ostream& stream, int total, bool enabled)
    : m_stream(stream), m_total(total), m_enabled(enabled && total > 0) {}

void FrameProgress::startClock() {
    m_start = Clock::now();
}

void FrameProgress::skipped() {
    ++m_finished;
    draw();
}

void FrameProgress::done() {
    ++m_finished;
    ++m_rendered;
    draw();
}

void FrameProgress::draw() {
    if (!m_enabled)
        return;
    const double seconds = std::chrono::duration<double>(Clock::now() - m_start).count();
    const std::string line = progressLine(m_finished, m_total, m_rendered, seconds);
    m_stream << "\r" << line;
    if (line.size() < m_width)
        m_stream << std::string(m_width - line.size(), ' ');
    m_stream << std::flush;
    m_width = line.size();
    m_drawn = true;
}

void FrameProgress::clear() {
    if (!m_drawn)
        return;
    m_stream << "\r" << std::string(m_width, ' ') << "\r" << std::flush;
    m_drawn = false;
}

void FrameProgress::finish() {
    clear();
    m_enabled = false;
}

} // namespace bv::headless
