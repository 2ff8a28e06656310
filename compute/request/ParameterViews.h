#pragma once
// The parameter table's session rows and viewer fields (internal to compute/request):
// ParameterViews.cpp sets them on the options' rows when flagTable() is built.

#include "compute/request/Parameters.h"

#include <vector>

namespace bv::request {

// Sets each option's `session` and `fields`; throws std::logic_error for a view of an
// option the table does not have.
void addParameterViews(std::vector<Flag>& table);

} // namespace bv::request
