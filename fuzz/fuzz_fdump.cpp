// libFuzzer target: bv::io::readFdump (compute/io/Fdump.h), the Fdump.bin cache reader.
// Input: the bytes of an Fdump file. Only bv::Error may escape the reader. A grid it
// accepts must survive writeFdump + readFdump unchanged (the cache is written by us).

#include "FuzzInput.h"

#include "compute/io/Fdump.h"
#include "compute/core/Error.h"

#include <cmath>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using bv::fuzz::require;
    const std::string path = bv::fuzz::writeInput("Fdump.bin", data, size);
    bv::StructureFactors sf;
    try {
        sf = bv::io::readFdump(path);
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
        return 0;
    }
    require(sf.hCount() > 0 && sf.kCount() > 0 && sf.lCount() > 0, "readFdump: empty grid");
    require(sf.F.size() == static_cast<std::size_t>(sf.hCount()) *
                               static_cast<std::size_t>(sf.kCount()) *
                               static_cast<std::size_t>(sf.lCount()),
            "readFdump: F.size() does not match the index ranges");
    require(sf.reflectionCount == sf.F.size(), "readFdump: reflectionCount is not the grid size");
    require(sf.defaultF == 0.0, "readFdump: defaultF is not 0");
    for (const double F : sf.F)
        require(std::isfinite(F), "readFdump: accepted a value that is not finite");

    // round trip through the writer (the file it writes is what the reader must take)
    const std::string again = bv::fuzz::scratchDir() + "/Fdump-again.bin";
    try {
        bv::io::writeFdump(again, sf);
        const bv::StructureFactors back = bv::io::readFdump(again);
        require(back.hMin == sf.hMin && back.hMax == sf.hMax && back.kMin == sf.kMin &&
                    back.kMax == sf.kMax && back.lMin == sf.lMin && back.lMax == sf.lMax,
                "Fdump round trip: ranges differ");
        require(back.F.size() == sf.F.size() &&
                    std::memcmp(back.F.data(), sf.F.data(), sf.F.size() * sizeof(double)) == 0,
                "Fdump round trip: values differ");
    } catch (const bv::Error&) {
        require(false, "Fdump round trip: the writer's file was refused by the reader");
    }
    return 0;
}
