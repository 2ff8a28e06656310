#pragma once
// A whole DIALS experiment as the request's starting point (-experiment FILE.expt,
// -experiment_id N, -frame N): every model the file holds sets the parameters it describes,
// at the place of -experiment among the options, so that options after it override
// (docs/dials-experiment.md):
//
//   beam        wavelength; direction (-beam_vector); polarization: the E-vector lies in the
//               plane normal to polarization_normal, and Kahn's factor is 2 p - 1 for the
//               polarization_fraction p (p = 0.5 unpolarized, Kahn 0)
//   detector    the panels, as -detector FILE.expt
//   crystal     the orientation and cell (A = UB, turned by the goniometer's setting and
//               fixed rotations), no misset; the mosaic spread: twice Sauter's half
//               mosaicity, or Kabsch's mosaicity; the crystal size: Sauter's domain size
//   goniometer  the rotation axis (-spindle_axis)
//   scan        phi and the oscillation of image -frame (DIALS's image number; the scan's
//               first image when -frame is not given)
//
// Axes given by the file select the custom convention, as their options do.

#include "compute/io/DialsExperiment.h"
#include "compute/io/MeasuredImage.h"
#include "compute/request/ParseContext.h"

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

namespace bv::request {

// reads `path` (experiment `id` of its list) and sets what it describes; `where` names the
// option for messages
void applyDialsExperiment(ParseContext& c, const std::string& path, std::size_t id,
                          const std::string& where);

// The same on a request already made (the viewer's File > Open experiment): as if
// "-experiment path" came after the words that made it.
void applyDialsExperiment(RunRequest& request, const std::string& path, std::size_t id = 0);

// One reading of experiment `id` of the DIALS experiment list `path` (every model).
struct ReadExperiment {
    std::string path;
    int id = 0;
    io::DialsExperiment list;
};
// The request's -experiment as read: the reading applyDialsExperiment kept, or, for a request
// without one (or whose -experiment_id has changed since), the file read now, its errors
// prefixed with `where` when given ("-experiment FILE: ...").
std::shared_ptr<const ReadExperiment> experimentRead(const RunRequest& request,
                                                     const std::string& where = {});

// The mask file of the request's -experiment's imageset (dials.apply_mask's), or "".
std::string experimentMask(const RunRequest& request);

// The DIALS image number of the measured frame, which picks a .refl's spots (-spots): -frame,
// else the -experiment scan's first image; nullopt with neither (a still: every spot).
std::optional<long long> measuredImageNumber(const RunRequest& request);

// The detector of the request's -experiment (its -experiment_id) as the file places it, with
// no option after it (what a refined experiment list is written against).
Detector filedDetector(const RunRequest& request);

// -frame after -experiment: phi and the oscillation of that image of the scan
void applyExperimentFrame(ParseContext& c, long long frame, const std::string& where);

// The measured image a run is compared with: -measured FILE [N], or else the -experiment's
// own image of -frame (its imageset's template or list; for a file of several frames, the
// frame's place in the scan). Throws bv::Error saying what to give when there is none.
struct MeasuredSource {
    std::string path;
    std::size_t frame = 0; // within the file, from 0
};
MeasuredSource measuredSource(const RunRequest& request);
// The measured frame `source` names, the trusted ranges of the request's panels applied
// (io::applyTrustedRanges; a line to `log` says how many pixels they took).
io::MeasuredImage readMeasured(const RunRequest& request, const MeasuredSource& source,
                               std::ostream& log);

// After -lambda or -energy: a crystal -experiment set keeps its cell (the MOSFLM matrix it
// is stored as carries the wavelength; resolve divides by the run's)
void keepExperimentCell(ParseContext& c);

} // namespace bv::request
