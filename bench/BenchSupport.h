#pragma once
// What the benchmark programs share: splitting a command line into words, and the median
// and spread of repeated measurements.

#include <algorithm>
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

struct Stats {
    double median = 0, min = 0, max = 0;
};

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
