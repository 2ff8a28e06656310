#include "compute/headless/Temporaries.h"

#include "compute/io/NumberText.h"

#include <cerrno>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <signal.h>
#include <sys/types.h>

namespace bv::headless {

int removeStaleTemporaries(const std::vector<BatchFrame>& frames,
                           const std::vector<std::string>& others) {
    namespace fs = std::filesystem;
    std::map<std::string, std::set<std::string>> names; // directory -> the frames' file names
    const auto add = [&](const std::string& path) {
        const fs::path p(path);
        names[p.has_parent_path() ? p.parent_path().string() : "."].insert(p.filename().string());
    };
    for (const BatchFrame& frame : frames)
        for (const auto& [option, path] : frame.files.named())
            add(path);
    for (const std::string& path : others)
        if (!path.empty())
            add(path);
    int removed = 0;
    for (const auto& [dir, files] : names) {
        std::error_code ec;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string n = it->path().filename().string();
            const std::size_t tmp = n.find(".tmp-");
            if (n.empty() || n[0] != '.' || tmp == std::string::npos || tmp < 2 ||
                !files.count(n.substr(1, tmp - 1)))
                continue;
            const std::size_t start = tmp + 5, stop = n.find('-', start);
            const auto pid = stop == std::string::npos
                                 ? std::nullopt
                                 : io::parseInteger(n.substr(start, stop - start));
            if (!pid || *pid <= 0 || *pid > std::numeric_limits<pid_t>::max())
                continue;
            if (::kill(static_cast<pid_t>(*pid), 0) == 0 || errno != ESRCH)
                continue; // its writer may still be at work
            std::error_code ignored;
            if (fs::remove(it->path(), ignored))
                ++removed;
        }
    }
    return removed;
}

} // namespace bv::headless
