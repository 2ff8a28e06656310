#pragma once
// The values that followed one option on the command line (internal to compute/cli), with
// conversions that throw bv::Error naming the option, what it expected and what it got.
// Every number goes through one kind's limits (compute/model/PhysicalLimits.h), so options of
// the same kind refuse the same values.

#include "compute/request/Parameters.h"
#include "compute/model/PhysicalLimits.h"

#include <glm/vec3.hpp>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

namespace bv::request {

class FlagValues {
public:
    FlagValues(std::string spelled, const Flag& flag, std::vector<std::string> tokens);

    const std::string& name() const { return m_name; } // as spelled on the command line
    const Flag& flag() const { return *m_flag; }
    std::size_t size() const { return m_tokens.size(); }
    const std::string& text(std::size_t i) const { return m_tokens.at(i); }

    // token i as a number (the whole token) of kind `quantity`, within its limits and `bound`
    double number(std::size_t i, Quantity quantity, Bound bound = Bound::Any) const;
    // token i as an integer (the whole token, no fraction) in [minimum, maximum]
    int integer(std::size_t i, int minimum, int maximum) const;
    int count(std::size_t i) const { return integer(i, 0, kMaxCount); }
    // the three numbers of a vector option (Quantity::Direction); a zero vector only where
    // `allowZero`
    glm::dvec3 vector(bool allowZero) const;
    // which of `words` token i is (its index); otherwise fail(i, "a, b or c")
    std::size_t choice(std::size_t i, std::initializer_list<const char*> words) const;

    [[noreturn]] void fail(std::size_t i, const std::string& expected) const;

    static constexpr int kMaxCount = 1000000000;

private:
    std::string m_name;
    const Flag* m_flag;
    std::vector<std::string> m_tokens;
};

} // namespace bv::request
