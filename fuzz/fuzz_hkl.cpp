// libFuzzer target: bv::io::readHkl (compute/io/HklFile.h), the -hkl text reader.
// Input: the bytes of an HKL file. Only bv::Error may escape the reader.

#include "FuzzInput.h"

#include "compute/io/HklFile.h"
#include "compute/core/Error.h"

#include <cmath>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = bv::fuzz::writeInput("input.hkl", data, size);
    std::ostringstream log;
    try {
        const double defaultF = 7.5;
        const bv::StructureFactors sf = bv::io::readHkl(path, defaultF, log);
        using bv::fuzz::require;
        require(sf.hCount() > 0 && sf.kCount() > 0 && sf.lCount() > 0, "readHkl: empty grid");
        require(sf.F.size() == static_cast<std::size_t>(sf.hCount()) *
                                   static_cast<std::size_t>(sf.kCount()) *
                                   static_cast<std::size_t>(sf.lCount()),
                "readHkl: F.size() does not match the index ranges");
        require(sf.reflectionCount > 0 && sf.hasTable(), "readHkl: no reflections but no error");
        require(sf.defaultF == defaultF, "readHkl: defaultF not kept");
        // both corners of the grid, and a point outside it (indices are at most 1e9: no overflow)
        require(std::isfinite(sf.amplitude(sf.hMin, sf.kMin, sf.lMin)) &&
                    std::isfinite(sf.amplitude(sf.hMax, sf.kMax, sf.lMax)),
                "readHkl: a grid value is not finite");
        require(!sf.contains(sf.hMin - 1, sf.kMin, sf.lMin) &&
                    sf.amplitude(sf.hMin - 1, sf.kMin, sf.lMin) == defaultF,
                "readHkl: a point outside the grid is not defaultF");
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
    }
    return 0;
}
