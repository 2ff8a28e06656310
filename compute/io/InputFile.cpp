#include "compute/io/InputFile.h"

#include "compute/core/Error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sys/stat.h>

namespace bv::io {

namespace {

struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};

[[noreturn]] void failRead(const std::string& path, const char* what, const std::string& why) {
    throw Error(std::string("cannot read ") + what + " '" + path + "': " + why);
}

} // namespace

std::string readWholeFile(const std::string& path, const char* what, unsigned long long maxBytes) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        failRead(path, what, std::strerror(errno));
    if (S_ISDIR(info.st_mode))
        failRead(path, what, "it is a directory, not a file");

    std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
    if (!file)
        failRead(path, what, std::strerror(errno));

    std::string bytes;
    if (S_ISREG(info.st_mode) && info.st_size > 0)
        bytes.reserve(static_cast<std::size_t>(info.st_size));
    char buffer[1 << 16];
    for (;;) {
        const std::size_t got = std::fread(buffer, 1, sizeof buffer, file.get());
        bytes.append(buffer, got);
        if (bytes.size() > maxBytes)
            failRead(path, what,
                     "longer than " + std::to_string(maxBytes >> 20) +
                         " MiB (a device or a pipe that never ends?)");
        if (got < sizeof buffer) {
            if (std::ferror(file.get()))
                failRead(path, what, std::strerror(errno));
            break;
        }
    }
    return bytes;
}

std::vector<TextLine> splitLines(std::string_view text) {
    std::vector<TextLine> lines;
    std::size_t start = 0;
    int number = 1;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        const bool last = end == std::string_view::npos;
        if (last)
            end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back({number++, line});
        start = last ? text.size() : end + 1;
    }
    return lines;
}

std::vector<std::string_view> splitFields(std::string_view line, std::string_view delimiters) {
    std::vector<std::string_view> fields;
    std::size_t pos = 0;
    while (pos < line.size()) {
        const std::size_t begin = line.find_first_not_of(delimiters, pos);
        if (begin == std::string_view::npos)
            break;
        std::size_t end = line.find_first_of(delimiters, begin);
        if (end == std::string_view::npos)
            end = line.size();
        fields.push_back(line.substr(begin, end - begin));
        pos = end;
    }
    return fields;
}

} // namespace bv::io
