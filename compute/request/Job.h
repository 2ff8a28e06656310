#pragma once
// Job files: a base experiment and a list of frames, each overriding any options, rendered by
// `braggview --headless --job job.json [options]` (docs/series.md):
//
//   {
//     "base": "-cell 50 60 70 90 90 90 -default_F 100 -N 10 -distance 100 -detpixels 512
//              -seed 1 -noisefile still_####.img -cbffile still_####.cbf",
//     "frames": [
//       {"-misset": "random", "-misset_seed": 7},
//       {"-distance": 120},
//       {"-lambda": 1.1, "-seed": 99}
//     ]
//   }
//
// "base" is nanoBragg's command line as one string (split at white space), as an array of
// tokens, or as an object of options like a frame's. A frame's members are options: a
// number or string is its value, an array its values, true an option without values; a
// string for an option of several values is split at white space ("-misset": "10 20 30").
// "frames" may also be a count: that many frames of the base alone (with -misset random,
// still shots of as many random orientations). A top-level "comment" is ignored.
//
// "session" bases the job on a viewer session instead (SessionFile.h): the name of a session
// file, relative to the job file's directory, or the session object itself, as the viewer's
// "Save as job file" writes it. The session's experiment is the start, exactly as saved;
// "base" then holds options applied on top of it (the files to write, say), and each frame's
// overrides come after those, as on a command line. A session-based job takes no -img or
// -mask (their headers would be read under the session's explicit values).
//
// Frame i (from 0) runs base + the command line's extra options + its overrides. Its noise
// seed is the base's -seed + i unless the frame gives its own -seed (so -misset random draws
// a new orientation per frame); its file names have their run of # replaced by i + 1.
// Paths in options (-hkl, -detector, -noisefile, ...) are relative to the working directory,
// as on the command line; paths in a session are relative to the file the session is in.
// Frames may name different detectors (-detector, -detpixels): each frame's image has its
// own size, and the one Simulator is resized for it (a recording per change of size).

#include "compute/request/RunRequest.h"
#include "compute/io/Json.h"

#include <nlohmann/json.hpp> // sessionObject holds a value

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace bv::request {

struct JobFrame {
    std::vector<std::string> overrides; // the frame's options as command-line tokens
    bool ownSeed = false;               // the frame gives its own -seed
    int line = 0, column = 0;           // where the frame is in the job file (0: generated)
};

struct Job {
    std::string source;            // the job file, for messages
    std::vector<std::string> base; // nanoBragg arguments of the base (with a session: on top of it)
    std::string session;           // "session": "<file>": a viewer session file, as written
    std::optional<io::Json> sessionObject; // "session": {...}: the session itself
    // the embedded session as read by parseJob (its files not yet loaded): read once, when the
    // job is, and taken by sessionBase
    std::optional<RunRequest> sessionRequest;
    std::vector<JobFrame> frames;

    bool hasSession() const { return !session.empty() || sessionObject.has_value(); }
    // the session file: `session` relative to the job file's directory
    std::string sessionPath() const;

    // "<source>:<line>:<column>: frame <i+1>" for messages about frame i
    std::string where(std::size_t index) const;
    // base + extra + frame `index`'s overrides
    std::vector<std::string> arguments(std::size_t index,
                                       const std::vector<std::string>& extra) const;
};

// Throws bv::Error "<source>:<line>:<column>: <key path>: ..." for anything that is not a job
// file as described above (unknown members, an unknown option, a value of the wrong kind, no
// frames): "job.json:5:22: frame 3: -misset: \"-distance\" is an option, not a value". Frames
// are counted from 1 in every message (as the frame loop, its lines and its files count them).
// The job's source is the document's.
Job parseJob(const io::JsonDocument& doc);
Job readJob(const std::string& path);

// The JSON text of a job file (what the viewer writes to save its session as a job).
std::string jobText(const Job& job);

// The start of every frame of a job that has a session: the session's command line with its
// HKL table and mask loaded (warnings on `log`). Throws bv::Error naming the job file, the
// session file and the key ("job.json: \"session\": view.json:14:19: experiment.detector.
// distance: expected a number greater than 0, got 'far'").
RunRequest sessionBase(const Job& job, std::ostream& log);

} // namespace bv::request
