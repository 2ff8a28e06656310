#pragma once
// HDF5's C API as compute/io uses it (internal to compute/io: NexusFile.cpp writes, MeasuredNexus.cpp
// reads): one identifier and the function that closes it, HDF5 kept from printing on stderr,
// and the reason of its last failure in words.

#include <hdf5.h>

#include <string>
#include <utility>

namespace bv::io::hdf5 {

// One HDF5 identifier and the function that closes it.
class Handle {
  public:
    Handle() = default;
    Handle(hid_t id, herr_t (*close)(hid_t)) : m_id(id), m_close(close) {}
    ~Handle() { reset(); }
    Handle(Handle&& o) noexcept : m_id(std::exchange(o.m_id, -1)), m_close(o.m_close) {}
    Handle& operator=(Handle&& o) noexcept {
        if (this != &o) {
            reset();
            m_id = std::exchange(o.m_id, -1);
            m_close = o.m_close;
        }
        return *this;
    }
    hid_t get() const { return m_id; }
    bool valid() const { return m_id >= 0; }
    // closes now; false when HDF5 reports a failure (a file's last writes happen here)
    bool reset() {
        bool ok = true;
        if (m_id >= 0 && m_close)
            ok = m_close(m_id) >= 0;
        m_id = -1;
        return ok;
    }

  private:
    hid_t m_id = -1;
    herr_t (*m_close)(hid_t) = nullptr;
};

// HDF5 prints its error stack on stderr by default; braggview reports errors itself. The
// first HDF5 call of the process, so it also turns off HDF5's own clean-up at exit: after a
// file's close has failed (a full disk, a size limit), HDF5 1.10 closes it again at exit and
// crashes in H5F__close_cb. braggview closes every identifier itself (Handle), and the files
// are made whole or removed before the process ends.
inline void silenceHdf5() {
    static const bool silenced = [] {
        H5dont_atexit();
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
        return true;
    }();
    (void)silenced;
}

// The innermost message of HDF5's error stack (the system's reason, e.g. "errno = 28, error
// message = 'No space left on device'"), or "" when there is none.
inline std::string hdf5Reason() {
    std::string reason;
    H5Ewalk2(
        H5E_DEFAULT, H5E_WALK_UPWARD,
        [](unsigned, const H5E_error2_t* e, void* out) -> herr_t {
            auto* text = static_cast<std::string*>(out);
            if (text->empty() && e->desc && *e->desc)
                *text = e->desc;
            return 0;
        },
        &reason);
    H5Eclear2(H5E_DEFAULT);
    // a system call's failure comes with a time, the descriptor and byte counts: keep the
    // system's own words ("File too large", "No space left on device")
    const std::string marker = "error message = '";
    if (const std::size_t at = reason.find(marker); at != std::string::npos) {
        const std::size_t start = at + marker.size(), stop = reason.find('\'', start);
        if (stop != std::string::npos)
            return reason.substr(start, stop - start);
    }
    return reason;
}


} // namespace bv::io::hdf5
