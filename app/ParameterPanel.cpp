// The parameter panel: a column of thin editors, each bound to one Experiment field.
#include "app/ParameterPanels.h"

#include "app/ExperimentDocument.h"
#include "compute/model/Resolve.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace bv::app {

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

namespace {

// a field of the table as the viewer's widget takes it
FieldBinding bindingOf(const request::FieldView& v) {
    FieldBinding b;
    b.label = QString::fromStdString(v.label);
    b.unit = QString::fromStdString(v.unit);
    b.tooltip = QString::fromStdString(v.tooltip);
    b.minimum = v.minimum;
    b.maximum = v.maximum;
    b.decimals = v.decimals;
    b.step = v.step;
    b.largeStep = v.largeStep;
    b.logarithmic = v.logarithmic;
    b.get = v.get;
    b.set = v.set;
    b.automaticValue = v.automaticValue;
    b.setAutomatic = v.setAutomatic;
    b.enabledWhen = v.enabledWhen;
    b.showWhenUnused = v.showWhenUnused;
    if (v.unavailableWhy)
        b.unavailableWhy = [why = v.unavailableWhy](const Experiment& e) {
            return QString::fromStdString(why(e));
        };
    return b;
}

} // namespace

ParameterField* ParameterPanel::addField(const char* key) {
    const request::FieldView* v = request::findField(key);
    Q_ASSERT_X(v, "ParameterPanel::addField", key);
    if (!v)
        return nullptr;
    return addField(QString::fromStdString(v->key), bindingOf(*v));
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

void ParameterPanel::addWidget(QWidget* widget,
                               std::function<void(const ResolvedExperiment*)> refresh) {
    m_layout->addWidget(widget);
    m_refreshers.push_back(std::move(refresh));
}

void ParameterPanel::disableWhen(QWidget* editor, std::function<QString(const Experiment&)> why) {
    // a choice's label is its row's other child: it says why too
    QList<QWidget*> shown{editor};
    if (qobject_cast<QComboBox*>(editor) && editor->parentWidget() != this)
        shown =
            editor->parentWidget()->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly);
    const QString usual = editor->toolTip();
    m_refreshers.push_back([this, editor, shown, usual, why](const ResolvedExperiment*) {
        const QString reason = why(m_document.experiment());
        editor->setEnabled(reason.isEmpty());
        for (QWidget* w : shown)
            w->setToolTip(reason.isEmpty() ? usual : reason);
    });
}

void ParameterPanel::finish(request::FlagGroup panel) {
    QString heading;
    for (const request::FieldView* v : request::fieldsOf(panel)) {
        if (field(QString::fromStdString(v->key)))
            continue;
        if (QString::fromStdString(v->heading) != heading) {
            heading = QString::fromStdString(v->heading);
            addHeading(heading);
        }
        addField(QString::fromStdString(v->key), bindingOf(*v));
    }
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

} // namespace bv::app
