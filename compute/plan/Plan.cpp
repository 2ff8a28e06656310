#include "compute/plan/Plan.h"

#include "compute/core/Error.h"
#include "compute/model/Rotation.h"
#include "compute/model/Units.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

namespace bv::plan {
namespace {

// forward-scattering structure factor and molecular weight of water (electrons, g/mol)
constexpr double kWaterF = 2.57;
constexpr double kWaterMolecularWeight = 18.0;
constexpr double kWaterDensity = 1e6; // g/m^3

template <typename T>
bool sameBytes(const std::vector<T>& x, const std::vector<T>& y) {
    return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0);
}

} // namespace

Plan makePlan(const ResolvedExperiment& r, const std::vector<std::uint16_t>& mask) {
    Plan p;
    const DetectorGeometry& d = r.detector;
    p.fastPixels = d.fastPixels;
    p.slowPixels = d.slowPixels;
    p.roi = r.roi;
    p.oversample = r.oversample;
    p.pixelSize = d.pixelSize;
    p.subpixelSize = d.pixelSize / r.oversample;
    p.pix0 = d.pix0;
    p.fdet = d.fdet;
    p.sdet = d.sdet;
    p.odet = d.odet;
    p.beam = r.axes.beam;
    p.distance = d.distance;
    p.closeDistance = d.closeDistance;
    p.curved = r.curved;
    p.pointPixel = r.pointPixel;
    p.thickSteps = r.thickness.steps;
    p.thickStep = r.thickness.step;
    p.mu = r.mu;
    p.thickModelled = r.thickness.range > 0.0;
    p.oversampleThick = r.oversampleThick;
    p.oversamplePolar = r.oversamplePolar;
    p.oversampleOmega = r.oversampleOmega;

    for (const Source& s : r.sources)
        p.sources.push_back({-s.direction, s.wavelength});
    p.polarizationAxis = r.axes.polarization;
    p.kahnFactor = r.kahnFactor;
    p.polarization = r.polarization;
    p.dmin = r.dmin;

    // crystal axes at each phi step, then turned by each mosaic domain (the reference's loop
    // order: phi outer, domains inner)
    const glm::dvec3 a0 = 1e-10 * r.cell.a, b0 = 1e-10 * r.cell.b, c0 = 1e-10 * r.cell.c;
    p.phiSteps = r.phi.steps;
    p.mosaicDomains = static_cast<int>(r.mosaicDomains.size());
    for (int t = 0; t < r.phi.steps; ++t) {
        const double phi = r.phiAt(t);
        Orientation atPhi{a0, b0, c0};
        if (phi != 0.0)
            atPhi = {rotateAbout(a0, r.axes.spindle, phi), rotateAbout(b0, r.axes.spindle, phi),
                     rotateAbout(c0, r.axes.spindle, phi)};
        for (const random::RotationRows& u : r.mosaicDomains) {
            if (r.mosaicSpread > 0.0)
                p.orientations.push_back({rotateRows(atPhi.a, u), rotateRows(atPhi.b, u), rotateRows(atPhi.c, u)});
            else
                p.orientations.push_back(atPhi);
        }
    }
    p.aStar = r.cell.aStar;
    p.bStar = r.cell.bStar;
    p.cStar = r.cell.cStar;
    p.cells = r.cells;
    p.shape = r.shape;
    p.fudge = r.fudge;

    p.structureFactors = r.structureFactors;
    p.interpolate = r.interpolate;
    p.interpolationEdge = r.interpolationEdge;

    p.steps = r.steps();
    p.photonScale = units::kThomsonCrossSection * r.fluence / static_cast<double>(p.steps);
    // the reference starts each pixel's sum at the water intensity, which already carries
    // r_e^2 and the fluence, and then scales the sum by both again (kept for parity)
    const double w = r.waterThickness;
    p.background = kWaterF * kWaterF * units::kThomsonCrossSection * r.fluence * w * w * w *
                   kWaterDensity * units::kAvogadro / kWaterMolecularWeight;
    p.waterPresent = w != 0.0;
    p.mask = mask.empty() ? nullptr : &mask;
    if (r.panelsFromSource) {
        const Roi roi = p.roi;
        stackPanels(p, panelEntries(r.panels));
        p.roi = roi; // the ROI as resolved, in the stacked image's pixels
    } else {
        p.panels = panelEntries(r.panels); // the one panel: the frame above
    }
    return p;
}

std::vector<PanelEntry> panelEntries(const std::vector<PanelGeometry>& panels) {
    std::vector<PanelEntry> entries;
    entries.reserve(panels.size());
    for (const PanelGeometry& g : panels) {
        PanelEntry e;
        e.pix0 = g.pix0;
        e.fdet = g.fdet;
        e.sdet = g.sdet;
        e.odet = g.odet;
        e.pixelSize = g.pixelSize;
        e.closeDistance = g.closeDistance();
        e.fastPixels = g.fastPixels;
        e.slowPixels = g.slowPixels;
        entries.push_back(e);
    }
    return entries;
}

StackedSize stackedSize(const std::vector<PanelEntry>& panels) {
    StackedSize size;
    for (std::size_t i = 0; i < panels.size(); ++i) {
        const PanelEntry& panel = panels[i];
        if (panel.fastPixels <= 0 || panel.slowPixels <= 0 || !(panel.pixelSize > 0.0))
            throw Error("panel " + std::to_string(i) + " of the detector has no pixels (" +
                        std::to_string(panel.fastPixels) + "x" + std::to_string(panel.slowPixels) +
                        " of " + std::to_string(panel.pixelSize) + " m)");
        size.fast = std::max(size.fast, panel.fastPixels);
        size.firstRow.push_back(size.slow);
        size.slow += panel.slowPixels;
    }
    return size;
}

void stackPanels(Plan& plan, std::vector<PanelEntry> panels) {
    if (panels.empty())
        throw Error("a multi-panel detector needs at least one panel");
    const StackedSize size = stackedSize(panels);
    if (size.slow > std::numeric_limits<int>::max())
        throw Error("the detector's panels have too many rows together (" +
                    std::to_string(size.slow) + ")");
    plan.fastPixels = size.fast;
    plan.slowPixels = static_cast<int>(size.slow);
    plan.roi = Roi::whole(plan.fastPixels, plan.slowPixels);
    plan.panels = std::move(panels);
    plan.stackedPanels = true;
}

unsigned changedParts(const Plan& x, const Plan& y) {
    unsigned parts = 0;
    if (x.fastPixels != y.fastPixels || x.slowPixels != y.slowPixels)
        parts |= ImageSizeChanged | MaskChanged;
    auto sameSource = [](const SourceEntry& s, const SourceEntry& t) {
        return s.incident == t.incident && s.wavelength == t.wavelength;
    };
    if (x.sources.size() != y.sources.size() ||
        !std::equal(x.sources.begin(), x.sources.end(), y.sources.begin(), sameSource))
        parts |= SourcesChanged;
    auto sameOrientation = [](const Orientation& s, const Orientation& t) {
        return s.a == t.a && s.b == t.b && s.c == t.c;
    };
    if (x.orientations.size() != y.orientations.size() ||
        !std::equal(x.orientations.begin(), x.orientations.end(), y.orientations.begin(), sameOrientation))
        parts |= OrientationsChanged;
    if (x.structureFactors != y.structureFactors || x.interpolate != y.interpolate ||
        x.interpolationEdge != y.interpolationEdge)
        parts |= StructureFactorsChanged;
    if (x.mask != y.mask)
        parts |= MaskChanged;
    // the uniform block is small: any scalar difference re-uploads it
    parts |= FrameChanged;
    return parts;
}

} // namespace bv::plan
