#pragma once
// miniCBF images as PILATUS detectors write them: a CIF text block whose header_contents
// holds the "# Key value" lines of the camera server (pixel size, wavelength, distance, beam
// centre, start angle, angle increment, ...), then one binary section of signed 32-bit pixels
// compressed with CBF's byte-offset scheme. DIALS (dxtbx's FormatCBFMini family), XDS and
// adxv read them. Written here directly rather than through cbflib: the format is a page of
// the CBF specification, and writing it ourselves keeps every file atomic (AtomicFile) and
// byte-for-byte reproducible. See docs/series.md for the header and its limits.
//
//     bv::io::CbfHeader h;  // the caller fills in the geometry
//     bv::io::CbfCounts counts = bv::io::cbfCounts(rng, seed, photons, w, h, roi, mask,
//     h.countCutoff); bv::io::writeCbf("frame_00001.cbf", h, counts.data); bv::io::CbfImage back =
//     bv::io::readCbf("frame_00001.cbf");

#include "compute/io/Roi.h"
#include "compute/random/ReferenceRandom.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bv::io {

class AtomicFile;

// The largest count of a 20-bit PILATUS counter: the default Count_cutoff.
inline constexpr std::int32_t kPilatusCountCutoff = 1048575;

struct CbfHeader {
    int fastPixels = 0;       // X-Binary-Size-Fastest-Dimension
    int slowPixels = 0;       // X-Binary-Size-Second-Dimension
    double pixelSizeM = 0.0;  // "# Pixel_size", m (square pixels)
    double wavelengthA = 0.0; // "# Wavelength", Angstrom
    double distanceM = 0.0;   // "# Detector_distance": sample to detector plane along its normal
    // "# Beam_xy": where the direct beam meets the detector, in pixels along the fast and slow
    // axes from the outer corner of the first pixel (DIALS' convention)
    double beamFastPixels = 0.0, beamSlowPixels = 0.0;
    double startAngleDeg = 0.0;     // "# Start_angle" (and "# Phi")
    double angleIncrementDeg = 0.0; // "# Angle_increment"
    double exposureS = 1.0;         // "# Exposure_time" and "# Exposure_period"
    double thicknessM = 0.0;        // "# Silicon sensor, thickness" (no line when 0)
    double twoThetaDeg = 0.0;       // "# Detector_2theta"
    double flux = 0.0;              // "# Flux", photons/s
    double polarization = 0.0;      // "# Polarization": fraction along the E-vector
    std::int32_t countCutoff = kPilatusCountCutoff; // "# Count_cutoff"
    long long excludedPixels = 0;                   // "# N_excluded_pixels": pixels written as -1
    std::string timestamp;                          // "# 2026-01-31T12:00:00.000" (empty: left out)
    std::string dataName = "image";                 // the CIF block name: data_<dataName>
    std::string software;                           // named on the first line after the CBF version
};

// "PILATUS_1.2" when the detector is a tiling of PILATUS modules (487 x 195 pixels of
// 0.172 mm, gaps of 7 and 17 pixels), else "GENERIC_MINI", dxtbx's name for simulated pixel
// detectors of other sizes (dxtbx would apply the PILATUS module gaps to a PILATUS file).
std::string cbfHeaderConvention(int fastPixels, int slowPixels, double pixelSizeM);

// Everything before the binary data's start marker (CRLF line ends, as the camera writes).
// `packedBytes` is the X-Binary-Size.
std::string cbfHeaderText(const CbfHeader& header, std::size_t packedBytes);

// CBF byte-offset compression: each value as its difference from the previous one (the first
// from 0) in 1 byte, else 0x80 and 2 bytes, else 0x80 0x00 0x80 and 4 bytes, little-endian.
std::string byteOffsetCompress(const std::vector<std::int32_t>& values);
// The inverse; throws bv::Error when the bytes end early or leave bytes over, or a value
// leaves the 32-bit range.
std::vector<std::int32_t> byteOffsetDecompress(std::string_view packed, std::size_t count);

// Writes header and pixels (fastPixels x slowPixels, fast index fastest) atomically.
// Throws bv::Error for a pixel count that does not match the header, and on I/O failure.
void writeCbf(const std::string& path, const CbfHeader& header,
              const std::vector<std::int32_t>& pixels);
// The same bytes into a file the caller commits (several outputs renamed together).
void writeCbf(AtomicFile& file, const CbfHeader& header, const std::vector<std::int32_t>& pixels);

struct CbfImage {
    std::string header; // the text before the binary section
    int width = 0, height = 0;
    std::vector<std::int32_t> data;
    // The value of "# <key> <value>" in header_contents ("Wavelength" -> "1.00000 A").
    std::optional<std::string> item(std::string_view key) const;
};

// Reads a miniCBF with byte-offset compression, little-endian signed 32-bit pixels.
// Throws bv::Error "<path>: ..." for anything else or a damaged file.
CbfImage readCbf(const std::string& path);

// The photons a PILATUS would count: one Poisson deviate per pixel of the ROI, drawn in the
// order and with the generator of the noise image (NoiseImage.h), so that with the same seed
// they are the noise image's deviates without its -adc pedestal and 16-bit clip. Counts above
// countCutoff are clipped there (overloads); pixels outside the ROI and pixels the mask
// (empty, or one value per pixel) turns off are -1, PILATUS' mark of a pixel with no data.
struct CbfCounts {
    std::vector<std::int32_t> data;
    double photons = 0.0;         // sum of the deviates
    int overloads = 0;            // pixels clipped at countCutoff
    long long excludedPixels = 0; // pixels written as -1
};
CbfCounts cbfCounts(random::ReferenceRandom& rng, long& seed, const std::vector<float>& image,
                    int width, int height, const Roi& roi, const std::vector<std::uint16_t>& mask,
                    std::int32_t countCutoff = kPilatusCountCutoff);
// The same counts from deviates drawn beforehand, one per pixel (-noise_generator counter).
CbfCounts cbfCounts(const std::vector<float>& deviates, int width, int height, const Roi& roi,
                    const std::vector<std::uint16_t>& mask,
                    std::int32_t countCutoff = kPilatusCountCutoff);

} // namespace bv::io
