// Template part of ReferenceWords.h.
#include "compute/core/Error.h"

#include <algorithm>

namespace bv::io {

template <class Options>
void applyWordRules(const std::vector<WordRule<Options>>& rules, const std::vector<std::string>& args,
                    Options& options, const char* program,
                    const std::function<bool(Options&, const std::string&)>& bareWord) {
    for (std::size_t i = 0; i < args.size();) {
        const std::string& word = args[i];
        if (word.empty() || word[0] != '-') {
            if (!bareWord(options, word))
                throw Error(std::string(program) + ": '" + word +
                            "' is neither an option nor the value of one");
            ++i;
            continue;
        }
        std::vector<const WordRule<Options>*> matched;
        int values = 0;
        for (const WordRule<Options>& rule : rules)
            if (wordMatches(word, rule.patterns, rule.exact)) {
                matched.push_back(&rule);
                values = std::max(values, rule.values);
            }
        if (matched.empty())
            throw Error(std::string(program) + ": unknown option " + word);
        if (i + static_cast<std::size_t>(values) >= args.size() && values > 0)
            throw Error(std::string(program) + ": " + word + " needs " + std::to_string(values) +
                        " value" + (values == 1 ? "" : "s"));
        const std::vector<std::string> following(args.begin() + static_cast<long>(i) + 1,
                                                 args.begin() + static_cast<long>(i) + 1 + values);
        const OptionValues given(word, following);
        for (const WordRule<Options>* rule : matched)
            rule->apply(options, given);
        i += 1 + static_cast<std::size_t>(values);
    }
}

} // namespace bv::io
