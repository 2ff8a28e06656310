#include "compute/io/MatrixFile.h"

#include "compute/io/InputFile.h"
#include "compute/io/NumberText.h"
#include "compute/core/Error.h"

#include <cmath>

namespace bv::io {

MosflmMatrix readMosflmMatrix(const std::string& path) {
    const std::string text = readWholeFile(path, "matrix file");

    double numbers[9] = {};
    int count = 0;
    int lastLine = 1;
    for (const TextLine& line : splitLines(text)) {
        lastLine = line.number;
        for (const std::string_view field : splitFields(line.text, kWhitespace)) {
            const auto value = parseDouble(field);
            if (!value || !std::isfinite(*value))
                throw Error(path + ":" + std::to_string(line.number) + ": " + quoteToken(field) +
                            " is not a finite number (a MOSFLM matrix starts with 9 numbers, "
                            "three rows \"a*x b*x c*x\", \"a*y b*y c*y\", \"a*z b*z c*z\")");
            numbers[count++] = *value;
            if (count == 9)
                break;
        }
        if (count == 9)
            break;
    }
    if (count < 9)
        throw Error(path + ":" + std::to_string(lastLine) + ": found only " +
                    std::to_string(count) +
                    " numbers, a MOSFLM matrix needs 9 (three rows \"a*x b*x c*x\", "
                    "\"a*y b*y c*y\", \"a*z b*z c*z\")");

    MosflmMatrix m;
    for (int row = 0; row < 3; ++row) {
        m.aStar[row] = numbers[3 * row + 0];
        m.bStar[row] = numbers[3 * row + 1];
        m.cStar[row] = numbers[3 * row + 2];
    }
    return m;
}

} // namespace bv::io
