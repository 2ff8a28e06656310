#pragma once
// The viewer's own options on braggview's command line, read in any order (main() calls this
// for everything but --headless and --help):
//
//   --screenshot FILE   save the window as PNG once the image is complete, then exit
//   --size WxH          the window's size in pixels (the screenshot's), e.g. 1920x1080
//   --session FILE      a saved session         (at most one of these three, or nanoBragg's
//   --lesson NAME       a built-in lesson        arguments; without any, the built-in demo)
//   --demo              the built-in demo
//   --presentation      the presentation mode (on the lesson given, else the first lesson)
//
// Any other word that starts with "--" is an error; the remaining words are nanoBragg's
// arguments, kept in their order.

#include "app/Viewer.h"

#include <string>
#include <vector>

namespace bv::app {

struct ViewerArguments {
    ViewerOptions options;
    std::string error; // empty: the words were read; else why not, as one sentence
};

ViewerArguments readViewerArguments(const std::vector<std::string>& words);

// "1920x1080" (also with 'X') into a size within 640x480 .. 16384x16384; an empty QSize and
// a sentence in `error` for anything else. The window may need more than 640x480 (its docks:
// about 1100x900): the screenshot mode then says so, with the size it needs.
inline constexpr int kMinWindowWidth = 640, kMinWindowHeight = 480, kMaxWindowSide = 16384;
QSize parseWindowSize(const std::string& text, std::string& error);

} // namespace bv::app
