#include "compute/io/ReferenceWords.h"

#include "compute/io/NumberText.h"

#include <cmath>

namespace bv::io {

bool wordMatches(const std::string& word, const std::vector<std::string>& patterns, bool exact) {
    for (const std::string& p : patterns)
        if (exact ? word == p : word.find(p) != std::string::npos)
            return true;
    return false;
}

const std::string& OptionValues::text(std::size_t k) const {
    return m_words.at(k);
}

double OptionValues::number(std::size_t k) const {
    const std::optional<double> value = parseDouble(text(k));
    if (!value || !std::isfinite(*value))
        throw Error(m_option + ": " + quoteToken(text(k)) + " is not a finite number");
    return *value;
}

int OptionValues::integer(std::size_t k) const {
    const std::optional<long long> value = parseInteger(text(k));
    if (!value || *value < -2147483647ll || *value > 2147483647ll)
        throw Error(m_option + ": " + quoteToken(text(k)) + " is not a whole number");
    return static_cast<int>(*value);
}

} // namespace bv::io
