#include "compute/io/ImageSize.h"

#include "compute/core/Error.h"

#include <string>

namespace bv::io {

void checkImageSize(std::size_t pixels, int width, int height, const char* what) {
    if (width <= 0 || height <= 0 ||
        pixels != static_cast<std::size_t>(width) * static_cast<std::size_t>(height))
        throw Error(std::string(what) + ": " + std::to_string(pixels) + " pixels do not make a " +
                    std::to_string(width) + "x" + std::to_string(height) + " image");
}

} // namespace bv::io
