#include "render/Colormap.h"

#include <algorithm>
#include <cmath>

namespace bv::render {
namespace {

using Entry = std::array<std::uint8_t, 4>;
using Table = std::array<Entry, kColormapCount * kColourTableSize>;

std::uint8_t byteOf(double unit) {
    return static_cast<std::uint8_t>(std::lround(std::clamp(unit, 0.0, 1.0) * 255.0));
}

// Viridis, approximated by linear interpolation between nine published samples of it
// (evenly spaced from 0 to 1); the largest deviation from the full table is a few levels
// of 255, invisible on an image.
const std::array<std::array<int, 3>, 9> kViridisSamples = {{{0x44, 0x01, 0x54},
                                                            {0x47, 0x2d, 0x7b},
                                                            {0x3b, 0x52, 0x8b},
                                                            {0x2c, 0x72, 0x8e},
                                                            {0x21, 0x90, 0x8c},
                                                            {0x27, 0xad, 0x81},
                                                            {0x5d, 0xc8, 0x63},
                                                            {0xaa, 0xdc, 0x32},
                                                            {0xfd, 0xe7, 0x25}}};

Entry viridis(double t) {
    const double position = t * static_cast<double>(kViridisSamples.size() - 1);
    const std::size_t i =
        std::min(static_cast<std::size_t>(position), kViridisSamples.size() - 2);
    const double f = position - static_cast<double>(i);
    Entry e{0, 0, 0, 255};
    for (std::size_t c = 0; c < 3; ++c) {
        const double value = (1.0 - f) * kViridisSamples[i][c] + f * kViridisSamples[i + 1][c];
        e[c] = static_cast<std::uint8_t>(std::lround(value));
    }
    return e;
}

// black -> red -> yellow -> white, each channel rising over one third
Entry heat(double t) {
    return {byteOf(3.0 * t), byteOf(3.0 * t - 1.0), byteOf(3.0 * t - 2.0), 255};
}

Table buildTable() {
    Table table{};
    for (int i = 0; i < kColourTableSize; ++i) {
        const double t = i / static_cast<double>(kColourTableSize - 1);
        const std::uint8_t grey = byteOf(t);
        const auto at = [i](Colormap map) {
            return static_cast<std::size_t>(static_cast<int>(map) * kColourTableSize + i);
        };
        table[at(Colormap::Grey)] = {grey, grey, grey, 255};
        const std::uint8_t inverted = static_cast<std::uint8_t>(255 - grey);
        table[at(Colormap::InvertedGrey)] = {inverted, inverted, inverted, 255};
        table[at(Colormap::Viridis)] = viridis(t);
        table[at(Colormap::Heat)] = heat(t);
    }
    return table;
}

} // namespace

const char* colormapName(Colormap map) {
    switch (map) {
    case Colormap::Grey: return "grey";
    case Colormap::InvertedGrey: return "inverted grey";
    case Colormap::Viridis: return "viridis";
    case Colormap::Heat: return "heat";
    }
    return "";
}

const char* colormapKey(Colormap map) {
    switch (map) {
    case Colormap::Grey: return "grey";
    case Colormap::InvertedGrey: return "inverted-grey";
    case Colormap::Viridis: return "viridis";
    case Colormap::Heat: return "heat";
    }
    return "";
}

bool colormapFromKey(const QString& key, Colormap* map) {
    for (Colormap m : {Colormap::Grey, Colormap::InvertedGrey, Colormap::Viridis, Colormap::Heat})
        if (key == QLatin1String(colormapKey(m))) {
            *map = m;
            return true;
        }
    return false;
}

const char* scalingName(Scaling scaling) {
    switch (scaling) {
    case Scaling::Linear: return "linear";
    case Scaling::Sqrt: return "sqrt";
    case Scaling::Log: return "log";
    }
    return "";
}

bool scalingFromKey(const QString& key, Scaling* scaling) {
    for (Scaling s : {Scaling::Linear, Scaling::Sqrt, Scaling::Log})
        if (key == QLatin1String(scalingName(s))) {
            *scaling = s;
            return true;
        }
    return false;
}

const Table& colourTable() {
    static const Table table = buildTable();
    return table;
}

int colourIndex(float v, const DisplaySettings& s) {
    // float throughout, in the shader's order (image.frag, transferIndex)
    float x;
    if (s.white > s.black)
        x = std::clamp((v - s.black) / (s.white - s.black), 0.0f, 1.0f);
    else
        x = v >= s.white ? 1.0f : 0.0f;
    float t = x;
    if (s.scaling == Scaling::Sqrt)
        t = std::sqrt(x);
    else if (s.scaling == Scaling::Log)
        t = std::log(1.0f + 1000.0f * x) / std::log(1001.0f);
    return std::min(static_cast<int>(t * 256.0f), kColourTableSize - 1);
}

QRgb colourFor(float v, bool skipped, const DisplaySettings& s) {
    if (skipped)
        return s.maskedColour.rgb();
    if (s.overloadOn && v >= s.overload)
        return s.overloadColour.rgb();
    const Entry& e = colourTable()[static_cast<std::size_t>(static_cast<int>(s.colormap) *
                                                                kColourTableSize +
                                                            colourIndex(v, s))];
    return qRgb(e[0], e[1], e[2]);
}

QImage colourImage(const std::vector<float>& image, int fast, int slow,
                   const std::vector<std::uint8_t>& skipped, const DisplaySettings& settings) {
    if (fast <= 0 || slow <= 0 ||
        image.size() != static_cast<std::size_t>(fast) * static_cast<std::size_t>(slow))
        return {};
    QImage out(fast, slow, QImage::Format_RGB32);
    const bool haveSkipped = skipped.size() == image.size();
    for (int s = 0; s < slow; ++s) {
        auto* line = reinterpret_cast<QRgb*>(out.scanLine(s));
        for (int f = 0; f < fast; ++f) {
            const std::size_t i =
                static_cast<std::size_t>(s) * static_cast<std::size_t>(fast) +
                static_cast<std::size_t>(f);
            line[f] = colourFor(image[i], haveSkipped && skipped[i] != 0, settings);
        }
    }
    return out;
}

} // namespace bv::render
