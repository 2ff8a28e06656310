#include "compute/io/NumberText.h"

#include <charconv>
#include <clocale>
#include <cstdlib>
#include <locale.h>
#include <system_error>

namespace bv::io {

namespace {

// from_chars does not take a leading '+'; fscanf and atof do.
std::string_view dropPlus(std::string_view text) {
    if (text.size() > 1 && text[0] == '+' && text[1] != '-' && text[1] != '+')
        text.remove_prefix(1);
    return text;
}

} // namespace

std::optional<double> parseDouble(std::string_view token) {
    token = dropPlus(token);
    if (token.empty())
        return std::nullopt;
    double value = 0.0;
    const char* end = token.data() + token.size();
    const auto result = std::from_chars(token.data(), end, value, std::chars_format::general);
    if (result.ec != std::errc() || result.ptr != end)
        return std::nullopt;
    return value;
}

double parseLeadingDouble(std::string_view text) {
    // strtod in the "C" locale is atof() exactly (hex, inf, overflow to HUGE_VAL included)
    static const locale_t cLocale = ::newlocale(LC_ALL_MASK, "C", locale_t{});
    const std::string copy(text); // strtod needs a terminated string
    return ::strtod_l(copy.c_str(), nullptr, cLocale);
}

std::optional<long long> parseInteger(std::string_view token) {
    token = dropPlus(token);
    if (token.empty())
        return std::nullopt;
    long long value = 0;
    const char* end = token.data() + token.size();
    const auto result = std::from_chars(token.data(), end, value, 10);
    if (result.ec != std::errc() || result.ptr != end)
        return std::nullopt;
    return value;
}

std::string quoteToken(std::string_view token, std::size_t maxLength) {
    static const char* hex = "0123456789abcdef";
    std::string quoted = "'";
    std::size_t shown = 0;
    for (const char c : token) {
        if (shown == maxLength) {
            quoted += "...";
            break;
        }
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7f && c != '\'' && c != '\\') {
            quoted += c;
        } else {
            quoted += "\\x";
            quoted += hex[byte >> 4];
            quoted += hex[byte & 0xf];
        }
        ++shown;
    }
    quoted += "'";
    return quoted;
}

} // namespace bv::io
