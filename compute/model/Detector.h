#pragma once
// A flat (or curved) pixel-array detector as the user describes it: size, pixels, distance,
// beam centre in one of several conventions, rotations, sensor. Where the pixels end up in
// the laboratory frame is derived by resolve() (DetectorGeometry).

#include "compute/model/Convention.h"
#include "compute/model/Panel.h"
#include "compute/model/Sweep.h"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace bv {

struct Detector {
    double pixelSize = 0.1e-3; // m
    double sizeFast = 102.4e-3; // m, detector extent along fdet
    double sizeSlow = 102.4e-3; // m, extent along sdet

    double distance = 100.0e-3;          // m, sample to the beam spot along the beam
    std::optional<double> closeDistance; // m, sample to the detector plane along its normal

    // Beam centre as the image header states it (Xbeam, Ybeam; mapping depends on convention)
    std::optional<double> beamX, beamY; // m
    // Point of closest approach in the detector plane (Xclose, Yclose)
    std::optional<double> closeX, closeY; // m
    // XDS origin, pixels (ORGX, ORGY)
    std::optional<double> orgX, orgY;

    Pivot pivot = Pivot::Beam; // what the user asked for; only CUSTOM honours it
    double rotX = 0.0, rotY = 0.0, rotZ = 0.0; // rad, applied about x, then y, then z
    double twotheta = 0.0;                      // rad, about the two-theta axis, after rotations

    bool curved = false;     // every pixel at the same distance from the sample
    bool pointPixel = false; // solid angle 1/R^2, no obliquity

    // sensor: depth of each layer sampled; the reference starts with thickness 0 given
    SweepRequest thickness{0.0, std::nullopt, std::nullopt};
    std::optional<double> attenuationDepth; // m (1/mu); nullopt: thickness itself

    // A detector of several flat panels (a preset or a file: panelsSource names it), placed
    // as its source says; nanoBragg's options then move it as one rigid body
    // (compute/model/PanelPlacement.h). Empty: the one flat detector above, which resolve()
    // places as its one panel.
    std::vector<Panel> panels;
    std::string panelsSource;
    bool distanceStated = false; // -distance given: it moves a multi-panel detector

    // Whether a preset or a file states the panels (their placement, no beam centre);
    // false: nanoBragg's options above state one flat detector.
    bool panelsFromSource() const { return !panels.empty(); }
    // A source named whose panels are not read yet (a session that keeps only the file's name).
    bool panelsUnread() const { return panels.empty() && !panelsSource.empty(); }

    // Forgets where the flat detector's options put the beam (-Xbeam/-Ybeam, -Xclose/-Yclose,
    // -ORGX/-ORGY, -close_distance): panels placed by a file, a preset or a refinement state
    // their own place, and these would move them again.
    void clearBeamPlacement() {
        beamX.reset();
        beamY.reset();
        closeX.reset();
        closeY.reset();
        orgX.reset();
        orgY.reset();
        closeDistance.reset();
    }

    int fastPixels() const { return static_cast<int>(std::ceil(sizeFast / pixelSize - 0.5)); }
    int slowPixels() const { return static_cast<int>(std::ceil(sizeSlow / pixelSize - 0.5)); }
    void setPixels(int fast, int slow) {
        sizeFast = pixelSize * fast;
        sizeSlow = pixelSize * slow;
    }
};

} // namespace bv
