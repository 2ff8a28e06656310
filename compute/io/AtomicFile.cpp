#include "compute/io/AtomicFile.h"

#include "compute/core/Error.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bv::io {

namespace {

std::string directoryOf(const std::string& path) {
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos)
        return ".";
    if (slash == 0)
        return "/";
    return path.substr(0, slash);
}

std::string fileNameOf(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// A name no other writer in this process or another one will pick at the same moment:
// process id, a per-process counter and a clock reading. O_EXCL settles any collision.
std::string temporaryNameFor(const std::string& target) {
    static std::atomic<unsigned long> counter{0};
    const auto ticks = static_cast<unsigned long long>(
        std::chrono::steady_clock::now().time_since_epoch().count());
    std::string dir = directoryOf(target);
    std::string name = "." + fileNameOf(target) + ".tmp-" + std::to_string(::getpid()) + "-" +
                       std::to_string(counter.fetch_add(1)) + "-" +
                       std::to_string(ticks % 1000000007ULL);
    if (target.find('/') == std::string::npos)
        return name;
    return (dir == "/" ? std::string("/") : dir + "/") + name;
}

} // namespace

AtomicFile::AtomicFile(std::string targetPath) : m_target(std::move(targetPath)) {
    if (m_target.empty())
        throw Error("cannot write a file with an empty name");
    struct stat info {};
    if (::stat(m_target.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
        throw Error("cannot write '" + m_target + "': it is a directory");

    for (int attempt = 0; attempt < 100; ++attempt) {
        m_temporary = temporaryNameFor(m_target);
        // 0666 less the umask: the same permissions fopen(..., "wb") would give
        m_fd = ::open(m_temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (m_fd >= 0)
            return;
        if (errno != EEXIST)
            break;
    }
    const int errorNumber = errno;
    m_temporary.clear();
    throw Error("cannot create '" + m_target + "': " + std::strerror(errorNumber));
}

AtomicFile::~AtomicFile() {
    if (!m_committed)
        discard();
}

void AtomicFile::write(const void* data, std::size_t bytes) {
    if (m_fd < 0)
        throw Error("cannot write '" + m_target + "': the file is already closed");
    const char* cursor = static_cast<const char*>(data);
    while (bytes > 0) {
        const ssize_t done = ::write(m_fd, cursor, bytes);
        if (done < 0) {
            if (errno == EINTR)
                continue;
            fail("write", errno);
        }
        cursor += done;
        bytes -= static_cast<std::size_t>(done);
        m_written += static_cast<std::uint64_t>(done);
    }
}

bool AtomicFile::durableCommits() {
    static const bool durable = [] {
        const char* value = std::getenv("BRAGGVIEW_FSYNC");
        return value && (std::strcmp(value, "1") == 0 || std::strcmp(value, "yes") == 0 ||
                         std::strcmp(value, "on") == 0 || std::strcmp(value, "true") == 0);
    }();
    return durable;
}

void AtomicFile::commit() {
    if (m_fd < 0)
        throw Error("cannot commit '" + m_target + "': the file is already closed");
    const bool durable = durableCommits();
    if (durable) {
        if (::fsync(m_fd) != 0)
            fail("flush", errno);
    } else {
#ifdef __linux__
        // Start the data's writeback now, without waiting for it: the blocks are allocated
        // and queued before the rename is, and ext4 (data=ordered, its default) then writes
        // them before the journal commit that carries the rename (docs/performance.md,
        // "Output files"). Where the call is not supported it changes nothing, so its result
        // is not checked.
        ::sync_file_range(m_fd, 0, 0, SYNC_FILE_RANGE_WRITE);
#endif
    }
    const int fd = m_fd;
    m_fd = -1;
    if (::close(fd) != 0) // a delayed write error (NFS, a full quota) shows up here
        fail("close", errno);
    if (::rename(m_temporary.c_str(), m_target.c_str()) != 0)
        fail("replace", errno);
    m_committed = true;
    if (!durable)
        return;
    // make the rename itself durable; failing here loses nothing that is not already there
    const int dirFd = ::open(directoryOf(m_target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
}

void checkWritable(const std::string& targetPath) {
    if (targetPath.empty())
        throw Error("cannot write a file with an empty name");
    const std::string dir = directoryOf(targetPath);
    struct stat info {};
    if (::stat(dir.c_str(), &info) != 0) {
        const int errorNumber = errno;
        throw Error("cannot write '" + targetPath + "': " +
                    (errorNumber == ENOENT ? "the folder '" + dir + "' does not exist"
                     : errorNumber == ENOTDIR
                         ? "'" + dir + "' is not a folder"
                         : "its folder '" + dir + "': " + std::strerror(errorNumber)));
    }
    if (!S_ISDIR(info.st_mode))
        throw Error("cannot write '" + targetPath + "': '" + dir + "' is not a folder");
    AtomicFile probe(targetPath); // a directory, no permission: named as a write would name it
}

void AtomicFile::fail(const char* action, int errorNumber) {
    discard();
    throw Error(std::string("cannot ") + action + " '" + m_target +
                "': " + std::strerror(errorNumber));
}

void AtomicFile::discard() noexcept {
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
    if (!m_temporary.empty()) {
        ::unlink(m_temporary.c_str());
        m_temporary.clear();
    }
}

} // namespace bv::io
