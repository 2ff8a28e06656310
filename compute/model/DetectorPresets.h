#pragma once
// Real detectors as grids of identical modules with gaps between them, from the
// manufacturers' and facilities' published numbers (each cited in DetectorPresets.cpp), and
// placed facing the beam:
//
//     const bv::DetectorPreset* eiger = bv::findDetectorPreset("eiger2-16m");
//     bv::PanelDetector d = bv::presetDetector(*eiger, 0.2); // 200 mm, beam at the centre
//     d.panels.size();   // 32 modules
//     eiger->fastPixels(); // 4148, gaps included (the image the detector writes)
//
// The module grid is the image's own: module (i, j) starts (moduleFast + gapFast) * i pixels
// along fast and (moduleSlow + gapSlow) * j along slow from the image's first pixel, so a
// gap is a whole number of pixels wide, as in the detectors' files.

#include "compute/model/Convention.h"
#include "compute/model/PanelDetector.h"

#include <optional>
#include <string>
#include <vector>

namespace bv {

struct DetectorPreset {
    std::string name;                     // as -detector takes it: "eiger2-16m"
    std::string description;              // "DECTRIS EIGER2 X 16M"
    int modulesFast = 1, modulesSlow = 1; // modules along fast and along slow
    int moduleFast = 0, moduleSlow = 0;   // pixels of one module
    int gapFast = 0, gapSlow = 0;         // pixels between neighbouring modules
    bool gapPublished = true;             // false: no published gap was found
    double pixelSize = 0.0;               // m, square pixels
    std::optional<double> thickness;      // m, where one sensor is standard
    std::string material;                 // "Si"

    int modules() const { return modulesFast * modulesSlow; }
    // the image, gaps included
    int fastPixels() const { return modulesFast * moduleFast + (modulesFast - 1) * gapFast; }
    int slowPixels() const { return modulesSlow * moduleSlow + (modulesSlow - 1) * gapSlow; }
    long long sensitivePixels() const {
        return static_cast<long long>(modules()) * moduleFast * moduleSlow;
    }
    double widthFast() const { return fastPixels() * pixelSize; } // m
    double widthSlow() const { return slowPixels() * pixelSize; } // m
};

const std::vector<DetectorPreset>& detectorPresets();
// The preset called `name`, in any case ("Pilatus3-6M" is pilatus3-6m); nullptr: no such preset.
const DetectorPreset* findDetectorPreset(const std::string& name);
// The presets `name` may have meant, for "did you mean": those it begins (at least three
// letters), else the nearest ones a typo away (compute/core/EditDistance.h); empty when
// nothing is close.
std::vector<std::string> suggestDetectorPresets(const std::string& name);

// The preset's modules as panels named "m<slow>_<fast>" (m0_0 first, fast index running
// fastest), the detector face normal to the beam `distance` metres from the sample with the
// beam through the centre of the image, fast and slow along the convention's fdet and sdet
// (the default: nanoBragg's, beam +x, fast +z, slow -y).
PanelDetector presetDetector(const DetectorPreset& preset, double distance,
                             const LabAxes& axes = conventionAxes(Convention::Mosflm));

} // namespace bv
