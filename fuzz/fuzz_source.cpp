// libFuzzer target: bv::io::readSourceFile (compute/io/SourceFile.h), the -sourcefile reader.
// Input: the bytes of a source list. Only bv::Error may escape the reader.

#include "FuzzInput.h"

#include "compute/io/SourceFile.h"
#include "compute/core/Error.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = bv::fuzz::writeInput("sources.txt", data, size);
    try {
        const auto sources = bv::io::readSourceFile(path);
        bv::fuzz::require(!sources.empty(), "readSourceFile: no sources but no error");
        for (const bv::io::SourceRecord& s : sources)
            for (const double v : {s.X, s.Y, s.Z, s.weight, s.lambda})
                bv::fuzz::require(!std::isinf(v), "readSourceFile: accepted an infinite value");
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
    }
    return 0;
}
