#pragma once
// SMV (ADSC) images: a text header "{\nKEY=VALUE;\n...}" padded to HEADER_BYTES bytes, then
// SIZE1 x SIZE2 unsigned 16-bit pixels, fast index (SIZE1) varying fastest, in the byte
// order the header's BYTE_ORDER names. nanoBragg writes its -intfile and -noisefile images
// this way and reads -mask and -img files back.

#include <glm/vec3.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bv::io {

class AtomicFile;

// What nanoBragg records in the header of the images it writes (nanoBragg.c:3167-3181).
// The caller computes the values; writeSmv only formats them, each with printf's "%g".
struct SmvHeader {
    int fpixels = 0;               // SIZE1: pixels along the fast axis
    int spixels = 0;               // SIZE2: pixels along the slow axis
    double pixelSizeMm = 0.0;      // PIXEL_SIZE
    double distanceMm = 0.0;       // DISTANCE
    double wavelengthA = 0.0;      // WAVELENGTH, Angstrom
    double beamCenterXMm = 0.0;    // BEAM_CENTER_X: the reference's Xbeam; braggview's dxtbx's
    double beamCenterYMm = 0.0;    // BEAM_CENTER_Y: ... Ybeam (products/FileHeaders.cpp)
    double adxvCenterXMm = 0.0;    // ADXV_CENTER_X: Fbeam
    double adxvCenterYMm = 0.0;    // ADXV_CENTER_Y: detsize_s - Sbeam
    double mosflmCenterXMm = 0.0;  // MOSFLM_CENTER_X: Sbeam - pixel/2
    double mosflmCenterYMm = 0.0;  // MOSFLM_CENTER_Y: Fbeam - pixel/2
    double denzoXBeamMm = 0.0;     // DENZO_X_BEAM: Sbeam
    double denzoYBeamMm = 0.0;     // DENZO_Y_BEAM: Fbeam
    glm::dvec3 dialsOriginMm{0.0}; // DIALS_ORIGIN (the reference writes it without ";")
    double orgX = 0.0;             // XDS_ORGX, pixels
    double orgY = 0.0;             // XDS_ORGY, pixels
    double closeDistanceMm = 0.0;  // CLOSE_DISTANCE
    double phiDeg = 0.0;           // PHI
    double oscStartDeg = 0.0;      // OSC_START (the reference writes phi0 here too)
    double oscRangeDeg = 0.0;      // OSC_RANGE
    double twoThetaDeg = 0.0;      // TWOTHETA
};

// The reference's header block, exactly 512 bytes: its keys in its order, "}\f", then spaces.
// BYTE_ORDER is the host's. Throws bv::Error if the text would not fit in 512 bytes.
std::string smvHeaderText(const SmvHeader& header);

// Writes header and data (fpixels*spixels pixels, host byte order) atomically.
// Throws bv::Error for a data size that does not match the header, and on I/O failure.
void writeSmv(const std::string& path, const SmvHeader& header,
              const std::vector<std::uint16_t>& data);
// The same bytes into a file the caller commits (several outputs renamed together).
void writeSmv(AtomicFile& file, const SmvHeader& header, const std::vector<std::uint16_t>& data);

struct SmvImage {
    std::string header;  // the header block (HEADER_BYTES bytes, cut at the first NUL)
    int headerBytes = 0; // HEADER_BYTES
    // KEY=VALUE entries between "{" and "}", in order, keys and values trimmed, the ";" dropped
    std::vector<std::pair<std::string, std::string>> fields;
    int width = 0;                   // SIZE1, fast pixels
    int height = 0;                  // SIZE2, slow pixels
    bool swappedBytes = false;       // the file's byte order was not the host's
    std::vector<std::uint16_t> data; // width*height pixels, fast-major, host byte order

    // The value of the LAST entry whose key is exactly `key`.
    std::optional<std::string> field(std::string_view key) const;

    // nanoBragg's ValueOf (nanoBragg.c:4237): the number after the first "=" that follows
    // the LAST occurrence of `keyword` ANYWHERE in the header text (a substring match),
    // read like atof (0 when no number follows); NaN when the keyword does not occur.
    // Beware the substring rule, kept for parity: in nanoBragg's own headers
    // valueOf("DISTANCE") finds "CLOSE_DISTANCE=" and valueOf("ORGX") finds "XDS_ORGX=".
    double valueOf(std::string_view keyword) const;
};

// Throws bv::Error "<path>: ..." for a missing/unreadable file or a directory, a file that
// does not start with "{", a missing or unusable HEADER_BYTES, SIZE1 or SIZE2 (absent,
// zero, negative, not an integer, absurdly large), a TYPE other than unsigned_short, an
// unknown BYTE_ORDER, and a header or pixel block cut short by the end of the file.
SmvImage readSmv(const std::string& path);

} // namespace bv::io
