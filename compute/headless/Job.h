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
// "session" is reserved for the viewer's saved sessions as the base (sessionArguments()).
//
// Frame i (from 0) runs base + the command line's extra options + its overrides. Its noise
// seed is the base's -seed + i unless the frame gives its own -seed (so -misset random draws
// a new orientation per frame); its file names have their run of # replaced by i + 1.

#include "compute/io/Json.h"

#include <string>
#include <vector>

namespace bv::headless {

struct JobFrame {
    std::vector<std::string> overrides; // the frame's options as command-line tokens
    bool ownSeed = false;               // the frame gives its own -seed
    int line = 0, column = 0;           // where the frame is in the job file (0: generated)
};

struct Job {
    std::string source;            // the job file, for messages
    std::vector<std::string> base; // nanoBragg arguments of the base experiment
    std::string session;           // "session": a viewer session file as the base (reserved)
    std::vector<JobFrame> frames;

    // "<source>:<line>:<column>: frame <i+1>" for messages about frame i
    std::string where(std::size_t index) const;
    // base + extra + frame `index`'s overrides
    std::vector<std::string> arguments(std::size_t index,
                                       const std::vector<std::string>& extra) const;
};

// Throws bv::Error "<source>:<line>:<column>: ..." for anything that is not a job file as
// described above (unknown members, an unknown option, a value of the wrong kind, no frames).
Job parseJob(const io::JsonValue& root, const std::string& source);
Job readJob(const std::string& path);

// The JSON text of a job file (what the viewer writes to save its session as a job).
std::string jobText(const Job& job);

// The extension point for the viewer's sessions: the nanoBragg arguments a saved session
// stands for. Not yet available: throws bv::Error saying so.
std::vector<std::string> sessionArguments(const std::string& sessionFile);

} // namespace bv::headless
