#pragma once
// The edit distance of "did you mean": insertions, deletions and substitutions, letters
// compared without case, for the suggestions of option names (compute/request/Suggestions.h) and
// detector preset names (compute/model/DetectorPresets.h).

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string_view>
#include <vector>

namespace bv {

inline std::size_t editDistance(std::string_view a, std::string_view b) {
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

// How far a word may be from a name to be taken for a typo of it: one character in a short
// word, a few in a long one.
inline std::size_t typoAllowance(std::size_t length) {
    return length <= 5 ? 1 : std::max<std::size_t>(2, length / 4);
}

} // namespace bv
