#pragma once
// How far each kind of number braggview reads may go. A value far outside any physical range
// (-Xbeam 1e300, -lambda 1e-30) is a typo or garbage: left in, it overflows to infinities
// and NaN somewhere in the geometry or the shader and the run writes an empty or black image
// without a word. One table, per KIND of quantity, serves every reader (the option table,
// the -img/-mask headers, viewer sessions), so options of the same kind share one limit and
// no option carries its own:
//
//     if (!bv::withinLimits(bv::Quantity::DetectorLength, bv::Bound::Positive, mm))
//         throw bv::Error("-distance: expected " +
//                         bv::expectedValue(bv::Quantity::DetectorLength, bv::Bound::Positive));
//         // "-distance: expected a length greater than 0, at most 100000 mm"
//
// The limits, and why each is where it is, are in PhysicalLimits.cpp. The sign a value may
// have (Bound) is the option's own physics: a beam centre may be negative, a distance not.

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace bv {

// The most pixels along one edge of a detector or of one of its panels: keeps fast * slow
// within an int, as the reference and the GPU index them. The same for nanoBragg's detector
// (-detpixels) and for a preset's or a file's panels.
inline constexpr int kMaxPixelsPerSide = 32768;
// The most pixels of one image (a detector's panels stacked: the widest panel's width times
// all their rows): the shader counts pixels in a signed int with room for its halves.
inline constexpr long long kMaxImagePixels = std::numeric_limits<std::int32_t>::max() / 2;

// The sign a value may have.
enum class Bound { Any, Positive, NonNegative };

enum class Quantity {
    DetectorLength,  // mm: sample-detector distances, detector edges, beam centre, close point
    PixelSize,       // mm
    PixelPosition,   // pixels: the XDS origin
    SampleLength,    // mm: crystal and beam sizes
    Thickness,       // microns: sensor thickness and attenuation depth, water around the crystal
    CellLength,      // Angstrom: unit-cell edges
    Resolution,      // Angstrom: -dmin
    Wavelength,      // Angstrom
    PhotonEnergy,    // eV
    Angle,           // degrees: misset, spindle, detector rotations, mosaic spread
    CellAngle,       // degrees: alpha, beta, gamma (whether three close a cell: Crystal.h)
    Divergence,      // mrad
    Dispersion,      // percent
    KahnFactor,      // the polarization factor, -1 to 1
    Direction,       // one component of a direction vector (only the direction counts)
    Fluence,         // photons/m^2
    Flux,            // photons/s
    ExposureTime,    // s
    StructureFactor, // electrons
    IntensityScale,  // photons -> image counts or grey levels
    ShapeFactor,     // -fudge: scales the spot-shape argument
    AdcOffset,       // counts added to every int-image pixel
    Density,         // g/cm^3
    MolecularWeight, // g/mol
};

// Units a value is in: as options and image headers give it (mm, degrees, Angstrom, ...), or
// as the model and viewer sessions store it (SI: m, rad; cell edges in Angstrom, as UnitCell).
enum class QuantityUnits { AsGiven, Model };

// `value` is finite, has the sign `bound` allows and lies within the kind's limits.
bool withinLimits(Quantity quantity, Bound bound, double value,
                  QuantityUnits units = QuantityUnits::AsGiven);

// What a value must be, for messages: "a length from -100000 to 100000 mm".
std::string expectedValue(Quantity quantity, Bound bound,
                          QuantityUnits units = QuantityUnits::AsGiven);

// Where real set-ups lie, inside the limits: a value outside is accepted and keeps the
// reference's meaning, but is most likely a slip of units (-distance 0.1: metres typed where
// mm are meant; -energy 12.4: keV typed as eV, a wavelength of 1000 A), and front ends warn
// before the run (compute/run/RunNotices.h). Only the kinds with a usual slip have a range.
//
//     bv::unitSlip(bv::Quantity::DetectorLength, 0.1);
//     // "under 1 mm: metres typed as mm? (0.1 m is 100 mm)"
struct PlausibleRange {
    double least = 0.0; // smallest plausible magnitude, in the units as given (0: none)
    double most = std::numeric_limits<double>::infinity(); // largest
};
PlausibleRange plausibleRange(Quantity quantity);

// Why `value` (in the units as given) looks like a slip of units, in words that say the range
// it left and the value it would have in the unit probably meant; nullopt when it is
// plausible, is 0, or its kind has no range.
std::optional<std::string> unitSlip(Quantity quantity, double value);

} // namespace bv
