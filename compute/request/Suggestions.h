#pragma once
// "Did you mean": the option names of the parameter table (compute/request/Parameters.h) that
// a word that is no option may have meant, for the messages of the command line and job files.

#include <string>
#include <string_view>
#include <vector>

namespace bv::request {

// Known spellings `name` may have meant: those it abbreviates (at most three), else the
// nearest one when it is a typo away; empty when nothing is close.
std::vector<std::string> suggestFlagNames(std::string_view name);

} // namespace bv::request
