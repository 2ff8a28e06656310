#include "app/ParameterPanels.h"

#include "app/ExperimentDocument.h"
#include "app/PixelGeometry.h"
#include "compute/model/Resolve.h"
#include "compute/model/Units.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <cmath>

namespace bv::app {

namespace {

using units::degreesFromRadians;
using units::radiansFromDegrees;
using Getter = std::function<std::optional<double>(const Experiment&)>;
using Setter = std::function<void(Experiment&, double)>;

FieldBinding number(QString label, QString unit, QString tooltip, double minimum, double maximum,
                    int decimals, double step, double largeStep, Getter get, Setter set) {
    FieldBinding b;
    b.label = std::move(label);
    b.unit = std::move(unit);
    b.tooltip = std::move(tooltip);
    b.minimum = minimum;
    b.maximum = maximum;
    b.decimals = decimals;
    b.step = step;
    b.largeStep = largeStep;
    b.get = std::move(get);
    b.set = std::move(set);
    return b;
}

FieldBinding logarithmic(FieldBinding b) {
    b.logarithmic = true;
    return b;
}

FieldBinding usedWhenCellGiven(FieldBinding b) {
    // a MOSFLM matrix, when there is one, gives the cell instead
    b.enabledWhen = [](const Experiment& e) {
        return e.crystal.cell.has_value() && !e.crystal.mosflmMatrix.has_value();
    };
    return b;
}

FieldBinding automatic(FieldBinding b,
                       std::function<std::optional<double>(const ResolvedExperiment&)> inUse,
                       std::function<void(Experiment&)> setAutomatic) {
    b.automaticValue = std::move(inUse);
    b.setAutomatic = std::move(setAutomatic);
    return b;
}

int toCount(double value) {
    return static_cast<int>(std::lround(value));
}

QString mm(double metres, int decimals = 3) {
    return QString::number(metres * 1000.0, 'f', decimals) + QStringLiteral(" mm");
}

} // namespace

// ---- the panel -----------------------------------------------------------------------------

ParameterPanel::ParameterPanel(ExperimentDocument& document, const QString& title,
                               QWidget* parent)
    : QWidget(parent), m_document(document), m_title(title) {
    m_layout = new QVBoxLayout(this);
    m_layout->setContentsMargins(6, 6, 6, 6);
    m_layout->setSpacing(3);
}

void ParameterPanel::addHeading(const QString& text) {
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(text), this);
    label->setContentsMargins(0, 6, 0, 0);
    m_layout->addWidget(label);
}

ParameterField* ParameterPanel::addField(const QString& objectName, FieldBinding binding) {
    auto* field = new ParameterField(m_document, std::move(binding), this);
    field->setObjectName(objectName);
    m_layout->addWidget(field);
    m_fields.push_back(field);
    return field;
}

QComboBox* ParameterPanel::addChoice(const QString& objectName, const QString& label,
                                     const QString& tooltip, const QStringList& items,
                                     std::function<int(const Experiment&)> get,
                                     std::function<void(int)> set) {
    auto* row = new QWidget(this);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* text = new QLabel(label, row);
    text->setMinimumWidth(110);
    auto* combo = new QComboBox(row);
    combo->setObjectName(objectName);
    combo->addItems(items);
    combo->setToolTip(tooltip);
    text->setToolTip(tooltip);
    layout->addWidget(text);
    layout->addWidget(combo, 1);
    m_layout->addWidget(row);
    connect(combo, qOverload<int>(&QComboBox::currentIndexChanged), this, [this, set](int index) {
        if (!m_refreshing && index >= 0)
            set(index);
    });
    m_refreshers.push_back([this, combo, get](const ResolvedExperiment*) {
        const QSignalBlocker block(combo);
        combo->setCurrentIndex(get(m_document.experiment()));
    });
    return combo;
}

QCheckBox* ParameterPanel::addSwitch(const QString& objectName, const QString& label,
                                     const QString& tooltip,
                                     std::function<bool(const Experiment&)> get,
                                     std::function<void(Experiment&, bool)> set) {
    auto* box = new QCheckBox(label, this);
    box->setObjectName(objectName);
    box->setToolTip(tooltip);
    m_layout->addWidget(box);
    connect(box, &QCheckBox::toggled, this, [this, set](bool on) {
        if (!m_refreshing)
            m_document.edit([&](Experiment& e) { set(e, on); });
    });
    m_refreshers.push_back([this, box, get](const ResolvedExperiment*) {
        const QSignalBlocker block(box);
        box->setChecked(get(m_document.experiment()));
    });
    return box;
}

QLabel* ParameterPanel::addInfo(
    const QString& objectName,
    std::function<QString(const Experiment&, const ResolvedExperiment*)> text) {
    auto* label = new QLabel(this);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setStyleSheet(QStringLiteral("QLabel { color: palette(dark); }"));
    m_layout->addWidget(label);
    m_refreshers.push_back([this, label, text](const ResolvedExperiment* resolved) {
        label->setText(text(m_document.experiment(), resolved));
    });
    return label;
}

void ParameterPanel::finish() {
    m_layout->addStretch(1);
    refresh(nullptr);
}

ParameterField* ParameterPanel::field(const QString& objectName) const {
    for (ParameterField* f : m_fields)
        if (f->objectName() == objectName)
            return f;
    return nullptr;
}

void ParameterPanel::refresh(const ResolvedExperiment* resolved) {
    m_refreshing = true;
    for (ParameterField* f : m_fields)
        f->refresh(resolved);
    for (const auto& refresher : m_refreshers)
        refresher(resolved);
    m_refreshing = false;
}

// ---- Beam ----------------------------------------------------------------------------------

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

// ---- Detector ------------------------------------------------------------------------------

ParameterPanel* makeDetectorPanel(ExperimentDocument& document, QWidget* parent) {
    auto* p = new ParameterPanel(document, QObject::tr("Detector"), parent);
    ExperimentDocument* doc = &document;
    const Convention conventions[] = {Convention::Mosflm, Convention::Xds,   Convention::Adxv,
                                      Convention::Denzo,  Convention::Dials, Convention::Custom};
    QStringList conventionNames;
    for (Convention c : conventions)
        conventionNames << QString::fromLatin1(conventionName(c)).toUpper();
    p->addHeading(QObject::tr("Placement"));
    p->addChoice(QStringLiteral("convention"), QObject::tr("Convention"),
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
    p->addChoice(QStringLiteral("pivot"), QObject::tr("Pivot (CUSTOM)"),
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
    p->addField(QStringLiteral("distance"),
                logarithmic(number(
                    QObject::tr("Distance"), QStringLiteral("mm"),
                    QObject::tr("Sample to the direct-beam spot along the beam (nanoBragg "
                                "-distance). Spots move radially: r = D tan 2θ. Setting it "
                                "drops a close distance given before."),
                    10.0, 2000.0, 2, 1.0, 10.0,
                    [](const Experiment& e) { return e.detector.distance * 1000.0; },
                    [](Experiment& e, double v) {
                        e.detector.distance = v / 1000.0;
                        e.detector.closeDistance.reset();
                    })));
    p->addField(QStringLiteral("beamX"),
                automatic(number(QObject::tr("Beam centre X"), QStringLiteral("mm"),
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
                          [](Experiment& e) { e.detector.beamX.reset(); }));
    p->addField(QStringLiteral("beamY"),
                automatic(number(QObject::tr("Beam centre Y"), QStringLiteral("mm"),
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
                          [](Experiment& e) { e.detector.beamY.reset(); }));
    p->addInfo(QStringLiteral("geometryInfo"),
               [](const Experiment& e, const ResolvedExperiment* r) {
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
                       if (const std::optional<QPointF> hit = PixelGeometry(*r).beamCentre())
                           text += QObject::tr("<br>The beam meets the detector at pixel "
                                               "(%1, %2) fast, slow")
                                       .arg(hit->x(), 0, 'f', 2)
                                       .arg(hit->y(), 0, 'f', 2);
                   }
                   return text;
               });
    p->addHeading(QObject::tr("Pixels"));
    p->addField(QStringLiteral("pixelSize"),
                logarithmic(number(
                    QObject::tr("Pixel size"), QStringLiteral("mm"),
                    QObject::tr("Edge of a square pixel (nanoBragg -pixel). The pixel counts are "
                                "kept, so the detector grows with it."),
                    0.01, 2.0, 4, 0.001, 0.01,
                    [](const Experiment& e) { return e.detector.pixelSize * 1000.0; },
                    [](Experiment& e, double v) {
                        const int fast = e.detector.fastPixels(), slow = e.detector.slowPixels();
                        e.detector.pixelSize = v / 1000.0;
                        e.detector.setPixels(fast, slow);
                    })));
    p->addField(QStringLiteral("fastPixels"),
                logarithmic(number(QObject::tr("Pixels (fast)"), QString(),
                                   QObject::tr("Pixels along the fast axis (nanoBragg "
                                               "-detpixels_f). A new size reallocates the GPU "
                                               "image and records new commands."),
                                   8, 8192, 0, 1, 64,
                                   [](const Experiment& e) { return e.detector.fastPixels(); },
                                   [](Experiment& e, double v) {
                                       e.detector.setPixels(toCount(v), e.detector.slowPixels());
                                   })));
    p->addField(QStringLiteral("slowPixels"),
                logarithmic(number(QObject::tr("Pixels (slow)"), QString(),
                                   QObject::tr("Pixels along the slow axis (nanoBragg "
                                               "-detpixels_s)."),
                                   8, 8192, 0, 1, 64,
                                   [](const Experiment& e) { return e.detector.slowPixels(); },
                                   [](Experiment& e, double v) {
                                       e.detector.setPixels(e.detector.fastPixels(), toCount(v));
                                   })));
    p->addHeading(QObject::tr("Rotations"));
    const char* axes[] = {"x", "y", "z"};
    for (int i = 0; i < 3; ++i) {
        p->addField(QStringLiteral("rot%1").arg(QChar::fromLatin1(axes[i][0]).toUpper()),
                    number(QObject::tr("Rotation %1").arg(QLatin1String(axes[i])), QStringLiteral("°"),
                           QObject::tr("Detector rotation about the laboratory %1 axis, applied "
                                       "%2 (nanoBragg -detector_rot%1), about the pivot.")
                               .arg(QLatin1String(axes[i]))
                               .arg(i == 0 ? QObject::tr("first") : i == 1 ? QObject::tr("second") : QObject::tr("third")),
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
                number(QObject::tr("Two-theta"), QStringLiteral("°"),
                       QObject::tr("Detector swing about the two-theta axis, after the rotations "
                                   "(nanoBragg -twotheta). Resolution rings become ellipses and "
                                   "hyperbolas."),
                       -180.0, 180.0, 3, 0.1, 5.0,
                       [](const Experiment& e) { return degreesFromRadians(e.detector.twotheta); },
                       [](Experiment& e, double v) { e.detector.twotheta = radiansFromDegrees(v); }));
    p->addSwitch(QStringLiteral("curved"), QObject::tr("Curved detector"),
                 QObject::tr("Every pixel at the same distance from the sample (nanoBragg "
                             "-curved_det)."),
                 [](const Experiment& e) { return e.detector.curved; },
                 [](Experiment& e, bool on) { e.detector.curved = on; });
    p->addSwitch(QStringLiteral("pointPixel"), QObject::tr("Point pixels"),
                 QObject::tr("Solid angle 1/R² with no obliquity (nanoBragg -point_pixel)."),
                 [](const Experiment& e) { return e.detector.pointPixel; },
                 [](Experiment& e, bool on) { e.detector.pointPixel = on; });
    p->finish();
    return p;
}

// ---- Crystal -------------------------------------------------------------------------------

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

// ---- Sampling ------------------------------------------------------------------------------

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
