#pragma once
// The parameter panels: Beam, Detector, Crystal, Sampling. Each is a column of thin editors
// (ParameterField for numbers, a combo box for a choice, a check box for a switch), each
// bound to one Experiment field; information lines (the pivot and beam centre in use, the
// steps per pixel) are read from the last resolved experiment.

#include "app/ParameterField.h"
#include "compute/request/Parameters.h"

#include <QWidget>

#include <functional>
#include <vector>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QVBoxLayout;

namespace bv::app {

class ExperimentDocument;

class ParameterPanel : public QWidget {
    Q_OBJECT

  public:
    ParameterPanel(ExperimentDocument& document, const QString& title, QWidget* parent = nullptr);

    const QString& title() const { return m_title; }
    ExperimentDocument& document() { return m_document; }

    void addHeading(const QString& text);
    // objectName: the field's name in sessions and tests ("distance")
    ParameterField* addField(const QString& objectName, FieldBinding binding);
    // The parameter table's field `key` (compute/request/Parameters.h: FieldView), here.
    ParameterField* addField(const char* key);
    QComboBox* addChoice(const QString& objectName, const QString& label, const QString& tooltip,
                         const QStringList& items, std::function<int(const Experiment&)> get,
                         std::function<void(int)> set);
    QCheckBox* addSwitch(const QString& objectName, const QString& label, const QString& tooltip,
                         std::function<bool(const Experiment&)> get,
                         std::function<void(Experiment&, bool)> set);
    QLabel* addInfo(const QString& objectName,
                    std::function<QString(const Experiment&, const ResolvedExperiment*)> text);
    // A widget of the panel's own (the Detector panel's chooser and module list), refreshed
    // with the editors.
    void addWidget(QWidget* widget, std::function<void(const ResolvedExperiment*)> refresh);
    // `editor` (a choice's combo box, a switch) is disabled while `why` gives a reason, which
    // its tooltip (and its label's) then shows.
    void disableWhen(QWidget* editor, std::function<QString(const Experiment&)> why);
    // After the last editor: the table's fields of `panel` that no addField placed, each under
    // its heading (a new parameter's field appears without a line in the panel), and a stretch.
    void finish(request::FlagGroup panel);

    ParameterField* field(const QString& objectName) const;
    const std::vector<ParameterField*>& fields() const { return m_fields; }

    // Re-reads every editor from the document, the information lines from `resolved`.
    void refresh(const ResolvedExperiment* resolved);

  private:
    ExperimentDocument& m_document;
    QString m_title;
    QVBoxLayout* m_layout = nullptr;
    std::vector<ParameterField*> m_fields;
    std::vector<std::function<void(const ResolvedExperiment*)>> m_refreshers;
    bool m_refreshing = false;
};

ParameterPanel* makeBeamPanel(ExperimentDocument& document, QWidget* parent);
ParameterPanel* makeDetectorPanel(ExperimentDocument& document, QWidget* parent);
ParameterPanel* makeCrystalPanel(ExperimentDocument& document, QWidget* parent);
ParameterPanel* makeSamplingPanel(ExperimentDocument& document, QWidget* parent);

} // namespace bv::app
