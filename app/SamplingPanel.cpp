// The Sampling panel: arithmetic, sub-pixels, sensor, limits and background; then braggview's
// own amorphous background and detector response (-background, -response_*).
#include "app/ParameterPanels.h"

#include "app/ExperimentDocument.h"
#include "compute/amorphous/Materials.h"

#include <QComboBox>

namespace bv::app {

namespace {

// -background: its material as a choice (the built-in ones; a .stol file named on the
// command line or in a session is the last item), and its numbers from the table
void addBackground(ParameterPanel* p) {
    const std::vector<std::string> materials = amorphous::materialNames();
    QStringList items{QObject::tr("none")};
    for (const std::string& m : materials)
        items << QString::fromStdString(m);
    items << QObject::tr("a .stol file");
    const int fileItem = static_cast<int>(items.size()) - 1;
    p->addHeading(QObject::tr("Background"));
    ExperimentDocument* doc = &p->document();
    p->addChoice(
        QStringLiteral("backgroundMaterial"), QObject::tr("Material"),
        QObject::tr("An amorphous layer in the beam (braggview -background): its scattering, "
                    "by nonBragg's physics, is added to the image, as it is to the headless "
                    "run's files. A .stol file is named on the command line."),
        items,
        [materials, fileItem](const Experiment& e) {
            if (e.background.material.empty())
                return 0;
            for (std::size_t i = 0; i < materials.size(); ++i)
                if (e.background.material == materials[i])
                    return static_cast<int>(i) + 1;
            return fileItem;
        },
        [doc, materials, fileItem](int index) {
            if (index == fileItem)
                return; // a file comes from the command line or a session
            doc->edit([&](Experiment& e) {
                e.background.material =
                    index == 0 ? std::string() : materials[static_cast<std::size_t>(index) - 1];
            });
        });
    p->addField("backgroundThickness");
    p->addField("backgroundDensity");
    p->addField("backgroundMW");
}

// -response_*: on or off, the point spread function's shape, and the table's numbers
void addResponse(ParameterPanel* p) {
    p->addHeading(QObject::tr("Detector response"));
    ExperimentDocument* doc = &p->document();
    p->addSwitch(QStringLiteral("response"), QObject::tr("On"),
                 QObject::tr("noisify's chain for the noise image (braggview -response_*): "
                             "flicker, calibration, Poisson, point spread, gain, readout. The "
                             "image shown is the photons spread by the point spread function; "
                             "the noise terms and the gain are in the exported noise image."),
                 [](const Experiment& e) { return e.response.enabled; },
                 [](Experiment& e, bool on) { e.response.enabled = on; });
    QComboBox* psf = p->addChoice(
        QStringLiteral("psf"), QObject::tr("Point spread"),
        QObject::tr("The detector's point spread function (braggview -response_psf): a "
                    "Gaussian, or a fibre-optic taper's long-tailed spot."),
        {QObject::tr("none"), QObject::tr("gauss"), QObject::tr("fiber")},
        [](const Experiment& e) {
            return e.response.psf == "gauss" ? 1 : e.response.psf == "fiber" ? 2 : 0;
        },
        [doc](int index) {
            doc->edit([&](Experiment& e) {
                e.response.psf = index == 1 ? "gauss" : index == 2 ? "fiber" : "";
            });
        });
    p->disableWhen(psf, [](const Experiment& e) {
        return e.response.enabled ? QString()
                                  : QObject::tr("Not used: the detector response is off.");
    });
    for (const char* key : {"psfFwhm", "psfRadius", "gain", "readout", "flicker", "calibration"})
        p->addField(key);
}

} // namespace

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
    addBackground(p);
    addResponse(p);
    p->finish(request::FlagGroup::Sampling);
    return p;
}

} // namespace bv::app
