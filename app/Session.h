#pragma once
// Sessions: every parameter and view setting of the viewer as one JSON file.
//
//   { "format": "braggview session", "version": 1,
//     "experiment": { ...every Experiment field, SI units (m, rad), null for "automatic" },
//     "files": { "hkl", "mat", "sourceFile", "mask", "dump" },   (absolute paths or "")
//     "outputs": { "intScale", "pgmScale", "adcOffset" },
//     "precision": "fast" | "precise",
//     "view": { "colormap", "scaling", "black", "white", "overloadOn", "overload",
//               "autoContrast", "overlays": {...}, "origin": [x, y], "scale" } }
//
// Numbers are SI doubles written with the shortest text that reads back exactly, so a saved
// and reloaded session is the same experiment bit for bit. The orientation matrix and the
// source list are stored with their values; the HKL table and the mask are read again from
// their files (they can be large).

#include "app/Overlays.h"
#include "compute/cli/CommandLine.h"
#include "compute/engine/Simulator.h"
#include "render/Colormap.h"
#include "render/ViewTransform.h"

#include <QJsonObject>
#include <QString>

namespace bv::app {

struct ViewState {
    render::DisplaySettings display;
    bool autoContrast = true;
    OverlaySettings overlays;
    std::optional<render::ViewTransform> view; // nullopt: fit the image
};

struct Session {
    cli::CommandLine commandLine; // experiment (inputs loaded), files, outputs
    engine::Precision precision = engine::Precision::Fast;
    ViewState view;
};

QJsonObject sessionToJson(const Session& session);
// Reads the inputs the files name (HKL, mask). Throws bv::Error naming the key or the file.
Session sessionFromJson(const QJsonObject& json);

// Files: written atomically; errors as bv::Error "<path>: ...".
void saveSession(const QString& path, const Session& session);
Session loadSession(const QString& path);

} // namespace bv::app
