#include "compute/io/SourceFile.h"

#include "compute/io/InputFile.h"
#include "compute/io/NumberText.h"
#include "compute/model/Error.h"

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
            if (!value || std::isinf(*value))
                throw Error(path + ":" + std::to_string(line.number) + ": " + names[i] + " " +
                            quoteToken(fields[i]) +
                            " is not a number (expected \"X Y Z weight lambda\", meters)");
            values[i] = *value;
        }
        sources.push_back({values[0], values[1], values[2], values[3], values[4]});
    }
    if (sources.empty())
        throw Error(path + ": no sources found (expected lines of \"X Y Z weight lambda\")");
    return sources;
}

} // namespace bv::io
