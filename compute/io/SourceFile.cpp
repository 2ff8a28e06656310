#include "compute/io/SourceFile.h"

#include "compute/io/InputFile.h"
#include "compute/io/NumberText.h"
#include "compute/core/Error.h"

#include <cmath>
#include <limits>

namespace bv::io {

namespace {

// the reference's delimiters, plus the line ends and a DOS file's "\r"
constexpr std::string_view kSourceDelimiters = " \t,;:!\r\n";

} // namespace

std::vector<SourceRecord> readSourceFile(const std::string& path) {
    static const char* names[5] = {"X", "Y", "Z", "weight", "lambda"};
    const std::string text = readWholeFile(path, "source file");

    std::vector<SourceRecord> sources;
    for (const TextLine& line : splitLines(text)) {
        const auto fields = splitFields(line.text, kSourceDelimiters);
        if (fields.empty())
            continue;
        double values[5];
        for (std::size_t i = 0; i < 5; ++i) {
            values[i] = std::numeric_limits<double>::quiet_NaN();
            if (i >= fields.size())
                continue;
            const auto value = parseDouble(fields[i]);
            const std::string where = path + ":" + std::to_string(line.number) + ": " +
                                      names[i] + " " + quoteToken(fields[i]);
            if (!value)
                throw Error(where + " is not a number (expected \"X Y Z weight lambda\", meters)");
            // a written nan or inf is refused: the reference would take nan as "not given"
            // and send inf on into NaN sources; leaving the trailing columns out gives the
            // defaults
            if (!std::isfinite(*value))
                throw Error(where + " is not a finite number (expected \"X Y Z weight lambda\", "
                                    "meters; leave trailing columns out for their defaults)");
            values[i] = *value;
        }
        sources.push_back({values[0], values[1], values[2], values[3], values[4]});
    }
    if (sources.empty())
        throw Error(path + ": no sources found (expected lines of \"X Y Z weight lambda\")");
    return sources;
}

} // namespace bv::io
