#pragma once
// Errors as values at the Vulkan boundary: the pure device-choice functions return either a
// result or a reason a user can read. value() on a failure throws bv::Error with that reason,
// so a caller that cannot recover simply writes chooseDevice(...).value().

#include "compute/core/Error.h"

#include <string>
#include <utility>
#include <variant>

namespace bv::vk {

// The failure half of an Expected; converts to any Expected<T>.
struct Failure {
    std::string reason;
};

inline Failure fail(std::string reason) {
    return Failure{std::move(reason)};
}

template <typename T> class Expected {
  public:
    Expected(T value) : m_state(std::move(value)) {}
    Expected(Failure failure) : m_state(std::move(failure)) {}

    bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }

    // The value; throws bv::Error(reason) when this holds a failure.
    const T& value() const {
        if (!ok())
            throw Error(error());
        return std::get<T>(m_state);
    }
    const T& operator*() const { return value(); }
    const T* operator->() const { return &value(); }

    // The reason; empty when this holds a value.
    const std::string& error() const {
        static const std::string none;
        return ok() ? none : std::get<Failure>(m_state).reason;
    }

  private:
    std::variant<T, Failure> m_state;
};

// Success without a value: Status is what a check returns.
struct Ok {};
using Status = Expected<Ok>;

} // namespace bv::vk
