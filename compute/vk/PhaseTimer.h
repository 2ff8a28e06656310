#pragma once
// Wall time of consecutive phases, for the -v breakdown of where a run's time goes
// (docs/performance.md, "Whole process"). mark("x") closes the phase that began at the
// previous mark (or at construction) and names it x.
//
//     PhaseTimer timer;
//     parse();   timer.mark("parse");
//     upload();  timer.mark("upload");
//     for (const PhaseTime& p : timer.phases()) std::cout << p.name << " " << p.milliseconds;
//
// Owns nothing but its list; not thread-safe.

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace bv::vk {

struct PhaseTime {
    std::string name;
    double milliseconds = 0.0;
};

class PhaseTimer {
  public:
    using Clock = std::chrono::steady_clock;

    PhaseTimer() : m_last(Clock::now()) {}

    // Ends the running phase, records it as `name`, starts the next one.
    void mark(std::string name) {
        const Clock::time_point now = Clock::now();
        m_phases.push_back(
            {std::move(name), std::chrono::duration<double, std::milli>(now - m_last).count()});
        m_last = now;
    }
    // Restarts the running phase without recording it.
    void restart() { m_last = Clock::now(); }
    void clear() {
        m_phases.clear();
        restart();
    }

    const std::vector<PhaseTime>& phases() const { return m_phases; }
    double totalMilliseconds() const {
        double sum = 0.0;
        for (const PhaseTime& p : m_phases)
            sum += p.milliseconds;
        return sum;
    }

  private:
    Clock::time_point m_last;
    std::vector<PhaseTime> m_phases;
};

} // namespace bv::vk
