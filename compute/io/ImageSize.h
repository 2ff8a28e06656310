#pragma once
// Shared checks of the image writers: a float image must hold width*height pixels.

#include <cstddef>

namespace bv::io {

// Throws bv::Error "<what>: ..." unless width, height > 0 and pixels == width*height.
void checkImageSize(std::size_t pixels, int width, int height, const char* what);

// index of pixel (fast, slow) in a fast-major image
inline std::size_t pixelIndex(int fast, int slow, int width) {
    return static_cast<std::size_t>(slow) * static_cast<std::size_t>(width) +
           static_cast<std::size_t>(fast);
}

} // namespace bv::io
