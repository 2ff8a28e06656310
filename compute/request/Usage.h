#pragma once
// The usage text and the list of detector presets: views of the parameter table
// (Parameters.h) and of the presets (compute/model/DetectorPresets.h).

#include <string>

namespace bv::request {

// Every option with its synonyms, values, units and default, generated from the table.
std::string usageText();

// The detector presets (compute/model/DetectorPresets.h), one line each: name, maker and
// model, modules, pixels with the gaps, pixel size, size in mm.
std::string detectorListText();

} // namespace bv::request
