// libFuzzer target: bv::io::readMosflmMatrix (compute/io/MatrixFile.h), the -mat reader.
// Input: the bytes of a MOSFLM matrix file. Only bv::Error may escape the reader.

#include "FuzzInput.h"

#include "compute/io/MatrixFile.h"
#include "compute/core/Error.h"

#include <cmath>

namespace {

bool finite(const glm::dvec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = bv::fuzz::writeInput("input.mat", data, size);
    try {
        const bv::io::MosflmMatrix m = bv::io::readMosflmMatrix(path);
        bv::fuzz::require(finite(m.aStar) && finite(m.bStar) && finite(m.cStar),
                          "readMosflmMatrix: accepted a value that is not finite");
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
    }
    return 0;
}
