#pragma once
// The kinds of the table's views (internal to ParameterViews.cpp and
// ParameterViewsDetector.cpp, which hold the parameters' views themselves): a viewer field
// from its label, unit, tooltip, range, steps and how it reads and edits the experiment, with
// the modifiers some fields take (a logarithmic slider, an automatic value the resolved
// experiment chooses, a field of the flat detector alone), and a parameter's views by option.

#include "compute/model/PanelPlacement.h"
#include "compute/model/Resolve.h"
#include "compute/model/Units.h"
#include "compute/request/DetectorSource.h"
#include "compute/request/Parameters.h"
#include "compute/request/SessionRows.h"

#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bv::request::views {

using namespace sessionrows;
using units::degreesFromRadians;
using units::radiansFromDegrees;
using G = FlagGroup;
using Optional = std::optional<double>;
using Get = std::function<std::optional<double>(const Experiment&)>;
using Set = std::function<void(Experiment&, double)>;

inline FieldView field(G panel, std::string heading, std::string key, std::string label,
                       std::string unit, std::string tooltip, double minimum, double maximum,
                       int decimals, double step, double largeStep, Get get, Set set) {
    FieldView f;
    f.panel = panel;
    f.heading = std::move(heading);
    f.key = std::move(key);
    f.label = std::move(label);
    f.unit = std::move(unit);
    f.tooltip = std::move(tooltip);
    f.minimum = minimum;
    f.maximum = maximum;
    f.decimals = decimals;
    f.step = step;
    f.largeStep = largeStep;
    f.get = std::move(get);
    f.set = std::move(set);
    return f;
}

inline FieldView logarithmic(FieldView f) {
    f.logarithmic = true;
    return f;
}

inline FieldView automatic(FieldView f,
                           std::function<std::optional<double>(const ResolvedExperiment&)> inUse,
                           std::function<void(Experiment&)> setAutomatic) {
    f.automaticValue = std::move(inUse);
    f.setAutomatic = std::move(setAutomatic);
    return f;
}

// a cell's field: a MOSFLM matrix, when there is one, gives the cell instead
inline FieldView usedWhenCellGiven(FieldView f) {
    f.enabledWhen = [](const Experiment& e) {
        return e.crystal.cell.has_value() && !e.crystal.mosflmMatrix.has_value();
    };
    return f;
}

// a field of nanoBragg's flat detector, not used with a detector of several panels
inline FieldView flatOnly(FieldView f, std::string why) {
    f.unavailableWhy = [why](const Experiment& e) {
        return e.detector.panelsFromSource() ? "Not used: " + why + "." : std::string();
    };
    return f;
}

// Used by the flat detector and a preset (which it moves in its own plane, compute/model/
// PanelAim.h), not by the panels of a file, which say where they are.
inline FieldView flatOrPresetOnly(FieldView f, std::string why) {
    f.unavailableWhy = [why](const Experiment& e) {
        return e.detector.panelsFromSource() && !isDetectorPreset(e.detector.panelsSource)
                   ? "Not used: " + why + "."
                   : std::string();
    };
    return f;
}

inline int toCount(double value) {
    return static_cast<int>(std::lround(value));
}

inline Optional countOrAuto(const std::optional<int>& n) {
    return n ? Optional(*n) : std::nullopt;
}

inline const char* const kFlatPixels = "a detector of several panels has the pixels its preset or file "
                                "gives each module (listed above)";

struct Views {
    const char* flag; // the option, by any of its names
    std::optional<SessionField> session;
    std::vector<FieldView> fields;
};


// the views of the parameters, group by group
std::vector<Views> crystalViews();
std::vector<Views> beamViews();
std::vector<Views> detectorViews();
std::vector<Views> samplingViews();
std::vector<Views> signalViews(); // -background, -response_* (ParameterViewsSignal.cpp)

} // namespace bv::request::views
