#include "compute/io/PgmFile.h"

#include "compute/io/AtomicFile.h"
#include "compute/io/ImageSize.h"
#include "compute/io/PrintfFormat.h"

namespace bv::io {

double pgmScale(double requestedScale, double intImageScale, double rmsd) {
    if (requestedScale > 0.0)
        return requestedScale;
    return rmsd > 0.0 ? 250.0 / (5.0 * rmsd) : intImageScale;
}

void writePgm(const std::string& path, int width, int height, const std::vector<float>& image,
              double scale, const Roi& roi) {
    AtomicFile file(path);
    writePgm(file, width, height, image, scale, roi);
    file.commit();
}

void writePgm(AtomicFile& file, int width, int height, const std::vector<float>& image,
              double scale, const Roi& roi) {
    const std::string& path = file.targetPath();
    checkImageSize(image.size(), width, height, ("PGM image '" + path + "'").c_str());
    std::vector<unsigned char> pixels(image.size(), 0);
    for (int slow = 0; slow < height; ++slow)
        for (int fast = 0; fast < width; ++fast) {
            if (!roi.contains(fast, slow))
                continue;
            const std::size_t i = pixelIndex(fast, slow, width);
            double value = static_cast<double>(image[i]) * scale;
            if (value > 255.0)
                value = 255.0;
            if (!(value > 0.0))
                value = 0.0; // also NaN
            pixels[i] = static_cast<unsigned char>(value);
        }

    const std::string header = "P5\n" + std::to_string(width) + " " + std::to_string(height) +
                               "\n# pixels scaled by " + formatG(scale) + "\n255\n";
    file.write(header);
    file.write(pixels.data(), pixels.size());
}

} // namespace bv::io
