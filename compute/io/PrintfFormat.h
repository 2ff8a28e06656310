#pragma once
// printf's floating-point conversions, character for character as the reference prints them
// in the "C" locale, but independent of the process locale (snprintf follows LC_NUMERIC,
// which a Qt application sets from the environment). Built on std::to_chars, which the
// standard defines as printf in the "C" locale.

#include <string>

namespace bv::io {

// printf("%g", value): 6 significant digits, trailing zeros dropped ("6.45", "1e-10", "-0")
std::string formatG(double value);

// printf("%.<precision>f", value) ("111988" for %.0f)
std::string formatFixed(double value, int precision);

} // namespace bv::io
