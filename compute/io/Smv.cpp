#include "compute/io/Smv.h"

#include "compute/io/AtomicFile.h"
#include "compute/io/ByteOrder.h"
#include "compute/io/InputFile.h"
#include "compute/io/NumberText.h"
#include "compute/io/PrintfFormat.h"
#include "compute/core/Error.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace bv::io {

namespace {

// The header size nanoBragg writes, and the first block it reads before it knows better.
constexpr std::size_t kStandardHeaderBytes = 512;
// Larger headers exist (HEADER_BYTES is a multiple of 512) but not megabytes of them.
constexpr double kMaxHeaderBytes = 1 << 24;
// At most 2^28 pixels (512 MiB of data): far beyond any detector.
constexpr double kMaxSmvPixels = double(1 << 28);

std::string_view trimmed(std::string_view text) {
    const auto begin = text.find_first_not_of(kWhitespace);
    if (begin == std::string_view::npos)
        return {};
    const auto end = text.find_last_not_of(kWhitespace);
    return text.substr(begin, end - begin + 1);
}

// the reference's ValueOf on any header text
double valueOfIn(std::string_view header, std::string_view keyword) {
    if (keyword.empty())
        return std::numeric_limits<double>::quiet_NaN();
    const auto last = header.rfind(keyword);
    if (last == std::string_view::npos)
        return std::numeric_limits<double>::quiet_NaN();
    const auto equals = header.find('=', last + keyword.size());
    if (equals == std::string_view::npos)
        return 0.0;
    return parseLeadingDouble(header.substr(equals + 1));
}

std::string cutAtNul(std::string_view bytes) {
    return std::string(bytes.substr(0, bytes.find('\0')));
}

// A positive integer header value; `what` explains it for the message.
int positiveInteger(const std::string& path, std::string_view header, const char* keyword,
                    double limit, const char* what) {
    const double value = valueOfIn(header, keyword);
    if (std::isnan(value))
        throw Error(path + ": SMV header has no " + keyword + " (" + what + ")");
    if (!(value >= 1.0) || value > limit || value != std::floor(value))
        throw Error(path + ": SMV header has " + keyword + "=" + formatG(value) +
                    ", expected a positive integer (" + what + ")");
    return static_cast<int>(value);
}

std::vector<std::pair<std::string, std::string>> parseFields(std::string_view header) {
    std::vector<std::pair<std::string, std::string>> fields;
    const auto open = header.find('{');
    const auto close = header.find('}', open);
    const std::string_view body = header.substr(
        open + 1, close == std::string_view::npos ? std::string_view::npos : close - open - 1);
    for (const TextLine& line : splitLines(body)) {
        const auto equals = line.text.find('=');
        if (equals == std::string_view::npos)
            continue;
        std::string_view value = trimmed(line.text.substr(equals + 1));
        if (!value.empty() && value.back() == ';')
            value = trimmed(value.substr(0, value.size() - 1));
        fields.emplace_back(std::string(trimmed(line.text.substr(0, equals))), std::string(value));
    }
    return fields;
}

} // namespace

std::string smvHeaderText(const SmvHeader& h) {
    const auto g = [](double value) { return formatG(value); };
    std::string text;
    text += "{\nHEADER_BYTES=512;\nDIM=2;\nBYTE_ORDER=";
    text += hostByteOrderName();
    text += ";\nTYPE=unsigned_short;\n";
    text += "SIZE1=" + std::to_string(h.fpixels) + ";\nSIZE2=" + std::to_string(h.spixels) +
            ";\nPIXEL_SIZE=" + g(h.pixelSizeMm) + ";\nDISTANCE=" + g(h.distanceMm) + ";\n";
    text += "WAVELENGTH=" + g(h.wavelengthA) + ";\n";
    text +=
        "BEAM_CENTER_X=" + g(h.beamCenterXMm) + ";\nBEAM_CENTER_Y=" + g(h.beamCenterYMm) + ";\n";
    text +=
        "ADXV_CENTER_X=" + g(h.adxvCenterXMm) + ";\nADXV_CENTER_Y=" + g(h.adxvCenterYMm) + ";\n";
    text += "MOSFLM_CENTER_X=" + g(h.mosflmCenterXMm) +
            ";\nMOSFLM_CENTER_Y=" + g(h.mosflmCenterYMm) + ";\n";
    text += "DENZO_X_BEAM=" + g(h.denzoXBeamMm) + ";\nDENZO_Y_BEAM=" + g(h.denzoYBeamMm) + ";\n";
    text += "DIALS_ORIGIN=" + g(h.dialsOriginMm.x) + "," + g(h.dialsOriginMm.y) + "," +
            g(h.dialsOriginMm.z) + "\n";
    text += "XDS_ORGX=" + g(h.orgX) + ";\nXDS_ORGY=" + g(h.orgY) + ";\n";
    text += "CLOSE_DISTANCE=" + g(h.closeDistanceMm) + ";\n";
    text += "PHI=" + g(h.phiDeg) + ";\nOSC_START=" + g(h.oscStartDeg) +
            ";\nOSC_RANGE=" + g(h.oscRangeDeg) + ";\n";
    text += "TWOTHETA=" + g(h.twoThetaDeg) + ";\n";
    text += "DETECTOR_SN=000;\n";
    text += "BEAMLINE=fake;\n";
    text += "}\f";
    if (text.size() > kStandardHeaderBytes)
        throw Error("SMV header text is " + std::to_string(text.size()) +
                    " bytes, more than the 512 its HEADER_BYTES announces");
    text.resize(kStandardHeaderBytes, ' ');
    return text;
}

void writeSmv(const std::string& path, const SmvHeader& header,
              const std::vector<std::uint16_t>& data) {
    AtomicFile file(path);
    writeSmv(file, header, data);
    file.commit();
}

void writeSmv(AtomicFile& file, const SmvHeader& header, const std::vector<std::uint16_t>& data) {
    const std::string& path = file.targetPath();
    if (header.fpixels <= 0 || header.spixels <= 0 ||
        data.size() !=
            static_cast<std::size_t>(header.fpixels) * static_cast<std::size_t>(header.spixels))
        throw Error("cannot write '" + path + "': " + std::to_string(data.size()) +
                    " pixels do not make a " + std::to_string(header.fpixels) + "x" +
                    std::to_string(header.spixels) + " image");
    file.write(smvHeaderText(header));
    file.write(data.data(), data.size() * sizeof(std::uint16_t));
}

std::optional<std::string> SmvImage::field(std::string_view key) const {
    for (auto it = fields.rbegin(); it != fields.rend(); ++it)
        if (it->first == key)
            return it->second;
    return std::nullopt;
}

double SmvImage::valueOf(std::string_view keyword) const {
    return valueOfIn(header, keyword);
}

SmvImage readSmv(const std::string& path) {
    const std::string bytes = readWholeFile(path, "SMV image", kImageFileMaxBytes);
    if (bytes.empty() || bytes[0] != '{')
        throw Error(path + ": not an SMV image: it does not start with \"{\"");

    SmvImage image;
    const std::string probe = cutAtNul(std::string_view(bytes).substr(0, kStandardHeaderBytes));
    image.headerBytes =
        positiveInteger(path, probe, "HEADER_BYTES", kMaxHeaderBytes, "size of the header");
    if (static_cast<std::size_t>(image.headerBytes) > bytes.size())
        throw Error(path + ": truncated: HEADER_BYTES=" + std::to_string(image.headerBytes) +
                    " but the file has only " + std::to_string(bytes.size()) + " bytes");
    image.header =
        cutAtNul(std::string_view(bytes).substr(0, static_cast<std::size_t>(image.headerBytes)));
    image.fields = parseFields(image.header);

    image.width = positiveInteger(path, image.header, "SIZE1", kMaxSmvPixels, "fast pixels");
    image.height = positiveInteger(path, image.header, "SIZE2", kMaxSmvPixels, "slow pixels");
    if (double(image.width) * double(image.height) > kMaxSmvPixels)
        throw Error(path + ": SMV header has SIZE1=" + std::to_string(image.width) + " and SIZE2=" +
                    std::to_string(image.height) + ", more pixels than any detector has");

    if (const auto type = image.field("TYPE"); type && *type != "unsigned_short")
        throw Error(path + ": SMV header has TYPE=" + *type +
                    ", only unsigned_short images can be read");

    // the last BYTE_ORDER wins, as in the reference; its absence means the host's order
    const std::string_view header = image.header;
    const auto order = header.rfind("BYTE_ORDER=");
    if (order != std::string_view::npos) {
        const std::string_view value = header.substr(order + 11);
        const bool little = value.substr(0, 13) == "little_endian";
        const bool big = value.substr(0, 10) == "big_endian";
        if (!little && !big)
            throw Error(path + ": SMV header has BYTE_ORDER=" +
                        quoteToken(value.substr(0, value.find_first_of(";\n"))) +
                        ", expected little_endian or big_endian");
        image.swappedBytes = little != hostIsLittleEndian();
    }

    const std::size_t pixels =
        static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height);
    const std::size_t expected = pixels * sizeof(std::uint16_t);
    const std::size_t found = bytes.size() - static_cast<std::size_t>(image.headerBytes);
    if (found < expected)
        throw Error(path + ": truncated: " + std::to_string(image.width) + "x" +
                    std::to_string(image.height) + " pixels need " + std::to_string(expected) +
                    " bytes after the " + std::to_string(image.headerBytes) +
                    "-byte header, found " + std::to_string(found));
    image.data.resize(pixels);
    std::memcpy(image.data.data(), bytes.data() + image.headerBytes, expected);
    if (image.swappedBytes)
        for (std::uint16_t& pixel : image.data)
            pixel = swapBytes(pixel);
    return image;
}

} // namespace bv::io
