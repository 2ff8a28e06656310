#pragma once
// nanoBragg's -floatfile: the simulated intensities (photons per pixel) as raw 32-bit floats,
// no header, fast index varying fastest. The reference writes the host's byte order; this
// writes little-endian on every host (the same bytes on the x86/ARM hosts it runs on).

#include <string>
#include <vector>

namespace bv::io {

class AtomicFile;

// Throws bv::Error on I/O failure; the file appears atomically.
void writeFloatImage(const std::string& path, const std::vector<float>& image);
// The same bytes into a file the caller commits (several outputs renamed together).
void writeFloatImage(AtomicFile& file, const std::vector<float>& image);

// Reads a file written by writeFloatImage (or the reference on a little-endian host).
// Throws bv::Error "<path>: ..." when its size is not expectedPixels*4 bytes (any multiple
// of 4 when expectedPixels is 0), or when the file is missing or unreadable.
std::vector<float> readFloatImage(const std::string& path, std::size_t expectedPixels = 0);

} // namespace bv::io
