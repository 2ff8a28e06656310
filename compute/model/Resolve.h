#pragma once
// resolve(): an Experiment as the user stated it -> every quantity the reference derives from
// it before its pixel loop, by the reference's rules and in its order (the random misset is
// drawn before the mosaic domains, as there). The result is what the summary prints and what
// the plan flattens for the GPU.

#include "compute/model/Experiment.h"
#include "compute/model/PanelPlacement.h"
#include "compute/random/ReferenceRandom.h"

#include <iosfwd>
#include <vector>

namespace bv {

struct DetectorGeometry {
    Pivot pivot = Pivot::Beam;
    int fastPixels = 0, slowPixels = 0;
    double pixelSize = 0.0, sizeFast = 0.0, sizeSlow = 0.0; // m
    glm::dvec3 fdet{0.0}, sdet{0.0}, odet{0.0}; // unit axes after rotations and two-theta
    glm::dvec3 pix0{0.0};                       // m, sample -> corner of the first pixel
    double distance = 0.0;       // m, sample to beam spot along the beam
    double closeDistance = 0.0;  // m, sample to detector plane along odet
    double Xbeam = 0.0, Ybeam = 0.0;   // m, beam centre in the convention's header terms
    double Fbeam = 0.0, Sbeam = 0.0;   // m, beam spot along fdet/sdet from pix0
    double Xclose = 0.0, Yclose = 0.0; // m, as given or defaulted before rotation
    double Fclose = 0.0, Sclose = 0.0; // m, foot of the normal along fdet/sdet from pix0
    double orgX = 0.0, orgY = 0.0;     // pixels, XDS ORGX/ORGY
    glm::dvec3 dialsOrigin{0.0};       // mm, DIALS detector origin
    glm::dvec3 beamInDetector{0.0};    // beam direction in (fdet, sdet, odet) components
    double beamObliquity = 0.0;        // beam . (rotated normal without two-theta): "ratio"
};

// Real and reciprocal cell as the reference prints them (Angstrom, degrees in the angles).
struct CellVectors {
    glm::dvec3 a{0.0}, b{0.0}, c{0.0};             // Angstrom
    glm::dvec3 aStar{0.0}, bStar{0.0}, cStar{0.0}; // 1/Angstrom
    double volume = 0.0;                           // Angstrom^3
    UnitCell cell;       // lengths A, angles rad
    UnitCell reciprocal; // lengths 1/A, angles rad
};

struct Source {
    glm::dvec3 position{0.0};  // as given or generated (m), for the printout
    glm::dvec3 direction{0.0}; // unit vector from the sample towards the source
    double weight = 1.0;       // printed but, as in the reference, not applied
    double wavelength = 0.0;   // m
};

struct ResolvedExperiment {
    Convention convention = Convention::Mosflm;
    LabAxes axes;                   // unit vectors in use
    glm::dvec3 polarizationNormal{0.0}; // beam x E-vector
    // nanoBragg's detector as the reference derives it: the summary's and the headers' values
    // (beam centre, distances, pixel counts); with panels from a source, its options as given
    // and the stacked image's size.
    DetectorGeometry detector;
    // The detector's flat panels where the simulation draws them; never empty. nanoBragg's
    // flat detector is the one-panel case, placed by its convention and pivot
    // (flatPanel(detector)); a preset's or a file's panels are placed by their source and
    // moved as one body (placePanels). The image stacks their rows (plan::stackPanels,
    // docs/numerics/detector-panels.md).
    std::vector<PanelGeometry> panels;
    // Whether a preset or a file placed the panels (Detector::panelsFromSource()): the
    // detector then has no one beam centre for SMV and CBF headers, files describe it a module
    // per panel and the viewer shows the panels as the sample sees them. False: nanoBragg's
    // options placed its one panel, which `detector` describes.
    bool panelsFromSource = false;

    CellVectors cell;             // after misset, before phi and mosaic
    bool randomMisset = false;
    glm::dvec3 missetAngles{0.0}; // rad, the angles applied (drawn when random)
    glm::dvec3 cells{1.0};        // Na, Nb, Nc
    glm::dvec3 crystalSize{0.0};  // m
    LatticeShape shape = LatticeShape::Square;
    double fudge = 1.0;
    double approximateMolecularWeight = 0.0;

    int oversample = 1;
    int recommendedOversample = 1;
    bool oversampleThick = false, oversamplePolar = false, oversampleOmega = false;
    Roi roi;
    double dmin = 0.0;

    double phi0 = 0.0; // rad
    Sweep phi;         // rad
    double phiSampleFraction = 0.0; // of a step: 0 at its start (nanoBragg's), 0.5 at its centre
    // the spindle angle of phi step t (rad)
    double phiAt(int t) const { return phi0 + phi.step * (t + phiSampleFraction); }
    Sweep thickness;   // m
    double mu = 0.0;   // 1/m, sensor attenuation
    Sweep horizontalDivergence, verticalDivergence, dispersion;
    int divergenceSteps = 1;
    std::vector<Source> sources;
    double mosaicSpread = 0.0; // rad
    std::vector<random::RotationRows> mosaicDomains;

    double wavelength = 0.0; // lambda0, m
    bool polarization = true;
    double kahnFactor = 0.0;
    double fluence = 0.0;      // photons/m^2
    double flux = 0.0;         // photons/s, made consistent with the fluence
    double beamSize = 0.0;     // m
    double exposure = 0.0;     // s
    double waterThickness = 0.0;
    bool interpolate = false;
    InterpolationEdge interpolationEdge = InterpolationEdge::Reference;
    const StructureFactors* structureFactors = nullptr; // borrowed from the Experiment

    bool curved = false, pointPixel = false;

    // sub-pixel samples per pixel and layer, the reference's "steps" (the divisor)
    long steps() const {
        return static_cast<long>(sources.size()) * static_cast<long>(mosaicDomains.size()) *
               phi.steps * oversample * oversample;
    }
};

// Warnings the reference prints while deriving (impossible cell, clipped sample, upped mosaic
// domains, too little oversampling, ...) go to `log`. `rng` is the run's generator: the
// caller keeps it for the noise image so that the whole run draws the reference's sequence.
ResolvedExperiment resolve(const Experiment& experiment, random::ReferenceRandom& rng, std::ostream& log);

// Whether `resolved` holds `detector`'s panels placed, one for each and in order (the viewer
// keeps the last good resolved experiment, which may be of the detector before).
bool placesPanelsOf(const ResolvedExperiment& resolved, const Detector& detector);

// nanoBragg's flat detector as its one panel: pix0, fdet, sdet, odet, the pixel size and
// counts exactly as resolveDetector() placed them (a curved detector's before it is curved).
PanelGeometry flatPanel(const DetectorGeometry& detector);

// The parts of resolve() that are useful alone (the viewer recomputes them as sliders move).
DetectorGeometry resolveDetector(const Experiment& experiment, const LabAxes& axes);
CellVectors resolveCell(const Crystal& crystal, double wavelength, const glm::dvec3& missetAngles,
                        bool applyMisset, std::ostream& log);

} // namespace bv
