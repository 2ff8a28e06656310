#include "compute/io/StolFile.h"

#include "compute/core/Error.h"
#include "compute/io/InputFile.h"
#include "compute/io/NumberText.h"
#include "compute/io/PrintfFormat.h"

#include <cmath>

namespace bv::io {

namespace {

constexpr std::string_view kDelimiters = " \t,;:!\r";

double finiteNumber(std::string_view token, const std::string& where, const char* column) {
    const std::optional<double> value = parseDouble(token);
    if (!value || !std::isfinite(*value))
        throw Error(where + ": " + column + " " + quoteToken(token) + " is not a finite number");
    return *value;
}

} // namespace

StolTable parseStolText(std::string_view text, const std::string& name) {
    StolTable table;
    for (const TextLine& line : splitLines(text)) {
        const std::vector<std::string_view> fields = splitFields(line.text, kDelimiters);
        if (fields.empty() || fields.front().front() == '#')
            continue;
        const std::string where = name + ":" + std::to_string(line.number);
        if (fields.size() < 2)
            throw Error(where + ": one number where two are expected (sin(theta)/lambda and F)");
        const double stol = finiteNumber(fields[0], where, "sin(theta)/lambda");
        const double F = finiteNumber(fields[1], where, "F");
        if (stol < 0.0)
            throw Error(where + ": negative sin(theta)/lambda " + formatG(stol));
        if (!table.stol.empty() && stol <= table.stol.back())
            throw Error(where + ": sin(theta)/lambda " + formatG(stol) + " after " +
                        formatG(table.stol.back()) +
                        ": the points must be sorted by strictly increasing sin(theta)/lambda");
        table.stol.push_back(stol);
        table.F.push_back(F);
    }
    if (table.stol.size() < 2)
        throw Error(name + ": " + std::to_string(table.stol.size()) +
                    " point(s); the spline between the points needs at least 2");
    return table;
}

StolTable readStolFile(const std::string& path) {
    return parseStolText(readWholeFile(path, "stol file"), path);
}

} // namespace bv::io
