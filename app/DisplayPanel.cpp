#include "app/DisplayPanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace bv::app {

namespace {
constexpr int kTicks = 1000;

QWidget* levelRow(QSlider* slider, QDoubleSpinBox* box, QWidget* parent) {
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(slider, 1);
    layout->addWidget(box);
    return row;
}
} // namespace

float percentile(const std::vector<float>& image, const std::vector<std::uint8_t>& skipped,
                 double percent) {
    std::vector<float> values;
    values.reserve(image.size());
    const bool haveSkipped = skipped.size() == image.size();
    for (std::size_t i = 0; i < image.size(); ++i)
        if (!haveSkipped || skipped[i] == 0)
            values.push_back(image[i]);
    if (values.empty())
        return 0.0f;
    const double rank = std::clamp(percent / 100.0, 0.0, 1.0) * static_cast<double>(values.size() - 1);
    const auto nth = values.begin() + static_cast<std::ptrdiff_t>(std::lround(rank));
    std::nth_element(values.begin(), nth, values.end());
    return *nth;
}

DisplayPanel::DisplayPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);

    auto* image = new QGroupBox(tr("Image"), this);
    auto* form = new QFormLayout(image);
    m_colormap = new QComboBox(image);
    m_colormap->setObjectName(QStringLiteral("colormap"));
    for (render::Colormap map : {render::Colormap::Grey, render::Colormap::InvertedGrey,
                                 render::Colormap::Viridis, render::Colormap::Heat})
        m_colormap->addItem(QString::fromLatin1(render::colormapName(map)));
    m_colormap->setToolTip(tr("Colour table: inverted grey (dark spots on white, the "
                              "crystallographers' habit), grey, viridis, heat."));
    form->addRow(tr("Colours"), m_colormap);
    m_scaling = new QComboBox(image);
    m_scaling->setObjectName(QStringLiteral("scaling"));
    m_scaling->addItems({tr("linear"), tr("sqrt"), tr("log")});
    m_scaling->setToolTip(tr("How intensity between the black and white levels maps to the "
                             "table: linear, square root, or logarithmic (log(1 + 1000x)/log 1001)."));
    form->addRow(tr("Scaling"), m_scaling);

    m_blackSlider = new QSlider(Qt::Horizontal, image);
    m_blackSlider->setRange(0, kTicks);
    m_black = new QDoubleSpinBox(image);
    m_black->setObjectName(QStringLiteral("black"));
    m_black->setDecimals(3);
    m_black->setRange(-1e12, 1e12);
    m_black->setKeyboardTracking(false);
    m_black->setSuffix(tr(" ph"));
    m_black->setToolTip(tr("Photons drawn as the table's first colour"));
    m_blackSlider->setToolTip(m_black->toolTip());
    form->addRow(tr("Black"), levelRow(m_blackSlider, m_black, image));
    m_whiteSlider = new QSlider(Qt::Horizontal, image);
    m_whiteSlider->setRange(0, kTicks);
    m_white = new QDoubleSpinBox(image);
    m_white->setObjectName(QStringLiteral("white"));
    m_white->setDecimals(3);
    m_white->setRange(-1e12, 1e12);
    m_white->setKeyboardTracking(false);
    m_white->setSuffix(tr(" ph"));
    m_white->setToolTip(tr("Photons drawn as the table's last colour"));
    m_whiteSlider->setToolTip(m_white->toolTip());
    form->addRow(tr("White"), levelRow(m_whiteSlider, m_white, image));

    auto* autoRow = new QWidget(image);
    auto* autoLayout = new QHBoxLayout(autoRow);
    autoLayout->setContentsMargins(0, 0, 0, 0);
    auto* autoButton = new QPushButton(tr("Auto contrast"), autoRow);
    autoButton->setObjectName(QStringLiteral("autoContrast"));
    autoButton->setToolTip(tr("Black at the %1th, white at the %2th percentile of the pixels")
                               .arg(kBlackPercentile)
                               .arg(kWhitePercentile));
    m_autoOnNew = new QCheckBox(tr("on each image"), autoRow);
    m_autoOnNew->setToolTip(tr("Apply the auto contrast to every new image"));
    autoLayout->addWidget(autoButton);
    autoLayout->addWidget(m_autoOnNew);
    form->addRow(QString(), autoRow);

    m_overloadOn = new QCheckBox(tr("Overloads"), image);
    m_overloadOn->setToolTip(tr("Draw pixels at or above the level in the overload colour (red)"));
    m_overload = new QDoubleSpinBox(image);
    m_overload->setObjectName(QStringLiteral("overload"));
    m_overload->setRange(0, 1e12);
    m_overload->setDecimals(0);
    m_overload->setSuffix(tr(" ph"));
    m_overload->setKeyboardTracking(false);
    form->addRow(m_overloadOn, m_overload);
    layout->addWidget(image);

    auto* overlays = new QGroupBox(tr("Overlays"), this);
    // two columns: the dock fits a 900-pixel-high window with the lessons' panels beside it
    auto* overlayLayout = new QGridLayout(overlays);
    m_beam = new QCheckBox(tr("Beam centre"), overlays);
    m_beam->setObjectName(QStringLiteral("overlayBeam"));
    m_beam->setToolTip(tr("Where the direct beam meets the detector plane"));
    m_rings = new QCheckBox(tr("Resolution rings"), overlays);
    m_rings->setObjectName(QStringLiteral("overlayRings"));
    m_rings->setToolTip(tr("Constant-resolution curves, labelled in Å: the cone of each 2θ "
                           "about the beam cut by the detector plane (ellipses on a tilted "
                           "detector)"));
    m_spots = new QCheckBox(tr("Predicted spots"), overlays);
    m_spots->setObjectName(QStringLiteral("overlaySpots"));
    m_spots->setToolTip(tr("Reciprocal-lattice nodes near the Ewald sphere for the current "
                           "orientation (phi and oscillation), circled where their ray meets "
                           "the detector"));
    m_spotLabels = new QCheckBox(tr("h k l labels"), overlays);
    m_spotLabels->setObjectName(QStringLiteral("overlaySpotLabels"));
    m_observed = new QCheckBox(tr("Observed spots (DIALS .refl)"), overlays);
    m_observed->setObjectName(QStringLiteral("overlayObservedSpots"));
    m_observed->setToolTip(tr("File > Open observed spots: each DIALS spot of the frame as a "
                              "cross, green with a line to the simulated spot it matched, red "
                              "where none lies within 5 pixels"));
    overlayLayout->addWidget(m_beam, 0, 0);
    overlayLayout->addWidget(m_rings, 0, 1);
    overlayLayout->addWidget(m_spots, 1, 0);
    overlayLayout->addWidget(m_spotLabels, 1, 1);
    overlayLayout->addWidget(m_observed, 2, 0, 1, 2);
    m_observedSummary = new QLabel(overlays);
    m_observedSummary->setObjectName(QStringLiteral("overlayObservedSummary"));
    m_observedSummary->setContentsMargins(22, 0, 0, 0); // under the checkbox's text
    m_observedSummary->setWordWrap(true);
    m_observedSummary->hide();
    overlayLayout->addWidget(m_observedSummary, 3, 0, 1, 2);
    layout->addWidget(overlays);
    layout->addStretch(1);

    showSettings();
    setOverlays(m_overlays);

    auto settingsEdited = [this] {
        if (!m_updating)
            emitSettings();
    };
    connect(m_colormap, qOverload<int>(&QComboBox::currentIndexChanged), this, settingsEdited);
    connect(m_scaling, qOverload<int>(&QComboBox::currentIndexChanged), this, settingsEdited);
    connect(m_black, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [this, settingsEdited] {
        const QSignalBlocker block(m_blackSlider);
        m_blackSlider->setValue(tickOf(m_black->value()));
        settingsEdited();
    });
    connect(m_white, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [this, settingsEdited] {
        const QSignalBlocker block(m_whiteSlider);
        m_whiteSlider->setValue(tickOf(m_white->value()));
        settingsEdited();
    });
    connect(m_blackSlider, &QSlider::valueChanged, this,
            [this](int tick) { m_black->setValue(valueOfTick(tick)); });
    connect(m_whiteSlider, &QSlider::valueChanged, this,
            [this](int tick) { m_white->setValue(valueOfTick(tick)); });
    connect(m_overloadOn, &QCheckBox::toggled, this, settingsEdited);
    connect(m_overload, qOverload<double>(&QDoubleSpinBox::valueChanged), this, settingsEdited);
    connect(autoButton, &QPushButton::clicked, this, &DisplayPanel::autoContrastRequested);
    for (QCheckBox* box : {m_beam, m_rings, m_spots, m_spotLabels, m_observed})
        connect(box, &QCheckBox::toggled, this, [this] {
            if (m_updating)
                return;
            m_overlays.beamCentre = m_beam->isChecked();
            m_overlays.rings = m_rings->isChecked();
            m_overlays.spots = m_spots->isChecked();
            m_overlays.spotLabels = m_spotLabels->isChecked();
            m_overlays.observedSpots = m_observed->isChecked();
            emit overlaysChanged(m_overlays);
        });
}

void DisplayPanel::setObservedSpotsSummary(const QString& summary) {
    m_observedSummary->setText(summary);
    m_observedSummary->setVisible(!summary.isEmpty());
}

bool DisplayPanel::autoContrastOnNewImage() const {
    return m_autoOnNew->isChecked();
}

void DisplayPanel::setAutoContrastOnNewImage(bool on) {
    m_autoOnNew->setChecked(on);
}

int DisplayPanel::tickOf(double value) const {
    // sqrt spacing: fine steps near the background, coarse near the brightest spot
    const double span = m_rangeHigh - m_rangeLow;
    if (!(span > 0.0))
        return 0;
    const double t = std::sqrt(std::clamp((value - m_rangeLow) / span, 0.0, 1.0));
    return static_cast<int>(std::lround(t * kTicks));
}

double DisplayPanel::valueOfTick(int tick) const {
    const double t = static_cast<double>(tick) / kTicks;
    return m_rangeLow + t * t * (m_rangeHigh - m_rangeLow);
}

void DisplayPanel::setImageRange(float minimum, float maximum) {
    m_rangeLow = std::min<double>(0.0, minimum);
    m_rangeHigh = std::max<double>(maximum, m_rangeLow + 1.0);
    showSettings();
}

void DisplayPanel::autoContrast(const render::ImageHistogram& histogram) {
    if (histogram.empty())
        return;
    setLevels(histogram.percentile(kBlackPercentile), histogram.percentile(kWhitePercentile));
}

void DisplayPanel::autoContrast(const std::vector<float>& image,
                                const std::vector<std::uint8_t>& skipped) {
    if (image.empty())
        return;
    setLevels(percentile(image, skipped, kBlackPercentile),
              percentile(image, skipped, kWhitePercentile));
}

void DisplayPanel::setLevels(float black, float white) {
    m_settings.black = black;
    m_settings.white = white;
    if (m_settings.white <= m_settings.black)
        m_settings.white = m_settings.black + 1.0f;
    showSettings();
    emit settingsChanged(m_settings);
}

void DisplayPanel::setSettings(const render::DisplaySettings& settings) {
    m_settings = settings;
    showSettings();
    emit settingsChanged(m_settings);
}

void DisplayPanel::setOverlays(const OverlaySettings& overlays) {
    m_overlays = overlays;
    m_updating = true;
    m_beam->setChecked(overlays.beamCentre);
    m_rings->setChecked(overlays.rings);
    m_spots->setChecked(overlays.spots);
    m_spotLabels->setChecked(overlays.spotLabels);
    m_observed->setChecked(overlays.observedSpots);
    m_updating = false;
    emit overlaysChanged(m_overlays);
}

void DisplayPanel::showSettings() {
    m_updating = true;
    m_colormap->setCurrentIndex(static_cast<int>(m_settings.colormap));
    m_scaling->setCurrentIndex(static_cast<int>(m_settings.scaling));
    m_black->setValue(m_settings.black);
    m_white->setValue(m_settings.white);
    m_blackSlider->setValue(tickOf(m_settings.black));
    m_whiteSlider->setValue(tickOf(m_settings.white));
    m_overloadOn->setChecked(m_settings.overloadOn);
    m_overload->setValue(m_settings.overload);
    m_updating = false;
}

void DisplayPanel::emitSettings() {
    m_settings.colormap = static_cast<render::Colormap>(m_colormap->currentIndex());
    m_settings.scaling = static_cast<render::Scaling>(m_scaling->currentIndex());
    m_settings.black = static_cast<float>(m_black->value());
    m_settings.white = static_cast<float>(m_white->value());
    m_settings.overloadOn = m_overloadOn->isChecked();
    m_settings.overload = static_cast<float>(m_overload->value());
    emit settingsChanged(m_settings);
}

} // namespace bv::app
