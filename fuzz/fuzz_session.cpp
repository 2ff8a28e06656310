// libFuzzer target: the viewer-session reader without Qt, bv::request::parseSession
// (compute/request/SessionFile.h), on the bytes of a session file (read with
// bv::io::readJsonFile). Only bv::Error may escape. The files a session names (HKL, mask) are
// not read: their readers have fuzzers of their own (fuzz_hkl, fuzz_smv).
//
// Beyond that, the documented round trip must hold: a session that parseSession accepts,
// written again by sessionText, reads back to the same experiment bit for bit, and writing
// that once more gives the same text ("a saved and reloaded session is the same experiment",
// docs/series.md).

#include "FuzzInput.h"

#include "compute/request/SessionFile.h"
#include "compute/io/Json.h"
#include "compute/io/JsonWriter.h"
#include "compute/request/SessionFields.h"
#include "compute/core/Error.h"

#include <string>

namespace {

using bv::fuzz::require;

// Every row of the session's table (compute/request/SessionFields.h) holds the same value in
// both: written alone, it gives the same text. The shortest text that reads back is one text
// per double (-0 is "-0"), so the same text is the same number, bit for bit.
void requireSameRows(const bv::Experiment& a, const bv::Experiment& b) {
    for (const bv::request::SessionField& field : bv::request::sessionFields()) {
        if (!field.write)
            continue;
        std::string text[2];
        const bv::Experiment* experiments[2] = {&a, &b};
        for (int i = 0; i < 2; ++i) {
            bv::io::JsonWriter w;
            w.beginObject();
            field.write(w, *experiments[i]);
            w.endObject();
            text[i] = w.text();
        }
        if (text[0] != text[1]) {
            const std::string what = "sessionText + parseSession: experiment." + field.section +
                                     (field.section.empty() ? "" : ".") + field.key + " changed";
            require(false, what.c_str());
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = bv::fuzz::writeInput("view.json", data, size);
    bv::RunRequest cl;
    try {
        cl = bv::request::parseSession(bv::io::readJsonFile(path), "/sessions");
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
        text = bv::request::sessionText(cl);
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
        require(false, "sessionText cannot write what parseSession read");
    }
    bv::RunRequest back;
    try {
        back = bv::request::parseSession(bv::io::parseJson(text, "again.json"), "");
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
        require(false, "parseSession refuses what sessionText wrote");
    }
    requireSameRows(cl.experiment, back.experiment);
    require(back.hkl == cl.hkl && back.mask == cl.mask && back.precision == cl.precision,
            "sessionText + parseSession: the files or the precision changed");
    require(bv::request::sessionText(back) == text, "sessionText is not stable");
    return 0;
}
