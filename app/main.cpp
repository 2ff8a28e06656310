// braggview's entry point. `braggview --headless ARGS` runs nanoBragg's command line on the
// GPU engine and writes its files. `braggview` alone opens the demo experiment; where there is
// no display (or until the viewer is built in) it renders the demo headless into
// ./braggview-demo/ and says where the files are.

#include "DemoExperiment.h"
#include "compute/headless/Headless.h"

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

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && args.front() == "--headless") {
        args.erase(args.begin());
        return bv::headless::runHeadless(args, std::cout, std::cerr);
    }
    if (!args.empty() && args.front() != "--demo") {
        std::cerr << "braggview: unknown argument " << args.front()
                  << "\nusage: braggview [--demo] | braggview --headless <nanoBragg arguments> (-h for the list)\n";
        return 2;
    }
    const bool display = std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY");
    if (display)
        std::cout << "braggview: the interactive viewer is not part of this build yet; "
                     "rendering the demo headless instead\n";
    return renderDemoHeadless();
}
