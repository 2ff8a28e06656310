// The Crystal panel: unit cell, orientation, size and shape, mosaicity, rotation (phi).
#include "app/ParameterPanels.h"

#include "app/ExperimentDocument.h"
#include "app/PanelBindings.h"
#include "compute/model/Units.h"

namespace bv::app {

namespace {

FieldBinding usedWhenCellGiven(FieldBinding b) {
    // a MOSFLM matrix, when there is one, gives the cell instead
    b.enabledWhen = [](const Experiment& e) {
        return e.crystal.cell.has_value() && !e.crystal.mosflmMatrix.has_value();
    };
    return b;
}

} // namespace

using namespace panels;
using units::degreesFromRadians;
using units::radiansFromDegrees;

ParameterPanel* makeCrystalPanel(ExperimentDocument& document, QWidget* parent) {
    auto* p = new ParameterPanel(document, QObject::tr("Crystal"), parent);
    ExperimentDocument* doc = &document;
    p->addHeading(QObject::tr("Unit cell"));
    const char* lengthNames[] = {"a", "b", "c"};
    for (int i = 0; i < 3; ++i) {
        p->addField(QStringLiteral("cell%1").arg(QLatin1String(lengthNames[i])),
                    usedWhenCellGiven(logarithmic(number(
                        QStringLiteral("%1").arg(QLatin1String(lengthNames[i])), QStringLiteral("Å"),
                        QObject::tr("Unit-cell edge %1 (nanoBragg -cell). Reciprocal-lattice "
                                    "spacing, and so spot spacing, goes as 1/%1. Not used while "
                                    "a MOSFLM matrix gives the cell.")
                            .arg(QLatin1String(lengthNames[i])),
                        2.0, 1000.0, 3, 0.1, 5.0,
                        [i](const Experiment& e) -> std::optional<double> {
                            if (!e.crystal.cell)
                                return 0.0;
                            const double v[] = {e.crystal.cell->a, e.crystal.cell->b, e.crystal.cell->c};
                            return v[i];
                        },
                        [i](Experiment& e, double v) {
                            if (!e.crystal.cell)
                                return;
                            double* t[] = {&e.crystal.cell->a, &e.crystal.cell->b, &e.crystal.cell->c};
                            *t[i] = v;
                        }))));
    }
    const char* angleNames[] = {"α", "β", "γ"};
    const char* angleKeys[] = {"alpha", "beta", "gamma"};
    for (int i = 0; i < 3; ++i) {
        p->addField(QStringLiteral("cell%1").arg(QLatin1String(angleKeys[i])),
                    usedWhenCellGiven(number(QString::fromUtf8(angleNames[i]), QStringLiteral("°"),
                           QObject::tr("Unit-cell angle %1 (nanoBragg -cell).").arg(QString::fromUtf8(angleNames[i])),
                           20.0, 160.0, 3, 0.1, 5.0,
                           [i](const Experiment& e) -> std::optional<double> {
                               if (!e.crystal.cell)
                                   return 90.0;
                               const double v[] = {e.crystal.cell->alpha, e.crystal.cell->beta,
                                                   e.crystal.cell->gamma};
                               return v[i] == 0.0 ? 90.0 : degreesFromRadians(v[i]);
                           },
                           [i](Experiment& e, double v) {
                               if (!e.crystal.cell)
                                   return;
                               double* t[] = {&e.crystal.cell->alpha, &e.crystal.cell->beta,
                                              &e.crystal.cell->gamma};
                               *t[i] = radiansFromDegrees(v);
                           })));
    }
    p->addHeading(QObject::tr("Orientation"));
    const char* missetAxes[] = {"x", "y", "z"};
    for (int i = 0; i < 3; ++i) {
        p->addField(QStringLiteral("misset%1").arg(QChar::fromLatin1(missetAxes[i][0]).toUpper()),
                    number(QObject::tr("Misset %1").arg(QLatin1String(missetAxes[i])), QStringLiteral("°"),
                           QObject::tr("Crystal rotation about %1 (nanoBragg -misset; applied x, "
                                       "then y, then z). Turns the whole pattern of spots.")
                               .arg(QLatin1String(missetAxes[i])),
                           -180.0, 180.0, 3, 0.1, 5.0,
                           [i](const Experiment& e) {
                               return e.crystal.misset == MissetKind::Angles
                                          ? degreesFromRadians(e.crystal.missetAngles[i])
                                          : 0.0;
                           },
                           [i](Experiment& e, double v) {
                               if (e.crystal.misset != MissetKind::Angles)
                                   e.crystal.missetAngles = glm::dvec3(0.0);
                               e.crystal.misset = MissetKind::Angles;
                               e.crystal.missetAngles[i] = radiansFromDegrees(v);
                           }));
    }
    p->addHeading(QObject::tr("Size and shape"));
    const char* cellCounts[] = {"Na", "Nb", "Nc"};
    for (int i = 0; i < 3; ++i) {
        p->addField(QLatin1String(cellCounts[i]),
                    logarithmic(number(
                        QLatin1String(cellCounts[i]), QObject::tr("cells"),
                        QObject::tr("Unit cells along %1 (nanoBragg -%2). Spots get sharper as "
                                    "1/N; replaces a crystal size given in mm.")
                            .arg(QChar::fromLatin1(static_cast<char>('a' + i)))
                            .arg(QLatin1String(cellCounts[i])),
                        1.0, 1000.0, 0, 1.0, 10.0,
                        [i](const Experiment& e) { return e.crystal.cells[i]; },
                        [i](Experiment& e, double v) {
                            e.crystal.cells[i] = toCount(v);
                            e.crystal.sampleSize[i] = 0.0;
                        })));
    }
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
    p->addField(QStringLiteral("mosaic"),
                number(QObject::tr("Mosaic spread"), QStringLiteral("°"),
                       QObject::tr("Isotropic spread of the mosaic domains' orientations "
                                   "(nanoBragg -mosaic); spots stretch into arcs."),
                       0.0, 10.0, 3, 0.01, 0.1,
                       [](const Experiment& e) { return degreesFromRadians(e.crystal.mosaicSpread.value_or(0.0)); },
                       [](Experiment& e, double v) { e.crystal.mosaicSpread = radiansFromDegrees(v); }));
    p->addField(QStringLiteral("mosaicDomains"),
                automatic(logarithmic(number(
                              QObject::tr("Domains"), QString(),
                              QObject::tr("Number of mosaic domains sampled (nanoBragg "
                                          "-mosaic_dom). Work grows in proportion."),
                              1, 5000, 0, 1, 10,
                              [](const Experiment& e) -> std::optional<double> {
                                  if (!e.crystal.mosaicDomains)
                                      return std::nullopt;
                                  return *e.crystal.mosaicDomains;
                              },
                              [](Experiment& e, double v) { e.crystal.mosaicDomains = toCount(v); })),
                          [](const ResolvedExperiment& r) -> std::optional<double> {
                              return static_cast<double>(r.mosaicDomains.size());
                          },
                          [](Experiment& e) { e.crystal.mosaicDomains.reset(); }));
    p->addHeading(QObject::tr("Rotation (phi)"));
    p->addField(QStringLiteral("phi"),
                number(QObject::tr("Phi"), QStringLiteral("°"),
                       QObject::tr("Spindle angle at the start of the exposure (nanoBragg -phi)."),
                       -360.0, 360.0, 3, 0.1, 5.0,
                       [](const Experiment& e) { return degreesFromRadians(e.crystal.phi0); },
                       [](Experiment& e, double v) { e.crystal.phi0 = radiansFromDegrees(v); }));
    p->addField(QStringLiteral("oscillation"),
                number(QObject::tr("Oscillation"), QStringLiteral("°"),
                       QObject::tr("Spindle rotation during the exposure (nanoBragg -osc); 0: a "
                                   "still. More spots cross the Ewald sphere."),
                       0.0, 30.0, 3, 0.01, 0.5,
                       [](const Experiment& e) { return degreesFromRadians(e.crystal.phi.range.value_or(0.0)); },
                       [](Experiment& e, double v) { e.crystal.phi.range = radiansFromDegrees(v); }));
    p->addField(QStringLiteral("phiSteps"),
                automatic(number(QObject::tr("Phi steps"), QString(),
                                 QObject::tr("Samples across the oscillation (nanoBragg "
                                             "-phisteps). Work grows in proportion."),
                                 1, 500, 0, 1, 10,
                                 [](const Experiment& e) -> std::optional<double> {
                                     if (!e.crystal.phi.steps)
                                         return std::nullopt;
                                     return *e.crystal.phi.steps;
                                 },
                                 [](Experiment& e, double v) { e.crystal.phi.steps = toCount(v); }),
                          [](const ResolvedExperiment& r) -> std::optional<double> { return r.phi.steps; },
                          [](Experiment& e) { e.crystal.phi.steps.reset(); }));
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
    p->finish();
    return p;
}

} // namespace bv::app
