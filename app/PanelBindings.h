#pragma once
// The bindings the parameter panels share: a number field from its label, unit, tooltip,
// range, steps and the Experiment field it edits, and the modifiers some fields take (a
// logarithmic slider, an automatic value the resolved experiment chooses).

#include "app/ParameterField.h"
#include "compute/model/Resolve.h"

#include <QString>

#include <cmath>
#include <functional>
#include <optional>
#include <utility>

namespace bv::app::panels {

using Getter = std::function<std::optional<double>(const Experiment&)>;
using Setter = std::function<void(Experiment&, double)>;

inline FieldBinding number(QString label, QString unit, QString tooltip, double minimum,
                           double maximum, int decimals, double step, double largeStep,
                           Getter get, Setter set) {
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

inline FieldBinding logarithmic(FieldBinding b) {
    b.logarithmic = true;
    return b;
}

inline FieldBinding automatic(FieldBinding b,
                              std::function<std::optional<double>(const ResolvedExperiment&)> inUse,
                              std::function<void(Experiment&)> setAutomatic) {
    b.automaticValue = std::move(inUse);
    b.setAutomatic = std::move(setAutomatic);
    return b;
}

// a count from a field's double value
inline int toCount(double value) {
    return static_cast<int>(std::lround(value));
}

} // namespace bv::app::panels
