// libFuzzer target: bv::io::parseDialsMask (compute/io/DialsMask.h), the pickled flex.bool
// masks of a DIALS experiment's imageset, which -compare and -refine apply to a measured frame.
// Input: the bytes of a mask file. Only bv::Error may escape; every panel's mask returned must
// have a positive size with exactly one value of 0 or 1 per pixel, and no more values than the
// bytes hold (one byte each: an array named twice is refused).

#include "FuzzInput.h"

#include "compute/core/Error.h"
#include "compute/io/DialsMask.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        std::size_t values = 0;
        for (const bv::io::PanelMask& m : bv::io::parseDialsMask(bytes, "pixels.mask")) {
            bv::fuzz::require(m.fastPixels > 0 && m.slowPixels > 0,
                              "parseDialsMask: a panel of no pixels");
            bv::fuzz::require(m.valid.size() == std::size_t(m.fastPixels) * std::size_t(m.slowPixels),
                              "parseDialsMask: values that are not the panel's pixels");
            for (std::uint8_t v : m.valid)
                bv::fuzz::require(v <= 1, "parseDialsMask: a value other than 0 or 1");
            values += m.valid.size();
        }
        // each array's values are its own bytes (one array named twice is refused)
        bv::fuzz::require(values <= size, "parseDialsMask: more values than the bytes hold");
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
    }
    return 0;
}
