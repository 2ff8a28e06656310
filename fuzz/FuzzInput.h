#pragma once
// Shared by the fuzz targets. Every reader of compute/io takes a path, so each fuzzing
// process owns one scratch directory (created on first use, removed at exit) and rewrites
// one file in it for every input. Contract violations that are not exceptions (a reader that
// returns something its header says it cannot) abort with a message, which libFuzzer
// reports as a crash like any other.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace bv::fuzz {

// This process's scratch directory, an absolute path without a trailing '/':
// $TMPDIR/braggview-fuzz-<pid>-XXXXXX. Directories of processes that have died are removed.
const std::string& scratchDir();

// Writes `size` bytes to scratchDir()/name (replacing it) and returns the file's path.
std::string writeInput(std::string_view name, const std::uint8_t* data, std::size_t size);

// Removes scratchDir()/name if it exists.
void removeInput(std::string_view name);

// With BV_FUZZ_VERBOSE set in the environment, prints the message of an input's expected
// rejection (a bv::Error) on stderr: to check by hand what a seed or reproducer exercises.
void rejected(const char* what);

// Aborts (a libFuzzer crash) with `what` when `condition` is false.
void require(bool condition, const char* what);

} // namespace bv::fuzz
