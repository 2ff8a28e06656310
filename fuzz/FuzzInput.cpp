#include "FuzzInput.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <unistd.h>

namespace bv::fuzz {

namespace {

void removeScratch() {
    std::error_code ignored;
    std::filesystem::remove_all(scratchDir(), ignored);
}

constexpr const char* kPrefix = "braggview-fuzz-";

// A process that crashes (which is what fuzzing is for) cannot remove its directory, so each
// start removes those of processes that no longer run: "braggview-fuzz-<pid>-XXXXXX".
void removeStaleScratch(const std::filesystem::path& base) {
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(base, error)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(kPrefix, 0) != 0)
            continue;
        const std::string rest = name.substr(std::strlen(kPrefix));
        const auto dash = rest.find('-');
        if (dash == std::string::npos || dash == 0 || rest.find_first_not_of("0123456789") != dash)
            continue;
        const auto pid = static_cast<pid_t>(std::strtol(rest.c_str(), nullptr, 10));
        if (pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH) {
            std::error_code ignored;
            std::filesystem::remove_all(entry.path(), ignored);
        }
    }
}

std::string makeScratch() {
    std::error_code error;
    std::filesystem::path base = std::filesystem::temp_directory_path(error);
    if (error)
        base = "/tmp";
    removeStaleScratch(base);
    std::string pattern = (base / (kPrefix + std::to_string(::getpid()) + "-XXXXXX")).string();
    if (!::mkdtemp(pattern.data())) {
        std::perror("braggview fuzz: mkdtemp");
        std::abort();
    }
    return pattern;
}

} // namespace

const std::string& scratchDir() {
    // never destroyed: the atexit handler that removes the directory still needs it
    static const std::string* const dir = [] {
        const auto* made = new std::string(makeScratch());
        std::atexit(removeScratch);
        return made;
    }();
    return *dir;
}

std::string writeInput(std::string_view name, const std::uint8_t* data, std::size_t size) {
    std::string path = scratchDir() + "/" + std::string(name);
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) {
        std::perror(("braggview fuzz: cannot write " + path).c_str());
        std::abort();
    }
    if (size > 0 && std::fwrite(data, 1, size, file) != size) {
        std::perror(("braggview fuzz: cannot write " + path).c_str());
        std::abort();
    }
    if (std::fclose(file) != 0) {
        std::perror(("braggview fuzz: cannot close " + path).c_str());
        std::abort();
    }
    return path;
}

void removeInput(std::string_view name) {
    std::error_code ignored;
    std::filesystem::remove(scratchDir() + "/" + std::string(name), ignored);
}

void rejected(const char* what) {
    static const bool verbose = std::getenv("BV_FUZZ_VERBOSE") != nullptr;
    if (verbose)
        std::fprintf(stderr, "rejected: %s\n", what);
}

void require(bool condition, const char* what) {
    if (condition)
        return;
    std::fprintf(stderr, "braggview fuzz: contract violated: %s\n", what);
    std::abort();
}

} // namespace bv::fuzz
