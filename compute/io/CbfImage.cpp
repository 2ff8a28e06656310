#include "compute/io/CbfImage.h"

#include "compute/io/AtomicFile.h"
#include "compute/io/ImageSize.h"
#include "compute/io/InputFile.h"
#include "compute/io/NumberText.h"
#include "compute/io/PrintfFormat.h"
#include "compute/core/Error.h"

#include <cmath>
#include <limits>

namespace bv::io {

namespace {

// the binary section's start marker (CBF specification: 0C 1A 04 D5)
constexpr std::string_view kBinaryStart = "\x0c\x1a\x04\xd5";
constexpr std::size_t kPadding = 4095; // bytes after the data, as PILATUS files carry
constexpr std::string_view kCrlf = "\r\n";
constexpr double kMaxCbfPixels = double(1 << 28);

void putLittle(std::string& out, std::uint32_t value, int bytes) {
    for (int i = 0; i < bytes; ++i)
        out += static_cast<char>((value >> (8 * i)) & 0xffu);
}

std::uint32_t getLittle(std::string_view in, std::size_t at, int bytes) {
    std::uint32_t value = 0;
    for (int i = 0; i < bytes; ++i)
        value |= std::uint32_t(static_cast<unsigned char>(in[at + static_cast<std::size_t>(i)]))
                 << (8 * i);
    return value;
}

bool tilesPilatusModules(int pixels, int module, int gap) {
    if (pixels < module)
        return false;
    // n modules and n - 1 gaps
    return (pixels + gap) % (module + gap) == 0;
}

// the header line "key: value" of the MIME section, or nullopt
std::optional<std::string> mimeValue(std::string_view header, std::string_view key) {
    const std::size_t at = header.find(std::string(key) + ":");
    if (at == std::string_view::npos)
        return std::nullopt;
    std::size_t begin = at + key.size() + 1;
    const std::size_t end = header.find_first_of("\r\n", begin);
    std::string_view value = header.substr(begin, end - begin);
    while (!value.empty() && value.front() == ' ')
        value.remove_prefix(1);
    while (!value.empty() && value.back() == ' ')
        value.remove_suffix(1);
    return std::string(value);
}

} // namespace

std::string cbfHeaderConvention(int fastPixels, int slowPixels, double pixelSizeM) {
    const bool pilatusPixel = std::abs(pixelSizeM - 172e-6) < 1e-9;
    if (pilatusPixel && tilesPilatusModules(fastPixels, 487, 7) &&
        tilesPilatusModules(slowPixels, 195, 17))
        return "PILATUS_1.2";
    return "GENERIC_MINI";
}

std::string cbfHeaderText(const CbfHeader& h, std::size_t packedBytes) {
    const std::string convention = cbfHeaderConvention(h.fastPixels, h.slowPixels, h.pixelSizeM);
    const bool pilatus = convention == "PILATUS_1.2";
    const std::string micron = formatG(h.pixelSizeM * 1e6);
    std::string t;
    auto line = [&t](const std::string& text) {
        t += text;
        t += kCrlf;
    };
    line("###CBF: VERSION 1.5, " + (h.software.empty() ? std::string("braggview") : h.software) +
         " - PILATUS-style miniCBF");
    line("");
    line("data_" + h.dataName);
    line("");
    line("_array_data.header_convention \"" + convention + "\"");
    line("_array_data.header_contents");
    line(";");
    // dxtbx reads a PILATUS file's geometry through its PILATUS class only when the detector
    // line says PILATUS; other sizes go to its generic miniCBF class (cbfHeaderConvention)
    line(pilatus ? "# Detector: PILATUS (simulated), S/N 00-0000"
                 : "# Detector: simulated pixel-array detector, S/N 00-0000");
    if (!h.timestamp.empty())
        line("# " + h.timestamp);
    line("# Pixel_size " + micron + "e-6 m x " + micron + "e-6 m");
    // a sensor without thickness (nanoBragg's default: no parallax) has no sensor line;
    // dxtbx would model a zero-thickness silicon layer with a parallax correction it refuses
    if (h.thicknessM > 0.0)
        line("# Silicon sensor, thickness " + formatFixed(h.thicknessM, 6) + " m");
    line("# Exposure_time " + formatFixed(h.exposureS, 7) + " s");
    line("# Exposure_period " + formatFixed(h.exposureS, 7) + " s");
    line("# Tau = 0 s");
    line("# Count_cutoff " + std::to_string(h.countCutoff) + " counts");
    line("# Threshold_setting: " + formatFixed(12398.42 / h.wavelengthA / 2.0, 0) + " eV");
    line("# N_excluded_pixels = " + std::to_string(h.excludedPixels));
    line("# Excluded_pixels: (nil)");
    line("# Flat_field: (nil)");
    line("# Trim_file: (nil)");
    line("# Image_path: (nil)");
    line("# Wavelength " + formatFixed(h.wavelengthA, 6) + " A");
    line("# Detector_distance " + formatFixed(h.distanceM, 7) + " m");
    line("# Beam_xy (" + formatFixed(h.beamFastPixels, 3) + ", " +
         formatFixed(h.beamSlowPixels, 3) + ") pixels");
    line("# Flux " + formatG(h.flux));
    line("# Filter_transmission 1.0000");
    line("# Start_angle " + formatFixed(h.startAngleDeg, 6) + " deg.");
    line("# Angle_increment " + formatFixed(h.angleIncrementDeg, 6) + " deg.");
    line("# Detector_2theta " + formatFixed(h.twoThetaDeg, 4) + " deg.");
    line("# Polarization " + formatFixed(h.polarization, 3));
    line("# Alpha 0.0000 deg.");
    line("# Kappa 0.0000 deg.");
    line("# Phi " + formatFixed(h.startAngleDeg, 6) + " deg.");
    line("# Phi_increment " + formatFixed(h.angleIncrementDeg, 6) + " deg.");
    line("# Chi 0.0000 deg.");
    line("# N_oscillations 1");
    line(";");
    line("");
    line("_array_data.data");
    line(";");
    line("--CIF-BINARY-FORMAT-SECTION--");
    line("Content-Type: application/octet-stream;");
    line("     conversions=\"x-CBF_BYTE_OFFSET\"");
    line("Content-Transfer-Encoding: BINARY");
    line("X-Binary-Size: " + std::to_string(packedBytes));
    line("X-Binary-ID: 1");
    line("X-Binary-Element-Type: \"signed 32-bit integer\"");
    line("X-Binary-Element-Byte-Order: LITTLE_ENDIAN");
    line("X-Binary-Number-of-Elements: " +
         std::to_string(static_cast<long long>(h.fastPixels) * h.slowPixels));
    line("X-Binary-Size-Fastest-Dimension: " + std::to_string(h.fastPixels));
    line("X-Binary-Size-Second-Dimension: " + std::to_string(h.slowPixels));
    line("X-Binary-Size-Padding: " + std::to_string(kPadding));
    line("");
    return t;
}

std::string byteOffsetCompress(const std::vector<std::int32_t>& values) {
    std::string out;
    out.reserve(values.size() + 16);
    std::int64_t previous = 0;
    for (const std::int32_t value : values) {
        const std::int64_t delta = std::int64_t(value) - previous;
        previous = value;
        if (delta >= -127 && delta <= 127) {
            out += static_cast<char>(static_cast<std::uint8_t>(delta & 0xff));
            continue;
        }
        out += '\x80';
        if (delta >= -32767 && delta <= 32767) {
            putLittle(out, static_cast<std::uint32_t>(delta & 0xffff), 2);
            continue;
        }
        putLittle(out, 0x8000u, 2);
        if (delta >= -2147483647LL && delta <= 2147483647LL) {
            putLittle(out, static_cast<std::uint32_t>(delta & 0xffffffff), 4);
            continue;
        }
        // a 64-bit difference (two 32-bit values far apart)
        putLittle(out, 0x80000000u, 4);
        const std::uint64_t wide = static_cast<std::uint64_t>(delta);
        putLittle(out, static_cast<std::uint32_t>(wide & 0xffffffffu), 4);
        putLittle(out, static_cast<std::uint32_t>(wide >> 32), 4);
    }
    return out;
}

std::vector<std::int32_t> byteOffsetDecompress(std::string_view packed, std::size_t count) {
    std::vector<std::int32_t> values;
    values.reserve(count);
    std::int64_t current = 0;
    std::size_t at = 0;
    auto need = [&](std::size_t bytes) {
        if (packed.size() - at < bytes)
            throw Error("byte-offset data end after " + std::to_string(values.size()) + " of " +
                        std::to_string(count) + " pixels");
    };
    while (values.size() < count) {
        need(1);
        const auto b = static_cast<std::int8_t>(static_cast<unsigned char>(packed[at++]));
        std::int64_t delta = b;
        if (b == -128) {
            need(2);
            const auto s = static_cast<std::int16_t>(getLittle(packed, at, 2));
            at += 2;
            delta = s;
            if (s == -32768) {
                need(4);
                const auto i = static_cast<std::int32_t>(getLittle(packed, at, 4));
                at += 4;
                delta = i;
                if (i == std::numeric_limits<std::int32_t>::min()) {
                    need(8);
                    const std::uint64_t low = getLittle(packed, at, 4);
                    const std::uint64_t high = getLittle(packed, at + 4, 4);
                    at += 8;
                    delta = static_cast<std::int64_t>(low | (high << 32));
                }
            }
        }
        current += delta;
        if (current < std::numeric_limits<std::int32_t>::min() ||
            current > std::numeric_limits<std::int32_t>::max())
            throw Error("byte-offset data: pixel " + std::to_string(values.size()) +
                        " leaves the signed 32-bit range");
        values.push_back(static_cast<std::int32_t>(current));
    }
    if (at != packed.size())
        throw Error("byte-offset data: " + std::to_string(packed.size() - at) +
                    " bytes left over after " + std::to_string(count) + " pixels");
    return values;
}

void writeCbf(const std::string& path, const CbfHeader& header,
              const std::vector<std::int32_t>& pixels) {
    AtomicFile file(path);
    writeCbf(file, header, pixels);
    file.commit();
}

void writeCbf(AtomicFile& file, const CbfHeader& header, const std::vector<std::int32_t>& pixels) {
    const std::string& path = file.targetPath();
    if (header.fastPixels <= 0 || header.slowPixels <= 0 ||
        pixels.size() != static_cast<std::size_t>(header.fastPixels) *
                             static_cast<std::size_t>(header.slowPixels))
        throw Error(path + ": CBF image of " + std::to_string(header.fastPixels) + "x" +
                    std::to_string(header.slowPixels) + " pixels given " +
                    std::to_string(pixels.size()) + " values");
    const std::string packed = byteOffsetCompress(pixels);
    file.write(cbfHeaderText(header, packed.size()));
    file.write(kBinaryStart);
    file.write(packed);
    file.write(std::string(kPadding, '\0'));
    file.write("\r\n--CIF-BINARY-FORMAT-SECTION----\r\n;\r\n\r\n");
}

std::optional<std::string> CbfImage::item(std::string_view key) const {
    const std::string wanted = "# " + std::string(key) + " ";
    std::size_t at = 0;
    while ((at = header.find(wanted, at)) != std::string::npos) {
        if (at == 0 || header[at - 1] == '\n') {
            const std::size_t begin = at + wanted.size();
            const std::size_t end = header.find_first_of("\r\n", begin);
            return header.substr(begin, end - begin);
        }
        at += wanted.size();
    }
    return std::nullopt;
}

CbfImage readCbf(const std::string& path) {
    const std::string bytes = readWholeFile(path, "CBF image", kImageFileMaxBytes);
    auto fail = [&](const std::string& what) -> Error { return Error(path + ": " + what); };
    if (bytes.compare(0, 6, "###CBF") != 0)
        throw fail("not a CBF file (it does not start with ###CBF)");
    const std::size_t section = bytes.find("--CIF-BINARY-FORMAT-SECTION--");
    if (section == std::string::npos)
        throw fail("no binary section (--CIF-BINARY-FORMAT-SECTION--)");
    const std::size_t start = bytes.find(kBinaryStart, section);
    if (start == std::string::npos)
        throw fail("the binary section has no start marker 0C 1A 04 D5");
    CbfImage image;
    image.header = bytes.substr(0, start);
    const std::string_view mime = std::string_view(image.header).substr(section);

    auto integer = [&](const char* key, double limit) {
        const auto text = mimeValue(mime, key);
        if (!text)
            throw fail(std::string("the binary section has no ") + key);
        const auto value = parseInteger(*text);
        if (!value || *value < 0 || double(*value) > limit)
            throw fail(std::string(key) + ": " + quoteToken(*text) + " is not a usable size");
        return *value;
    };
    const auto conversions = mimeValue(mime, "conversions");
    if (mime.find("x-CBF_BYTE_OFFSET") == std::string_view::npos)
        throw fail("only byte-offset compression (x-CBF_BYTE_OFFSET) is read, not " +
                   (conversions ? quoteToken(*conversions) : std::string("this one")));
    const auto type = mimeValue(mime, "X-Binary-Element-Type");
    if (!type || *type != "\"signed 32-bit integer\"")
        throw fail("only signed 32-bit integer pixels are read");
    const auto order = mimeValue(mime, "X-Binary-Element-Byte-Order");
    if (!order || *order != "LITTLE_ENDIAN")
        throw fail("only LITTLE_ENDIAN pixels are read");
    const long long size = integer("X-Binary-Size", double(bytes.size()));
    const long long elements = integer("X-Binary-Number-of-Elements", kMaxCbfPixels);
    const long long fast = integer("X-Binary-Size-Fastest-Dimension", kMaxCbfPixels);
    const long long slow = integer("X-Binary-Size-Second-Dimension", kMaxCbfPixels);
    if (fast < 1 || slow < 1 || fast * slow != elements)
        throw fail("X-Binary-Size-Fastest-Dimension x X-Binary-Size-Second-Dimension (" +
                   std::to_string(fast) + " x " + std::to_string(slow) +
                   ") is not X-Binary-Number-of-Elements (" + std::to_string(elements) + ")");
    const std::size_t dataStart = start + kBinaryStart.size();
    if (bytes.size() - dataStart < static_cast<std::size_t>(size))
        throw fail("the file ends inside the binary data (X-Binary-Size " + std::to_string(size) +
                   ", " + std::to_string(bytes.size() - dataStart) + " bytes there)");
    try {
        image.data = byteOffsetDecompress(
            std::string_view(bytes).substr(dataStart, static_cast<std::size_t>(size)),
            static_cast<std::size_t>(elements));
    } catch (const Error& e) {
        throw fail(e.what());
    }
    image.width = static_cast<int>(fast);
    image.height = static_cast<int>(slow);
    return image;
}

namespace {

// The one path of the CBF's counts: `deviate(i)` as in NoiseImage.cpp, asked for every ROI
// pixel in the reference's order, masked or not (as the noise image draws them).
template <class Deviate>
CbfCounts makeCbfCounts(Deviate&& deviate, std::size_t pixels, int width, int height,
                        const Roi& roi, const std::vector<std::uint16_t>& mask,
                        std::int32_t countCutoff) {
    checkImageSize(pixels, width, height, "CBF image");
    if (!mask.empty() && mask.size() != pixels)
        throw Error("CBF image: the mask has " + std::to_string(mask.size()) +
                    " pixels, the image " + std::to_string(pixels));
    CbfCounts counts;
    counts.data.assign(pixels, -1);
    for (int slow = 0; slow < height; ++slow)
        for (int fast = 0; fast < width; ++fast) {
            if (!roi.contains(fast, slow))
                continue;
            const std::size_t i = pixelIndex(fast, slow, width);
            double value = deviate(i);
            counts.photons += value;
            if (!mask.empty() && mask[i] == 0)
                continue;
            if (value > double(countCutoff)) {
                value = double(countCutoff);
                ++counts.overloads;
            }
            if (value < 0.0)
                value = 0.0;
            counts.data[i] = static_cast<std::int32_t>(value);
        }
    for (const std::int32_t v : counts.data)
        if (v < 0)
            ++counts.excludedPixels;
    return counts;
}

} // namespace

CbfCounts cbfCounts(random::ReferenceRandom& rng, long& seed, const std::vector<float>& image,
                    int width, int height, const Roi& roi, const std::vector<std::uint16_t>& mask,
                    std::int32_t countCutoff) {
    return makeCbfCounts(
        [&](std::size_t i) { return static_cast<double>(rng.poisson(image[i], seed)); },
        image.size(), width, height, roi, mask, countCutoff);
}

CbfCounts cbfCounts(const std::vector<float>& deviates, int width, int height, const Roi& roi,
                    const std::vector<std::uint16_t>& mask, std::int32_t countCutoff) {
    return makeCbfCounts([&](std::size_t i) { return static_cast<double>(deviates[i]); },
                         deviates.size(), width, height, roi, mask, countCutoff);
}

} // namespace bv::io
