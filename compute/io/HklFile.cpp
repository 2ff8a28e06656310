#include "compute/io/HklFile.h"

#include "compute/io/GridLimits.h"
#include "compute/io/InputFile.h"
#include "compute/io/NumberText.h"
#include "compute/io/PrintfFormat.h"
#include "compute/core/Error.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <vector>

namespace bv::io {

namespace {

struct Reflection {
    int h, k, l;
    double F;
};

// Indices beyond this are certainly not Miller indices (and would not fit an int grid).
constexpr double kMaxIndex = 1.0e9;

std::string where(const std::string& path, int line) {
    return path + ":" + std::to_string(line);
}

int indexOf(const std::string& path, const TextLine& line, const char* name, double value,
            std::ostream& log) {
    // the reference's test for "not an integer" (nanoBragg.c:2153)
    if (value != std::ceil(value - 0.4))
        log << "WARNING: non-integer value for " << name << " (" << formatG(value) << ") at line "
            << line.number << " of " << path << ", using " << formatG(std::round(value)) << "\n";
    if (std::fabs(value) > kMaxIndex)
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

    StructureFactors sf;
    sf.hMin = sf.hMax = reflections.front().h;
    sf.kMin = sf.kMax = reflections.front().k;
    sf.lMin = sf.lMax = reflections.front().l;
    for (const Reflection& r : reflections) {
        sf.hMin = std::min(sf.hMin, r.h), sf.hMax = std::max(sf.hMax, r.h);
        sf.kMin = std::min(sf.kMin, r.k), sf.kMax = std::max(sf.kMax, r.k);
        sf.lMin = std::min(sf.lMin, r.l), sf.lMax = std::max(sf.lMax, r.l);
    }
    checkGridRanges(path, sf.hMin, sf.hMax, sf.kMin, sf.kMax, sf.lMin, sf.lMax);
    // a few reflections far apart would span a grid of gigabytes (and an Fdump.bin as big):
    // real tables are dense (P1.hkl fills its grid, a sparse one a third of it)
    const double gridPoints = static_cast<double>(sf.hMax - sf.hMin + 1) *
                              static_cast<double>(sf.kMax - sf.kMin + 1) *
                              static_cast<double>(sf.lMax - sf.lMin + 1);
    if (gridPoints > double(1 << 22) && gridPoints > 64.0 * static_cast<double>(reflections.size()))
        throw Error(path + ": " + std::to_string(reflections.size()) +
                    " reflections spread over a grid of " + formatG(gridPoints) +
                    " points (h " + std::to_string(sf.hMin) + ".." + std::to_string(sf.hMax) +
                    ", k " + std::to_string(sf.kMin) + ".." + std::to_string(sf.kMax) + ", l " +
                    std::to_string(sf.lMin) + ".." + std::to_string(sf.lMax) +
                    "): is an index wrong?");

    sf.defaultF = defaultF;
    sf.F.assign(static_cast<std::size_t>(sf.hCount()) * static_cast<std::size_t>(sf.kCount()) *
                    static_cast<std::size_t>(sf.lCount()),
                defaultF);
    for (const Reflection& r : reflections)
        sf.F[sf.index(r.h, r.k, r.l)] = r.F;
    sf.reflectionCount = reflections.size();
    return sf;
}

} // namespace bv::io
