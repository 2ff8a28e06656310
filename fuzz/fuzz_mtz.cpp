// libFuzzer target: bv::io::readMtz (compute/io/StructureFactorFiles.h), -mtz through gemmi.
// Input: the bytes of an MTZ file, read with the automatic column and with "FP" named. Only
// bv::Error may escape the reader; what it returns must be a consistent table.

#include "FuzzInput.h"
#include "StructureFactorCheck.h"

#include "compute/io/StructureFactorFiles.h"
#include "compute/core/Error.h"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = bv::fuzz::writeInput("input.mtz", data, size);
    for (const char* column : {"", "FP"}) {
        std::ostringstream log;
        try {
            bv::fuzz::checkTable(bv::io::readMtz(path, column, 7.5, log), 7.5, "readMtz");
        } catch (const bv::Error& e) {
            bv::fuzz::rejected(e.what());
        }
    }
    return 0;
}
