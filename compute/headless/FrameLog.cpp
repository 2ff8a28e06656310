#include "compute/headless/FrameLog.h"

#include "compute/core/Error.h"
#include "compute/headless/Progress.h"
#include "compute/io/PrintfFormat.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace bv::headless {

namespace {

double medianOf(const std::vector<BatchReport::FrameTiming>& timings,
                double BatchReport::FrameTiming::*phase) {
    std::vector<double> v;
    for (const auto& t : timings)
        v.push_back(t.*phase);
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v.size() % 2 ? v[v.size() / 2]
                                          : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// Plain bytes in this machine's order: both ends are braggview processes of one build, on
// the nodes of one run.
class Writer {
  public:
    template <typename T> void value(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        const char* p = reinterpret_cast<const char*>(&v);
        m_bytes.insert(m_bytes.end(), p, p + sizeof(T));
    }
    template <typename T> void array(const std::vector<T>& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        value<std::uint64_t>(v.size());
        const char* p = reinterpret_cast<const char*>(v.data());
        m_bytes.insert(m_bytes.end(), p, p + v.size() * sizeof(T));
    }
    void text(const std::string& s) { array(std::vector<char>(s.begin(), s.end())); }
    std::vector<char> take() { return std::move(m_bytes); }

  private:
    std::vector<char> m_bytes;
};

class Reader {
  public:
    explicit Reader(const std::vector<char>& bytes) : m_bytes(bytes) {}
    template <typename T> T value() {
        T v{};
        take(&v, sizeof(T));
        return v;
    }
    template <typename T> std::vector<T> array() {
        const auto n = value<std::uint64_t>();
        if (n > (m_bytes.size() - m_at) / sizeof(T))
            throw Error("a frame's record from another rank is cut short");
        std::vector<T> v(static_cast<std::size_t>(n));
        take(v.data(), v.size() * sizeof(T));
        return v;
    }
    std::string text() {
        const std::vector<char> c = array<char>();
        return {c.begin(), c.end()};
    }
    bool atEnd() const { return m_at == m_bytes.size(); }

  private:
    void take(void* to, std::size_t n) {
        if (n > m_bytes.size() - m_at)
            throw Error("a frame's record from another rank is cut short");
        if (n)
            std::memcpy(to, m_bytes.data() + m_at, n);
        m_at += n;
    }
    const std::vector<char>& m_bytes;
    std::size_t m_at = 0;
};

} // namespace

std::vector<char> toBytes(const FrameRecord& r) {
    Writer w;
    w.value<std::uint64_t>(r.index);
    w.value<std::uint8_t>(r.skipped);
    w.text(r.line);
    w.text(r.gridExitLine);
    w.value<std::uint64_t>(r.written.size());
    for (const std::string& path : r.written)
        w.text(path);
    w.value(r.timing);
    w.value(r.uploadedParts);
    w.value<std::uint8_t>(r.nexus.has_value());
    if (r.nexus) {
        w.value(r.nexus->startDeg);
        w.value<std::uint8_t>(r.nexus->counts);
        w.array(r.nexus->photons);
        w.array(r.nexus->image);
    }
    w.text(r.manifestLine);
    return w.take();
}

FrameRecord recordFromBytes(const std::vector<char>& bytes) {
    Reader in(bytes);
    FrameRecord r;
    r.index = static_cast<std::size_t>(in.value<std::uint64_t>());
    r.skipped = in.value<std::uint8_t>() != 0;
    r.line = in.text();
    r.gridExitLine = in.text();
    const auto files = in.value<std::uint64_t>();
    for (std::uint64_t k = 0; k < files && !in.atEnd(); ++k)
        r.written.push_back(in.text());
    r.timing = in.value<BatchReport::FrameTiming>();
    r.uploadedParts = in.value<unsigned>();
    if (in.value<std::uint8_t>()) {
        products::NexusFrame f;
        f.startDeg = in.value<double>();
        f.counts = in.value<std::uint8_t>() != 0;
        f.photons = in.array<std::int32_t>();
        f.image = in.array<float>();
        r.nexus = std::move(f);
    }
    r.manifestLine = in.text();
    if (!in.atEnd())
        throw Error("a frame's record from another rank has bytes left over");
    return r;
}

FrameLog::FrameLog(std::size_t frames, std::function<void(const std::string&)> say,
                   std::function<void(const products::NexusFrame&)> appendNexus,
                   BatchReport& report, FrameProgress& progress)
    : m_frames(frames), m_say(std::move(say)), m_appendNexus(std::move(appendNexus)),
      m_report(report), m_progress(progress) {}

void FrameLog::add(FrameRecord record) {
    if (record.index < m_next || record.index >= m_frames || m_waiting.count(record.index))
        throw Error("frame " + std::to_string(record.index + 1) +
                    " was reported twice (a rank disagrees on the frames it renders)");
    const std::size_t index = record.index;
    m_waiting.emplace(index, std::move(record));
    for (auto it = m_waiting.find(m_next); it != m_waiting.end(); it = m_waiting.find(m_next)) {
        const FrameRecord& r = it->second;
        if (r.skipped) {
            ++m_report.skipped;
            m_say(r.line);
            m_progress.skipped();
        } else {
            if (!r.gridExitLine.empty() && !m_warnedGridExit) {
                m_say(r.gridExitLine);
                m_warnedGridExit = true;
            }
            if (r.nexus && m_appendNexus)
                m_appendNexus(*r.nexus);
            m_report.uploadedParts.push_back(r.uploadedParts);
            m_report.timings.push_back(r.timing);
            ++m_report.rendered;
            m_report.writtenFiles.insert(m_report.writtenFiles.end(), r.written.begin(),
                                         r.written.end());
            m_say(r.line);
            m_progress.done();
        }
        if (m_finished)
            m_finished(r);
        m_waiting.erase(it);
        ++m_next;
    }
}

std::string timingLine(const std::vector<BatchReport::FrameTiming>& timings) {
    using T = BatchReport::FrameTiming;
    const auto ms = [&](double T::*phase) { return io::formatFixed(medianOf(timings, phase), 2); };
    return "per frame, median ms: main thread " + ms(&T::prepareMs) + " + plan to the device " +
           ms(&T::planMs) + ", render " + ms(&T::renderMs) + ", GPU " + ms(&T::gpuMs) +
           ", files " + ms(&T::filesMs);
}

} // namespace bv::headless
