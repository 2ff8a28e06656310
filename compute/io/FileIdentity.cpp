#include "compute/io/FileIdentity.h"

#include <filesystem>
#include <sys/stat.h>
#include <system_error>

namespace bv::io {

std::string fileIdentity(const std::string& path) {
    namespace fs = std::filesystem;
    struct stat status {};
    if (!path.empty() && ::stat(path.c_str(), &status) == 0)
        return "inode " + std::to_string(status.st_dev) + ":" + std::to_string(status.st_ino);
    std::error_code ec;
    fs::path absolute = fs::absolute(fs::path(path), ec);
    if (ec)
        return "path " + fs::path(path).lexically_normal().string();
    const fs::path normal = fs::weakly_canonical(absolute, ec);
    return "path " + (ec ? absolute.lexically_normal() : normal).string();
}

bool sameFile(const std::string& a, const std::string& b) {
    return fileIdentity(a) == fileIdentity(b);
}

} // namespace bv::io
