#pragma once
// The one error type of the simulator library. Every bad input (file, flag, value, device)
// becomes a bv::Error whose message names what was wrong and where (file and line, or the
// flag) in words a user can act on. Only main() turns it into an exit status or a dialog.

#include <stdexcept>
#include <string>

namespace bv {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace bv
