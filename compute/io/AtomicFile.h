#pragma once
// An output file that appears all at once or not at all. The bytes go to a temporary file
// beside the target (same directory, so the final rename cannot cross file systems);
// commit() renames the temporary over the target. A writer that throws half way leaves the
// target untouched: the destructor removes the temporary.
//
// Atomic always: rename(2) replaces the name in one step, so no reader and no later run ever
// sees a partial file, whatever happens to this process. Durable across a power cut only with
// BRAGGVIEW_FSYNC=1: then commit() fsyncs the data before the rename and the directory after
// it. By default it only starts the data's writeback before the rename (no waiting), which
// ext4 orders before the rename; the reasoning and the cost are in docs/performance.md,
// "Output files".
//
//     bv::io::AtomicFile file("int.img");
//     file.write(header);
//     file.write(pixels.data(), pixels.size() * sizeof(pixels[0]));
//     file.commit(); // only now does int.img change
//
// Every failure (directory missing, no permission, target is a directory, disk full)
// throws bv::Error naming the target path and the system's reason.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace bv::io {

class AtomicFile {
  public:
    // Creates the temporary file; throws bv::Error when that is impossible.
    explicit AtomicFile(std::string targetPath);
    // Removes the temporary file unless commit() succeeded. Never throws.
    ~AtomicFile();

    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    void write(const void* data, std::size_t bytes);
    void write(std::string_view text) { write(text.data(), text.size()); }

    // Bytes written so far (the reference pads SMV headers up to ftell() == 512).
    std::uint64_t size() const { return m_written; }

    // Renames the temporary over the target (with BRAGGVIEW_FSYNC=1: fsyncs the data first
    // and the directory after). No further write() is allowed afterwards.
    void commit();

    // Whether commits fsync (BRAGGVIEW_FSYNC=1, yes, on or true; read once per process).
    static bool durableCommits();

    const std::string& targetPath() const { return m_target; }
    const std::string& temporaryPath() const { return m_temporary; }

  private:
    [[noreturn]] void fail(const char* action, int errorNumber);
    void discard() noexcept;

    std::string m_target;
    std::string m_temporary;
    int m_fd = -1;
    std::uint64_t m_written = 0;
    bool m_committed = false;
};

// Whether `targetPath` can be written as an AtomicFile would write it, told before any work:
// throws bv::Error naming the path when its folder does not exist or is no folder, when the
// target is a directory, or when no file can be created in the folder (no permission, a
// read-only file system: tried by creating and removing a temporary there). Nothing is left
// behind.
void checkWritable(const std::string& targetPath);

} // namespace bv::io
