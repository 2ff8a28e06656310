#pragma once
// The detector and beam of a DIALS experiment list (.expt, JSON; dxtbx's models), read into
// panels in the simulator's frame (docs/numerics/detector-frames.md):
//
//     {"__id__": "ExperimentList",
//      "experiment": [{"beam": 0, "detector": 0, ...}],
//      "beam": [{"direction": [0, 0, 1], "wavelength": 0.9795, ...}],
//      "detector": [{"panels": [{"name": "m0", "type": "SENSOR_PAD",
//                                "fast_axis": [1, 0, 0], "slow_axis": [0, -1, 0],
//                                "origin": [-21.0, 21.0, -200.0],          // mm
//                                "pixel_size": [0.075, 0.075],             // mm
//                                "image_size": [1028, 512],                // fast, slow
//                                "thickness": 0.45, "mu": 3.9, "material": "Si", ...}],
//                    "hierarchy": {... "children": [{"panel": 0}, ...]}}]}
//
//     bv::io::DialsExperiment x = bv::io::readDialsExperiment("refined.expt");
//     x.detector.panels;   // in the order of "panels"
//     x.wavelength;        // m, when the file has a beam
//
// dxtbx's frame: the beam travels along -z, y is up; here (x, y, z) becomes (-z, y, x),
// lengths mm -> m and mu 1/mm -> 1/m. A beam's "direction" points from the sample to the
// source (dxtbx's convention), so the X-rays travel along minus it. Panel vectors are local
// to their group in "hierarchy" (dxtbx writes get_local_*): a panel's lab frame is its
// group's, composed down from the root (parent fast, slow and normal times the local
// components, plus the parent's origin). Which detector and beam: those the first
// experiment names, else the first of each. Only the detector is read from a file whose
// other models (goniometer, scan, crystal) a simulation states itself.
//
// Throws bv::Error "<path>: <key path>: ..." (e.g. "detector[0].panels[2].fast_axis:
// expected 3 numbers") for missing keys, values of the wrong kind, bad numbers, an unknown
// panel type, zero or non-orthogonal axes and overlapping panels; "<path>:<line>: ..." for
// text that is not JSON.

#include "compute/model/PanelDetector.h"

#include <optional>
#include <string>
#include <vector>

namespace bv::io {

struct DialsExperiment {
    PanelDetector detector;
    std::optional<glm::dvec3> beamDirection; // unit, the way the X-rays travel
    std::optional<double> wavelength;        // m
    std::vector<std::string> notes;          // what was read but not used
};

DialsExperiment readDialsExperiment(const std::string& path);

// dxtbx's panel types; any other is refused ("unknown panel type")
inline constexpr const char* kDxtbxPanelTypes[] = {"SENSOR_PAD", "SENSOR_CCD", "SENSOR_IMAGE_PLATE",
                                                   "SENSOR_UNKNOWN"};

} // namespace bv::io
