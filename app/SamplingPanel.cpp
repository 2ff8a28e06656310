// The Sampling panel: arithmetic, sub-pixels, sensor, limits and background.
#include "app/ParameterPanels.h"

#include "app/ExperimentDocument.h"
#include "app/PanelBindings.h"

namespace bv::app {

using namespace panels;

ParameterPanel* makeSamplingPanel(ExperimentDocument& document, QWidget* parent) {
    auto* p = new ParameterPanel(document, QObject::tr("Sampling"), parent);
    ExperimentDocument* doc = &document;
    p->addHeading(QObject::tr("Arithmetic"));
    p->addChoice(QStringLiteral("precision"), QObject::tr("Precision"),
                 QObject::tr("fast: single precision everywhere (the viewer's default); precise: "
                             "double precision for position, q and h,k,l (the headless default; "
                             "needs shaderFloat64). Changing it builds a new simulator."),
                 {QObject::tr("fast"), QObject::tr("precise")},
                 [doc](const Experiment&) {
                     return doc->precision() == engine::Precision::Fast ? 0 : 1;
                 },
                 [doc](int index) {
                     doc->setPrecision(index == 0 ? engine::Precision::Fast
                                                  : engine::Precision::Precise);
                 });
    p->addHeading(QObject::tr("Sub-pixels"));
    p->addField(QStringLiteral("oversample"),
                automatic(number(QObject::tr("Oversample"), QObject::tr("per edge"),
                                 QObject::tr("Sub-pixels per pixel edge (nanoBragg -oversample). "
                                             "Auto: from the crystal size and pixel. Work grows "
                                             "with the square."),
                                 1, 32, 0, 1, 4,
                                 [](const Experiment& e) -> std::optional<double> {
                                     if (!e.sampling.oversample)
                                         return std::nullopt;
                                     return *e.sampling.oversample;
                                 },
                                 [](Experiment& e, double v) { e.sampling.oversample = toCount(v); }),
                          [](const ResolvedExperiment& r) -> std::optional<double> { return r.oversample; },
                          [](Experiment& e) { e.sampling.oversample.reset(); }));
    p->addSwitch(QStringLiteral("oversampleThick"), QObject::tr("Absorption per sub-pixel"),
                 QObject::tr("Recompute the sensor absorption for every sub-pixel (nanoBragg "
                             "-oversample_thick)."),
                 [](const Experiment& e) { return e.sampling.oversampleThick; },
                 [](Experiment& e, bool on) { e.sampling.oversampleThick = on; });
    p->addSwitch(QStringLiteral("oversamplePolar"), QObject::tr("Polarization per sub-pixel"),
                 QObject::tr("Recompute the polarization factor for every sub-pixel (nanoBragg "
                             "-oversample_polar)."),
                 [](const Experiment& e) { return e.sampling.oversamplePolar; },
                 [](Experiment& e, bool on) { e.sampling.oversamplePolar = on; });
    p->addSwitch(QStringLiteral("oversampleOmega"), QObject::tr("Solid angle per sub-pixel"),
                 QObject::tr("Recompute the pixel solid angle for every sub-pixel (nanoBragg "
                             "-oversample_omega)."),
                 [](const Experiment& e) { return e.sampling.oversampleOmega; },
                 [](Experiment& e, bool on) { e.sampling.oversampleOmega = on; });
    p->addHeading(QObject::tr("Sensor"));
    p->addField(QStringLiteral("thickness"),
                number(QObject::tr("Thickness"), QStringLiteral("µm"),
                       QObject::tr("Sensor thickness (nanoBragg -detector_thick); with it the "
                                   "capture fraction and parallax are modelled."),
                       0.0, 2000.0, 1, 1.0, 50.0,
                       [](const Experiment& e) { return e.detector.thickness.range.value_or(0.0) * 1e6; },
                       [](Experiment& e, double v) { e.detector.thickness.range = v * 1e-6; }));
    p->addField(QStringLiteral("thickSteps"),
                automatic(number(QObject::tr("Layers"), QString(),
                                 QObject::tr("Sensor layers sampled (nanoBragg -thicksteps). "
                                             "Work grows in proportion."),
                                 1, 50, 0, 1, 5,
                                 [](const Experiment& e) -> std::optional<double> {
                                     if (!e.detector.thickness.steps)
                                         return std::nullopt;
                                     return *e.detector.thickness.steps;
                                 },
                                 [](Experiment& e, double v) { e.detector.thickness.steps = toCount(v); }),
                          [](const ResolvedExperiment& r) -> std::optional<double> { return r.thickness.steps; },
                          [](Experiment& e) { e.detector.thickness.steps.reset(); }));
    p->addField(QStringLiteral("attenuation"),
                automatic(logarithmic(number(
                              QObject::tr("Attenuation depth"), QStringLiteral("µm"),
                              QObject::tr("1/μ of the sensor (nanoBragg -detector_abs). Auto: the "
                                          "thickness itself."),
                              1.0, 10000.0, 1, 1.0, 50.0,
                              [](const Experiment& e) -> std::optional<double> {
                                  if (!e.detector.attenuationDepth)
                                      return std::nullopt;
                                  return *e.detector.attenuationDepth * 1e6;
                              },
                              [](Experiment& e, double v) { e.detector.attenuationDepth = v * 1e-6; })),
                          [](const ResolvedExperiment& r) -> std::optional<double> {
                              return r.mu > 0.0 ? 1e6 / r.mu : 0.0;
                          },
                          [](Experiment& e) { e.detector.attenuationDepth.reset(); }));
    p->addHeading(QObject::tr("Limits and background"));
    p->addField(QStringLiteral("dmin"),
                number(QObject::tr("d min"), QStringLiteral("Å"),
                       QObject::tr("Skip scattering to resolution finer than this (nanoBragg "
                                   "-dmin; 0: off)."),
                       0.0, 50.0, 3, 0.1, 1.0,
                       [](const Experiment& e) { return e.sampling.dmin * 1e10; },
                       [](Experiment& e, double v) { e.sampling.dmin = v * 1e-10; }));
    p->addField(QStringLiteral("water"),
                number(QObject::tr("Water"), QStringLiteral("µm"),
                       QObject::tr("Thickness of water around the crystal: a flat background "
                                   "(nanoBragg -water)."),
                       0.0, 1000.0, 1, 1.0, 10.0,
                       [](const Experiment& e) { return e.waterThickness * 1e6; },
                       [](Experiment& e, double v) { e.waterThickness = v / 1e6; }));
    p->addInfo(QStringLiteral("samplingInfo"), [](const Experiment&, const ResolvedExperiment* r) {
        if (!r)
            return QString();
        return QObject::tr("Steps per pixel: %1 = %2 source(s) × %3 phi step(s) × %4 domain(s) × "
                           "%5×%5 sub-pixels, × %6 layer(s)")
            .arg(r->steps() * r->thickness.steps)
            .arg(r->sources.size())
            .arg(r->phi.steps)
            .arg(r->mosaicDomains.size())
            .arg(r->oversample)
            .arg(r->thickness.steps);
    });
    p->finish();
    return p;
}

} // namespace bv::app
