#include "compute/io/HklFile.h"

#include "compute/io/ReflectionGrid.h"
#include "compute/io/InputFile.h"
#include "compute/io/NumberText.h"
#include "compute/io/PrintfFormat.h"
#include "compute/core/Error.h"

#include <cmath>
#include <ostream>
#include <vector>

namespace bv::io {

namespace {

// Indices beyond this are certainly not Miller indices (and would not fit an int grid).
constexpr double kMaxHklIndex = 1.0e9;

std::string where(const std::string& path, int line) {
    return path + ":" + std::to_string(line);
}

int indexOf(const std::string& path, const TextLine& line, const char* name, double value,
            std::ostream& log) {
    // the reference's test for "not an integer" (nanoBragg.c:2153)
    if (value != std::ceil(value - 0.4))
        log << "WARNING: non-integer value for " << name << " (" << formatG(value) << ") at line "
            << line.number << " of " << path << ", using " << formatG(std::round(value)) << "\n";
    if (std::fabs(value) > kMaxHklIndex)
        throw Error(where(path, line.number) + ": " + name + " = " + formatG(value) +
                    " is not a plausible Miller index");
    return static_cast<int>(std::lround(value));
}

Reflection parseReflection(const std::string& path, const TextLine& line,
                           const std::vector<std::string_view>& fields, std::ostream& log) {
    static const char* names[4] = {"h", "k", "l", "F"};
    // every field must be a number (binary garbage fails here, with the token shown) ...
    std::vector<double> values;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const auto value = parseDouble(fields[i]);
        if (!value)
            throw Error(where(path, line.number) + ": " +
                        (i < 4 ? std::string(names[i]) : "field " + std::to_string(i + 1)) + " " +
                        quoteToken(fields[i]) + " is not a number (expected \"h k l F\")");
        values.push_back(*value);
    }
    // ... there must be four of them ...
    if (values.size() != 4)
        throw Error(where(path, line.number) + ": expected 4 numbers \"h k l F\", found " +
                    std::to_string(values.size()) + " field" + (values.size() == 1 ? "" : "s"));
    // ... and finite
    for (std::size_t i = 0; i < 4; ++i)
        if (!std::isfinite(values[i]))
            throw Error(where(path, line.number) + ": " + names[i] + " is " +
                        quoteToken(fields[i]) + ", expected a finite number");
    return {indexOf(path, line, "h", values[0], log), indexOf(path, line, "k", values[1], log),
            indexOf(path, line, "l", values[2], log), values[3]};
}

} // namespace

StructureFactors readHkl(const std::string& path, double defaultF, std::ostream& log) {
    const std::string text = readWholeFile(path, "HKL file");

    std::vector<Reflection> reflections;
    for (const TextLine& line : splitLines(text)) {
        const auto fields = splitFields(line.text, kWhitespace);
        if (fields.empty())
            continue;
        reflections.push_back(parseReflection(path, line, fields, log));
    }
    if (reflections.empty())
        throw Error(path + ": no reflections found (expected lines of \"h k l F\")");

    return reflectionGrid(path, reflections, defaultF);
}

} // namespace bv::io
