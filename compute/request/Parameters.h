#pragma once
// The table of parameters: every option nanoBragg accepts (nanoBragg.c, its argument loop)
// under every spelling it effectively accepts, and braggview's own, each with its values,
// their units and limits (compute/model/PhysicalLimits.h), its default and help, how it
// reads into a run request (apply) and how a request is written back as the option's words
// (write, the inverse). Names are matched exactly (the reference's substring matching is not
// imitated; where it made one option act as another, docs/reference-quirks.md says so).
// The views: cli::parseCommandLine (words -> request), usageText() (Usage.h), commandWords()
// (request -> words: the viewer's "copy headless command"), the viewer's number fields
// (a row's `fields`: label, unit shown, slider range, decimals; app/ParameterPanel makes the
// widgets of them), the session's rows of a parameter (a row's `session`, read and written in
// the file's layout by SessionFields.h), and Python's keywords (mosaic=0.5 is -mosaic 0.5).
//
//     const bv::request::Flag* f = bv::request::findFlag("-mosaicity"); // the -mosaic row
//     bv::request::commandWords(request); // {"-mosflm", "-cell", "79.1", ...}

#include "compute/request/RunRequest.h"
#include "compute/request/SessionFields.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bv {
struct ResolvedExperiment;
}

namespace bv::request {

struct ParseContext; // the parser's state while the options are applied (ParseContext.h)
class FlagValues;    // the values that followed one option, with checked conversions

// How many values follow an option.
enum class Arity {
    Fixed,         // exactly `values` tokens
    UpToSix,       // -cell: 1 to 6 numbers, ending at the next option
    RandomOrThree, // -misset: "random", or three numbers
};

enum class FlagGroup { Crystal, Beam, Detector, Sampling, Files, Output, Braggview };

// What the viewer shows of a parameter: one number as a slider and a spin box, Qt-free (the
// viewer's panel of the row's group makes the widget: app/ParameterPanel). Texts are UTF-8;
// values are in `unit`, the unit shown, which need not be the option's.
struct FieldView {
    FlagGroup panel = FlagGroup::Crystal; // the panel that shows it
    std::string key;     // the field's name in the viewer, its lessons and tests ("mosaic")
    std::string heading; // the panel's heading it stands under ("Mosaicity")
    std::string label;   // "Mosaic spread"
    std::string unit;    // "°" ("" for a count)
    std::string tooltip; // what it is, its nanoBragg option, what moving it does
    double minimum = 0.0, maximum = 1.0; // the slider's range
    int decimals = 2;
    double step = 0.01, largeStep = 0.1; // arrow keys; Shift + arrows, Page Up/Down
    bool logarithmic = false;            // slider spaced in log(value) (minimum > 0)
    // the value in `unit`; nullopt: "automatic" (only with automaticValue)
    std::function<std::optional<double>(const Experiment&)> get;
    std::function<void(Experiment&, double)> set;
    // an optional value: the value in use while automatic, and what switching to it writes
    std::function<std::optional<double>(const ResolvedExperiment&)> automaticValue;
    std::function<void(Experiment&)> setAutomatic;
    // whether the value is in use (a cell given by a matrix is not); unset: always
    std::function<bool(const Experiment&)> enabledWhen;
    // why the field does not apply now ("" or unset: it applies)
    std::function<std::string(const Experiment&)> unavailableWhy;
    // while unavailable, the field still shows its value, greyed (the background's and the
    // response's numbers, kept while no material is chosen or the response is off)
    bool showWhenUnused = false;
};

struct Flag {
    std::vector<std::string> names; // names[0] is the one usage shows first
    Arity arity = Arity::Fixed;
    int values = 0;                 // tokens after the name (Fixed); the most (UpToSix)
    std::string syntax;             // the values as usage shows them: "<mm>", "beam|sample"
    std::string help;               // what it does, with units
    std::string defaultText;        // the default, "" when there is nothing to say
    FlagGroup group = FlagGroup::Crystal;
    bool noEffect = false;          // accepted for compatibility, changes nothing
    void (*apply)(ParseContext&, const FlagValues&) = nullptr;
    // The words after the name that state a request's value; nothing where the request's
    // words leave the option out (a value that is the default, or that another option
    // states). Null for options that commandWords never writes (aliases of others, files of
    // the outputs, braggview's run settings).
    std::optional<std::vector<std::string>> (*write)(const RunRequest&) = nullptr;
    std::string writtenName; // the spelling commandWords writes (one of names)
    // The viewer's fields of the parameter (a vector option may have one per component), in
    // its panel's order; none where the viewer has no number field for it.
    std::vector<FieldView> fields;
    // The session's row of the parameter (its section and key, read and written by the kind
    // of its value); none where a session holds it otherwise (SessionRows.cpp) or not at all.
    std::optional<SessionField> session;
};

// All options, in the order usage lists them.
const std::vector<Flag>& flagTable();

// The option spelled exactly `name`, or nullptr.
const Flag* findFlag(std::string_view name);

// The words that state `request` (without the program name), for `braggview --headless` or
// nanoBragg: every option that has a writer, in an order that survives the options' side
// effects on each other (an option that also sets the pivot comes before -pivot; -misset_seed
// comes last, where the reference's substring match of -misset cannot catch it). Numbers are
// written in the option's units with the shortest text that reads back to the same double,
// so that cli::parseCommandLine(commandWords(r)).experiment is r.experiment.
std::vector<std::string> commandWords(const RunRequest& request);

// The viewer's field named `key` (FieldView::key), or nullptr; the fields of a group's panel
// in the table's order.
const FieldView* findField(std::string_view key);
std::vector<const FieldView*> fieldsOf(FlagGroup group);

// Title of a group in the usage text.
const char* flagGroupTitle(FlagGroup group);

} // namespace bv::request
