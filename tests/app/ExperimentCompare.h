#pragma once
// Field-by-field comparison of two Experiments, written out here independently of the code
// under test (sessions, the headless command), so that a field those forget is caught.
// Returns the name of the first field that differs, or an empty string.

#include "compute/model/Experiment.h"

#include <QFileInfo>
#include <QString>

#include <cmath>
#include <optional>

namespace bv::test {

class ExperimentCompare {
  public:
    // tolerance: relative, for numbers that went through text in other units (0: exact)
    explicit ExperimentCompare(double tolerance = 0.0) : m_tolerance(tolerance) {}

    QString difference(const Experiment& a, const Experiment& b) {
        m_first.clear();
        same("convention", int(a.convention), int(b.convention));
        if (a.convention == Convention::Custom) {
            same("customAxes.beam", a.customAxes.beam, b.customAxes.beam);
            same("customAxes.polarization", a.customAxes.polarization, b.customAxes.polarization);
            same("customAxes.spindle", a.customAxes.spindle, b.customAxes.spindle);
            same("customAxes.twothetaAxis", a.customAxes.twothetaAxis, b.customAxes.twothetaAxis);
            same("customAxes.fdet", a.customAxes.fdet, b.customAxes.fdet);
            same("customAxes.sdet", a.customAxes.sdet, b.customAxes.sdet);
            same("customAxes.odet", a.customAxes.odet, b.customAxes.odet);
        }
        const Beam &x = a.beam, &y = b.beam;
        same("beam.wavelength", x.wavelength, y.wavelength);
        same("beam.dispersion", x.dispersion, y.dispersion);
        same("beam.horizontalDivergence", x.horizontalDivergence, y.horizontalDivergence);
        same("beam.verticalDivergence", x.verticalDivergence, y.verticalDivergence);
        same("beam.roundDivergence", x.roundDivergence, y.roundDivergence);
        same("beam.sourceFile.size", int(x.sourceFile.size()), int(y.sourceFile.size()));
        same("beam.kahnFactor", x.kahnFactor, y.kahnFactor);
        same("beam.polarization", x.polarization, y.polarization);
        same("beam.fluence", x.fluence, y.fluence);
        same("beam.flux", x.flux, y.flux);
        if (x.flux != 0.0) {
            same("beam.exposure", x.exposure, y.exposure);
            same("beam.beamSize", x.beamSize, y.beamSize);
        }
        const Detector &d = a.detector, &e = b.detector;
        same("detector.pixelSize", d.pixelSize, e.pixelSize);
        same("detector.sizeFast", d.sizeFast, e.sizeFast);
        same("detector.sizeSlow", d.sizeSlow, e.sizeSlow);
        same("detector.distance", d.distance, e.distance);
        same("detector.closeDistance", d.closeDistance, e.closeDistance);
        same("detector.beamX", d.beamX, e.beamX);
        same("detector.beamY", d.beamY, e.beamY);
        same("detector.closeX", d.closeX, e.closeX);
        same("detector.closeY", d.closeY, e.closeY);
        same("detector.orgX", d.orgX, e.orgX);
        same("detector.orgY", d.orgY, e.orgY);
        same("detector.pivot", int(d.pivot), int(e.pivot));
        same("detector.rotX", d.rotX, e.rotX);
        same("detector.rotY", d.rotY, e.rotY);
        same("detector.rotZ", d.rotZ, e.rotZ);
        same("detector.twotheta", d.twotheta, e.twotheta);
        same("detector.curved", d.curved, e.curved);
        same("detector.pointPixel", d.pointPixel, e.pointPixel);
        same("detector.thickness", d.thickness, e.thickness);
        same("detector.attenuationDepth", d.attenuationDepth, e.attenuationDepth);
        const Crystal &c = a.crystal, &k = b.crystal;
        same("crystal.cell", c.cell.has_value(), k.cell.has_value());
        if (c.cell && k.cell) {
            same("crystal.cell.a", c.cell->a, k.cell->a);
            same("crystal.cell.b", c.cell->b, k.cell->b);
            same("crystal.cell.c", c.cell->c, k.cell->c);
            same("crystal.cell.alpha", angle(c.cell->alpha), angle(k.cell->alpha));
            same("crystal.cell.beta", angle(c.cell->beta), angle(k.cell->beta));
            same("crystal.cell.gamma", angle(c.cell->gamma), angle(k.cell->gamma));
        }
        same("crystal.mosflmMatrix", c.mosflmMatrix.has_value(), k.mosflmMatrix.has_value());
        same("crystal.misset", int(c.misset), int(k.misset));
        if (c.misset == MissetKind::Angles)
            same("crystal.missetAngles", c.missetAngles, k.missetAngles);
        same("crystal.missetSeed", c.missetSeed.has_value(), k.missetSeed.has_value());
        if (c.missetSeed && k.missetSeed)
            same("crystal.missetSeed", double(*c.missetSeed), double(*k.missetSeed));
        same("crystal.cells", c.cells, k.cells);
        same("crystal.sampleSize", c.sampleSize, k.sampleSize);
        same("crystal.shape", int(c.shape), int(k.shape));
        same("crystal.fudge", c.fudge, k.fudge);
        same("crystal.mosaicSpread", c.mosaicSpread, k.mosaicSpread);
        same("crystal.mosaicDomains", c.mosaicDomains, k.mosaicDomains);
        same("crystal.mosaicSeed", double(c.mosaicSeed), double(k.mosaicSeed));
        same("crystal.phi0", c.phi0, k.phi0);
        same("crystal.phi", c.phi, k.phi);
        const Sampling &s = a.sampling, &t = b.sampling;
        same("sampling.oversample", s.oversample, t.oversample);
        same("sampling.oversampleThick", s.oversampleThick, t.oversampleThick);
        same("sampling.oversamplePolar", s.oversamplePolar, t.oversamplePolar);
        same("sampling.oversampleOmega", s.oversampleOmega, t.oversampleOmega);
        same("sampling.roi", s.roi.has_value(), t.roi.has_value());
        if (s.roi && t.roi)
            same("sampling.roi", glm::dvec3(s.roi->xmin, s.roi->xmax, s.roi->ymin) + glm::dvec3(0, 0, 0),
                 glm::dvec3(t.roi->xmin, t.roi->xmax, t.roi->ymin));
        same("sampling.dmin", s.dmin, t.dmin);
        same("sampling.interpolation", int(s.interpolation), int(t.interpolation));
        same("sampling.interpolationEdge", int(s.interpolationEdge), int(t.interpolationEdge));
        same("structureFactors.defaultF", a.structureFactors.defaultF, b.structureFactors.defaultF);
        same("structureFactors.F.size", int(a.structureFactors.F.size()), int(b.structureFactors.F.size()));
        same("waterThickness", a.waterThickness, b.waterThickness);
        // -background: a material's name (a file's may come back absolute: compared by name)
        if (QFileInfo(QString::fromStdString(a.background.material)).fileName() !=
            QFileInfo(QString::fromStdString(b.background.material)).fileName())
            note("background.material", QString::fromStdString(a.background.material) +
                                            QStringLiteral(" != ") +
                                            QString::fromStdString(b.background.material));
        same("background.thickness", a.background.thickness, b.background.thickness);
        same("background.density", a.background.density, b.background.density);
        same("background.molecularWeight", a.background.molecularWeight,
             b.background.molecularWeight);
        same("response.enabled", a.response.enabled, b.response.enabled);
        if (a.response.psf != b.response.psf)
            note("response.psf", QString::fromStdString(a.response.psf + " != " + b.response.psf));
        same("response.psfFwhm", a.response.psfFwhm, b.response.psfFwhm);
        same("response.psfRadius", a.response.psfRadius, b.response.psfRadius);
        same("response.flicker", a.response.flicker, b.response.flicker);
        same("response.calibration", a.response.calibration, b.response.calibration);
        same("response.calibSeed", double(a.response.calibSeed), double(b.response.calibSeed));
        same("response.readout", a.response.readout, b.response.readout);
        same("response.gain", a.response.gain, b.response.gain);
        same("mask.size", int(a.mask.size()), int(b.mask.size()));
        same("seed", double(a.seed), double(b.seed));
        return m_first;
    }

  private:
    static double angle(double radians) { return radians == 0.0 ? M_PI / 2.0 : radians; }

    void note(const char* name, const QString& detail) {
        if (m_first.isEmpty())
            m_first = QString::fromLatin1(name) + QStringLiteral(": ") + detail;
    }
    void same(const char* name, double a, double b) {
        const bool equal = m_tolerance == 0.0
                               ? a == b
                               : std::fabs(a - b) <= m_tolerance * std::max({std::fabs(a), std::fabs(b), 1e-300}) ||
                                     std::fabs(a - b) < 1e-300;
        if (!equal)
            note(name, QString::number(a, 'g', 17) + QStringLiteral(" != ") + QString::number(b, 'g', 17));
    }
    void same(const char* name, int a, int b) {
        if (a != b)
            note(name, QString::number(a) + QStringLiteral(" != ") + QString::number(b));
    }
    void same(const char* name, bool a, bool b) { same(name, int(a), int(b)); }
    void same(const char* name, const glm::dvec3& a, const glm::dvec3& b) {
        for (int i = 0; i < 3; ++i)
            same(name, a[i], b[i]);
    }
    template <typename T> void same(const char* name, const std::optional<T>& a, const std::optional<T>& b) {
        if (a.has_value() != b.has_value())
            note(name, a ? QStringLiteral("set != unset") : QStringLiteral("unset != set"));
        else if (a)
            same(name, double(*a), double(*b));
    }
    void same(const char* name, const SweepRequest& a, const SweepRequest& b) {
        same(name, a.range, b.range);
        same(name, a.step, b.step);
        same(name, a.steps, b.steps);
    }

    double m_tolerance;
    QString m_first;
};

} // namespace bv::test
