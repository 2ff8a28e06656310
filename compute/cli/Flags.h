#pragma once
// The table of command-line options: every option nanoBragg accepts (nanoBragg.c, its
// argument loop) under every spelling it effectively accepts, and braggview's own. Names
// are matched exactly (the reference's substring matching is not imitated; where it made
// one option act as another, docs/reference-quirks.md says so). usageText() and
// parseCommandLine() are both generated from this one table.

#include <string>
#include <string_view>
#include <vector>

namespace bv::cli {

struct ParseContext; // CommandLine.cpp's state while the options are applied
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
};

// All options, in the order usage lists them.
const std::vector<Flag>& flagTable();

// The option spelled exactly `name`, or nullptr.
const Flag* findFlag(std::string_view name);

// Known spellings `name` may have meant: those it abbreviates (at most three), else the
// nearest one when it is a typo away; empty when nothing is close.
std::vector<std::string> suggestFlagNames(std::string_view name);

// Title of a group in the usage text.
const char* flagGroupTitle(FlagGroup group);

} // namespace bv::cli
