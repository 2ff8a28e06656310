// libFuzzer target: bv::io::parseDialsReflections (compute/io/DialsReflections.h), DIALS's
// reflection tables (.refl, MessagePack, through compute/io/Msgpack.h), what -spots reads.
// Input: the bytes of a .refl file. Only bv::Error may escape; every spot returned must have
// a finite position and a panel the reader bounds, and no more spots than the bytes can hold
// (24 bytes of xyzobs.px.value each).

#include "FuzzInput.h"

#include "compute/core/Error.h"
#include "compute/io/DialsReflections.h"

#include <cmath>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        const bv::io::DialsReflections table = bv::io::parseDialsReflections(bytes, "spots.refl");
        bv::fuzz::require(table.spots.size() <= size / 24,
                          "parseDialsReflections: more spots than the bytes hold");
        bv::fuzz::require(table.version == 1 || table.version == 2,
                          "parseDialsReflections: a version it does not read");
        for (const bv::io::DialsSpot& s : table.spots) {
            bv::fuzz::require(std::isfinite(s.xyz.x) && std::isfinite(s.xyz.y) &&
                                  std::isfinite(s.xyz.z),
                              "parseDialsReflections: a spot position that is not finite");
            bv::fuzz::require(s.panel <= (1u << 20), "parseDialsReflections: an unbounded panel");
        }
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
    }
    return 0;
}
