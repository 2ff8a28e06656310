// libFuzzer target: bv::io::readMeasuredImage (compute/io/MeasuredImage.h), the measured-frame
// reader of -compare: the format told by the first bytes, then the miniCBF or SMV reader and
// the map of pixels with data. Input: the bytes of a file; the first byte also picks the frame
// asked for (0 to 2). Only bv::Error may escape; an image that reads must have width x height
// pixels and as many data flags, each 0 or 1. Files that start as HDF5 are left out: their
// parsing is Debian's HDF5 library, not braggview's code (tst_measuredimage covers the NeXus
// part on files the project writes).

#include "FuzzInput.h"

#include "compute/core/Error.h"
#include "compute/io/MeasuredImage.h"

#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size >= 4 && std::memcmp(data, "\x89HDF", 4) == 0)
        return 0;
    const std::string path = bv::fuzz::writeInput("frame.img", data, size);
    const std::size_t frame = size > 0 ? data[size - 1] % 3 : 0;
    try {
        const bv::io::MeasuredImage m = bv::io::readMeasuredImage(path, frame);
        const std::size_t n = static_cast<std::size_t>(m.width) * static_cast<std::size_t>(m.height);
        bv::fuzz::require(m.width > 0 && m.height > 0 && m.pixels.size() == n && m.hasData.size() == n,
                          "readMeasuredImage: pixels and data flags do not match the size");
        for (std::uint8_t flag : m.hasData)
            bv::fuzz::require(flag <= 1, "readMeasuredImage: a data flag other than 0 or 1");
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
    }
    return 0;
}
