#pragma once
// The table of parameters: every option nanoBragg accepts (nanoBragg.c, its argument loop)
// under every spelling it effectively accepts, and braggview's own, each with its values,
// their units and limits (compute/model/PhysicalLimits.h), its default and help, how it
// reads into a run request (apply) and how a request is written back as the option's words
// (write, the inverse). Names are matched exactly (the reference's substring matching is not
// imitated; where it made one option act as another, docs/reference-quirks.md says so).
// The views: cli::parseCommandLine (words -> request), usageText() (Usage.h), commandWords()
// (request -> words: the viewer's "copy headless command").
//
//     const bv::request::Flag* f = bv::request::findFlag("-mosaicity"); // the -mosaic row
//     bv::request::commandWords(request); // {"-mosflm", "-cell", "79.1", ...}

#include "compute/request/RunRequest.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// Title of a group in the usage text.
const char* flagGroupTitle(FlagGroup group);

} // namespace bv::request
