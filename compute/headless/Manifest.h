#pragma once
// A batch's manifest: beside a series' or a job's files, one line per frame saying what the
// frame was made from (its whole parameter set, as the command line's words) and what it
// wrote (each file with its SHA-256). A resumed job renders again every frame whose line or
// files differ from what the job now describes, and says why; the manifest is also the labels
// file of a training set. The format is docs/series.md's "The manifest".
//
//     {"frame":1,"command":["-floatfile","j_01.bin","-mosflm","-cell","50","60",...],
//      "files":[{"option":"-floatfile","path":"j_01.bin","sha256":"9f86d08..."}]}
//
// (one line each). "command" read back as a command line renders the same frame:
// `braggview --headless <command...>` writes the frame's files again, byte for byte.
//
// Kept apart from the frame loop (BatchFrames.cpp) and free of the engine, so that its reader
// is fuzzed on its own (fuzz/fuzz_manifest.cpp).

#include "compute/products/OutputFiles.h"
#include "compute/request/RunRequest.h"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bv::headless {

struct ManifestEntry {
    struct File {
        std::string option; // "-floatfile", ...
        std::string path;   // as the frame names it
        std::string sha256; // 64 lowercase hexadecimal digits
        bool operator==(const File& o) const {
            return option == o.option && path == o.path && sha256 == o.sha256;
        }
    };
    int frame = 0;                  // 1-based, as in the file names
    std::vector<std::string> command; // its files' options, then its request as words
    std::vector<File> files;

    bool operator==(const ManifestEntry& o) const {
        return frame == o.frame && command == o.command && files == o.files;
    }
};

// The manifest of a batch whose first file is named by `fileTemplate` (a name with a run of
// #, or a series' NeXus file): in its folder, its name up to the first # (less a trailing
// '_', '-' or '.'; without #, less its extension) + ".manifest.jsonl"; "frames.manifest.jsonl"
// where that leaves nothing. "out/sim_#####.img" -> "out/sim.manifest.jsonl".
std::string manifestPath(const std::string& fileTemplate);

// One line of the manifest (without its newline), and back. parseManifestLine throws
// bv::Error "<source>:<lineNumber>:<column>: ..." for a line that is not one.
std::string manifestLine(const ManifestEntry& entry);
ManifestEntry parseManifestLine(const std::string& line, const std::string& source,
                                int lineNumber = 1);

// Every line of a manifest's text, by frame number; throws bv::Error "<source>:<line>: ..."
// for a malformed line or a frame given twice.
std::map<int, ManifestEntry> parseManifest(const std::string& text, const std::string& source);
// The manifest at `path`, or nothing when there is no such file.
std::optional<std::map<int, ManifestEntry>> readManifest(const std::string& path);

// The options whose values differ between two command lines (an option only in one counts),
// in the order they first appear: {"-misset", "-distance"}.
std::vector<std::string> changedOptions(const std::vector<std::string>& before,
                                        const std::vector<std::string>& now);

// The command a frame's line states: its files' options, then its request's words
// (request::commandWords, which ends with -misset_seed where there is one: followed by more
// words, nanoBragg's parser would read it as -misset too) with the frame's noise seed as -seed
// and, for a random misset, the seed it was drawn with as -misset_seed (a series draws it
// once, from its first frame's seed).
std::vector<std::string> frameCommand(const RunRequest& request, long noiseSeed,
                                      const products::OutputFiles& files);

// Why a frame of a resumed job must be rendered again, or nullopt when its line and its
// files are those of `command` and `files` (every file there, with the digest its line
// keeps): "parameters changed (-misset)", "missing (j_02.img)", "file hash differs
// (j_02.img)", "on disk but not in the manifest". A frame with no line and none of its files
// on disk is simply new: "" (rendered, nothing to say).
std::optional<std::string> staleReason(const ManifestEntry* line,
                                       const std::vector<std::string>& command,
                                       const products::OutputFiles& files);

// The frame's line after its files were written: their digests read from disk.
ManifestEntry writtenEntry(int frame, std::vector<std::string> command,
                           const products::OutputFiles& files);

// The manifest as a batch goes: the lines of the frames finished so far (and, for a resumed
// job, the earlier lines of frames not reached yet), written with io::AtomicFile, so the file
// on disk is always a whole manifest: after each frame at most once a second, and at the end.
class ManifestWriter {
  public:
    ManifestWriter(std::string path, const std::map<int, ManifestEntry>& kept);
    void set(int frame, std::string line); // a finished frame's line (manifestLine)
    void commitSoon();              // commit() when the last was a second ago or more
    void commit();
    void commitIfChanged();         // commit() when a line was set since the last
    const std::string& path() const { return m_path; }

  private:
    std::string m_path;
    std::map<int, std::string> m_lines; // by frame number
    std::chrono::steady_clock::time_point m_lastCommit;
    bool m_dirty = false;
};

} // namespace bv::headless
