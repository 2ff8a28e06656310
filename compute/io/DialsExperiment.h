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
// components, plus the parent's origin). Which models: those the chosen experiment names
// (the first by default, or experiment `id` of the list), else the first of each kind.
//
// The other models, where the file has them (readDialsExperiment(path, id) is what
// `-experiment` reads; `-detector` takes the detector alone):
// - crystal: dxtbx's real_space_a, _b, _c (Angstrom, the cell at the goniometer's zero angle,
//   A = UB) turned by the goniometer's setting and fixed rotations (S F A: dxtbx's crystal
//   at angle phi is S R(axis, phi) F A, and S R(axis, phi) = R(S axis, phi) S), so that the
//   simulator's spindle rotation about S axis gives the same crystal at every angle; its space
//   group's Hall symbol; the mosaicity where a model refined one (Sauter 2014's
//   ML_half_mosaicity_deg and ML_domain_size_ang, or Kabsch 2010's "mosaicity", degrees);
// - beam: polarization_normal (the normal to the plane of the E-vector) and
//   polarization_fraction (of the intensity in that plane);
// - goniometer: rotation_axis turned by setting_rotation (rotation matrices as 9 numbers,
//   row-major);
// - scan: image_range (first, last) and oscillation (start, width per image, degrees);
// - imageset: its "template" or its list of "images".
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

struct DialsCrystal {
    glm::dvec3 a{0.0}, b{0.0}, c{0.0}; // Angstrom, simulator's frame, S F A (above)
    std::string hallSymbol;            // "" when the file gives none
    std::optional<double> halfMosaicity; // rad (ML_half_mosaicity_deg)
    std::optional<double> domainSize;    // Angstrom (ML_domain_size_ang)
    std::optional<double> mosaicity;     // rad (Kabsch 2010 "mosaicity")
};

struct DialsGoniometer {
    glm::dvec3 axis{0.0, 0.0, 1.0}; // unit, simulator's frame, the setting rotation applied
};

struct DialsScan {
    long long firstImage = 1, lastImage = 1; // image_range, DIALS's image numbers
    double start = 0.0;                      // rad, the first image's starting angle
    double width = 0.0;                      // rad per image
    // the angle image `n` starts at (n within [firstImage, lastImage])
    double startOf(long long n) const { return start + static_cast<double>(n - firstImage) * width; }
};

struct DialsExperiment {
    PanelDetector detector;
    std::optional<glm::dvec3> beamDirection; // unit, the way the X-rays travel
    std::optional<double> wavelength;        // m
    std::optional<glm::dvec3> polarizationNormal; // unit, simulator's frame
    std::optional<double> polarizationFraction;   // 0..1
    std::optional<DialsCrystal> crystal;
    std::optional<DialsGoniometer> goniometer;
    std::optional<DialsScan> scan;
    // the imageset's images: a template with a run of # for the image number (a series of
    // files), a file of several frames (a NeXus master: no #), or a list of files; paths
    // relative to the .expt's folder are made relative to the working directory
    std::string imageTemplate;
    std::vector<std::string> images;
    // the imageset's mask (dials.apply_mask's "mask": a pickle of each panel's trusted
    // pixels, io/DialsMask.h), made relative as the images are; empty where none
    std::string mask;
    std::size_t experimentCount = 0; // in the list (0: a file of models with no "experiment")
    std::vector<std::string> notes;  // what was read but not used
};

// What to read: the detector and beam (what -detector takes; the other models, even broken
// ones, are left alone), or every model of the experiment (-experiment).
enum class DialsModels { DetectorAndBeam, All };

// `id`: which experiment of the list (0-based, as dials' experiment ids count); throws when
// the list has no such experiment
DialsExperiment readDialsExperiment(const std::string& path, std::size_t id = 0,
                                    DialsModels models = DialsModels::DetectorAndBeam);

// dxtbx's panel types; any other is refused ("unknown panel type")
inline constexpr const char* kDxtbxPanelTypes[] = {"SENSOR_PAD", "SENSOR_CCD", "SENSOR_IMAGE_PLATE",
                                                   "SENSOR_UNKNOWN"};

} // namespace bv::io
