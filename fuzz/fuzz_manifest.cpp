// libFuzzer target: a batch's manifest reader, bv::headless::parseManifest (compute/headless/
// Manifest.h, compiled into the fuzzer: the rest of braggview_headless needs the engine).
// Input: the bytes of a manifest. Only bv::Error may escape. Every line it accepts is written
// back by manifestLine to one line that reads back to the same entry, and the whole manifest
// written again reads back to the same frames; a command compared with itself has no changed
// option.

#include "FuzzInput.h"

#include "compute/core/Error.h"
#include "compute/headless/Manifest.h"

#include <string>

namespace {

using bv::fuzz::require;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::map<int, bv::headless::ManifestEntry> entries;
    try {
        entries = bv::headless::parseManifest(text, "fuzz.manifest.jsonl");
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
        return 0;
    }
    std::string again;
    for (const auto& [frame, entry] : entries) {
        require(frame == entry.frame && frame >= 1, "parseManifest: a frame under another number");
        const std::string line = bv::headless::manifestLine(entry);
        require(line.find('\n') == std::string::npos, "manifestLine: a line with a newline");
        try {
            require(bv::headless::parseManifestLine(line, "again") == entry,
                    "manifestLine + parseManifestLine: another entry");
        } catch (const bv::Error& e) {
            bv::fuzz::rejected(e.what());
            require(false, "parseManifestLine refuses what manifestLine wrote");
        }
        require(bv::headless::changedOptions(entry.command, entry.command).empty(),
                "changedOptions: a command differs from itself");
        again += line + "\n";
    }
    try {
        require(bv::headless::parseManifest(again, "again") == entries,
                "the manifest written again reads back to other frames");
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
        require(false, "parseManifest refuses the manifest written again");
    }
    return 0;
}
