#pragma once
// Viewer sessions without Qt: the part of a session file that states the experiment, written
// and read here for both the viewer (app/Session.cpp adds its "view" member on top) and job
// files whose base is a session (Job.h), so that `braggview --headless --job` on the GPU
// machine, which has no Qt, renders what the viewer showed. The layout:
//
//   { "format": "braggview session", "version": 1 (2 with a detector of panels),
//     "experiment": { every Experiment field, SI units (m, rad), null for "automatic";
//                     "detector" also holds "distanceStated", "panelsSource" (a preset's name,
//                     a file's absolute name, "" for none) and "panels" (null for nanoBragg's
//                     one flat detector, else each panel's name, origin, fast, slow,
//                     pixelSizeFast/Slow, fastPixels/slowPixels, thickness, mu, material) },
//     "files": { "hkl", "mat", "sourceFile", "mask", "dump" },   ("" for none)
//     "outputs": { "intScale", "pgmScale", "adcOffset" },
//     "precision": "fast" | "precise",
//     "view": { ...the viewer's colormap, levels, overlays, zoom; not read here } }
//
// Numbers are written with the shortest text that reads back to the same double, so a session
// read back is the same experiment bit for bit. The orientation matrix, the source list and a
// detector's panels are stored with their values (the panels' file, when one named them, is
// not read again: the session draws the same detector wherever it is opened; a session
// written by hand may give "panels": null and a "panelsSource" to read instead, as -detector
// reads it: a preset by parseSession, a file by loadSessionInputs); the HKL table and the mask
// are read again from their files (they can be large).
// The viewer writes absolute file names; a relative one is taken relative to the directory of
// the file the session is in (the job file, for a session inside a job).
//
//     std::ostringstream log;
//     bv::RunRequest cl = bv::request::readSession("view.json", log);
//     // cl.experiment is the session's experiment, its HKL table and mask loaded
//
// Everything wrong throws bv::Error naming the file, line, column and key path:
// "view.json:14:19: experiment.detector.distance: expected a number greater than 0, got 'far'".

#include "compute/request/RunRequest.h"
#include "compute/io/Json.h"
#include "compute/io/JsonWriter.h"

#include <iosfwd>
#include <string>

namespace bv::request {

// Writes "format", "version", "experiment", "files", "outputs" and "precision" into the object
// that `w` has open (the viewer then adds "view"). File names are written absolute.
void writeSessionMembers(io::JsonWriter& w, const RunRequest& cl);
// A whole session without a view: what a job file embeds.
std::string sessionText(const RunRequest& cl);

// Reads those members of a session document (its "view" is not looked at) into a command
// line: the experiment, the file names (relative ones joined to `directory`), the output
// scales and the precision. Reads no file: the HKL table, the mask and a detector file named
// without its panels are loadSessionInputs'.
RunRequest parseSession(const io::JsonDocument& doc, const std::string& directory);
// The same for a session object inside a document (a job's "session"), at key path `path`
// ("session"), which messages give before each key: "job.json:3:14: session.experiment...".
RunRequest parseSession(const io::JsonDocument& doc, const io::Json& object,
                              const std::string& path, const std::string& directory);
// Reads what the session's files hold: the HKL file's structure factors (warnings on `log`),
// the panels of a detector file the session names without its panel list, and the mask's
// pixels, which must fit the session's detector.
void loadSessionInputs(RunRequest& cl, std::ostream& log);
// readJsonFile + parseSession + loadSessionInputs; relative names relative to the file's
// directory.
RunRequest readSession(const std::string& path, std::ostream& log);

// The directory of a file name, for relative names inside it ("" for a bare name).
std::string directoryOf(const std::string& path);

} // namespace bv::request
