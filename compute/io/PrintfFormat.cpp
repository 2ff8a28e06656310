#include "compute/io/PrintfFormat.h"

#include <charconv>
#include <system_error>

namespace bv::io {

std::string formatG(double value) {
    char buffer[64];
    const auto result =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 6);
    return std::string(buffer, result.ptr);
}

std::string formatFixed(double value, int precision) {
    // %f of 1e308 has 309 digits before the point
    char buffer[512];
    const auto result =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, precision);
    if (result.ec != std::errc())
        return "?";
    return std::string(buffer, result.ptr);
}

} // namespace bv::io
