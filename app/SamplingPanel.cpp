// The Sampling panel: arithmetic, sub-pixels, sensor, limits and background.
#include "app/ParameterPanels.h"

#include "app/ExperimentDocument.h"

namespace bv::app {


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
    p->addField("oversample");
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
    p->addField("thickness");
    p->addField("thickSteps");
    p->addField("attenuation");
    p->addHeading(QObject::tr("Limits and background"));
    p->addField("dmin");
    p->addField("water");
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
    p->finish(request::FlagGroup::Sampling);
    return p;
}

} // namespace bv::app
