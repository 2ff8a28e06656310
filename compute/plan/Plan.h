#pragma once
// Plan: a resolved experiment flattened into the tables the compute shader loops over.
// Everything that does not depend on the pixel is computed here once per change: the crystal's
// real-space axes for every (phi step, mosaic domain) pair, each source's incident direction
// and wavelength, the detector frame, the photon scale. The Simulator uploads the parts that
// changed (changedParts) and re-submits its recorded command buffer.

#include "compute/model/Resolve.h"

#include <cstdint>
#include <vector>

namespace bv::plan {

struct SourceEntry {
    glm::dvec3 incident{0.0}; // unit vector along the incident X-rays (sample <- source)
    double wavelength = 0.0;  // m
};

// Real-space cell axes of the crystal at one phi step and one mosaic domain, metres.
struct Orientation {
    glm::dvec3 a{0.0}, b{0.0}, c{0.0};
};

// One flat panel of the detector, in the lab frame of the one detector's fields
// (Plan::pix0 ...): the corner of its first pixel, its axes, pixel size and counts.
struct PanelEntry {
    glm::dvec3 pix0{0.0}, fdet{0.0}, sdet{0.0}, odet{0.0}; // m and unit axes
    double pixelSize = 0.0;     // m
    double closeDistance = 0.0; // m, sample -> the panel's plane along odet
    int fastPixels = 0, slowPixels = 0;
    bool operator==(const PanelEntry& o) const {
        return pix0 == o.pix0 && fdet == o.fdet && sdet == o.sdet && odet == o.odet &&
               pixelSize == o.pixelSize && closeDistance == o.closeDistance &&
               fastPixels == o.fastPixels && slowPixels == o.slowPixels;
    }
};

struct Plan {
    // detector
    int fastPixels = 0, slowPixels = 0;
    Roi roi;
    int oversample = 1;
    double pixelSize = 0.0, subpixelSize = 0.0; // m
    glm::dvec3 pix0{0.0}, fdet{0.0}, sdet{0.0}, odet{0.0}; // m and unit axes
    glm::dvec3 beam{0.0};                                 // unit beam direction (curved detector)
    double distance = 0.0, closeDistance = 0.0;           // m
    bool curved = false, pointPixel = false;
    // sensor layers: capture fraction exp(-t*mu/parallax) - exp(-(t+step)*mu/parallax)
    int thickSteps = 1;
    double thickStep = 0.0; // m
    double mu = 0.0;        // 1/m
    bool thickModelled = false; // sensor thickness > 0
    bool oversampleThick = false, oversamplePolar = false, oversampleOmega = false;
    // The detector's panels (ResolvedExperiment::panels), at least one; nanoBragg's flat
    // detector is its one entry, the same frame as pix0, fdet, ... above.
    std::vector<PanelEntry> panels;
    // Whether each image row takes its frame from its panel's entry: the panels of a preset
    // or a file, stacked (stackPanels): the image holds their rows one panel after the other,
    // fastPixels the widest panel's, slowPixels their sum; pix0, fdet, sdet, odet, pixelSize
    // and closeDistance above are then unused. False: every row from the one frame above, as
    // the reference draws its detector (curved too).
    bool stackedPanels = false;

    // beam
    std::vector<SourceEntry> sources;
    glm::dvec3 polarizationAxis{0.0};
    double kahnFactor = 0.0;
    bool polarization = true;
    double dmin = 0.0; // m

    // crystal
    std::vector<Orientation> orientations; // phi-major, mosaic domain minor
    int phiSteps = 1, mosaicDomains = 1;
    // reciprocal axes in 1/Angstrom at phi 0 without mosaic: the reference measures the
    // distance to the nearest node for the round/Gauss/top-hat shapes with these
    glm::dvec3 aStar{0.0}, bStar{0.0}, cStar{0.0};
    glm::dvec3 cells{1.0}; // Na, Nb, Nc
    LatticeShape shape = LatticeShape::Square;
    double fudge = 1.0;

    // structure factors
    const StructureFactors* structureFactors = nullptr; // borrowed
    bool interpolate = false;
    InterpolationEdge interpolationEdge = InterpolationEdge::Reference;

    // photons: pixel = scale * sum / steps * (polar, omega, capture), sum starting at background
    long steps = 1;
    double photonScale = 0.0; // r_e^2 * fluence / steps, m^2 * photons/m^2
    double background = 0.0;  // the sum's starting value (water), see docs/reference-quirks.md
    bool waterPresent = false;

    const std::vector<std::uint16_t>* mask = nullptr; // borrowed; empty or fast*slow, 0 = skip
};

Plan makePlan(const ResolvedExperiment& experiment, const std::vector<std::uint16_t>& mask);

// Makes `plan` draw `panels` (at least one) row by row from their table: sets the image size
// to the stacked panels' (the widest panel's fast pixels, the sum of their slow pixels) and
// an ROI of the whole image. Throws bv::Error for a panel without pixels or pixel size.
void stackPanels(Plan& plan, std::vector<PanelEntry> panels);

// The size of the stacked panels' image: the widest panel's fast pixels and the sum of their
// slow pixels, and where each panel's rows start. Throws bv::Error naming a panel without
// pixels or pixel size.
struct StackedSize {
    int fast = 0;
    long long slow = 0;
    std::vector<long long> firstRow; // each panel's first image row, in the table's order
};
StackedSize stackedSize(const std::vector<PanelEntry>& panels);

// A resolved experiment's panels as makePlan() draws them (the files that describe the
// stacked image, such as NeXus, take its layout from the same table).
std::vector<PanelEntry> panelEntries(const std::vector<PanelGeometry>& panels);

// Which tables differ between two plans, so the Simulator uploads only those.
enum PlanPart : unsigned {
    FrameChanged = 1u << 0,        // scalars and vectors of the uniform block
    SourcesChanged = 1u << 1,
    OrientationsChanged = 1u << 2,
    StructureFactorsChanged = 1u << 3,
    MaskChanged = 1u << 4,
    ImageSizeChanged = 1u << 5,    // needs new buffers and a new recording
};
unsigned changedParts(const Plan& before, const Plan& after);

} // namespace bv::plan
