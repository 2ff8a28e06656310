#include "app/ParameterField.h"

#include "app/ExperimentDocument.h"
#include "compute/model/Resolve.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

#include <algorithm>
#include <cmath>

namespace bv::app {

ParameterField::ParameterField(ExperimentDocument& document, FieldBinding binding,
                               QWidget* parent)
    : QWidget(parent), m_document(document), m_binding(std::move(binding)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_label = new QLabel(m_binding.label, this);
    m_label->setMinimumWidth(110);
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setRange(0, kSliderTicks);
    m_slider->setMinimumWidth(120);
    m_slider->setFocusPolicy(Qt::StrongFocus);
    m_spin = new QDoubleSpinBox(this);
    m_spin->setRange(m_binding.minimum, m_binding.maximum);
    m_spin->setDecimals(m_binding.decimals);
    m_spin->setSingleStep(m_binding.step);
    m_spin->setKeyboardTracking(false);
    m_spin->setMinimumWidth(100);
    m_spin->setAccelerated(true);
    if (!m_binding.unit.isEmpty())
        m_spin->setSuffix(QStringLiteral(" ") + m_binding.unit);
    layout->addWidget(m_label);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_spin);
    if (m_binding.setAutomatic) {
        m_automatic = new QCheckBox(tr("auto"), this);
        m_automatic->setToolTip(tr("Let nanoBragg's rules choose this value (shown while "
                                   "ticked); untick to set it yourself."));
        layout->addWidget(m_automatic);
        connect(m_automatic, &QCheckBox::toggled, this, [this](bool automatic) {
            if (m_refreshing)
                return;
            if (automatic)
                m_document.edit([this](Experiment& e) { m_binding.setAutomatic(e); });
            else
                commit(m_spin->value());
        });
    }
    m_tooltip = m_binding.tooltip + tr("<br><i>Arrows step by %1, Shift+arrows by %2.</i>")
                                        .arg(m_binding.step)
                                        .arg(m_binding.largeStep);
    for (QWidget* w : {static_cast<QWidget*>(m_label), static_cast<QWidget*>(m_slider),
                       static_cast<QWidget*>(m_spin)})
        w->setToolTip(m_tooltip);
    m_slider->installEventFilter(this);
    m_spin->installEventFilter(this);
    setFocusProxy(m_slider);

    connect(m_slider, &QSlider::valueChanged, this, [this](int tick) {
        if (m_refreshing)
            return;
        const double value = valueOfTick(tick);
        {
            const QSignalBlocker block(m_spin);
            m_spin->setValue(value);
        }
        commit(m_spin->value());
    });
    connect(m_spin, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [this](double value) {
        if (m_refreshing)
            return;
        {
            const QSignalBlocker block(m_slider);
            m_slider->setValue(tickOf(value));
        }
        commit(value);
    });
    refresh(nullptr);
}

double ParameterField::value() const {
    return m_spin->value();
}

int ParameterField::tickOf(double value) const {
    const double lo = m_binding.minimum, hi = m_binding.maximum;
    double t;
    if (m_binding.logarithmic && lo > 0.0)
        t = std::log(std::max(value, lo) / lo) / std::log(hi / lo);
    else
        t = (value - lo) / (hi - lo);
    return static_cast<int>(std::lround(std::clamp(t, 0.0, 1.0) * kSliderTicks));
}

double ParameterField::valueOfTick(int tick) const {
    const double t = static_cast<double>(tick) / kSliderTicks;
    const double lo = m_binding.minimum, hi = m_binding.maximum;
    if (m_binding.logarithmic && lo > 0.0)
        return lo * std::pow(hi / lo, t);
    return lo + t * (hi - lo);
}

void ParameterField::commit(double value) {
    if (m_automatic && m_automatic->isChecked()) {
        const QSignalBlocker block(m_automatic);
        m_automatic->setChecked(false);
        m_slider->setEnabled(true);
        m_spin->setEnabled(true);
    }
    m_document.edit([this, value](Experiment& e) { m_binding.set(e, value); });
    emit edited(value);
}

void ParameterField::setValue(double value) {
    m_spin->setValue(value);
}

void ParameterField::stepBy(int steps, bool large) {
    if (m_automatic && m_automatic->isChecked())
        return;
    const double step = large ? m_binding.largeStep : m_binding.step;
    m_spin->setValue(std::clamp(m_spin->value() + steps * step, m_binding.minimum,
                                m_binding.maximum));
}

void ParameterField::showValue(double value) {
    m_spin->setValue(value);
    // a slider the user is dragging stays where the hand put it
    if (!m_slider->isSliderDown())
        m_slider->setValue(tickOf(m_spin->value()));
}

void ParameterField::refresh(const ResolvedExperiment* resolved) {
    m_refreshing = true;
    const Experiment& experiment = m_document.experiment();
    const std::optional<double> value = m_binding.get(experiment);
    const QString why = m_binding.unavailableWhy ? m_binding.unavailableWhy(experiment) : QString();
    const bool inUse =
        why.isEmpty() && (!m_binding.enabledWhen || m_binding.enabledWhen(experiment));
    const QString tip = why.isEmpty() ? m_tooltip : why;
    for (QWidget* w : {static_cast<QWidget*>(m_label), static_cast<QWidget*>(m_slider),
                       static_cast<QWidget*>(m_spin)})
        if (w->toolTip() != tip)
            w->setToolTip(tip);
    const bool automatic = m_automatic && !value.has_value();
    if (m_automatic) {
        m_automatic->setChecked(automatic);
        m_automatic->setEnabled(inUse);
    }
    m_slider->setEnabled(inUse && !automatic);
    m_spin->setEnabled(inUse && !automatic);
    if (inUse) {
        if (value)
            showValue(*value);
        else if (resolved && m_binding.automaticValue)
            if (const std::optional<double> inUseValue = m_binding.automaticValue(*resolved))
                showValue(*inUseValue);
    } else if (value && m_binding.showWhenUnused) {
        showValue(*value); // its own value, greyed, while another setting leaves it unused
    }
    m_refreshing = false;
}

bool ParameterField::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        bool large = key->modifiers() & Qt::ShiftModifier;
        int direction = 0;
        switch (key->key()) {
        case Qt::Key_Up: direction = 1; break;
        case Qt::Key_Down: direction = -1; break;
        // in the spin box Left/Right move the text cursor
        case Qt::Key_Right: direction = watched == m_slider ? 1 : 0; break;
        case Qt::Key_Left: direction = watched == m_slider ? -1 : 0; break;
        case Qt::Key_PageUp: direction = 1; large = true; break;
        case Qt::Key_PageDown: direction = -1; large = true; break;
        default: break;
        }
        if (direction != 0) {
            stepBy(direction, large);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace bv::app
