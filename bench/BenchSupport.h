#pragma once
// What the benchmark programs share: the named cases, splitting a command line into words,
// the median and spread of repeated measurements, and the resident memory for the soaks.

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace bv::bench {

inline std::vector<std::string> words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

// The cases of docs/performance.md (issue "Performance"): simple_N and heavy_N.
inline std::string simpleCase(int n) {
    return "-cell 100 100 100 90 90 90 -lambda 6.2 -N 5 -default_F 100 -distance 100 -detpixels " +
           std::to_string(n);
}
inline std::string heavyCase(int n) {
    return simpleCase(n) +
           " -mosaic 0.5 -mosaic_dom 10 -mosaic_seed -12345678 -phi 0 -osc 1 -phisteps 10 -oversample 2";
}
inline std::string eigerCase(const std::string& settings) {
    return "-cell 100 100 100 90 90 90 -lambda 1 -N 5 -default_F 100 -detector eiger2-16m "
           "-distance 200" + settings;
}
inline const std::map<std::string, std::string>& namedCases() {
    static const std::map<std::string, std::string> cases = {
        {"simple_512", simpleCase(512)},   {"simple_1024", simpleCase(1024)},
        {"simple_2048", simpleCase(2048)}, {"simple_4096", simpleCase(4096)},
        {"heavy_512", heavyCase(512)},     {"heavy_1024", heavyCase(1024)},
        // a detector of several panels: the EIGER2 X 16M preset's 32 modules (real-detectors
        // issue), 200 mm away, with simple and heavy settings
        {"eiger2_16m_simple", eigerCase("")},
        {"eiger2_16m_heavy", eigerCase(" -mosaic 0.5 -mosaic_dom 10 -mosaic_seed -12345678 -phi 0 "
                                       "-osc 1 -phisteps 10 -oversample 2")},
    };
    return cases;
}
// The arguments of a named case; empty when there is no case of that name.
inline std::string caseArguments(const std::string& name) {
    const auto it = namedCases().find(name);
    return it == namedCases().end() ? std::string() : it->second;
}

// The case words of a benchmark's command line: `--case NAME` adds the named case's
// arguments, `--` takes the rest of the line (later words win, as on nanoBragg's command
// line). Returns 1 when argv[i] was one of them (i left on the last word it took), 0 when it
// was not, -1 after a message naming `program` for an unknown case.
inline int caseWords(int& i, int argc, char** argv, const char* program, std::string& args) {
    const std::string a = argv[i];
    const auto add = [&](const std::string& words) {
        args += (args.empty() || words.empty() ? "" : " ") + words;
    };
    if (a == "--case" && i + 1 < argc) {
        const std::string named = caseArguments(argv[++i]);
        if (named.empty()) {
            std::fprintf(stderr, "%s: no case named %s (braggview-bench --list)\n", program,
                         argv[i]);
            return -1;
        }
        add(named);
        return 1;
    }
    if (a == "--") {
        for (++i; i < argc; ++i)
            add(argv[i]);
        return 1;
    }
    return 0;
}

// The resident memory of this process (VmRSS, KiB; Linux), for the soaks; -1 where unreadable.
inline long residentKiB() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stol(line.substr(6));
    return -1;
}

struct Stats {
    double median = 0, min = 0, max = 0;
};

// The value below which a fraction p (0..1) of the measurements lie (nearest rank).
inline double percentile(std::vector<double> v, double p) {
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const auto rank = static_cast<std::size_t>(p * static_cast<double>(v.size()) + 0.999999);
    return v[std::min(v.size(), std::max<std::size_t>(rank, 1)) - 1];
}

inline Stats stats(std::vector<double> v) {
    Stats s;
    if (v.empty())
        return s;
    std::sort(v.begin(), v.end());
    s.min = v.front();
    s.max = v.back();
    const std::size_t n = v.size();
    s.median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    return s;
}

} // namespace bv::bench
