#pragma once
// Numbers in text files, read the same way in every locale (the C library's strtod/atof
// follow LC_NUMERIC, which a Qt application sets from the environment: "6,45" in German).
// The accepted syntax is the one fscanf("%lg") and atof() accept in the "C" locale for
// decimal numbers: optional sign, digits with an optional ".", optional exponent, and the
// words inf/infinity/nan (callers decide whether those are allowed).

#include <optional>
#include <string>
#include <string_view>

namespace bv::io {

// The whole token as a number, or nullopt when any character is left over ("1.5x", "#")
// or the value overflows a double ("1e999").
std::optional<double> parseDouble(std::string_view token);

// atof(): leading whitespace skipped, the longest numeric prefix read, 0.0 when there is
// none ("6.45;" -> 6.45, "fake;" -> 0).
double parseLeadingDouble(std::string_view text);

// The whole token as a decimal integer ("+12", "-3"), or nullopt.
std::optional<long long> parseInteger(std::string_view token);

// A token as it can safely appear in a message: quoted, control and non-ASCII bytes as
// \xNN escapes, cut to `maxLength` characters with "..." (binary garbage stays readable).
std::string quoteToken(std::string_view token, std::size_t maxLength = 40);

} // namespace bv::io
