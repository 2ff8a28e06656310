#include "app/CommandReader.h"

#include "compute/core/Error.h"

#include <atomic>

namespace bv::app {

namespace {
std::atomic<CommandReader> g_reader{nullptr};
} // namespace

void setCommandReader(CommandReader reader) { g_reader.store(reader); }

RunRequest readCommand(const std::vector<std::string>& words) {
    const CommandReader reader = g_reader.load();
    if (!reader)
        throw Error("internal error: the viewer was started without its command-line reader "
                    "(main() calls app::setCommandReader)");
    return reader(words);
}

} // namespace bv::app
