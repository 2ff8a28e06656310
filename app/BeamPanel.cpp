// The Beam panel: wavelength, divergence, polarization and intensity.
#include "app/ParameterPanels.h"

#include "app/ExperimentDocument.h"
#include "app/PanelBindings.h"
#include "compute/model/Units.h"

#include <cmath>

namespace bv::app {

using namespace panels;

ParameterPanel* makeBeamPanel(ExperimentDocument& document, QWidget* parent) {
    auto* p = new ParameterPanel(document, QObject::tr("Beam"), parent);
    p->addHeading(QObject::tr("Wavelength"));
    p->addField(QStringLiteral("wavelength"),
                logarithmic(number(
                    QObject::tr("Wavelength"), QStringLiteral("Å"),
                    QObject::tr("Incident X-ray wavelength λ (nanoBragg -lambda). Bragg's law, "
                                "λ = 2 d sin θ: a longer wavelength moves every ring and spot "
                                "outwards."),
                    0.1, 20.0, 4, 0.01, 0.1,
                    [](const Experiment& e) { return e.beam.wavelength * 1e10; },
                    [](Experiment& e, double v) { e.beam.wavelength = v / 1.0e10; })));
    p->addField(QStringLiteral("energy"),
                logarithmic(number(
                    QObject::tr("Energy"), QStringLiteral("keV"),
                    QObject::tr("Photon energy, the same setting as the wavelength "
                                "(nanoBragg -energy): E = 12.39842 keV·Å / λ."),
                    0.62, 124.0, 4, 0.01, 0.5,
                    [](const Experiment& e) {
                        return units::kElectronvoltAngstrom / (e.beam.wavelength * 1e10) / 1000.0;
                    },
                    [](Experiment& e, double v) {
                        e.beam.wavelength = units::kElectronvoltAngstrom / (v * 1000.0) / 1.0e10;
                    })));
    p->addField(QStringLiteral("dispersion"),
                number(QObject::tr("Dispersion"), QStringLiteral("%"),
                       QObject::tr("Spectral width Δλ/λ, full width (nanoBragg -dispersion). "
                                   "Spreads the spots radially."),
                       0.0, 10.0, 3, 0.01, 0.1,
                       [](const Experiment& e) { return e.beam.dispersion.range.value_or(0.0) * 100.0; },
                       [](Experiment& e, double v) { e.beam.dispersion.range = v / 100.0; }));
    p->addField(QStringLiteral("dispersionSteps"),
                automatic(number(QObject::tr("Wavelengths"), QString(),
                                 QObject::tr("Number of wavelengths across the dispersion "
                                             "(nanoBragg -dispsteps). Work grows in proportion."),
                                 1, 100, 0, 1, 5,
                                 [](const Experiment& e) -> std::optional<double> {
                                     if (!e.beam.dispersion.steps)
                                         return std::nullopt;
                                     return *e.beam.dispersion.steps;
                                 },
                                 [](Experiment& e, double v) { e.beam.dispersion.steps = toCount(v); }),
                          [](const ResolvedExperiment& r) -> std::optional<double> { return r.dispersion.steps; },
                          [](Experiment& e) { e.beam.dispersion.steps.reset(); }));
    p->addHeading(QObject::tr("Divergence"));
    p->addField(QStringLiteral("hdivergence"),
                number(QObject::tr("Horizontal"), QStringLiteral("mrad"),
                       QObject::tr("Angular spread of the source points in the horizontal "
                                   "(nanoBragg -hdivrange). Blurs spots tangentially."),
                       0.0, 20.0, 3, 0.01, 0.5,
                       [](const Experiment& e) { return e.beam.horizontalDivergence.range.value_or(0.0) * 1000.0; },
                       [](Experiment& e, double v) { e.beam.horizontalDivergence.range = v / 1000.0; }));
    p->addField(QStringLiteral("vdivergence"),
                number(QObject::tr("Vertical"), QStringLiteral("mrad"),
                       QObject::tr("Angular spread of the source points in the vertical "
                                   "(nanoBragg -vdivrange)."),
                       0.0, 20.0, 3, 0.01, 0.5,
                       [](const Experiment& e) { return e.beam.verticalDivergence.range.value_or(0.0) * 1000.0; },
                       [](Experiment& e, double v) { e.beam.verticalDivergence.range = v / 1000.0; }));
    p->addField(QStringLiteral("divergenceSteps"),
                automatic(number(QObject::tr("Source points"), QString(),
                                 QObject::tr("Source points along each divergence direction "
                                             "(nanoBragg -divsteps); the grid is trimmed to an "
                                             "ellipse. Work grows with the square."),
                                 1, 50, 0, 1, 5,
                                 [](const Experiment& e) -> std::optional<double> {
                                     if (!e.beam.horizontalDivergence.steps)
                                         return std::nullopt;
                                     return *e.beam.horizontalDivergence.steps;
                                 },
                                 [](Experiment& e, double v) {
                                     e.beam.horizontalDivergence.steps = toCount(v);
                                     e.beam.verticalDivergence.steps = toCount(v);
                                 }),
                          [](const ResolvedExperiment& r) -> std::optional<double> {
                              return r.horizontalDivergence.steps;
                          },
                          [](Experiment& e) {
                              e.beam.horizontalDivergence.steps.reset();
                              e.beam.verticalDivergence.steps.reset();
                          }));
    p->addHeading(QObject::tr("Polarization and intensity"));
    p->addSwitch(QStringLiteral("polarization"), QObject::tr("Polarization correction"),
                 QObject::tr("Apply the polarization factor (off: nanoBragg -nopolar)."),
                 [](const Experiment& e) { return e.beam.polarization; },
                 [](Experiment& e, bool on) { e.beam.polarization = on; });
    p->addField(QStringLiteral("kahn"),
                number(QObject::tr("Kahn factor"), QString(),
                       QObject::tr("Polarization of the beam (nanoBragg -polar): 0 unpolarized, "
                                   "1 fully along the E-vector (a synchrotron is about 0.9)."),
                       -1.0, 1.0, 3, 0.01, 0.1,
                       [](const Experiment& e) { return e.beam.kahnFactor; },
                       [](Experiment& e, double v) { e.beam.kahnFactor = v; }));
    p->addField(QStringLiteral("fluence"),
                number(QObject::tr("log₁₀ fluence"), QStringLiteral("photons/m²"),
                       QObject::tr("Integrated beam intensity, as a power of ten (nanoBragg "
                                   "-fluence; its default is 1.26e29). Scales every pixel."),
                       15.0, 40.0, 3, 0.1, 1.0,
                       [](const Experiment& e) { return std::log10(std::max(e.beam.effectiveFluence(), 1.0)); },
                       [](Experiment& e, double v) {
                           e.beam.fluence = std::pow(10.0, v);
                           e.beam.flux = 0.0;
                       }));
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
    p->finish();
    return p;
}

} // namespace bv::app
