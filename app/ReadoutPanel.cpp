#include "app/ReadoutPanel.h"

#include "compute/model/Units.h"

#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <cmath>

namespace bv::app {

namespace {
QLabel* value(QWidget* parent, const QString& name) {
    auto* label = new QLabel(QStringLiteral("–"), parent);
    label->setObjectName(name);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setMinimumWidth(160);
    return label;
}
} // namespace

ReadoutPanel::ReadoutPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    m_title = new QLabel(tr("Under the cursor"), this);
    layout->addWidget(m_title);
    auto* form = new QFormLayout;
    m_form = form;
    m_pixel = value(this, QStringLiteral("pixel"));
    m_intensity = value(this, QStringLiteral("intensity"));
    m_measured = value(this, QStringLiteral("measured"));
    m_difference = value(this, QStringLiteral("difference"));
    m_twoTheta = value(this, QStringLiteral("twoTheta"));
    m_d = value(this, QStringLiteral("d"));
    m_q = value(this, QStringLiteral("q"));
    m_hkl = value(this, QStringLiteral("hkl"));
    form->addRow(tr("Pixel (fast, slow)"), m_pixel);
    form->addRow(tr("Intensity"), m_intensity);
    form->addRow(tr("Measured"), m_measured);
    form->addRow(tr("Measured − fit"), m_difference);
    m_difference->setToolTip(tr("measured − k × simulated − b, k and b the fit of the whole "
                                "frame (the Difference view's value)"));
    form->setRowVisible(m_measured, false);
    form->setRowVisible(m_difference, false);
    form->addRow(tr("2θ"), m_twoTheta);
    form->addRow(tr("Resolution d"), m_d);
    form->addRow(tr("|q| = 4π sin θ/λ"), m_q);
    form->addRow(tr("h k l"), m_hkl);
    layout->addLayout(form);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setText(tr("Geometry at the pixel centre, host-side from the resolved experiment; "
                       "h k l for the crystal at phi0 without mosaic domains. Click pins a "
                       "pixel, click it again to unpin."));
    m_note->setStyleSheet(QStringLiteral("QLabel { color: palette(dark); }"));
    layout->addWidget(m_note);
    layout->addStretch(1);
}

QString ReadoutPanel::formatIntensity(float photons) {
    return QString::number(static_cast<double>(photons), 'g', 7) + tr(" photons");
}

void ReadoutPanel::show(const std::optional<Readout>& readout, bool pinned) {
    m_title->setText(pinned ? tr("Pinned pixel") : tr("Under the cursor"));
    const QString none = QStringLiteral("–");
    const bool measuredRows = readout && readout->hasMeasuredFrame;
    m_form->setRowVisible(m_measured, measuredRows);
    m_form->setRowVisible(m_difference, measuredRows);
    if (!readout) {
        for (QLabel* l : {m_pixel, m_intensity, m_measured, m_difference, m_twoTheta, m_d, m_q, m_hkl})
            l->setText(none);
        return;
    }
    const PixelInfo& p = readout->info;
    if (p.panel >= 0)
        m_pixel->setText(QStringLiteral("%1 (panel %2): %3, %4")
                             .arg(p.panelName.empty() ? QString::number(p.panel)
                                                      : QString::fromStdString(p.panelName))
                             .arg(p.panel)
                             .arg(p.fast)
                             .arg(p.slow));
    else
        m_pixel->setText(QStringLiteral("%1, %2").arg(p.fast).arg(p.slow));
    if (!readout->intensity)
        m_intensity->setText(tr("outside the detector"));
    else if (readout->skipped)
        m_intensity->setText(tr("not simulated (mask or ROI)"));
    else
        m_intensity->setText(formatIntensity(*readout->intensity));
    if (measuredRows) {
        m_measured->setText(readout->measured
                                ? QString::number(static_cast<double>(*readout->measured), 'g', 7) +
                                      tr(" counts")
                                : tr("no data"));
        m_difference->setText(readout->difference
                                  ? QString::number(static_cast<double>(*readout->difference), 'g', 5) +
                                        tr(" counts")
                                  : none);
    }
    m_twoTheta->setText(QString::number(units::degreesFromRadians(p.twoTheta), 'f', 4) +
                        QStringLiteral("°"));
    m_d->setText(std::isfinite(p.dSpacing) ? QString::number(p.dSpacing, 'f', 4) + QStringLiteral(" Å")
                                           : QStringLiteral("∞"));
    m_q->setText(QString::number(p.q, 'f', 5) + QStringLiteral(" Å⁻¹"));
    m_hkl->setText(QStringLiteral("%1  %2  %3")
                       .arg(p.hkl.x, 0, 'f', 3)
                       .arg(p.hkl.y, 0, 'f', 3)
                       .arg(p.hkl.z, 0, 'f', 3));
}

QString ReadoutPanel::text(const QString& key) const {
    if (const auto* label = findChild<QLabel*>(key))
        return label->text();
    return {};
}

} // namespace bv::app
