// libFuzzer target: bv::io::readReflectionCif (compute/io/StructureFactorFiles.h), -sfcif
// through gemmi. Input: the bytes of an mmCIF reflection file, read with the automatic column
// and with intensity_meas named. Only bv::Error may escape the reader.

#include "FuzzInput.h"
#include "StructureFactorCheck.h"

#include "compute/io/StructureFactorFiles.h"
#include "compute/core/Error.h"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = bv::fuzz::writeInput("input-sf.cif", data, size);
    for (const char* column : {"", "intensity_meas"}) {
        std::ostringstream log;
        try {
            bv::fuzz::checkTable(bv::io::readReflectionCif(path, column, 7.5, log), 7.5,
                                 "readReflectionCif");
        } catch (const bv::Error& e) {
            bv::fuzz::rejected(e.what());
        }
    }
    return 0;
}
