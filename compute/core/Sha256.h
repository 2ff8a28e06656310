#pragma once
// SHA-256 (FIPS 180-4, section 6.2), for the digests a batch's manifest keeps of each frame's
// files (compute/headless/Manifest.h): whether a file on disk is still the one a frame wrote.
// Written here rather than taken from a library so that the simulator library keeps needing
// nothing but Vulkan; tested against the standard's own examples (tests/compute/core).
//
//     bv::Sha256 h;
//     h.add("abc", 3);
//     h.hex(); // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
//
//     bv::sha256OfFile("frame_001.img"); // the same for a file's bytes; throws bv::Error

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace bv {

class Sha256 {
  public:
    // Takes `size` more bytes of the message.
    void add(const void* data, std::size_t size);
    void add(const std::string& text) { add(text.data(), text.size()); }
    // The digest of every byte added so far; the object may take more bytes after.
    std::array<std::uint8_t, 32> digest() const;
    // The digest as 64 lowercase hexadecimal digits.
    std::string hex() const;

  private:
    void compress(const std::uint8_t* block);
    std::array<std::uint32_t, 8> m_state = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                            0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
    std::array<std::uint8_t, 64> m_block{}; // the bytes of a block not yet complete
    std::size_t m_filled = 0;
    std::uint64_t m_length = 0; // bytes added
};

// The digest of a file's bytes, in hexadecimal. Throws bv::Error naming the file when it
// cannot be read.
std::string sha256OfFile(const std::string& path);

} // namespace bv
