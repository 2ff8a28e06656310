#pragma once
// Reading an input file whole, with the errors a user can act on: the file is missing,
// unreadable, or a directory. Every reader of compute/io starts here.

#include <string>
#include <string_view>
#include <vector>

namespace bv::io {

// The file's bytes. Throws bv::Error "cannot read <what> '<path>': <reason>".
// `what` names the kind of file for the message ("HKL file", "SMV image", ...). A file longer
// than maxBytes is refused before it is read whole (a device like /dev/zero or a pipe that
// never ends would otherwise take all memory); the default suits text inputs.
constexpr unsigned long long kTextFileMaxBytes = 1ull << 30;  // 1 GiB
constexpr unsigned long long kImageFileMaxBytes = 1ull << 33; // 8 GiB: 32768^2 floats and more
std::string readWholeFile(const std::string& path, const char* what,
                          unsigned long long maxBytes = kTextFileMaxBytes);

// One line of a text file: its 1-based number and its text without "\n" or a trailing "\r".
struct TextLine {
    int number = 0;
    std::string_view text;
};

// Splits text into lines ("\n", "\r\n"); a final line without "\n" counts. The views point
// into `text`, which must outlive them.
std::vector<TextLine> splitLines(std::string_view text);

// Splits a line into its non-empty fields separated by any of `delimiters`.
std::vector<std::string_view> splitFields(std::string_view line, std::string_view delimiters);

// The whitespace fscanf skips between numbers.
inline constexpr std::string_view kWhitespace = " \t\r\n\v\f";

} // namespace bv::io
