#pragma once
// What the option table's actions work on (internal to compute/cli): the command line being
// filled, the detector sizes that are only settled after the last option, and the values of
// one option with conversions that throw bv::Error naming the option.

#include "compute/cli/CommandLine.h"
#include "compute/cli/Flags.h"

#include <glm/vec3.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace bv::cli {

enum class Bound { Any, Positive, NonNegative };

class FlagValues {
public:
    FlagValues(std::string spelled, const Flag& flag, std::vector<std::string> tokens);

    const std::string& name() const { return m_name; } // as spelled on the command line
    const Flag& flag() const { return *m_flag; }
    std::size_t size() const { return m_tokens.size(); }
    const std::string& text(std::size_t i) const { return m_tokens.at(i); }

    // token i as a finite number (the whole token), within `bound`
    double number(std::size_t i, Bound bound = Bound::Any) const;
    // token i as an integer (the whole token, no fraction) in [minimum, maximum]
    int integer(std::size_t i, int minimum, int maximum) const;
    int count(std::size_t i) const { return integer(i, 0, kMaxCount); }
    // the three numbers of a vector option; a zero vector only where `allowZero`
    glm::dvec3 vector(bool allowZero) const;

    [[noreturn]] void fail(std::size_t i, const std::string& expected) const;

    static constexpr int kMaxCount = 1000000000;

private:
    std::string m_name;
    const Flag* m_flag;
    std::vector<std::string> m_tokens;
};

struct ParseContext {
    explicit ParseContext(CommandLine& commandLine) : cl(commandLine) {}

    CommandLine& cl;
    // pixel counts as given (-detpixels*, an -img/-mask header); 0: not given, the size
    // in mm decides (the reference's "fill in blanks")
    int fastPixels = 0, slowPixels = 0;
    // -roi as given; a negative bound means "the detector's edge"
    std::optional<std::array<int, 4>> roi;
    // the -mask image's size, to check against the final detector
    int maskWidth = 0, maskHeight = 0;
    // -distance was given (a close distance, if any, still decides: nanoBragg's rule)
    bool distanceGiven = false;
};

} // namespace bv::cli
