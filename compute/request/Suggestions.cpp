#include "compute/request/Suggestions.h"

#include "compute/core/EditDistance.h"
#include "compute/request/Parameters.h"

#include <limits>

namespace bv::request {

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
    if (bestDistance <= typoAllowance(name.size()))
        return {best};
    return {};
}

} // namespace bv::request
