#include "compute/io/Fdump.h"

#include "compute/io/AtomicFile.h"
#include "compute/io/GridLimits.h"
#include "compute/io/InputFile.h"
#include "compute/io/NumberText.h"
#include "compute/core/Error.h"

#include <cmath>
#include <cstring>
#include <vector>

namespace bv::io {

namespace {

// The text header is six integers: far below this, so a file without a form feed early
// on is not an Fdump file.
constexpr std::size_t kMaxHeaderLength = 256;

std::size_t padded(int count) {
    return static_cast<std::size_t>(count) + 1;
}

} // namespace

void writeFdump(const std::string& path, const StructureFactors& sf) {
    if (sf.hCount() <= 0 || sf.kCount() <= 0 || sf.lCount() <= 0 ||
        sf.F.size() != static_cast<std::size_t>(sf.hCount()) *
                           static_cast<std::size_t>(sf.kCount()) *
                           static_cast<std::size_t>(sf.lCount()))
        throw Error("cannot write '" + path + "': the structure-factor grid is empty or " +
                    "inconsistent with its index ranges");

    const std::string header = std::to_string(sf.hMin) + " " + std::to_string(sf.hMax) + " " +
                               std::to_string(sf.kMin) + " " + std::to_string(sf.kMax) + " " +
                               std::to_string(sf.lMin) + " " + std::to_string(sf.lMax) + "\n\f";

    const std::size_t rowLength = padded(sf.lCount());
    std::vector<double> data(padded(sf.hCount()) * padded(sf.kCount()) * rowLength, 0.0);
    for (int h = sf.hMin; h <= sf.hMax; ++h)
        for (int k = sf.kMin; k <= sf.kMax; ++k) {
            const std::size_t row = static_cast<std::size_t>(h - sf.hMin) * padded(sf.kCount()) +
                                    static_cast<std::size_t>(k - sf.kMin);
            std::memcpy(data.data() + row * rowLength, sf.F.data() + sf.index(h, k, sf.lMin),
                        static_cast<std::size_t>(sf.lCount()) * sizeof(double));
        }

    AtomicFile file(path);
    file.write(header);
    file.write(data.data(), data.size() * sizeof(double));
    file.commit();
}

StructureFactors readFdump(const std::string& path) {
    const std::string bytes = readWholeFile(path, "Fdump file", kImageFileMaxBytes);

    const std::size_t formFeed = bytes.find('\f');
    if (formFeed == std::string::npos || formFeed > kMaxHeaderLength)
        throw Error(path + ": not an Fdump file: expected a line of six integers "
                           "\"hMin hMax kMin kMax lMin lMax\" ended by a form feed");
    const std::string_view headerText(bytes.data(), formFeed);
    const auto fields = splitFields(headerText, kWhitespace);
    long long range[6] = {};
    bool ok = fields.size() == 6;
    for (std::size_t i = 0; ok && i < 6; ++i) {
        const auto value = parseInteger(fields[i]);
        ok = value && *value >= -kMaxGridPoints && *value <= kMaxGridPoints;
        if (ok)
            range[i] = *value;
    }
    if (!ok)
        throw Error(path + ": not an Fdump file: the header " + quoteToken(headerText) +
                    " is not six integers \"hMin hMax kMin kMax lMin lMax\"");
    checkGridRanges(path, range[0], range[1], range[2], range[3], range[4], range[5]);

    StructureFactors sf;
    sf.hMin = static_cast<int>(range[0]), sf.hMax = static_cast<int>(range[1]);
    sf.kMin = static_cast<int>(range[2]), sf.kMax = static_cast<int>(range[3]);
    sf.lMin = static_cast<int>(range[4]), sf.lMax = static_cast<int>(range[5]);

    const std::size_t rowLength = padded(sf.lCount());
    const std::size_t values = padded(sf.hCount()) * padded(sf.kCount()) * rowLength;
    const std::size_t expected = values * sizeof(double);
    const std::size_t found = bytes.size() - formFeed - 1;
    if (found != expected)
        throw Error(path + ": " + (found < expected ? "truncated" : "too long") +
                    ": the header's ranges need " + std::to_string(expected) +
                    " bytes of structure factors after the form feed, found " +
                    std::to_string(found));
    std::vector<double> data(values);
    std::memcpy(data.data(), bytes.data() + formFeed + 1, expected);

    sf.F.resize(static_cast<std::size_t>(sf.hCount()) * static_cast<std::size_t>(sf.kCount()) *
                static_cast<std::size_t>(sf.lCount()));
    for (int h = sf.hMin; h <= sf.hMax; ++h)
        for (int k = sf.kMin; k <= sf.kMax; ++k) {
            const std::size_t row = static_cast<std::size_t>(h - sf.hMin) * padded(sf.kCount()) +
                                    static_cast<std::size_t>(k - sf.kMin);
            for (int l = sf.lMin; l <= sf.lMax; ++l) {
                const double F = data[row * rowLength + static_cast<std::size_t>(l - sf.lMin)];
                if (!std::isfinite(F))
                    throw Error(path + ": the value for h k l = " + std::to_string(h) + " " +
                                std::to_string(k) + " " + std::to_string(l) +
                                " is not a finite number: not an Fdump file, or a damaged one");
                sf.F[sf.index(h, k, l)] = F;
            }
        }
    sf.reflectionCount = sf.F.size();
    return sf;
}

} // namespace bv::io
