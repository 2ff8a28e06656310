// libFuzzer target: bv::cli::parseCommandLine (compute/cli/CommandLine.h).
//
// Input: arguments separated by '\n' or NUL (a final separator ends the last argument; an
// empty line is an empty argument), optionally followed by the line "@@file@@" and the bytes
// of one file. The process works in its scratch directory, where that file is "f.img" (and
// absent when the input has no "@@file@@" part), so "-img f.img" and "-mask f.img" read it
// and every other file name names nothing. Inputs with an argument containing '/' are
// skipped, so no path outside the scratch directory is ever opened. parseCommandLine only
// reads (-img and -mask); loadInputs, which also writes Fdump.bin, is not called.
// Only bv::Error (UsageError included) may escape. What is accepted must also be stated by the
// parameter table's writer (bv::request::commandWords, the viewer's "copy headless command")
// in words that parseCommandLine accepts again.

#include "FuzzInput.h"

#include "compute/cli/CommandLine.h"
#include "compute/core/Error.h"
#include "compute/request/Parameters.h"

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <string_view>
#include <unistd.h>
#include <vector>

namespace {

constexpr std::string_view kFileMarker = "\n@@file@@\n";
constexpr const char* kFileName = "f.img";

// Works in the scratch directory while it lives. Only around the parse: libFuzzer itself
// opens the corpus and artifact paths it was given relative to the original directory.
class InScratchDir {
  public:
    InScratchDir() : m_home(::open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
        if (m_home < 0 || ::chdir(bv::fuzz::scratchDir().c_str()) != 0) {
            std::perror("braggview fuzz: chdir");
            std::abort();
        }
    }
    ~InScratchDir() {
        if (::fchdir(m_home) != 0) {
            std::perror("braggview fuzz: fchdir");
            std::abort();
        }
        ::close(m_home);
    }
    InScratchDir(const InScratchDir&) = delete;
    InScratchDir& operator=(const InScratchDir&) = delete;

  private:
    int m_home;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using bv::fuzz::require;
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    std::string_view argText = input;
    const auto marker = input.find(kFileMarker);
    if (marker != std::string_view::npos) {
        argText = input.substr(0, marker);
        const std::size_t start = marker + kFileMarker.size();
        bv::fuzz::writeInput(kFileName, data + start, size - start);
    } else {
        bv::fuzz::removeInput(kFileName);
    }

    std::vector<std::string> args;
    std::size_t begin = 0;
    while (begin < argText.size()) {
        std::size_t end = argText.find_first_of(std::string_view("\n\0", 2), begin);
        if (end == std::string_view::npos)
            end = argText.size();
        args.emplace_back(argText.substr(begin, end - begin));
        begin = end + 1;
    }
    for (const std::string& arg : args)
        if (arg.find('/') != std::string::npos)
            return -1; // not added to the corpus

    const InScratchDir inScratch;
    try {
        const bv::RunRequest cl = bv::cli::parseCommandLine(args);
        if (!cl.help) {
            const bv::Detector& d = cl.experiment.detector;
            require(d.fastPixels() >= 1 && d.slowPixels() >= 1,
                    "parseCommandLine: accepted a detector without pixels");
            if (!cl.experiment.mask.empty())
                require(cl.experiment.mask.size() == static_cast<std::size_t>(d.fastPixels()) *
                                                         static_cast<std::size_t>(d.slowPixels()),
                        "parseCommandLine: the mask does not cover the detector");
            if (!cl.listDetectors) {
                try {
                    const bv::RunRequest again =
                        bv::cli::parseCommandLine(bv::request::commandWords(cl));
                    require(again.experiment.detector.fastPixels() == d.fastPixels() &&
                                again.experiment.detector.slowPixels() == d.slowPixels(),
                            "commandWords: the words state another detector size");
                } catch (const bv::Error& e) {
                    bv::fuzz::rejected(e.what());
                    require(false, "commandWords: parseCommandLine refuses the words it wrote");
                }
            }
        }
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
    }
    return 0;
}
