#include "compute/request/Suggestions.h"

#include "compute/request/Parameters.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace bv::request {

namespace {

// edit distance, case-insensitive, for "did you mean"
std::size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                              std::tolower(static_cast<unsigned char>(b[j - 1]));
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

std::vector<std::string> suggestFlagNames(std::string_view name) {
    std::vector<std::string> abbreviated;
    if (name.size() >= 3) {
        for (const request::Flag& f : request::flagTable())
            for (const std::string& n : f.names)
                if (n.size() > name.size() && n.compare(0, name.size(), name) == 0 &&
                    abbreviated.size() < 3)
                    abbreviated.push_back(n);
    }
    if (!abbreviated.empty())
        return abbreviated;

    std::string best;
    std::size_t bestDistance = std::numeric_limits<std::size_t>::max();
    for (const request::Flag& f : request::flagTable()) {
        for (const std::string& n : f.names) {
            const std::size_t d = editDistance(name, n);
            if (d < bestDistance) {
                bestDistance = d;
                best = n;
            }
        }
    }
    // a typo: one character off in a short name, a few in a long one
    const std::size_t allowed = name.size() <= 5 ? 1 : std::max<std::size_t>(2, name.size() / 4);
    if (bestDistance <= allowed)
        return {best};
    return {};
}

} // namespace bv::request
