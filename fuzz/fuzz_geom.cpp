// libFuzzer target: bv::io::readCrystfelGeometry (compute/io/CrystfelGeometry.h), the
// CrystFEL .geom reader. Input: the bytes of a geometry file. Only bv::Error may escape, and
// what the reader returns must pass the model's own checks (validatePanels) unchanged.

#include "FuzzInput.h"

#include "compute/core/Error.h"
#include "compute/io/CrystfelGeometry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = bv::fuzz::writeInput("detector.geom", data, size);
    try {
        const bv::io::CrystfelGeometry g = bv::io::readCrystfelGeometry(path);
        try {
            bv::validatePanels(g.detector, path);
        } catch (const bv::Error&) {
            bv::fuzz::require(false,
                              "readCrystfelGeometry: returned panels validatePanels refuses");
        }
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
    }
    return 0;
}
