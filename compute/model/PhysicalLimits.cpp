#include "compute/model/PhysicalLimits.h"

#include "compute/model/Units.h"

#include <cmath>
#include <sstream>

namespace bv {

namespace {

struct Kind {
    const char* noun;    // "a length"
    const char* unit;    // as given: "mm" ("" for a pure number)
    double modelPerUnit;   // one `unit` in the model's unit (SI but for cell edges)
    const char* modelUnit; // "m"
    double most;         // largest magnitude, in `unit`
    double least = 0.0;  // smallest magnitude of a value that is not 0, in `unit` (0: none)
};

// The limits are generous: each is orders of magnitude beyond any real experiment, so that
// only typos and garbage are refused, never an unusual but real set-up.
Kind kindOf(Quantity quantity) {
    constexpr double hc = units::kElectronvoltAngstrom;
    switch (quantity) {
    // 100 m: the longest small-angle cameras are about 40 m from the sample
    case Quantity::DetectorLength: return {"a length", "mm", 1e-3, "m", 1e5};
    // 0.1 um to 1 m: real pixels are 10 um to 1 mm; below 0.1 um the pixel counts of a
    // detector of any size overflow
    case Quantity::PixelSize: return {"a pixel size", "mm", 1e-3, "m", 1e3, 1e-4};
    // a million pixels: 30 times the largest detector (32768 pixels) away from it
    case Quantity::PixelPosition: return {"a pixel position", "pixels", 1.0, "pixels", 1e6};
    // 1 m: no crystal or beam is larger than the room it is in
    case Quantity::SampleLength: return {"a size", "mm", 1e-3, "m", 1e3};
    // 1 m of silicon or water absorbs every X-ray there is
    case Quantity::Thickness: return {"a thickness", "um", 1e-6, "m", 1e6};
    // 0.01 A to 10 um: the smallest cell edge is about 2 A, the largest (virus crystals)
    // about 0.2 um; a vanishing edge makes the reciprocal cell infinite
    // (UnitCell keeps them in Angstrom)
    case Quantity::CellLength: return {"a cell edge", "A", 1.0, "A", 1e5, 1e-2};
    case Quantity::Resolution: return {"a resolution", "A", 1e-10, "m", 1e5};
    // 1e-4 to 1e4 A (124 MeV to 1.24 eV): far past hard gamma rays and the ultraviolet
    case Quantity::Wavelength: return {"a wavelength", "A", 1e-10, "m", 1e4, 1e-4};
    case Quantity::PhotonEnergy: return {"a photon energy", "eV", 1.0, "eV", hc / 1e-4, hc / 1e4};
    // a million degrees: angles wrap, but the golden case misset_random turns the crystal
    // by 12345 degrees (docs/reference-quirks.md), so large turns are real input
    case Quantity::Angle:
        return {"an angle", "degrees", units::radiansFromDegrees(1.0), "rad", 1e6};
    // whether three angles close a cell is Crystal.h's anglesFormCell()
    case Quantity::CellAngle:
        return {"a cell angle", "degrees", units::radiansFromDegrees(1.0), "rad", 180.0};
    // a radian: real beams diverge by milliradians
    case Quantity::Divergence: return {"a divergence", "mrad", 1e-3, "rad", 1e3};
    // 100 %: at 200 % the shortest wavelength of the band would be 0
    case Quantity::Dispersion: return {"a dispersion", "percent", 1e-2, "", 100.0};
    case Quantity::KahnFactor: return {"a polarization factor", "", 1.0, "", 1.0};
    // only the direction counts; a million keeps the squared length far from overflow
    case Quantity::Direction: return {"a vector component", "", 1.0, "", 1e6};
    // the default is 1.26e29 photons/m^2; 1e40 is a hundred billion times that
    case Quantity::Fluence: return {"a fluence", "photons/m^2", 1.0, "photons/m^2", 1e40};
    // the brightest X-ray sources give about 1e15 photons/s
    case Quantity::Flux: return {"a flux", "photons/s", 1.0, "photons/s", 1e30};
    // 30 years
    case Quantity::ExposureTime: return {"an exposure time", "s", 1.0, "s", 1e9};
    // the largest structure factors are those of a whole unit cell at h=k=l=0: ~1e7 electrons
    case Quantity::StructureFactor: return {"a structure factor", "", 1.0, "", 1e10};
    // an automatic -scale can reach 1e11 for a faint image; the float image ends at 3.4e38
    case Quantity::IntensityScale: return {"a scale factor", "", 1.0, "", 1e30};
    // the reference's spot shapes need a factor of order 1
    case Quantity::ShapeFactor: return {"a factor", "", 1.0, "", 1e6};
    // the int and noise images hold 16-bit counts: a larger offset saturates every pixel
    case Quantity::AdcOffset: return {"an offset", "counts", 1.0, "counts", 65535.0};
    // osmium, the densest element, has 22.6 g/cm^3
    case Quantity::Density: return {"a density", "g/cm^3", 1.0, "g/cm^3", 1e3};
    // the largest virus particles weigh about 1e10 g/mol
    case Quantity::MolecularWeight: return {"a molecular weight", "g/mol", 1.0, "g/mol", 1e12};
    }
    return {"a number", "", 1.0, "", 0.0};
}

std::string shown(double value) {
    std::ostringstream s;
    s << value;
    return s.str();
}

// The plausible ranges (PlausibleRange), each with the slip that a value outside suggests:
// the factor to the unit probably meant and that unit's words.
struct Slip {
    PlausibleRange range;
    double factor = 1.0; // value * factor: the value in the unit probably meant
    const char* meant = ""; // "metres typed as mm"
    const char* unitMeant = "";
};

Slip slipOf(Quantity quantity) {
    constexpr double hc = units::kElectronvoltAngstrom;
    switch (quantity) {
    // the closest detectors (serial crystallography, small-angle cameras aside) sit tens of
    // mm from the sample; under 1 mm is the distance in metres (0.1 m = 100 mm)
    case Quantity::DetectorLength: return {{1.0, PlausibleRange().most}, 1e3, "metres typed as mm", "m"};
    // real pixels are 10 um to 1 mm; over 10 mm the size is in micrometres (172 um)
    case Quantity::PixelSize: return {{0.0, 10.0}, 1e-3, "micrometres typed as mm", "um"};
    // X-ray crystallography uses 3 to 30 keV; under 100 eV the energy is in keV (12.4 keV)
    case Quantity::PhotonEnergy: return {{100.0, PlausibleRange().most}, 1e3, "keV typed as eV", "keV"};
    // the same range as a wavelength: past 124 A (100 eV) an energy in keV was taken as eV
    case Quantity::Wavelength: return {{0.0, hc / 100.0}, 1.0, "an energy in keV given as eV", "A"};
    default: return {};
    }
}

} // namespace

PlausibleRange plausibleRange(Quantity quantity) {
    return slipOf(quantity).range;
}

std::optional<std::string> unitSlip(Quantity quantity, double value) {
    const Slip slip = slipOf(quantity);
    const Kind kind = kindOf(quantity);
    const double magnitude = std::fabs(value);
    if (value == 0.0 || !std::isfinite(value))
        return std::nullopt;
    const std::string unit = kind.unit;
    if (magnitude < slip.range.least)
        return "under " + shown(slip.range.least) + " " + unit + ": " + slip.meant + "? (" +
               shown(value) + " " + slip.unitMeant + " is " + shown(value * slip.factor) + " " +
               unit + ")";
    if (magnitude > slip.range.most) {
        if (quantity == Quantity::Wavelength) { // the energy the user probably typed
            const double energy = units::kElectronvoltAngstrom / magnitude; // eV
            return "over " + shown(slip.range.most) + " A (a photon energy under 100 eV: " +
                   shown(energy) + " eV): " + slip.meant + "? (" + shown(energy) + " keV is " +
                   shown(units::kElectronvoltAngstrom / (energy * 1e3)) + " A)";
        }
        return "over " + shown(slip.range.most) + " " + unit + ": " + slip.meant + "? (" +
               shown(value) + " " + slip.unitMeant + " is " + shown(value * slip.factor) + " " +
               unit + ")";
    }
    return std::nullopt;
}

bool withinLimits(Quantity quantity, Bound bound, double value, QuantityUnits units) {
    if (!std::isfinite(value))
        return false;
    if ((bound == Bound::Positive && !(value > 0.0)) ||
        (bound == Bound::NonNegative && !(value >= 0.0)))
        return false;
    const Kind k = kindOf(quantity);
    // a model value is compared in the model's unit: converting it back could round past a
    // limit it meets, and a conversion to it may have rounded (hence the slack)
    const bool model = units == QuantityUnits::Model;
    const double scale = model ? k.modelPerUnit : 1.0;
    const double slack = model ? 1.0 + 1e-12 : 1.0;
    const double magnitude = std::fabs(value);
    return magnitude <= k.most * scale * slack &&
           (value == 0.0 || magnitude * slack >= k.least * scale);
}

std::string expectedValue(Quantity quantity, Bound bound, QuantityUnits units) {
    const Kind k = kindOf(quantity);
    const bool model = units == QuantityUnits::Model;
    const double scale = model ? k.modelPerUnit : 1.0;
    const std::string unit = model ? k.modelUnit : k.unit;
    const std::string most = shown(k.most * scale) + (unit.empty() ? "" : " " + unit);
    const std::string least = shown(k.least * scale);
    std::string range;
    switch (bound) {
    case Bound::Any:
        range = "from " + shown(-k.most * scale) + " to " + most;
        if (k.least > 0.0)
            range += ", 0 or at least " + least + " in size";
        break;
    case Bound::Positive:
        range = k.least > 0.0 ? "from " + least + " to " + most
                              : "greater than 0, at most " + most;
        break;
    case Bound::NonNegative:
        range = k.least > 0.0 ? "0 or from " + least + " to " + most : "from 0 to " + most;
        break;
    }
    return std::string(k.noun) + " " + range;
}

} // namespace bv
