#pragma once
// The host's byte order and 16/32-bit swaps, for the binary image formats (SMV records its
// byte order in the header; the raw float image is little-endian).

#include <cstdint>
#include <cstring>

namespace bv::io {

inline bool hostIsLittleEndian() {
    const std::uint16_t probe = 1;
    unsigned char first = 0;
    std::memcpy(&first, &probe, 1);
    return first == 1;
}

// the SMV header's BYTE_ORDER value for this host
inline const char* hostByteOrderName() {
    return hostIsLittleEndian() ? "little_endian" : "big_endian";
}

inline std::uint16_t swapBytes(std::uint16_t v) {
    return static_cast<std::uint16_t>((v >> 8) | (v << 8));
}

inline std::uint32_t swapBytes(std::uint32_t v) {
    return (v >> 24) | ((v >> 8) & 0x0000ff00u) | ((v << 8) & 0x00ff0000u) | (v << 24);
}

} // namespace bv::io
