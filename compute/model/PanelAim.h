#pragma once
// Aiming a detector preset: nanoBragg's beam-centre options (-Xbeam, -Ybeam, -Xclose,
// -Yclose, -ORGX, -ORGY, and an -img/-mask header's beam centre) move a preset's whole
// detector in its own plane, so that the beam meets its image where the same options put it
// on nanoBragg's one flat detector of the same image (its size in pixels, its pixel size) in
// the same convention. And where the beam meets a detector of panels, to say so.
//
//     Experiment e = ...;                  // -detector pilatus3-6m -Xbeam 210 -Ybeam 220
//     auto placed = resolveStatedPanels(e, e.axes()); // the modules, moved so that the beam
//                                                     // meets the image 220.086 mm along
//                                                     // fast, 210.086 mm along slow (MOSFLM)
//     beamHit(placed, e.axes().beam)->panel;          // "m4_2", or "" in a gap
//
// A detector from a file (.expt, .geom) states where its panels are, beam centre included:
// the options stay refused there (resolvePanels says why).

#include "compute/model/Experiment.h"
#include "compute/model/PanelPlacement.h"

#include <optional>
#include <string>
#include <vector>

namespace bv {

// Whether the detector states a beam centre: -Xbeam, -Ybeam, -Xclose, -Yclose, -ORGX, -ORGY.
bool statesBeamCentre(const Detector& detector);

// The panels of a preset (detector.panelsSource names one), facing the beam of `axes` (the
// convention's frame) 100 mm away, moved in their plane so that the beam meets the image at
// the point where nanoBragg's flat detector of that image, in experiment's convention, puts
// the beam for these options (an option left out takes its default for that image); with
// no beam centre given, the beam at the image's centre. A file's panels as stated. Throws
// bv::Error when the beam runs parallel to the preset's face (a CUSTOM frame's beam in its
// detector plane).
std::vector<Panel> aimedPanels(const Experiment& experiment, const LabAxes& axes);

// resolvePanels() of the experiment's stated panels, aimed first when they are a preset's:
// what resolve() places, and what a job checks before its frames. Throws bv::Error as
// resolvePanels does (a beam centre on a file's panels, ...).
std::vector<PanelGeometry> resolveStatedPanels(const Experiment& experiment, const LabAxes& axes);

// Where the beam (from the sample along `beam`) meets a detector of panels: the panel it
// hits ("" when it passes between them, through a gap) and the point of the first panel's
// plane it meets, in pixels from that panel's first corner along its fast and slow axes (the
// image's pixels for a preset, whose first module starts the image). nullopt when the beam
// does not meet the first panel's plane in front of the sample.
struct BeamHit {
    std::string panel;
    double fastPixel = 0.0, slowPixel = 0.0;
};
std::optional<BeamHit> beamHit(const std::vector<PanelGeometry>& panels, const glm::dvec3& beam);

// One line for the run's log: where the beam meets the detector of panels `source` names, as
// beamHit says it ("detector pilatus3-6m: the beam meets the image at pixel (1231.5,
// 1263.5), 211.82 x 217.32 mm from its first corner, in a gap between modules ...").
std::string beamHitText(const std::string& source, const std::vector<PanelGeometry>& panels,
                        const glm::dvec3& beam);

} // namespace bv
