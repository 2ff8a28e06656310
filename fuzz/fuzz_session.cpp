// libFuzzer target: the viewer-session reader without Qt, bv::headless::parseSession
// (compute/headless/SessionFile.h), on the bytes of a session file (read with
// bv::io::readJsonFile). Only bv::Error may escape. The files a session names (HKL, mask) are
// not read: their readers have fuzzers of their own (fuzz_hkl, fuzz_smv).
//
// Beyond that, the documented round trip must hold: a session that parseSession accepts,
// written again by sessionText, reads back to the same experiment bit for bit, and writing
// that once more gives the same text ("a saved and reloaded session is the same experiment",
// docs/series.md).

#include "FuzzInput.h"

#include "compute/headless/SessionFile.h"
#include "compute/io/Json.h"
#include "compute/core/Error.h"

#include <cstring>

namespace {

using bv::fuzz::require;

bool sameBits(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

bool sameBits(const std::optional<double>& a, const std::optional<double>& b) {
    return a.has_value() == b.has_value() && (!a || sameBits(*a, *b));
}

// the numbers the text carries that a text comparison would not see (-0 vs 0 is one)
void requireSameNumbers(const bv::Experiment& a, const bv::Experiment& b) {
    require(sameBits(a.detector.distance, b.detector.distance) &&
                sameBits(a.detector.pixelSize, b.detector.pixelSize) &&
                sameBits(a.detector.beamX, b.detector.beamX) &&
                sameBits(a.beam.wavelength, b.beam.wavelength) &&
                sameBits(a.crystal.phi0, b.crystal.phi0) &&
                sameBits(a.crystal.mosaicSpread, b.crystal.mosaicSpread) &&
                sameBits(a.crystal.missetAngles.x, b.crystal.missetAngles.x),
            "sessionText + parseSession: a number changed");
    require(a.crystal.cell.has_value() == b.crystal.cell.has_value() &&
                a.crystal.mosflmMatrix.has_value() == b.crystal.mosflmMatrix.has_value() &&
                a.beam.sourceFile.size() == b.beam.sourceFile.size() &&
                a.sampling.roi.has_value() == b.sampling.roi.has_value() &&
                a.seed == b.seed && a.crystal.mosaicSeed == b.crystal.mosaicSeed,
            "sessionText + parseSession: the experiment changed");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = bv::fuzz::writeInput("view.json", data, size);
    bv::RunRequest cl;
    try {
        cl = bv::headless::parseSession(bv::io::readJsonFile(path), "/sessions");
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
        return 0;
    }
    require(cl.experiment.crystal.cell || cl.experiment.crystal.mosflmMatrix,
            "parseSession: a session without a cell or a matrix");
    require(cl.experiment.detector.fastPixels() >= 1 && cl.experiment.detector.slowPixels() >= 1,
            "parseSession: a session without a detector");
    require(cl.hkl.empty() || cl.hkl[0] == '/', "parseSession: a relative name left relative");

    std::string text;
    try {
        text = bv::headless::sessionText(cl);
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
        require(false, "sessionText cannot write what parseSession read");
    }
    bv::RunRequest back;
    try {
        back = bv::headless::parseSession(bv::io::parseJson(text, "again.json"), "");
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
        require(false, "parseSession refuses what sessionText wrote");
    }
    requireSameNumbers(cl.experiment, back.experiment);
    require(back.hkl == cl.hkl && back.mask == cl.mask && back.precision == cl.precision,
            "sessionText + parseSession: the files or the precision changed");
    require(bv::headless::sessionText(back) == text, "sessionText is not stable");
    return 0;
}
