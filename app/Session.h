#pragma once
// Sessions: every parameter and view setting of the viewer as one JSON file. The experiment,
// its files, output scales and precision are written and read by compute/request/
// SessionFile.h, without Qt, so that a job file can be based on a session and rendered where
// there is no Qt (docs/series.md); the viewer adds its own member on top:
//
//   "view": { "colormap", "scaling", "black", "white", "overloadOn", "overload",
//             "autoContrast", "overlays": {...}, "origin": [x, y], "scale" }
//
// ("origin" and "scale" only when the view was zoomed or panned; without them the image is
// fitted to the window; a session without "view" opens with the default view). A saved and
// reloaded session is the same experiment bit for bit.
//
// "Save as job file" writes a job whose base is the session's experiment, embedded in the
// job (one file, exact numbers), with one frame that writes <name>_####.bin (-floatfile),
// <name>_####.img (-intfile) and <name>_noise_####.img (-noisefile) into the directory the
// job is run from: `braggview --headless --job <name>.json` renders the image on screen.

#include "app/Overlays.h"
#include "compute/request/RunRequest.h"
#include "compute/engine/Simulator.h"
#include "compute/io/Json.h"
#include "render/Colormap.h"
#include "render/ViewTransform.h"

#include <QString>

#include <string>

namespace bv::app {

struct ViewState {
    render::DisplaySettings display;
    bool autoContrast = true;
    OverlaySettings overlays;
    std::optional<render::ViewTransform> view; // nullopt: fit the image
};

struct Session {
    RunRequest commandLine; // experiment (inputs loaded), files, outputs
    engine::Precision precision = engine::Precision::Fast;
    ViewState view;
};

// The session file's text.
std::string sessionText(const Session& session);
// Reads a session document; relative file names are taken relative to `directory`. Reads the
// inputs the files name (HKL, mask). Throws bv::Error "<source>:<line>:<column>: <key>: ...".
Session sessionFromJson(const io::JsonDocument& doc, const std::string& directory);

// Files: written atomically; errors as bv::Error "<path>...: ...".
void saveSession(const QString& path, const Session& session);
Session loadSession(const QString& path);

// The job file "Save as job file" writes for `session` at `path` (see above).
std::string sessionJobText(const Session& session, const QString& path);
void saveJob(const QString& path, const Session& session);

} // namespace bv::app
