#pragma once
// The parameter changes of the latency benchmarks: what a user moving sliders does, as a
// repeatable sequence. Change i edits one field (distance, wavelength, cell edge, misset, phi,
// crystal size in turn) to a random value near the starting experiment's, from the caller's
// generator, so two runs with the same seed make the same changes.

#include "bench/BenchSupport.h"
#include "compute/model/Experiment.h"

#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace bv::bench {

// Edits `e` (the start state `start` changed once); returns the name of the field changed.
inline std::string randomChange(Experiment& e, const Experiment& start, std::mt19937& random, int i) {
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const double deg = 3.14159265358979323846 / 180.0;
    switch (i % 6) {
    case 0:
        e.detector.distance = start.detector.distance * (1.0 + 0.2 * unit(random));
        return "distance";
    case 1:
        e.beam.wavelength = start.beam.wavelength * (1.0 + 0.1 * unit(random));
        return "wavelength";
    case 2:
        if (e.crystal.cell)
            e.crystal.cell->a = start.crystal.cell->a * (1.0 + 0.05 * unit(random));
        return "cell a";
    case 3:
        e.crystal.misset = MissetKind::Angles;
        e.crystal.missetAngles = glm::dvec3(unit(random), unit(random), unit(random)) * (10 * deg);
        return "misset";
    case 4:
        e.crystal.phi0 = start.crystal.phi0 + 5.0 * deg * unit(random);
        return "phi";
    default:
        e.crystal.cells = start.crystal.cells * (1.0 + 0.3 * (unit(random) + 1.0));
        return "N";
    }
}

// Latencies by the field changed: one line each, median and maximum, for the reports.
class LatencyByParameter {
  public:
    void add(const std::string& parameter, double milliseconds) {
        m_times[parameter].push_back(milliseconds);
    }
    void print() const {
        for (const auto& [parameter, times] : m_times)
            std::printf("  %-10s median %.2f ms, max %.2f ms\n", parameter.c_str(),
                        stats(times).median, stats(times).max);
    }

  private:
    std::map<std::string, std::vector<double>> m_times;
};

} // namespace bv::bench
