// libFuzzer target: bv::io::readModelFactors (compute/io/StructureFactorFiles.h), -model
// through gemmi. Input: the bytes of a PDB or mmCIF model, its |F| computed to 8 A (a few
// hundred reflections for a small cell); more than 2^16 reflections in the asymmetric unit are
// refused, as a large cell is by the program's own limit (2e7), not computed for seconds
// (a 10 x 10^4 x 10^4 A cell took 22 s with the sanitizers).
// Only bv::Error may escape the reader.

#include "FuzzInput.h"
#include "StructureFactorCheck.h"

#include "compute/io/StructureFactorFiles.h"
#include "compute/core/Error.h"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = bv::fuzz::writeInput("input.pdb", data, size);
    std::ostringstream log;
    try {
        bv::fuzz::checkTable(bv::io::readModelFactors(path, 8.0, 7.5, log, 65536.0), 7.5,
                             "readModelFactors");
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
    }
    return 0;
}
