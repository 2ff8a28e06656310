#include "compute/request/FlagValues.h"

#include "compute/io/NumberText.h"
#include "compute/core/Error.h"

namespace bv::request {

FlagValues::FlagValues(std::string spelled, const Flag& flag, std::vector<std::string> tokens)
    : m_name(std::move(spelled)), m_flag(&flag), m_tokens(std::move(tokens)) {}

void FlagValues::fail(std::size_t i, const std::string& expected) const {
    std::string message = m_name + ": expected " + expected;
    if (!m_flag->syntax.empty())
        message += " (" + m_name + " " + m_flag->syntax + ")";
    if (i < m_tokens.size())
        message += ", got " + io::quoteToken(m_tokens[i]);
    throw Error(message);
}

double FlagValues::number(std::size_t i, Quantity quantity, Bound bound) const {
    const auto value = io::parseDouble(text(i));
    if (!value || !withinLimits(quantity, bound, *value))
        fail(i, expectedValue(quantity, bound));
    return *value;
}

int FlagValues::integer(std::size_t i, int minimum, int maximum) const {
    const std::string range = minimum == 0 ? "a whole number, 0 or more"
                              : minimum <= -kMaxCount ? "a whole number"
                                                     : "a whole number from " +
                                                           std::to_string(minimum);
    const auto value = io::parseInteger(text(i));
    if (!value)
        fail(i, range);
    if (*value < minimum || *value > maximum)
        fail(i, range + " up to " + std::to_string(maximum));
    return static_cast<int>(*value);
}

glm::dvec3 FlagValues::vector(bool allowZero) const {
    const glm::dvec3 v{number(0, Quantity::Direction), number(1, Quantity::Direction),
                       number(2, Quantity::Direction)};
    if (!allowZero && v == glm::dvec3(0.0))
        fail(0, "a vector that is not zero");
    return v;
}

std::size_t FlagValues::choice(std::size_t i, std::initializer_list<const char*> words) const {
    std::string expected;
    std::size_t index = 0;
    for (const char* word : words) {
        if (text(i) == word)
            return index;
        expected += (index == 0 ? "" : index + 1 == words.size() ? " or " : ", ") + std::string(word);
        ++index;
    }
    fail(i, expected);
}

} // namespace bv::request
