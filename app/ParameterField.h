#pragma once
// ParameterField: one number of the experiment as a slider and a spin box, with its unit and a
// tooltip that explains it. The field knows how to read its value from an Experiment and how
// to write it back (FieldBinding, in the units shown); it edits the document through
// ExperimentDocument::edit and nothing else: the engine decides what to recompute.
//
// Keys (on the slider or the spin box): Up/Right step up, Down/Left step down, with Shift a
// large step; Page Up/Down also take large steps.
//
// An optional field ("auto" where nanoBragg chooses: the beam centre, the oversampling) has
// a checkbox; while it is ticked the field shows the value in use and cannot be edited.

#include "compute/model/Experiment.h"

#include <QWidget>

#include <functional>
#include <optional>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;

namespace bv {
struct ResolvedExperiment;
}

namespace bv::app {

class ExperimentDocument;

struct FieldBinding {
    QString label;   // "Distance"
    QString unit;    // "mm" (empty: none)
    QString tooltip; // what it is, its nanoBragg option, what moving it does
    double minimum = 0.0, maximum = 1.0;
    int decimals = 2;
    double step = 0.01;      // arrow keys
    double largeStep = 0.1;  // Shift + arrows, Page Up/Down
    bool logarithmic = false; // slider spaced in log(value) (minimum > 0)
    // the value in the units shown; nullopt: "auto" (only with an `automatic` box)
    std::function<std::optional<double>(const Experiment&)> get;
    std::function<void(Experiment&, double)> set;
    // optional fields: the value in use while automatic (from the resolved experiment), and
    // what switching to automatic writes
    std::function<std::optional<double>(const ResolvedExperiment&)> automaticValue;
    std::function<void(Experiment&)> setAutomatic;
    // whether the value is in use (a cell given by a matrix is not); unset: always
    std::function<bool(const Experiment&)> enabledWhen;
    // why the field does not apply now (a beam centre, with a detector of several panels): it
    // is disabled and its tooltip gives the reason; unset or empty: it applies
    std::function<QString(const Experiment&)> unavailableWhy;
    // while unused, the field still shows its value (greyed); else it keeps what it showed
    bool showWhenUnused = false;
};

class ParameterField : public QWidget {
    Q_OBJECT

  public:
    ParameterField(ExperimentDocument& document, FieldBinding binding, QWidget* parent = nullptr);

    const FieldBinding& binding() const { return m_binding; }
    QSlider* slider() const { return m_slider; }
    QDoubleSpinBox* spinBox() const { return m_spin; }
    QCheckBox* automaticBox() const { return m_automatic; }
    double value() const;

    // Sets the value as the user would (through the spin box): edits the document.
    void setValue(double value);
    // Steps as the arrow keys do: +1/-1 steps, large with `large`.
    void stepBy(int steps, bool large);

    // Reads the document (and, for an automatic field, the resolved experiment) again.
    void refresh(const ResolvedExperiment* resolved);

    static constexpr int kSliderTicks = 1000;

  signals:
    void edited(double value);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    int tickOf(double value) const;
    double valueOfTick(int tick) const;
    void commit(double value);
    void showValue(double value);

    ExperimentDocument& m_document;
    FieldBinding m_binding;
    QLabel* m_label = nullptr;
    QSlider* m_slider = nullptr;
    QDoubleSpinBox* m_spin = nullptr;
    QCheckBox* m_automatic = nullptr;
    QString m_tooltip; // the binding's, with the keys
    bool m_refreshing = false;
};

} // namespace bv::app
