#pragma once
// How nonBragg and noisify read their command lines, as a table: a word is an option when
// it CONTAINS a rule's pattern (C's strstr), or equals it for the rules the reference guards
// with strlen(); every rule that matches a word applies, in the table's order, so
// "-twotheta_axis 0 0 1" also sets -twotheta to 0 and "-calib_seed 5" also sets -seed,
// as in the reference (docs/reference-quirks.md). Unlike the reference, a word that starts
// with '-' and matches no rule, a missing value and a value that is not a number are errors,
// and an option consumes its values (so "-Xbeam -5" works).
#include <functional>
#include <string>
#include <vector>

namespace bv::io {

// The values that follow an option word.
class OptionValues {
  public:
    OptionValues(std::string option, std::vector<std::string> words)
        : m_option(std::move(option)), m_words(std::move(words)) {}
    // the k-th value as a finite number / a whole number / the word itself; throws bv::Error
    double number(std::size_t k) const;
    int integer(std::size_t k) const;
    const std::string& text(std::size_t k) const;
    const std::string& option() const { return m_option; }

  private:
    std::string m_option;
    std::vector<std::string> m_words;
};

template <class Options> struct WordRule {
    std::vector<std::string> patterns; // any of them
    bool exact = false;                // the word must equal the pattern
    int values = 0;                    // how many words follow it
    std::function<void(Options&, const OptionValues&)> apply;
};

// Whether `word` matches the rule.
bool wordMatches(const std::string& word, const std::vector<std::string>& patterns, bool exact);

// Applies the rules to args (the program's arguments, without its name). `isValue(word)`:
// a word not starting with '-' that no option consumed; the caller decides (noisify takes a
// bare "...floatimage.bin" as its input); returns false to refuse it.
template <class Options>
void applyWordRules(const std::vector<WordRule<Options>>& rules,
                    const std::vector<std::string>& args, Options& options, const char* program,
                    const std::function<bool(Options&, const std::string&)>& bareWord);

} // namespace bv::io

#include "compute/io/ReferenceWords.tpp"
