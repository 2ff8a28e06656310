// The Crystal panel: unit cell, orientation, size and shape, mosaicity, rotation (phi).
#include "app/ParameterPanels.h"

#include "app/ExperimentDocument.h"
#include "compute/model/Units.h"

namespace bv::app {

using units::degreesFromRadians;
using units::radiansFromDegrees;

ParameterPanel* makeCrystalPanel(ExperimentDocument& document, QWidget* parent) {
    auto* p = new ParameterPanel(document, QObject::tr("Crystal"), parent);
    ExperimentDocument* doc = &document;
    p->addHeading(QObject::tr("Unit cell"));
    for (const char* key : {"cella", "cellb", "cellc", "cellalpha", "cellbeta", "cellgamma"})
        p->addField(key);
    p->addHeading(QObject::tr("Orientation"));
    for (const char* key : {"missetX", "missetY", "missetZ"})
        p->addField(key);
    p->addHeading(QObject::tr("Size and shape"));
    for (const char* key : {"Na", "Nb", "Nc"})
        p->addField(key);
    const LatticeShape shapes[] = {LatticeShape::Square, LatticeShape::Round, LatticeShape::Gauss,
                                   LatticeShape::Tophat};
    p->addChoice(QStringLiteral("shape"), QObject::tr("Spot shape"),
                 QObject::tr("Lattice transform of the crystal's shape: square (parallelepiped, "
                             "sinc-like with side maxima), round (ellipsoid), gauss (Gaussian "
                             "spots), tophat (flat spots). nanoBragg -square_xtal, -round_xtal, "
                             "-gauss_xtal, -tophat_spots."),
                 {QObject::tr("square"), QObject::tr("round"), QObject::tr("gauss"), QObject::tr("tophat")},
                 [shapes](const Experiment& e) {
                     for (int i = 0; i < 4; ++i)
                         if (shapes[i] == e.crystal.shape)
                             return i;
                     return 0;
                 },
                 [doc, shapes](int index) {
                     doc->edit([&](Experiment& e) { e.crystal.shape = shapes[index]; });
                 });
    p->addHeading(QObject::tr("Mosaicity"));
    p->addField("mosaic");
    p->addField("mosaicDomains");
    p->addHeading(QObject::tr("Rotation (phi)"));
    p->addField("phi");
    p->addField("oscillation");
    p->addField("phiSteps");
    p->addInfo(QStringLiteral("crystalInfo"), [](const Experiment& e, const ResolvedExperiment* r) {
        QString text;
        if (e.crystal.mosflmMatrix)
            text = QObject::tr("The cell comes from the MOSFLM matrix file.");
        if (e.crystal.misset == MissetKind::Random && r)
            text += QObject::tr(" Random misset drawn: %1 %2 %3°.")
                        .arg(degreesFromRadians(r->missetAngles.x), 0, 'f', 3)
                        .arg(degreesFromRadians(r->missetAngles.y), 0, 'f', 3)
                        .arg(degreesFromRadians(r->missetAngles.z), 0, 'f', 3);
        if (r)
            text += QObject::tr(" Cell %1 %2 %3 Å; crystal %4 x %5 x %6 µm.")
                        .arg(r->cell.cell.a, 0, 'f', 2)
                        .arg(r->cell.cell.b, 0, 'f', 2)
                        .arg(r->cell.cell.c, 0, 'f', 2)
                        .arg(r->crystalSize.x * 1e6, 0, 'f', 3)
                        .arg(r->crystalSize.y * 1e6, 0, 'f', 3)
                        .arg(r->crystalSize.z * 1e6, 0, 'f', 3);
        return text.trimmed();
    });
    p->finish(request::FlagGroup::Crystal);
    return p;
}

} // namespace bv::app
