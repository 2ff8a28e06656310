// braggview's entry point.
//
//   braggview --headless ARGS          nanoBragg's command line on the GPU engine, its files
//   braggview --screenshot FILE [ARGS] the viewer on that experiment (the demo without ARGS),
//                                      the whole window saved as PNG once the image is complete
//   braggview [--demo]                 the viewer on the built-in demo experiment; where there
//                                      is no display, the demo rendered headless into
//                                      ./braggview-demo/
//   braggview --session FILE           the viewer on a saved session
//   braggview --lesson NAME [--presentation]
//                                      the viewer on a built-in lesson (resources/lessons),
//                                      in the presentation mode with --presentation
//   braggview ARGS                     the viewer on nanoBragg's ARGS

#include "DemoExperiment.h"
#include "compute/headless/Headless.h"
#include "compute/vk/Instance.h"
#ifdef BRAGGVIEW_WITH_QT
#include "app/CommandReader.h"
#include "app/Viewer.h"
#include "compute/cli/CommandLine.h"
#endif

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> splitWords(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> words;
    for (std::string w; in >> w;)
        words.push_back(w);
    return words;
}

int renderDemoHeadless() {
    bv::vk::skipMesaDeviceSelectLayer();
    namespace fs = std::filesystem;
    const fs::path folder = fs::absolute("braggview-demo");
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) {
        std::cerr << "braggview: error: cannot create " << folder.string() << ": " << ec.message() << "\n";
        return 1;
    }
    std::vector<std::string> args = splitWords(bv::app::kDemoArguments);
    const std::vector<std::pair<std::string, std::string>> outputs = {
        {"-floatfile", "demo.bin"}, {"-intfile", "demo.img"}, {"-pgmfile", "demo.pgm"},
        {"-noisefile", "demo_noise.img"}, {"-dump", "demo_Fdump.bin"}};
    for (const auto& [flag, name] : outputs) {
        args.push_back(flag);
        args.push_back((folder / name).string());
    }
    std::cout << "braggview: rendering the demo experiment headless:\n  braggview --headless "
              << bv::app::kDemoArguments << "\n";
    const int status = bv::headless::runHeadless(args, std::cout, std::cerr);
    if (status == 0)
        std::cout << "braggview: demo image written to " << (folder / "demo.pgm").string()
                  << " (also demo.img, demo_noise.img, demo.bin there)\n";
    return status;
}

const char* kUsage =
    "usage: braggview [--demo]                    the viewer on the built-in demo experiment\n"
    "       braggview <nanoBragg arguments>       the viewer on that experiment\n"
    "       braggview --session FILE              the viewer on a saved session\n"
    "       braggview --lesson NAME [--presentation]   the viewer on a built-in lesson (a\n"
    "                                             wrong NAME lists them), or presenting it\n"
    "       braggview --screenshot FILE [ARGS]    the window on ARGS (or the demo) saved as PNG\n"
    "       braggview --screenshot FILE --lesson NAME [--presentation]   the same on a lesson\n"
    "       braggview --headless <nanoBragg arguments>   no window: nanoBragg's files (-h lists "
    "the options)\n";

#ifdef BRAGGVIEW_WITH_QT
// "--lesson NAME [--presentation]" (args from "--lesson" on) into `options`; false after a
// usage message
bool lessonOptions(const std::vector<std::string>& args, bv::app::ViewerOptions& options) {
    if (args.size() < 2 || args[1].empty() || args[1][0] == '-' || args.size() > 3 ||
        (args.size() == 3 && args[2] != "--presentation")) {
        std::cerr << "braggview: --lesson needs a lesson's name, then optionally --presentation\n"
                  << kUsage;
        return false;
    }
    options.lesson = args[1];
    options.presentation = args.size() == 3;
    return true;
}
#endif

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
#ifdef BRAGGVIEW_WITH_QT
    // the viewer reads nanoBragg's words with the headless mode's parser (app/CommandReader.h)
    bv::app::setCommandReader(
        [](const std::vector<std::string>& words) { return bv::cli::parseCommandLine(words); });
#endif
    if (!args.empty() && args.front() == "--headless") {
        args.erase(args.begin());
        bv::vk::skipMesaDeviceSelectLayer(); // the headless mode chooses its device itself
        return bv::headless::runHeadless(args, std::cout, std::cerr);
    }
    if (!args.empty() && (args.front() == "--help" || args.front() == "-h")) {
        std::cout << kUsage;
        return 0;
    }
#ifdef BRAGGVIEW_WITH_QT
    bv::app::ViewerOptions options;
    if (!args.empty() && args.front() == "--screenshot") {
        if (args.size() < 2 || args[1].empty() || args[1][0] == '-') {
            std::cerr << "braggview: --screenshot needs the PNG file to write\n" << kUsage;
            return 2;
        }
        options.screenshot = args[1];
        options.arguments.assign(args.begin() + 2, args.end());
        if (!options.arguments.empty() && options.arguments.front() == "--lesson") {
            if (!lessonOptions(options.arguments, options))
                return 2;
            options.arguments.clear();
        }
        if (!bv::app::haveDisplay()) {
            std::cerr << "braggview: error: --screenshot needs a display (X11 or Wayland); on a "
                         "machine without one run it under xvfb-run\n";
            return 1;
        }
        return bv::app::runViewer(argc, argv, options);
    }
    if (!args.empty() && args.front() == "--lesson") {
        if (!lessonOptions(args, options))
            return 2;
    } else if (!args.empty() && args.front() == "--session") {
        if (args.size() != 2) {
            std::cerr << "braggview: --session needs one session file\n" << kUsage;
            return 2;
        }
        options.session = args[1];
    } else if (!args.empty() && args.front() != "--demo") {
        if (args.front().rfind("--", 0) == 0) {
            std::cerr << "braggview: unknown argument " << args.front() << "\n" << kUsage;
            return 2;
        }
        options.arguments = args;
    } else if (args.size() > 1) {
        std::cerr << "braggview: --demo takes no arguments\n" << kUsage;
        return 2;
    }
    if (bv::app::haveDisplay())
        return bv::app::runViewer(argc, argv, options);
    if (!options.arguments.empty() || !options.session.empty() || !options.lesson.empty()) {
        std::cerr << "braggview: error: no display for the viewer; use braggview --headless "
                     "<arguments> for the files, or run under xvfb-run\n";
        return 1;
    }
    return renderDemoHeadless();
#else
    if (!args.empty() && args.front() != "--demo") {
        std::cerr << "braggview: unknown argument " << args.front()
                  << " (this build has no viewer)\n" << kUsage;
        return 2;
    }
    return renderDemoHeadless();
#endif
}
