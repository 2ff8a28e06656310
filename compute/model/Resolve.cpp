#include "compute/model/Resolve.h"

#include "compute/core/Error.h"
#include "compute/model/PanelAim.h"
#include "compute/model/PhysicalLimits.h"
#include "compute/model/Rotation.h"
#include "compute/model/Units.h"

#include <cfloat>
#include <cmath>
#include <limits>
#include <ostream>

namespace bv {
namespace {

double valueOr(const std::optional<double>& v, double fallback) { return v ? *v : fallback; }

// The laboratory axes as the reference straightens them: beam, fast, slow, polarization and
// spindle made unit; a detector normal that is not exactly unit is rebuilt from fast x slow.
LabAxes straightenAxes(const LabAxes& given, std::ostream& log) {
    LabAxes axes = given;
    axes.beam = unitOrZero(given.beam);
    axes.fdet = unitOrZero(given.fdet);
    axes.sdet = unitOrZero(given.sdet);
    if (glm::length(given.odet) != 1.0) {
        log << "WARNING: auto-generating odet_vector\n";
        axes.odet = unitOrZero(glm::cross(axes.fdet, axes.sdet));
    }
    axes.polarization = unitOrZero(given.polarization);
    axes.spindle = unitOrZero(given.spindle);
    axes.twothetaAxis = unitOrZero(given.twothetaAxis);
    return axes;
}

// sin and cos of the angles between two pairs of a triad, clamped like the reference does
// before it prints them
double clampedAngle(double sine, double cosine) {
    sine = std::min(1.0, std::max(-1.0, sine));
    if (cosine * cosine > 1.0)
        cosine = 1.0;
    return std::atan2(sine, cosine);
}

} // namespace

DetectorGeometry resolveDetector(const Experiment& experiment, const LabAxes& axes) {
    const Detector& det = experiment.detector;
    DetectorGeometry g;
    g.pivot = experiment.effectivePivot();
    g.pixelSize = det.pixelSize;
    g.sizeFast = det.sizeFast;
    g.sizeSlow = det.sizeSlow;
    g.fastPixels = det.fastPixels();
    g.slowPixels = det.slowPixels();
    const double pixel = det.pixelSize;

    // the near point defaults to the detector centre, or follows ORGX/ORGY
    double Fclose = det.orgX ? (*det.orgX - 0.5) * pixel : det.sizeFast / 2.0;
    double Sclose = det.orgY ? (*det.orgY - 0.5) * pixel : det.sizeSlow / 2.0;
    g.Xclose = valueOr(det.closeX, Fclose);
    g.Yclose = valueOr(det.closeY, Sclose);

    // the beam centre in header terms, and where that puts the beam spot on the pixel axes
    double Fbeam = Fclose, Sbeam = Sclose;
    switch (experiment.convention) {
    case Convention::Adxv:
        g.Xbeam = valueOr(det.beamX, (det.sizeFast + pixel) / 2.0);
        g.Ybeam = valueOr(det.beamY, (det.sizeSlow - pixel) / 2.0);
        Fbeam = g.Xbeam;
        Sbeam = det.sizeSlow - g.Ybeam;
        break;
    case Convention::Mosflm:
        // MOSFLM's first pixel centre is at (0.5, 0.5) pixels and its X runs along slow
        g.Xbeam = valueOr(det.beamX, (det.sizeSlow + pixel) / 2.0);
        g.Ybeam = valueOr(det.beamY, (det.sizeFast + pixel) / 2.0);
        Fbeam = g.Ybeam + 0.5 * pixel;
        Sbeam = g.Xbeam + 0.5 * pixel;
        break;
    case Convention::Denzo:
        g.Xbeam = valueOr(det.beamX, (det.sizeSlow + pixel) / 2.0);
        g.Ybeam = valueOr(det.beamY, (det.sizeFast + pixel) / 2.0);
        Fbeam = g.Ybeam;
        Sbeam = g.Xbeam;
        break;
    case Convention::Xds:
    case Convention::Dials:
        g.Xbeam = valueOr(det.beamX, g.Xclose);
        g.Ybeam = valueOr(det.beamY, g.Yclose);
        Fbeam = g.Xbeam;
        Sbeam = g.Ybeam;
        break;
    case Convention::Custom:
        g.Xbeam = valueOr(det.beamX, g.Xclose);
        g.Ybeam = valueOr(det.beamY, g.Yclose);
        Fbeam = Fclose = g.Xbeam;
        Sbeam = Sclose = g.Ybeam;
        break;
    }

    const glm::dvec3 rotations{det.rotX, det.rotY, det.rotZ};
    // how obliquely the beam meets the detector (rotations only, no two-theta)
    double ratio = glm::dot(axes.beam, rotateXYZ(axes.odet, rotations));
    if (ratio == 0.0)
        ratio = DBL_MIN;
    double closeDistance = det.closeDistance ? *det.closeDistance : std::fabs(ratio * det.distance);
    double distance = closeDistance / ratio;

    glm::dvec3 pix0{0.0};
    if (g.pivot == Pivot::Sample) {
        // place the unrotated detector, then swing its origin with it
        pix0 = -Fclose * axes.fdet - Sclose * axes.sdet + closeDistance * axes.odet;
        pix0 = rotateAbout(rotateXYZ(pix0, rotations), axes.twothetaAxis, det.twotheta);
    }
    g.fdet = rotateAbout(rotateXYZ(axes.fdet, rotations), axes.twothetaAxis, det.twotheta);
    g.sdet = rotateAbout(rotateXYZ(axes.sdet, rotations), axes.twothetaAxis, det.twotheta);
    g.odet = rotateAbout(rotateXYZ(axes.odet, rotations), axes.twothetaAxis, det.twotheta);
    if (g.pivot == Pivot::Beam) {
        // keep the beam spot where the user put it
        pix0 = -Fbeam * g.fdet - Sbeam * g.sdet + distance * axes.beam;
    }
    g.pix0 = pix0;

    // read back the near point and the beam spot of the placed detector
    g.Fclose = -glm::dot(pix0, g.fdet);
    g.Sclose = -glm::dot(pix0, g.sdet);
    g.closeDistance = glm::dot(pix0, g.odet);
    const glm::dvec3 spot = g.closeDistance / ratio * axes.beam - pix0;
    g.Fbeam = glm::dot(g.fdet, spot);
    g.Sbeam = glm::dot(g.sdet, spot);
    g.distance = g.closeDistance / ratio;
    g.beamObliquity = ratio;

    g.orgX = g.Fclose / pixel + 0.5;
    g.orgY = g.Sclose / pixel + 0.5;
    // DIALS' laboratory frame: x along -z, y along y, z along x of this one (mm)
    g.dialsOrigin = 1000.0 * glm::dvec3(glm::dot(pix0, {0, 0, 1}), glm::dot(pix0, {0, 1, 0}),
                                        glm::dot(pix0, {-1, 0, 0}));
    g.beamInDetector = {glm::dot(axes.beam, g.fdet), glm::dot(axes.beam, g.sdet),
                        glm::dot(axes.beam, g.odet)};
    return g;
}

bool placesPanelsOf(const ResolvedExperiment& r, const Detector& detector) {
    if (r.panelsFromSource != detector.panelsFromSource())
        return false;
    return !r.panelsFromSource || r.panels.size() == detector.panels.size();
}

PanelGeometry flatPanel(const DetectorGeometry& d) {
    PanelGeometry panel;
    panel.name = "detector";
    panel.pix0 = d.pix0;
    panel.fdet = d.fdet;
    panel.sdet = d.sdet;
    panel.odet = d.odet;
    panel.pixelSize = d.pixelSize;
    panel.fastPixels = d.fastPixels;
    panel.slowPixels = d.slowPixels;
    return panel;
}

CellVectors resolveCell(const Crystal& crystal, double wavelength, const glm::dvec3& missetAngles,
                        bool applyMisset, std::ostream& log) {
    glm::dvec3 aStar{0.0}, bStar{0.0}, cStar{0.0};
    UnitCell user;
    double userVolume = 0.0;
    if (crystal.cell) {
        user = *crystal.cell;
        if (user.b <= 0.0) user.b = user.a;
        if (user.c <= 0.0) user.c = user.a;
        if (user.alpha <= 0.0) user.alpha = M_PI / 2;
        if (user.beta <= 0.0) user.beta = M_PI / 2;
        if (user.gamma <= 0.0) user.gamma = M_PI / 2;

        // volume from the angles (Heron-like form of the triple product)
        const double half = (user.alpha + user.beta + user.gamma) / 2;
        const double skew = std::fabs(std::sin(half) * std::sin(half - user.alpha) *
                                      std::sin(half - user.beta) * std::sin(half - user.gamma));
        userVolume = 2.0 * user.a * user.b * user.c * std::sqrt(skew);
        if (userVolume <= 0.0) {
            log << "WARNING: impossible unit cell volume: " << userVolume << "\n";
            userVolume = DBL_MIN;
        }
        const double Vstar = 1.0 / userVolume;
        double aStarLen = user.b * user.c * std::sin(user.alpha) * Vstar;
        double bStarLen = user.c * user.a * std::sin(user.beta) * Vstar;
        double cStarLen = user.a * user.b * std::sin(user.gamma) * Vstar;
        if (aStarLen <= 0.0 || bStarLen <= 0.0 || cStarLen <= 0.0) {
            log << "WARNING: impossible reciprocal cell lengths: " << aStarLen << " " << bStarLen
                << " " << cStarLen << "\n";
            aStarLen = std::fabs(aStarLen) > 0.0 ? std::fabs(aStarLen) : DBL_MIN;
            bStarLen = std::fabs(bStarLen) > 0.0 ? std::fabs(bStarLen) : DBL_MIN;
            cStarLen = std::fabs(cStarLen) > 0.0 ? std::fabs(cStarLen) : DBL_MIN;
        }
        double sinGammaStar = user.c * Vstar / aStarLen / bStarLen;
        double cosAlphaStar = (std::cos(user.beta) * std::cos(user.gamma) - std::cos(user.alpha)) /
                              (std::sin(user.beta) * std::sin(user.gamma));
        double cosBetaStar = (std::cos(user.gamma) * std::cos(user.alpha) - std::cos(user.beta)) /
                             (std::sin(user.gamma) * std::sin(user.alpha));
        double cosGammaStar = (std::cos(user.alpha) * std::cos(user.beta) - std::cos(user.gamma)) /
                              (std::sin(user.alpha) * std::sin(user.beta));
        sinGammaStar = std::min(1.0, std::max(-1.0, sinGammaStar));
        if (cosAlphaStar * cosAlphaStar > 1.0) cosAlphaStar = 1.0;
        if (cosBetaStar * cosBetaStar > 1.0) cosBetaStar = 1.0;
        if (cosGammaStar * cosGammaStar > 1.0) cosGammaStar = 1.0;
        // the reference's default orientation: a* along x, b* in the x-y plane
        aStar = {aStarLen, 0.0, 0.0};
        bStar = {bStarLen * cosGammaStar, bStarLen * sinGammaStar, 0.0};
        cStar = {cStarLen * cosBetaStar,
                 cStarLen * (cosAlphaStar - cosBetaStar * cosGammaStar) / sinGammaStar,
                 cStarLen * userVolume / (user.a * user.b * user.c * sinGammaStar)};
    }
    if (crystal.mosflmMatrix) {
        // the A matrix carries the wavelength: divide it out (A^-1)
        const glm::dmat3& m = *crystal.mosflmMatrix; // m[column][row]
        const double scale = 1e-10 / wavelength;
        aStar = scale * glm::dvec3(m[0][0], m[0][1], m[0][2]);
        bStar = scale * glm::dvec3(m[1][0], m[1][1], m[1][2]);
        cStar = scale * glm::dvec3(m[2][0], m[2][1], m[2][2]);
    }
    if (applyMisset) {
        aStar = rotateXYZ(aStar, missetAngles);
        bStar = rotateXYZ(bStar, missetAngles);
        cStar = rotateXYZ(cStar, missetAngles);
    }

    // direct cell from the reciprocal one; a user cell keeps its own lengths and volume
    glm::dvec3 bStarCrossCStar = glm::cross(bStar, cStar);
    glm::dvec3 cStarCrossAStar = glm::cross(cStar, aStar);
    glm::dvec3 aStarCrossBStar = glm::cross(aStar, bStar);
    double Vstar = glm::dot(aStar, bStarCrossCStar);
    if (crystal.cell) {
        auto rescale = [](const glm::dvec3& v, double length) {
            double m = glm::length(v);
            if (m <= 0.0) m = 1.0;
            return length / m * v;
        };
        bStarCrossCStar = rescale(bStarCrossCStar, user.a / userVolume);
        cStarCrossAStar = rescale(cStarCrossAStar, user.b / userVolume);
        aStarCrossBStar = rescale(aStarCrossBStar, user.c / userVolume);
        Vstar = 1.0 / userVolume;
    }
    CellVectors out;
    out.volume = 1.0 / Vstar;
    out.a = bStarCrossCStar * out.volume;
    out.b = cStarCrossAStar * out.volume;
    out.c = aStarCrossBStar * out.volume;
    out.aStar = glm::cross(out.b, out.c) * Vstar;
    out.bStar = glm::cross(out.c, out.a) * Vstar;
    out.cStar = glm::cross(out.a, out.b) * Vstar;

    const double la = glm::length(out.a), lb = glm::length(out.b), lc = glm::length(out.c);
    const double lsa = glm::length(out.aStar), lsb = glm::length(out.bStar),
                 lsc = glm::length(out.cStar);
    out.cell = {la, lb, lc,
                clampedAngle(lsa * out.volume / lb / lc, glm::dot(out.b, out.c) / lb / lc),
                clampedAngle(lsb * out.volume / la / lc, glm::dot(out.a, out.c) / la / lc),
                clampedAngle(lsc * out.volume / la / lb, glm::dot(out.a, out.b) / la / lb)};
    out.reciprocal = {
        lsa, lsb, lsc,
        clampedAngle(la * Vstar / lsb / lsc, glm::dot(out.bStar, out.cStar) / lsb / lsc),
        clampedAngle(lb * Vstar / lsa / lsc, glm::dot(out.aStar, out.cStar) / lsa / lsc),
        clampedAngle(lc * Vstar / lsa / lsb, glm::dot(out.aStar, out.bStar) / lsa / lsb)};
    return out;
}

ResolvedExperiment resolve(const Experiment& experiment, random::ReferenceRandom& rng, std::ostream& log) {
    ResolvedExperiment r;
    const Beam& beam = experiment.beam;
    const Crystal& crystal = experiment.crystal;
    const Sampling& sampling = experiment.sampling;
    r.convention = experiment.convention;
    r.wavelength = beam.wavelength;

    // photons: a flux replaces the fluence; a beam narrower than the sample clips it
    glm::dvec3 sample = crystal.sampleSize;
    r.fluence = beam.effectiveFluence();
    r.exposure = beam.exposure;
    r.beamSize = beam.beamSize;
    if (beam.beamSize >= 0.0) {
        if (beam.beamSize < sample.y) {
            log << "WARNING: clipping sample (" << sample.y << " m high) with beam (" << beam.beamSize << " m)\n";
            sample.y = beam.beamSize;
        }
        if (beam.beamSize < sample.z) {
            log << "WARNING: clipping sample (" << sample.z << " m wide) with beam (" << beam.beamSize << " m)\n";
            sample.z = beam.beamSize;
        }
    }
    r.flux = beam.exposure > 0.0 ? r.fluence / beam.exposure * beam.beamSize * beam.beamSize : beam.flux;

    r.axes = straightenAxes(experiment.axes(), log);
    r.polarizationNormal = unitOrZero(glm::cross(r.axes.beam, r.axes.polarization));

    // sweeps and counts
    r.phi0 = crystal.phi0;
    r.phi = resolvePhiSweep(crystal.phi);
    r.phiSampleFraction = crystal.phiSampling == PhiSampling::StepCentre ? 0.5 : 0.0;
    r.horizontalDivergence = resolveSpreadSweep(beam.horizontalDivergence);
    r.verticalDivergence = resolveSpreadSweep(beam.verticalDivergence);
    r.dispersion = resolveSpreadSweep(beam.dispersion);
    const Detector& det = experiment.detector;
    r.thickness = resolveThicknessSweep(det.thickness);
    if (det.attenuationDepth)
        r.mu = *det.attenuationDepth > 0.0 ? 1.0 / *det.attenuationDepth : 0.0;
    else if (r.thickness.range > 0.0) {
        r.mu = 1.0 / r.thickness.range;
        log << "WARNING: setting detector attenuation depth to " << r.mu << " m\n";
    }
    int domains = crystal.mosaicDomains.value_or(-1);
    double spread = crystal.mosaicSpread.value_or(-1.0);
    if (domains <= 0) {
        if (spread < 0.0) {
            domains = 1;
            spread = 0.0;
        } else if (spread == 0.0) {
            domains = 1;
        } else {
            log << "WARNING: finite mosaicity with only one domain! upping to 10 mosaic domains\n";
            domains = 10;
        }
    } else if (spread < 0.0) {
        log << "WARNING: no mosaic spread specified.  setting mosaic_domains = 1\n";
        spread = 0.0;
        domains = 1;
    } else if (spread == 0.0) {
        log << "WARNING: zero mosaic spread specified.  setting mosaic_domains = 1\n";
        domains = 1;
    }
    r.mosaicSpread = spread;

    r.detector = resolveDetector(experiment, r.axes);
    r.panelsFromSource = det.panelsFromSource();
    if (!r.panelsFromSource) {
        // before any work on the pixels (the summary's solid-angle sum over a billion pixels
        // took minutes before the device refused them): the shader's signed pixel index
        const int f = r.detector.fastPixels, s = r.detector.slowPixels;
        if (static_cast<long long>(f) * s > kMaxImagePixels)
            throw Error("the detector has too many pixels (" + std::to_string(f) + "x" +
                        std::to_string(s) + "); an image holds at most " +
                        std::to_string(kMaxImagePixels));
        r.panels = {flatPanel(r.detector)};
    } else {
        // a detector of panels: the image stacks their rows (docs/numerics/detector-panels.md)
        r.panels = resolveStatedPanels(experiment, r.axes); // a preset aimed by a beam centre
        log << beamHitText(det.panelsSource, r.panels, r.axes.beam) << "\n";
        int widest = 0, rows = 0;
        for (const PanelGeometry& panel : r.panels) {
            widest = std::max(widest, panel.fastPixels);
            rows += panel.slowPixels;
        }
        r.detector.fastPixels = widest;
        r.detector.slowPixels = rows;
    }

    // interpolation: automatic when the crystal is at most two cells thick along an axis
    // (judged on the cell counts as given, before any -xtalsize), never without a table
    switch (sampling.interpolation) {
    case Interpolation::Auto:
        r.interpolate = crystal.cells.x <= 2 || crystal.cells.y <= 2 || crystal.cells.z <= 2;
        break;
    case Interpolation::Tricubic: r.interpolate = true; break;
    case Interpolation::Nearest: r.interpolate = false; break;
    }
    r.interpolationEdge = sampling.interpolationEdge;

    // orientation: a random misset is drawn first, then applied as three angles
    if (crystal.misset == MissetKind::Random) {
        long seed = crystal.missetSeed.value_or(experiment.seed);
        r.missetAngles = random::randomMisset(rng, seed);
        r.randomMisset = true;
    } else if (crystal.misset == MissetKind::Angles) {
        r.missetAngles = crystal.missetAngles;
    }
    r.cell = resolveCell(crystal, beam.wavelength, r.missetAngles, crystal.misset != MissetKind::None, log);

    // crystal size: a sample size in metres fixes the cell counts
    const glm::dvec3 edges = 1e-10 * glm::dvec3(r.cell.cell.a, r.cell.cell.b, r.cell.cell.c);
    r.cells = crystal.cells;
    for (int i = 0; i < 3; ++i) {
        if (sample[i] > 0.0)
            r.cells[i] = std::ceil(sample[i] / edges[i]);
        if (r.cells[i] <= 1.0)
            r.cells[i] = 1.0;
    }
    r.crystalSize = edges * r.cells;
    const double sizeMax = std::max(r.crystalSize.x, std::max(r.crystalSize.y, r.crystalSize.z));
    const double reciprocalPixel = beam.wavelength * r.detector.distance / det.pixelSize;
    // The reference converts the ratio to int as it is; a ratio that is not a number (no
    // crystal and no distance yet, 0/0) or beyond int is undefined behaviour there, and on x86
    // gives INT_MIN, hence 1 below: that 1 is kept, without the undefined conversion.
    const double ratio = std::ceil(3.0 * sizeMax / reciprocalPixel);
    r.recommendedOversample =
        ratio >= 1.0 && ratio <= static_cast<double>(std::numeric_limits<int>::max())
            ? static_cast<int>(ratio)
            : 1;
    r.oversample = sampling.oversample && *sampling.oversample > 0 ? *sampling.oversample : r.recommendedOversample;
    if (r.oversample < r.recommendedOversample) {
        log << "WARNING: maximum dimension of sample is " << sizeMax * 1e10 << " A\n"
            << "         but reciprocal pixel size is " << reciprocalPixel * 1e10 << " A\n"
            << "         intensity may vary significantly across a pixel!\n"
            << "         recommend -oversample " << r.recommendedOversample << " to work around this\n";
    }
    r.approximateMolecularWeight = r.crystalSize.x * r.crystalSize.y * r.crystalSize.z * 1.2e6 *
                                   units::kAvogadro / (r.cells.x * r.cells.y * r.cells.z);
    r.shape = crystal.shape;
    r.fudge = crystal.fudge;

    // sources: a source file, or a divergence grid (trimmed to an ellipse) times the
    // dispersion steps; each gets an equal share of the weight
    if (!beam.sourceFile.empty()) {
        for (const SourceRecord& rec : beam.sourceFile) {
            Source s;
            s.position = {std::isnan(rec.X) ? -beam.sourceDistance * r.axes.beam.x : rec.X,
                          std::isnan(rec.Y) ? -beam.sourceDistance * r.axes.beam.y : rec.Y,
                          std::isnan(rec.Z) ? -beam.sourceDistance * r.axes.beam.z : rec.Z};
            s.weight = std::isnan(rec.weight) ? 1.0 : rec.weight;
            s.wavelength = std::isnan(rec.lambda) ? beam.wavelength : rec.lambda;
            r.sources.push_back(s);
        }
        r.divergenceSteps = -1; // the reference leaves its divergence count unset (-1) here
    } else {
        const Sweep& h = r.horizontalDivergence;
        const Sweep& v = r.verticalDivergence;
        std::vector<glm::dvec3> positions;
        for (int i = 0; i < h.steps; ++i) {
            for (int j = 0; j < v.steps; ++j) {
                const double hdiv = h.step * i - h.range / 2.0;
                const double vdiv = v.step * j - v.range / 2.0;
                // an even count has no central sample: measure from the half-step
                double test = (hdiv * hdiv - h.step * h.step / 4.0 * (1 - h.steps % 2)) / h.range / h.range;
                test += (vdiv * vdiv - v.step * v.step / 4.0 * (1 - v.steps % 2)) / v.range / v.range;
                if (beam.roundDivergence && test * 4.0 > 1.1)
                    continue;
                const glm::dvec3 toSource = -beam.sourceDistance * r.axes.beam;
                positions.push_back(rotateAbout(rotateAbout(toSource, r.axes.polarization, vdiv),
                                                r.polarizationNormal, hdiv));
            }
        }
        r.divergenceSteps = static_cast<int>(positions.size());
        const double weight = 1.0 / static_cast<double>(positions.size() * r.dispersion.steps);
        for (const glm::dvec3& p : positions) {
            for (int k = 0; k < r.dispersion.steps; ++k) {
                Source s;
                s.position = p;
                s.weight = weight;
                s.wavelength = beam.wavelength * (1.0 + r.dispersion.step * k - r.dispersion.range / 2.0);
                r.sources.push_back(s);
            }
        }
    }
    for (Source& s : r.sources)
        s.direction = unitOrZero(s.position);

    long mosaicSeed = crystal.mosaicSeed;
    r.mosaicDomains = random::mosaicDomains(rng, spread, domains, mosaicSeed);

    r.oversampleThick = sampling.oversampleThick;
    r.oversamplePolar = sampling.oversamplePolar;
    r.oversampleOmega = sampling.oversampleOmega;
    const int fast = r.detector.fastPixels, slow = r.detector.slowPixels;
    r.roi = sampling.roi.value_or(Roi{0, fast, 0, slow});
    r.dmin = sampling.dmin;
    r.polarization = beam.polarization;
    r.kahnFactor = beam.kahnFactor;
    r.waterThickness = experiment.waterThickness;
    r.structureFactors = &experiment.structureFactors;
    if (!experiment.structureFactors.hasTable())
        r.interpolate = false;
    r.curved = det.curved;
    r.pointPixel = det.pointPixel;
    return r;
}

} // namespace bv
