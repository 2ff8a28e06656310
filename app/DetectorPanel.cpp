// The Detector panel: which detector (flat, a preset, a file) and its modules, placement,
// pixels, rotations. With a detector of several panels the flat detector's own fields (beam
// centre, pivot, pixels, curved) are disabled, each saying why.
#include "app/ParameterPanels.h"

#include "app/DetectorChooser.h"
#include "app/ExperimentDocument.h"
#include "app/PanelBindings.h"
#include "app/PixelGeometry.h"
#include "compute/model/PanelPlacement.h"
#include "compute/model/Units.h"

#include <QCheckBox>
#include <QComboBox>

namespace bv::app {

namespace {

QString mm(double metres, int decimals = 3) {
    return QString::number(metres * 1000.0, 'f', decimals) + QStringLiteral(" mm");
}

// A reason while the detector is one of several panels, none for the flat detector.
std::function<QString(const Experiment&)> whenPanels(const QString& why) {
    return [why](const Experiment& e) {
        return e.detector.panelsFromSource() ? QObject::tr("Not used: %1.").arg(why) : QString();
    };
}

FieldBinding flatOnly(FieldBinding b, const QString& why) {
    b.unavailableWhy = whenPanels(why);
    return b;
}

} // namespace

using namespace panels;
using units::degreesFromRadians;
using units::radiansFromDegrees;

ParameterPanel* makeDetectorPanel(ExperimentDocument& document, QWidget* parent) {
    auto* p = new ParameterPanel(document, QObject::tr("Detector"), parent);
    ExperimentDocument* doc = &document;
    const Convention conventions[] = {Convention::Mosflm, Convention::Xds,   Convention::Adxv,
                                      Convention::Denzo,  Convention::Dials, Convention::Custom};
    QStringList conventionNames;
    for (Convention c : conventions)
        conventionNames << QString::fromLatin1(conventionName(c)).toUpper();
    p->addHeading(QObject::tr("Detector"));
    auto* chooser = new DetectorChooser(document, p);
    p->addWidget(chooser, [chooser](const ResolvedExperiment* r) { chooser->refresh(r); });
    const QString noBeamCentre = QString::fromUtf8(kPanelsHaveNoBeamCentre);
    const QString flatPixels = QObject::tr("a detector of several panels has the pixels its "
                                           "preset or file gives each module (listed above)");
    p->addHeading(QObject::tr("Placement"));
    p->addChoice(
        QStringLiteral("convention"), QObject::tr("Convention"),
        QObject::tr("Laboratory frame and beam-centre convention (nanoBragg -mosflm, "
                    "-xds, -adxv, -denzo, -dials; CUSTOM keeps the vectors given). A "
                    "named convention also imposes its pivot."),
        conventionNames,
        [conventions](const Experiment& e) {
            for (int i = 0; i < 6; ++i)
                if (conventions[i] == e.convention)
                    return i;
            return 0;
        },
        [doc, conventions](int index) {
            doc->edit([&](Experiment& e) { e.convention = conventions[index]; });
        });
    QComboBox* pivotChoice = p->addChoice(
        QStringLiteral("pivot"), QObject::tr("Pivot (CUSTOM)"),
        QObject::tr("The point the detector rotations keep fixed: the beam spot or the "
                    "sample (nanoBragg -pivot). Only the CUSTOM convention honours it; "
                    "the pivot in use is shown below."),
        {QObject::tr("beam"), QObject::tr("sample")},
        [](const Experiment& e) { return e.detector.pivot == Pivot::Beam ? 0 : 1; },
        [doc](int index) {
            doc->edit([&](Experiment& e) {
                e.detector.pivot = index == 0 ? Pivot::Beam : Pivot::Sample;
            });
        });
    p->disableWhen(pivotChoice, whenPanels(QString::fromUtf8(kPanelsTurnAboutTheSample)));
    p->addField(QStringLiteral("distance"),
                logarithmic(number(
                    QObject::tr("Distance"), QStringLiteral("mm"),
                    QObject::tr("Sample to the direct-beam spot along the beam (nanoBragg "
                                "-distance). Spots move radially: r = D tan 2θ. Setting it "
                                "drops a close distance given before. A detector of several "
                                "panels moves along the beam until its centre is this far."),
                    10.0, 2000.0, 2, 1.0, 10.0,
                    [](const Experiment& e) { return e.detector.distance * 1000.0; },
                    [](Experiment& e, double v) {
                        e.detector.distance = v / 1000.0;
                        e.detector.closeDistance.reset();
                        e.detector.distanceStated = true; // it moves a file's panels too
                    })));
    p->addField(QStringLiteral("beamX"),
                flatOnly(automatic(
                             number(
                                 QObject::tr("Beam centre X"), QStringLiteral("mm"),
                                 QObject::tr("Direct-beam position as the image header states it "
                                             "(nanoBragg -Xbeam; its meaning depends on the "
                                             "convention). Auto: the detector centre."),
                                 -500.0, 500.0, 3, 0.1, 1.0,
                                 [](const Experiment& e) -> std::optional<double> {
                                     if (!e.detector.beamX)
                                         return std::nullopt;
                                     return *e.detector.beamX * 1000.0;
                                 },
                                 [](Experiment& e, double v) { e.detector.beamX = v / 1000.0; }),
                             [](const ResolvedExperiment& r) -> std::optional<double> {
                                 return r.detector.Xbeam * 1000.0;
                             },
                             [](Experiment& e) { e.detector.beamX.reset(); }),
                         noBeamCentre));
    p->addField(QStringLiteral("beamY"),
                flatOnly(automatic(
                             number(
                                 QObject::tr("Beam centre Y"), QStringLiteral("mm"),
                                 QObject::tr("Direct-beam position, header Y (nanoBragg -Ybeam). "
                                             "Auto: the detector centre."),
                                 -500.0, 500.0, 3, 0.1, 1.0,
                                 [](const Experiment& e) -> std::optional<double> {
                                     if (!e.detector.beamY)
                                         return std::nullopt;
                                     return *e.detector.beamY * 1000.0;
                                 },
                                 [](Experiment& e, double v) { e.detector.beamY = v / 1000.0; }),
                             [](const ResolvedExperiment& r) -> std::optional<double> {
                                 return r.detector.Ybeam * 1000.0;
                             },
                             [](Experiment& e) { e.detector.beamY.reset(); }),
                         noBeamCentre));
    p->addInfo(
        QStringLiteral("geometryInfo"), [](const Experiment& e, const ResolvedExperiment* r) {
            if (e.detector.panelsFromSource())
                return QObject::tr("The panels turn about the sample; the Distance is "
                                   "that of their centre along the beam.");
            const Pivot pivot = e.effectivePivot();
            QString text = QObject::tr("Pivot in use: <b>%1</b>").arg(pivotName(pivot));
            if (conventionPivot(e.convention))
                text += QObject::tr(" (imposed by %1)")
                            .arg(QString::fromLatin1(conventionName(e.convention)).toUpper());
            if (r) {
                const DetectorGeometry& d = r->detector;
                text += QObject::tr("<br>Beam centre in use: Xbeam %1, Ybeam %2 "
                                    "(header terms)<br>Close distance %3")
                            .arg(mm(d.Xbeam), mm(d.Ybeam), mm(d.closeDistance));
                // where the direct beam meets the (rotated) detector plane
                if (const std::optional<QPointF> hit = toQPointF(PixelGeometry(*r).beamCentre()))
                    text += QObject::tr("<br>The beam meets the detector at pixel "
                                        "(%1, %2) fast, slow")
                                .arg(hit->x(), 0, 'f', 2)
                                .arg(hit->y(), 0, 'f', 2);
            }
            return text;
        });
    p->addHeading(QObject::tr("Pixels"));
    p->addField(
        QStringLiteral("pixelSize"),
        flatOnly(logarithmic(number(
                     QObject::tr("Pixel size"), QStringLiteral("mm"),
                     QObject::tr("Edge of a square pixel (nanoBragg -pixel). The pixel counts are "
                                 "kept, so the detector grows with it."),
                     0.01, 2.0, 4, 0.001, 0.01,
                     [](const Experiment& e) { return e.detector.pixelSize * 1000.0; },
                     [](Experiment& e, double v) {
                         const int fast = e.detector.fastPixels(), slow = e.detector.slowPixels();
                         e.detector.pixelSize = v / 1000.0;
                         e.detector.setPixels(fast, slow);
                     })),
                 flatPixels));
    p->addField(
        QStringLiteral("fastPixels"),
        flatOnly(logarithmic(number(
                     QObject::tr("Pixels (fast)"), QString(),
                     QObject::tr("Pixels along the fast axis (nanoBragg "
                                 "-detpixels_f). A new size reallocates the GPU "
                                 "image and records new commands."),
                     8, 8192, 0, 1, 64, [](const Experiment& e) { return e.detector.fastPixels(); },
                     [](Experiment& e, double v) {
                         e.detector.setPixels(toCount(v), e.detector.slowPixels());
                     })),
                 flatPixels));
    p->addField(
        QStringLiteral("slowPixels"),
        flatOnly(logarithmic(number(
                     QObject::tr("Pixels (slow)"), QString(),
                     QObject::tr("Pixels along the slow axis (nanoBragg "
                                 "-detpixels_s)."),
                     8, 8192, 0, 1, 64, [](const Experiment& e) { return e.detector.slowPixels(); },
                     [](Experiment& e, double v) {
                         e.detector.setPixels(e.detector.fastPixels(), toCount(v));
                     })),
                 flatPixels));
    p->addHeading(QObject::tr("Rotations"));
    const char* axes[] = {"x", "y", "z"};
    for (int i = 0; i < 3; ++i) {
        p->addField(QStringLiteral("rot%1").arg(QChar::fromLatin1(axes[i][0]).toUpper()),
                    number(
                        QObject::tr("Rotation %1").arg(QLatin1String(axes[i])), QStringLiteral("°"),
                        QObject::tr("Detector rotation about the laboratory %1 axis, applied "
                                    "%2 (nanoBragg -detector_rot%1), about the pivot.")
                            .arg(QLatin1String(axes[i]))
                            .arg(i == 0   ? QObject::tr("first")
                                 : i == 1 ? QObject::tr("second")
                                          : QObject::tr("third")),
                        -180.0, 180.0, 3, 0.1, 5.0,
                        [i](const Experiment& e) {
                            const double r[] = {e.detector.rotX, e.detector.rotY, e.detector.rotZ};
                            return degreesFromRadians(r[i]);
                        },
                        [i](Experiment& e, double v) {
                            double* r[] = {&e.detector.rotX, &e.detector.rotY, &e.detector.rotZ};
                            *r[i] = radiansFromDegrees(v);
                        }));
    }
    p->addField(QStringLiteral("twotheta"),
                number(
                    QObject::tr("Two-theta"), QStringLiteral("°"),
                    QObject::tr("Detector swing about the two-theta axis, after the rotations "
                                "(nanoBragg -twotheta). Resolution rings become ellipses and "
                                "hyperbolas."),
                    -180.0, 180.0, 3, 0.1, 5.0,
                    [](const Experiment& e) { return degreesFromRadians(e.detector.twotheta); },
                    [](Experiment& e, double v) { e.detector.twotheta = radiansFromDegrees(v); }));
    QCheckBox* curved = p->addSwitch(
        QStringLiteral("curved"), QObject::tr("Curved detector"),
        QObject::tr("Every pixel at the same distance from the sample (nanoBragg "
                    "-curved_det)."),
        [](const Experiment& e) { return e.detector.curved; },
        [](Experiment& e, bool on) { e.detector.curved = on; });
    p->disableWhen(curved, whenPanels(QString::fromUtf8(kPanelsCannotBeCurved)));
    p->addSwitch(
        QStringLiteral("pointPixel"), QObject::tr("Point pixels"),
        QObject::tr("Solid angle 1/R² with no obliquity (nanoBragg -point_pixel)."),
        [](const Experiment& e) { return e.detector.pointPixel; },
        [](Experiment& e, bool on) { e.detector.pointPixel = on; });
    p->finish();
    return p;
}

} // namespace bv::app
