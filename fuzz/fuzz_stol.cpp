// libFuzzer target: bv::io::readStolFile (compute/io/StolFile.h), the .stol reader of
// --nonbragg's -stol. Input: the bytes of a .stol file. Only bv::Error may escape the reader,
// and what it returns keeps the promises of its header.

#include "FuzzInput.h"

#include "compute/core/Error.h"
#include "compute/io/StolFile.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = bv::fuzz::writeInput("table.stol", data, size);
    try {
        const bv::io::StolTable table = bv::io::readStolFile(path);
        bv::fuzz::require(table.stol.size() == table.F.size(), "readStolFile: columns differ");
        bv::fuzz::require(table.stol.size() >= 2, "readStolFile: fewer than 2 points accepted");
        for (std::size_t i = 0; i < table.stol.size(); ++i) {
            bv::fuzz::require(std::isfinite(table.stol[i]) && std::isfinite(table.F[i]),
                              "readStolFile: accepted a value that is not finite");
            bv::fuzz::require(table.stol[i] >= 0.0, "readStolFile: accepted a negative stol");
            bv::fuzz::require(i == 0 || table.stol[i] > table.stol[i - 1],
                              "readStolFile: accepted a table that does not increase");
        }
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
    }
    return 0;
}
