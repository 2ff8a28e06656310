#include "compute/io/FloatImageFile.h"

#include "compute/io/AtomicFile.h"
#include "compute/io/ByteOrder.h"
#include "compute/io/InputFile.h"
#include "compute/core/Error.h"

#include <cstdint>
#include <cstring>

namespace bv::io {

static_assert(sizeof(float) == 4, "float images are 32-bit IEEE floats");

void writeFloatImage(const std::string& path, const std::vector<float>& image) {
    AtomicFile file(path);
    writeFloatImage(file, image);
    file.commit();
}

void writeFloatImage(AtomicFile& file, const std::vector<float>& image) {
    if (hostIsLittleEndian()) {
        file.write(image.data(), image.size() * sizeof(float));
    } else {
        std::vector<std::uint32_t> words(image.size());
        std::memcpy(words.data(), image.data(), image.size() * sizeof(float));
        for (std::uint32_t& word : words)
            word = swapBytes(word);
        file.write(words.data(), words.size() * sizeof(std::uint32_t));
    }
}

std::vector<float> readFloatImage(const std::string& path, std::size_t expectedPixels) {
    const std::string bytes = readWholeFile(path, "float image", kImageFileMaxBytes);
    const bool sizeOk = expectedPixels == 0 ? bytes.size() % sizeof(float) == 0
                                            : bytes.size() == expectedPixels * sizeof(float);
    if (!sizeOk)
        throw Error(path + ": " + std::to_string(bytes.size()) + " bytes is not " +
                    (expectedPixels == 0 ? std::string("a whole number of 4-byte floats")
                                         : std::to_string(expectedPixels) + " 4-byte floats"));
    std::vector<float> image(bytes.size() / sizeof(float));
    if (hostIsLittleEndian()) {
        std::memcpy(image.data(), bytes.data(), bytes.size());
    } else {
        std::vector<std::uint32_t> words(image.size());
        std::memcpy(words.data(), bytes.data(), bytes.size());
        for (std::uint32_t& word : words)
            word = swapBytes(word);
        std::memcpy(image.data(), words.data(), bytes.size());
    }
    return image;
}

} // namespace bv::io
