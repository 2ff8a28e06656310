#pragma once
// The amorphous materials braggview knows by name: the reference repository's .stol tables
// (resources/stol/, copied from bl831/nanoBragg), compiled into the program.
//
//     const bv::io::StolTable water = bv::amorphous::stolTable("water"); // file or material
#include "compute/io/StolFile.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bv::amorphous {

// "water", "air", "ice", "nanoice", "unity"
std::vector<std::string> materialNames();
// The text of a built-in table, by name with or without ".stol" ("water", "water.stol").
std::optional<std::string_view> builtinStolText(std::string_view name);
// What -stol NAME means: an existing file of that name; otherwise a built-in material of that
// name; otherwise an error naming both. Throws bv::Error.
io::StolTable stolTable(const std::string& nameOrPath);

} // namespace bv::amorphous
