// The Beam panel: wavelength, divergence, polarization and intensity.
#include "app/ParameterPanels.h"

#include "app/ExperimentDocument.h"
#include "compute/model/Units.h"

#include <cmath>

namespace bv::app {


ParameterPanel* makeBeamPanel(ExperimentDocument& document, QWidget* parent) {
    auto* p = new ParameterPanel(document, QObject::tr("Beam"), parent);
    p->addHeading(QObject::tr("Wavelength"));
    p->addField("wavelength");
    p->addField("energy");
    p->addField("dispersion");
    p->addField("dispersionSteps");
    p->addHeading(QObject::tr("Divergence"));
    p->addField("hdivergence");
    p->addField("vdivergence");
    p->addField("divergenceSteps");
    p->addHeading(QObject::tr("Polarization and intensity"));
    p->addSwitch(QStringLiteral("polarization"), QObject::tr("Polarization correction"),
                 QObject::tr("Apply the polarization factor (off: nanoBragg -nopolar)."),
                 [](const Experiment& e) { return e.beam.polarization; },
                 [](Experiment& e, bool on) { e.beam.polarization = on; });
    p->addField("kahn");
    p->addField("fluence");
    p->addInfo(QStringLiteral("beamInfo"), [](const Experiment& e, const ResolvedExperiment* r) {
        QString text = QObject::tr("λ = %1 Å").arg(e.beam.wavelength * 1e10, 0, 'g', 6);
        if (!e.beam.sourceFile.empty())
            text += QObject::tr("; %1 sources from the source file (replace divergence and "
                                "dispersion)")
                        .arg(e.beam.sourceFile.size());
        if (r)
            text += QObject::tr("; %1 source(s) in use").arg(r->sources.size());
        return text;
    });
    p->finish(request::FlagGroup::Beam);
    return p;
}

} // namespace bv::app
