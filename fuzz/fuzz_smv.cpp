// libFuzzer target: bv::io::readSmv (compute/io/Smv.h) and what the command line does with
// the result: the header defaults of -img and the header and pixels of -mask
// (bv::cli::parseCommandLine reads both through readSmv).
// Input: the bytes of an SMV image. Only bv::Error may escape.

#include "FuzzInput.h"

#include "compute/io/Smv.h"
#include "compute/core/Error.h"
#if BV_FUZZ_HAVE_CLI
#include "compute/cli/CommandLine.h"
#endif

#include <cmath>

namespace {

// the keys nanoBragg and the command line look up
const char* const kKeys[] = {"HEADER_BYTES",  "SIZE1",
                             "SIZE2",         "BYTE_ORDER",
                             "TYPE",          "PIXEL_SIZE",
                             "DISTANCE",      "CLOSE_DISTANCE",
                             "WAVELENGTH",    "BEAM_CENTER_X",
                             "BEAM_CENTER_Y", "XDS_ORGX",
                             "XDS_ORGY",      "ORGX",
                             "ORGY",          "PHI",
                             "OSC_START",     "OSC_RANGE",
                             "TWOTHETA",      "DIALS_ORIGIN",
                             "ADXV_CENTER_X", "MOSFLM_CENTER_X",
                             "DENZO_X_BEAM",  ""};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using bv::fuzz::require;
    const std::string path = bv::fuzz::writeInput("input.img", data, size);
    try {
        const bv::io::SmvImage image = bv::io::readSmv(path);
        require(image.width > 0 && image.height > 0,
                "readSmv: accepted a size that is not positive");
        require(image.data.size() ==
                    static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height),
                "readSmv: data.size() is not SIZE1*SIZE2");
        require(image.headerBytes > 0 && image.header.size() <= std::size_t(image.headerBytes),
                "readSmv: header longer than HEADER_BYTES");
        require(image.header.find('\0') == std::string::npos, "readSmv: header not cut at NUL");
        for (const char* key : kKeys) {
            (void)image.field(key);
            (void)image.valueOf(key);
        }
        for (const auto& [key, value] : image.fields) {
            require(image.field(key).has_value(), "SmvImage::field: a parsed key is not found");
            (void)image.valueOf(key);
            (void)value;
        }
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
    }
#if BV_FUZZ_HAVE_CLI
    // the same file as the command line's -mask and -img (headers, then the mask's size check)
    for (const char* option : {"-mask", "-img"}) {
        try {
            const bv::RunRequest cl = bv::cli::parseCommandLine({option, path});
            if (!cl.experiment.mask.empty())
                require(cl.experiment.mask.size() ==
                            static_cast<std::size_t>(cl.experiment.detector.fastPixels()) *
                                static_cast<std::size_t>(cl.experiment.detector.slowPixels()),
                        "parseCommandLine: the mask does not cover the detector");
        } catch (const bv::Error& e) {
            bv::fuzz::rejected(e.what());
        }
    }
#endif
    return 0;
}
