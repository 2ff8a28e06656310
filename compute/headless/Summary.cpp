#include "compute/headless/Summary.h"

#include "compute/io/PrintfFormat.h"
#include "compute/model/Units.h"

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include <algorithm>
#include <charconv>
#include <optional>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>

namespace bv::headless {
namespace {

std::string g(double value) {
    return io::formatG(value);
}

std::string g3(const glm::dvec3& v) {
    return g(v.x) + " " + g(v.y) + " " + g(v.z);
}

double degrees(double radians) {
    return units::degreesFromRadians(radians);
}

// printf("%11.8f") through formatFixed, right-aligned in 11 characters
std::string f11(double value) {
    std::string text = io::formatFixed(value, 8);
    if (text.size() < 11)
        text.insert(0, 11 - text.size(), ' ');
    return text;
}

void printVectors(std::ostream& out, const glm::dvec3& a, const glm::dvec3& b,
                  const glm::dvec3& c) {
    out << "X: " << f11(a.x) << " " << f11(b.x) << " " << f11(c.x) << "\n";
    out << "Y: " << f11(a.y) << " " << f11(b.y) << " " << f11(c.y) << "\n";
    out << "Z: " << f11(a.z) << " " << f11(b.z) << " " << f11(c.z) << "\n";
}

const char* shapeName(LatticeShape shape) {
    switch (shape) {
    case LatticeShape::Round:
        return "ellipsoidal";
    case LatticeShape::Gauss:
        return "gaussian";
    case LatticeShape::Tophat:
        return "tophat-spot";
    case LatticeShape::Square:
        break;
    }
    return "parallelpiped";
}

// A detector of panels (a preset or a file), which nanoBragg's one line cannot describe: the
// detector as a whole in pixels (gaps included, over the plane of its first panel), its
// panels, its pixel, and where the direct beam falls: on which panel and pixel, or between
// them. (The stacked image the files hold, a panel's rows after another's, is said too.)
void printPanels(std::ostream& out, const std::string& source, const ResolvedExperiment& r) {
    const DetectorGeometry& d = r.detector;
    const PanelGeometry& first = r.panels.front();
    double lo[2] = {0.0, 0.0}, hi[2] = {0.0, 0.0};
    bool any = false;
    for (const PanelGeometry& p : r.panels)
        for (int cf = 0; cf < 2; ++cf)
            for (int cs = 0; cs < 2; ++cs) {
                const glm::dvec3 corner = p.pix0 + p.fdet * (cf * p.sizeFast()) +
                                          p.sdet * (cs * p.sizeSlow()) - first.pix0;
                const double x[2] = {glm::dot(corner, first.fdet), glm::dot(corner, first.sdet)};
                for (int k = 0; k < 2; ++k) {
                    lo[k] = any ? std::min(lo[k], x[k]) : x[k];
                    hi[k] = any ? std::max(hi[k], x[k]) : x[k];
                }
                any = true;
            }
    const auto pixels = [&](int k) {
        return static_cast<long>(std::lround((hi[k] - lo[k]) / first.pixelSize));
    };
    out << "  distance=" << g(d.distance) << " detector " << source << ": " << r.panels.size()
        << " panels, " << pixels(0) << "x" << pixels(1) << " pixels with the gaps, pixel="
        << g(first.pixelSize) << " meters (stacked image " << d.fastPixels << "x" << d.slowPixels
        << " pixels)\n";
    // the beam from the sample along its direction, met by the first panel's plane (the
    // whole detector's pixel, gaps included) and by each panel's
    const glm::dvec3 beam = r.axes.beam;
    const auto meets = [&beam](const PanelGeometry& p) -> std::optional<glm::dvec2> {
        const double along = glm::dot(beam, p.odet);
        if (along <= 0.0)
            return std::nullopt;
        const glm::dvec3 hit = beam * (glm::dot(p.pix0, p.odet) / along) - p.pix0;
        return glm::dvec2(glm::dot(hit, p.fdet), glm::dot(hit, p.sdet)) / p.pixelSize;
    };
    const std::optional<glm::dvec2> whole = meets(first);
    if (!whole) {
        out << "  direct beam misses the detector's plane\n";
        return;
    }
    out << "  direct beam at pixel " << io::formatFixed(whole->x - lo[0] / first.pixelSize, 2)
        << " " << io::formatFixed(whole->y - lo[1] / first.pixelSize, 2)
        << " of the whole detector (fast slow), ";
    for (const PanelGeometry& p : r.panels)
        if (const std::optional<glm::dvec2> at = meets(p);
            at && at->x >= 0.0 && at->x < p.fastPixels && at->y >= 0.0 && at->y < p.slowPixels) {
            out << "on panel " << p.name << " at its pixel " << io::formatFixed(at->x, 2) << " "
                << io::formatFixed(at->y, 2) << "\n";
            return;
        }
    out << "on no panel (a gap between modules, or off the detector)\n";
}

} // namespace

void printBanner(std::ostream& out, const RunRequest& cl) {
    out << "braggview " BRAGGVIEW_VERSION " - nanoBragg-compatible diffraction simulator (physics "
           "of nanoBragg by James Holton and Ken Frankel)\n";
    for (const std::string& notice : cl.notices)
        out << "WARNING: " << notice << "\n";
}

void printSummary(std::ostream& out, const RunRequest& cl, const ResolvedExperiment& r) {
    const Experiment& e = cl.experiment;
    const DetectorGeometry& d = r.detector;
    const CellVectors& cell = r.cell;

    out << conventionName(r.convention) << " convention selected.\n";
    out << (d.pivot == Pivot::Sample ? "pivoting detector around sample\n"
                                     : "pivoting detector around direct beam spot\n");
    out << "XDS incident beam: " << g3(d.beamInDetector) << "\n";
    if (e.sampling.interpolation == Interpolation::Auto) {
        const glm::dvec3& n = e.crystal.cells;
        out << (n.x <= 2 || n.y <= 2 || n.z <= 2
                    ? "auto-selected tricubic interpolation of structure factors\n"
                    : "auto-selected no interpolation\n");
    }
    if (!cl.mat.empty())
        out << "reading " << cl.mat << "\n";
    if (r.randomMisset)
        out << "random orientation misset angles: " << io::formatFixed(degrees(r.missetAngles.x), 6)
            << " " << io::formatFixed(degrees(r.missetAngles.y), 6) << " "
            << io::formatFixed(degrees(r.missetAngles.z), 6) << " deg\n";
    out << "Unit Cell: " << g(cell.cell.a) << " " << g(cell.cell.b) << " " << g(cell.cell.c) << " "
        << g(degrees(cell.cell.alpha)) << " " << g(degrees(cell.cell.beta)) << " "
        << g(degrees(cell.cell.gamma)) << "\n";
    out << "Recp Cell: " << g(cell.reciprocal.a) << " " << g(cell.reciprocal.b) << " "
        << g(cell.reciprocal.c) << " " << g(degrees(cell.reciprocal.alpha)) << " "
        << g(degrees(cell.reciprocal.beta)) << " " << g(degrees(cell.reciprocal.gamma)) << "\n";
    out << "volume = " << g(cell.volume) << " A^3\n";
    out << "real-space cell vectors (Angstrom):\n";
    out << "     a           b           c         \n";
    printVectors(out, cell.a, cell.b, cell.c);
    out << "reciprocal-space cell vectors (Angstrom^-1):\n";
    out << "     a_star      b_star      c_star    \n";
    printVectors(out, cell.aStar, cell.bStar, cell.cStar);
    out << "crystal is " << g(r.crystalSize.x * 1e6) << " x " << g(r.crystalSize.y * 1e6) << " x "
        << g(r.crystalSize.z * 1e6) << " microns\n";
    if (!(e.sampling.oversample && *e.sampling.oversample > 0))
        out << "auto-selected " << r.oversample << "-fold oversampling\n";
    out << "approximate MW = " << g(r.approximateMolecularWeight) << "\n";
    // where the structure factors came from (loadInputs read them before)
    if (!cl.hkl.empty()) {
        out << "counting entries in " << cl.hkl << "\n";
        if (e.structureFactors.defaultF != 0.0)
            out << "initializing to default_F = " << g(e.structureFactors.defaultF)
                << ":\ndone initializing:\n";
        out << "re-reading " << cl.hkl << "\n";
        out << "writing dump file for next time: " << cl.dumpFile << "\n";
    } else if (e.structureFactors.hasTable()) {
        out << "reading Fs from " << cl.dumpFile << "\n";
    }

    for (int t = 0; t < r.thickness.steps; ++t)
        out << "thick" << t << " = " << g(r.thickness.step * t * 1e6) << " um\n";
    for (int t = 0; t < r.phi.steps; ++t)
        out << "phi" << t << " = " << g(degrees(r.phiAt(t))) << "\n";
    if (e.beam.sourceFile.empty()) {
        const Sweep& h = r.horizontalDivergence;
        const Sweep& v = r.verticalDivergence;
        for (int i = 0; i < h.steps; ++i)
            for (int j = 0; j < v.steps; ++j) {
                const double hdiv = h.step * i - h.range / 2.0;
                const double vdiv = v.step * j - v.range / 2.0;
                double test =
                    (hdiv * hdiv - h.step * h.step / 4.0 * (1 - h.steps % 2)) / h.range / h.range;
                test +=
                    (vdiv * vdiv - v.step * v.step / 4.0 * (1 - v.steps % 2)) / v.range / v.range;
                if (e.beam.roundDivergence && test * 4.0 > 1.1)
                    continue;
                out << "divergence deviation: " << g(hdiv) << " " << g(vdiv) << "\n";
            }
        for (int k = 0; k < r.dispersion.steps; ++k) {
            // printf("%.15g") in the C locale, whatever the process's locale is
            char text[64];
            const double lambda =
                r.wavelength * (1.0 + r.dispersion.step * k - r.dispersion.range / 2.0);
            const auto printed = std::to_chars(text, text + sizeof(text), lambda,
                                               std::chars_format::general, 15);
            out << "lambda" << k << " = " << std::string_view(text, printed.ptr - text) << "\n";
        }
    }
    out << "  created a total of " << r.sources.size() << " sources:\n";
    for (const Source& s : r.sources)
        out << g3(s.position) << "   " << g(s.weight) << " " << g(s.wavelength) << "\n";
    out << "  created a total of " << r.mosaicDomains.size() << " mosaic domains\n";

    const StructureFactors& sf = e.structureFactors;
    out << "  " << sf.reflectionCount << " initialized hkls (all others =" << g(sf.defaultF)
        << ")\n";
    out << "  " << shapeName(r.shape) << " xtal: " << io::formatFixed(r.cells.x, 0) << "x"
        << io::formatFixed(r.cells.y, 0) << "x" << io::formatFixed(r.cells.z, 0) << " cells\n";
    out << "  wave=" << g(r.wavelength) << " meters +/- " << g(r.dispersion.range * 100) << "% in "
        << r.dispersion.steps << " steps\n";
    if (!r.polarization)
        out << "  polarization effect disabled\n";
    else
        out << "  Kahn polarization factor: " << io::formatFixed(r.kahnFactor, 6) << "\n";
    if (r.curved)
        out << "  curved detector: all pixels same distance from origin\n";
    if (r.pointPixel)
        out << "  pixel obliquity effect disabled\n";
    out << "  incident fluence: " << g(r.fluence) << " photons/m^2\n";
    if (r.panelsFromSource)
        printPanels(out, e.detector.panelsSource, r);
    else
        out << "  distance=" << g(d.distance) << " detsize=" << g(d.sizeFast) << "x"
            << g(d.sizeSlow) << "  pixel=" << g(d.pixelSize) << " meters (" << d.fastPixels
            << "x" << d.slowPixels << " pixels)\n";
    out << "  sensor is " << g(r.thickness.range) << " m thick in " << r.thickness.steps
        << " layers with mu= " << g(r.mu == 0.0 && r.thickness.range == 0.0 ? -1.0 : r.mu) << "\n";
    if (!r.panelsFromSource) { // nanoBragg's flat detector's beam centre (panels: above)
        out << "  Xbeam=" << g(d.Xbeam) << " Ybeam=" << g(d.Ybeam) << "\n";
        out << "  Fbeam=" << g(d.Fbeam) << " Sbeam=" << g(d.Sbeam) << "\n";
        out << "  Xclose=" << g(d.Xclose) << " Yclose=" << g(d.Yclose) << "\n";
        out << "  Fclose=" << g(d.Fclose) << " Sclose=" << g(d.Sclose) << "\n";
    }
    out << "  DIRECTION_OF_DETECTOR_X-AXIS= " << g3(d.fdet) << "\n";
    out << "  DIRECTION_OF_DETECTOR_Y-AXIS= " << g3(d.sdet) << "\n";
    out << "  DIRECTION_OF_DETECTOR_Z-AXIS= " << g3(d.odet) << "\n";
    out << "  INCIDENT_BEAM_DIRECTION= " << g3(r.axes.beam) << "\n";
    out << "  spindle ROTATION_AXIS= " << g3(r.axes.spindle) << "\n";
    out << "  POLARIZATION_PLANE_NORMAL= " << g3(glm::cross(r.axes.beam, r.axes.polarization))
        << "\n";
    out << "  dials origin= " << g3(d.dialsOrigin) << "\n";
    out << "  roi: " << r.roi.xmin << " < x < " << r.roi.xmax << " && " << r.roi.ymin << " < y < "
        << r.roi.ymax << "\n";
    out << "  hdivrange=" << g(r.horizontalDivergence.range)
        << " hdivstep=" << g(r.horizontalDivergence.step) << "  radians\n";
    out << "  vdivrange=" << g(r.verticalDivergence.range)
        << " vdivstep=" << g(r.verticalDivergence.step) << "  radians\n";
    out << "  " << r.divergenceSteps << " divergence steps\n";
    out << "  " << r.sources.size() << " sources\n";
    out << "  " << r.mosaicDomains.size() << " mosaic domains over mosaic spread of "
        << g(degrees(r.mosaicSpread)) << " degrees\n";
    out << "  " << r.phi.steps << " phi steps from " << g(degrees(r.phi0)) << " to "
        << g(degrees(r.phi0 + r.phi.range)) << " degrees\n";
    out << "  " << r.oversample << "x" << r.oversample << " pixel oversample steps";
    if (r.oversampleThick)
        out << " +thick";
    if (r.oversamplePolar)
        out << " +polar";
    if (r.oversampleOmega)
        out << " +omega";
    out << "\n";
    if (!cl.mask.empty())
        out << "  skipping zero-flagged pixels in " << cl.mask << "\n";
    if (cl.outputs.writeNoise) {
        out << "\n  noise image paramters:\n";
        out << "  seed: " << e.seed << "\n";
        out << "  water droplet size: " << g(r.waterThickness) << " m\n";
    }
}

} // namespace bv::headless

namespace bv::headless {

std::string gridExitWarning(const glm::dvec3& hkl) {
    // h0 = ceil(h - 0.5), the nearest index as the reference rounds it
    auto nearest = [](double x) { return std::to_string(static_cast<int>(std::ceil(x - 0.5))); };
    return "WARNING: out of range for three point interpolation: h,k,l,h0,k0,l0: " + g(hkl.x) +
           "," + g(hkl.y) + "," + g(hkl.z) + "," + nearest(hkl.x) + "," + nearest(hkl.y) + "," +
           nearest(hkl.z) + " ";
}

} // namespace bv::headless
