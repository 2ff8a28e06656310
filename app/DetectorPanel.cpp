// The Detector panel: which detector (flat, a preset, a file) and its modules, placement,
// pixels, rotations. With a detector of several panels the flat detector's own fields (beam
// centre, pivot, pixels, curved) are disabled, each saying why.
#include "app/ParameterPanels.h"

#include "app/DetectorChooser.h"
#include "app/ExperimentDocument.h"
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

} // namespace


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
    p->addField("distance");
    p->addField("beamX");
    p->addField("beamY");
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
    p->addField("pixelSize");
    p->addField("fastPixels");
    p->addField("slowPixels");
    p->addHeading(QObject::tr("Rotations"));
    for (const char* key : {"rotX", "rotY", "rotZ"})
        p->addField(key);
    p->addField("twotheta");
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
    p->finish(request::FlagGroup::Detector);
    return p;
}

} // namespace bv::app
