#pragma once
// A multi-panel detector as the simulation uses it, and nanoBragg's detector options applied
// to it as to one rigid body (docs/numerics/detector-panels.md, "nanoBragg's options").
//
//     std::vector<PanelGeometry> modules = ...;   // from a preset or a file, lab frame
//     DetectorMove move;
//     move.distance = 0.2;                       // -distance 200
//     move.twotheta = radiansFromDegrees(20);    // -twotheta 20
//     const auto placed = placePanels(modules, {1, 0, 0}, move);
//
// nanoBragg's lab frame: the beam along +x from the sample at the origin.

#include "compute/model/Convention.h"
#include "compute/model/Detector.h"
#include "compute/model/Panel.h"

#include <glm/vec3.hpp>
#include <optional>
#include <string>
#include <vector>

namespace bv {

// One flat panel where the simulation draws it.
struct PanelGeometry {
    std::string name;
    glm::dvec3 pix0{0.0};                       // m, sample -> corner of the panel's first pixel
    // unit axes; odet the normal pointing away from the sample (fdet x sdet or its opposite:
    // the solid angle and the parallax need the side the sample is on)
    glm::dvec3 fdet{0.0}, sdet{0.0}, odet{0.0};
    double pixelSize = 0.0;                     // m, square pixels
    int fastPixels = 0, slowPixels = 0;
    // the sensor's material as the source names it ("Si", "CdTe"; "" when it does not), for
    // the files that describe the detector (NeXus); the simulation's sensor is -detector_thick
    std::string material;

    double sizeFast() const { return pixelSize * fastPixels; }
    double sizeSlow() const { return pixelSize * slowPixels; }
    glm::dvec3 centre() const;
    // m, sample -> the panel's plane along odet (signed)
    double closeDistance() const;
};

// Why nanoBragg's options that pin one flat detector do not apply to a detector of several
// panels, in words: resolvePanels()'s refusals and the viewer's reasons for the fields it
// disables with such a detector.
inline constexpr const char* kPanelsHaveNoBeamCentre =
    "a detector of several panels from a file has its panels placed by the file, so it has no "
    "one beam centre to set; move it with -distance, -detector_rotx/y/z and -twotheta (a "
    "preset takes a beam centre: it moves in its plane)";
inline constexpr const char* kPanelsCannotBeCurved =
    "a curved detector is one sphere about the sample; a detector of panels cannot be curved";
// the pivot is not refused (nanoBragg's default is the beam), only unused: placePanels turns
// the panels about the sample
inline constexpr const char* kPanelsTurnAboutTheSample =
    "a detector of several panels turns about the sample, as with -pivot sample: its panels' "
    "positions already say where the beam meets them";

// nanoBragg's detector options that move a whole multi-panel detector.
struct DetectorMove {
    // m: the detector is moved along the beam until its centre (the mean of its panels'
    // centres) lies this far from the sample along the beam; nullopt: where it is
    std::optional<double> distance;
    glm::dvec3 rotations{0.0}; // rad, about lab x, then y, then z, about the sample
    double twotheta = 0.0;     // rad, about twothetaAxis through the sample, after rotations
    glm::dvec3 twothetaAxis{0.0, 0.0, -1.0}; // unit; nanoBragg's default (MOSFLM convention)
};

// The mean of the panels' centres (m); the detector's centre for -distance.
glm::dvec3 detectorCentre(const std::vector<PanelGeometry>& panels);

// The panels moved as one rigid body: first along the beam (unit vector) for move.distance,
// then turned about the sample by the rotations and two-theta, every panel's corner and axes
// alike, as nanoBragg turns its one detector with -pivot sample. Throws bv::Error for no
// panels or a distance that is not positive.
std::vector<PanelGeometry> placePanels(std::vector<PanelGeometry> panels, const glm::dvec3& beam,
                                       const DetectorMove& move);

// A multi-panel detector as stated (its panels, from a preset or a file) -> as simulated:
// each panel checked and turned into a PanelGeometry (its normal pointing away from the
// sample), then moved by nanoBragg's options in `detector` (-distance only where
// `distanceStated`; -detector_rot*, -twotheta about axes.twothetaAxis). Throws bv::Error
// naming the panel or the option for what a multi-panel detector cannot do: non-square pixels,
// a panel through the sample, a beam-centre option (-Xbeam, -Ybeam, -Xclose, -Yclose, -ORGX,
// -ORGY: a preset's is spent before, by resolveStatedPanels in PanelAim.h), -close_distance,
// -curved_det (docs/numerics/detector-panels.md).
std::vector<PanelGeometry> resolvePanels(const std::vector<Panel>& panels, const Detector& detector,
                                         bool distanceStated, const LabAxes& axes);

} // namespace bv
