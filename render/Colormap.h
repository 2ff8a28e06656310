#pragma once
// How an intensity (photons per pixel) becomes a colour: the display settings, the colour
// tables and the transfer function. The fragment shader (render/shaders/image.frag) and
// the CPU path (colourFor, colourImage: PNG export, screenshots of the image alone) use the
// SAME tables (colourTable(), uploaded to the GPU as they are) and the same arithmetic, in
// float, in the same order:
//
//   x = clamp((v - black) / (white - black), 0, 1)       (white <= black: x = v >= white)
//   t = x | sqrt(x) | log(1 + 1000 x) / log(1001)         (Linear | Sqrt | Log)
//   colour = table[map][min(int(t * 256), 255)]
//
// A pixel at or above the overload level (when on) is drawn in the overload colour; a pixel
// the simulation skipped (mask value 0, or outside the region of interest) in the masked
// colour. The tests compare the two paths pixel by pixel (tests/app/tst_colormap.cpp).

#include <QColor>
#include <QImage>
#include <QString>

#include <array>
#include <cstdint>
#include <vector>

namespace bv::render {

enum class Colormap { Grey = 0, InvertedGrey = 1, Viridis = 2, Heat = 3 };
enum class Scaling { Linear = 0, Sqrt = 1, Log = 2 };

constexpr int kColormapCount = 4;
constexpr int kColourTableSize = 256;

const char* colormapName(Colormap map);  // "grey", "inverted grey", "viridis", "heat"
const char* colormapKey(Colormap map);   // "grey", "inverted-grey", ... (sessions)
bool colormapFromKey(const QString& key, Colormap* map);
const char* scalingName(Scaling scaling); // "linear", "sqrt", "log"
bool scalingFromKey(const QString& key, Scaling* scaling);

struct DisplaySettings {
    Colormap colormap = Colormap::InvertedGrey; // the crystallographers' default
    Scaling scaling = Scaling::Linear;
    float black = 0.0f;    // photons shown as the table's first colour
    float white = 100.0f;  // photons shown as its last
    bool overloadOn = true;
    float overload = 65535.0f; // photons at or above it are overloaded
    QColor overloadColour = QColor(230, 30, 30);
    QColor maskedColour = QColor(40, 90, 200);
    QColor backgroundColour = QColor(96, 96, 96); // outside the detector
};

// 4 x 256 RGBA entries (Colormap order), 8 bits each, in the order the shader indexes them.
const std::array<std::array<std::uint8_t, 4>, kColormapCount * kColourTableSize>& colourTable();

// The table index of intensity v (the transfer function above).
int colourIndex(float v, const DisplaySettings& settings);

// Colour of one pixel; `skipped`: masked or outside the region of interest.
QRgb colourFor(float v, bool skipped, const DisplaySettings& settings);

// The image at one image pixel per detector pixel (fast to the right, slow down), as the
// viewer draws it at 1:1. skipped is empty or holds fast*slow flags (non-zero: skipped).
QImage colourImage(const std::vector<float>& image, int fast, int slow,
                   const std::vector<std::uint8_t>& skipped, const DisplaySettings& settings);

} // namespace bv::render
