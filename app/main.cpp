// braggview's entry point.
//
//   braggview --headless ARGS          nanoBragg's command line on the GPU engine, its files
//   braggview [--demo]                 the viewer on the built-in demo experiment; where there
//                                      is no display, the demo rendered headless into
//                                      ./braggview-demo/
//   braggview --session FILE           the viewer on a saved session
//   braggview --lesson NAME            the viewer on a built-in lesson (resources/lessons)
//   braggview --presentation           the lessons in the presentation mode
//   braggview ARGS                     the viewer on nanoBragg's ARGS
// and, with the viewer, in any order: --screenshot FILE (the whole window saved as PNG once
// the image is complete), --size WxH (app/ViewerArguments.h reads them all)

#include "DemoExperiment.h"
#include "compute/headless/Headless.h"
#include "compute/vk/Instance.h"
#ifdef BRAGGVIEW_WITH_QT
#include "app/CommandReader.h"
#include "app/Viewer.h"
#include "app/ViewerArguments.h"
#include "compute/cli/CommandLine.h"
#endif

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace {

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
    std::vector<std::string> args = bv::app::demoArguments();
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
    "       braggview --lesson NAME               the viewer on a built-in lesson (a wrong\n"
    "                                             NAME lists them)\n"
    "       braggview --presentation [--lesson NAME]   presenting the lessons (from the first)\n"
    "       braggview --headless <nanoBragg arguments>   no window: nanoBragg's files (-h lists "
    "the options)\n"
    "  with the viewer, in any order:\n"
    "       --screenshot FILE   save the window as PNG once the image is complete, then exit\n"
    "       --size WxH          the window's size in pixels, e.g. --size 1920x1080 (presenting\n"
    "                           too; else 1500x950, or the screen when presenting)\n";

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
    // the viewer's options in any order, the rest nanoBragg's (app/ViewerArguments.h)
    const bv::app::ViewerArguments read = bv::app::readViewerArguments(args);
    if (!read.error.empty()) {
        std::cerr << "braggview: " << read.error << "\n" << kUsage;
        return 2;
    }
    const bv::app::ViewerOptions& options = read.options;
    if (bv::app::haveDisplay())
        return bv::app::runViewer(argc, argv, options);
    if (!options.screenshot.empty()) {
        std::cerr << "braggview: error: --screenshot needs a display (X11 or Wayland); on a "
                     "machine without one run it under xvfb-run\n";
        return 1;
    }
    if (!options.arguments.empty() || !options.session.empty() || !options.lesson.empty() ||
        options.presentation) {
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
