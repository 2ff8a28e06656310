#include "compute/request/Parameters.h"

#include "compute/request/DetectorSource.h"
#include "compute/request/ExperimentFile.h"
#include "compute/request/ParameterViews.h"
#include "compute/request/ParseContext.h"
#include "compute/core/Error.h"
#include "compute/io/JsonWriter.h"
#include "compute/io/NumberText.h"
#include "compute/model/Units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace bv::request {

namespace {

// ---- unit conversions, written as the reference computes them (bit for bit) -------------

double fromMillimetres(double mm) { return mm / 1000.0; }
double fromMicrons(double um) { return um * 1e-6; }           // sensor options
double fromAngstroms(double angstrom) { return angstrom / 1.0e10; }
double fromDegrees(double degrees) { return units::radiansFromDegrees(degrees); }
double fromMilliradians(double mrad) { return mrad / 1000.0; }
double fromPercent(double percent) { return percent / 100.0; }

Experiment& experimentOf(ParseContext& c) { return c.request.experiment; }
Detector& det(ParseContext& c) { return c.request.experiment.detector; }
Crystal& xtal(ParseContext& c) { return c.request.experiment.crystal; }
Beam& beam(ParseContext& c) { return c.request.experiment.beam; }

LabAxes& customAxes(ParseContext& c) {
    experimentOf(c).convention = Convention::Custom;
    return experimentOf(c).customAxes;
}

void selectConvention(ParseContext& c, Convention convention, Pivot pivot) {
    experimentOf(c).convention = convention;
    det(c).pivot = pivot;
}

// seeds: the reference stores the negative of the number given
long seedValue(const FlagValues& v) {
    return -static_cast<long>(v.integer(0, -std::numeric_limits<int>::max(),
                                        std::numeric_limits<int>::max()));
}

// -cell a [b c alpha beta gamma]: b and c default to a, angles to 90 degrees (0 here, as
// UnitCell says). Angles that cannot close a cell are refused: the reference warns and
// renders an arbitrary cell.
void applyCell(ParseContext& c, const FlagValues& v) {
    UnitCell cell;
    double* lengths[] = {&cell.a, &cell.b, &cell.c};
    double* angles[] = {&cell.alpha, &cell.beta, &cell.gamma};
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i < 3)
            *lengths[i] = v.number(i, Quantity::CellLength, Bound::Positive);
        else
            *angles[i - 3] = fromDegrees(v.number(i, Quantity::CellAngle, Bound::Positive));
    }
    if (!anglesFormCell(cell.alpha, cell.beta, cell.gamma)) {
        std::string given;
        const char* names[] = {"alpha", "beta", "gamma"};
        for (std::size_t i = 0; i < 3; ++i)
            given += std::string(i ? ", " : "") + names[i] + " " +
                     (i + 3 < v.size() ? v.text(i + 3) : std::string("90"));
        throw Error(v.name() + ": the angles " + given +
                    " degrees cannot form a unit cell: its volume would be zero or imaginary "
                    "(each angle must be less than the sum of the other two, and all three "
                    "less than 360 degrees together)");
    }
    xtal(c).cell = cell;
}

// the file an option names: not empty
std::string fileName(const FlagValues& v) {
    if (v.text(0).empty())
        v.fail(0, "a file name");
    return v.text(0);
}

using G = FlagGroup;
using Apply = void (*)(ParseContext&, const FlagValues&);

Flag makeFlag(std::vector<std::string> names, int values, std::string syntax, std::string help,
              std::string defaultText, FlagGroup group, Apply apply, bool noEffect = false,
              Arity arity = Arity::Fixed) {
    Flag f;
    f.names = std::move(names);
    f.arity = arity;
    f.values = values;
    f.syntax = std::move(syntax);
    f.help = std::move(help);
    f.defaultText = std::move(defaultText);
    f.group = group;
    f.noEffect = noEffect;
    f.apply = apply;
    return f;
}

std::vector<Flag> buildTable() {
    std::vector<Flag> t;
    auto add = [&t](Flag f) { t.push_back(std::move(f)); };

    // ---- crystal ----
    add(makeFlag({"-cell"}, 6, "<a> [<b> <c> <alpha> <beta> <gamma>]",
                 "unit cell, Angstrom and degrees (alternative to -mat); b and c default to a, "
                 "angles to 90; the numbers end at the next option",
                 "", G::Crystal,
                 applyCell,
                 false, Arity::UpToSix));
    add(makeFlag({"-misset"}, 3, "<x> <y> <z> | random",
                 "crystal orientation: rotations about x, then y, then z (degrees), or a random "
                 "orientation",
                 "0 0 0", G::Crystal,
                 [](ParseContext& c, const FlagValues& v) {
                     if (v.size() == 1) {
                         xtal(c).misset = MissetKind::Random;
                         return;
                     }
                     xtal(c).misset = MissetKind::Angles;
                     xtal(c).missetAngles = {fromDegrees(v.number(0, Quantity::Angle)),
                                             fromDegrees(v.number(1, Quantity::Angle)),
                                             fromDegrees(v.number(2, Quantity::Angle))};
                 },
                 false, Arity::RandomOrThree));
    add(makeFlag({"-misset_seed"}, 1, "<n>", "random-number seed for -misset random",
                 "the -seed value", G::Crystal,
                 [](ParseContext& c, const FlagValues& v) { xtal(c).missetSeed = seedValue(v); }));
    add(makeFlag({"-N"}, 1, "<n>",
                 "number of unit cells along a, b and c (0 counts as 1: an isolated cell)", "1",
                 G::Crystal, [](ParseContext& c, const FlagValues& v) {
                     xtal(c).cells = glm::dvec3(v.count(0));
                 }));
    add(makeFlag({"-Na"}, 1, "<n>", "number of unit cells along a", "1", G::Crystal,
                 [](ParseContext& c, const FlagValues& v) { xtal(c).cells.x = v.count(0); }));
    add(makeFlag({"-Nb"}, 1, "<n>", "number of unit cells along b", "1", G::Crystal,
                 [](ParseContext& c, const FlagValues& v) { xtal(c).cells.y = v.count(0); }));
    add(makeFlag({"-Nc"}, 1, "<n>", "number of unit cells along c", "1", G::Crystal,
                 [](ParseContext& c, const FlagValues& v) { xtal(c).cells.z = v.count(0); }));
    add(makeFlag({"-xtalsize", "-xtal_size", "-samplesize", "-sample_size"}, 1, "<mm>",
                 "crystal full width along a, b and c in mm (replaces -N; 0: use -N)", "0",
                 G::Crystal, [](ParseContext& c, const FlagValues& v) {
                     xtal(c).sampleSize = glm::dvec3(
                         fromMillimetres(v.number(0, Quantity::SampleLength, Bound::NonNegative)));
                 }));
    add(makeFlag({"-xtal_thick", "-xtal_thickness", "-xtal_x", "-sample_thick", "-sample_thickness",
                  "-sample_x"},
                 1, "<mm>", "crystal size along a in mm (replaces -Na; 0: use -Na)", "0",
                 G::Crystal, [](ParseContext& c, const FlagValues& v) {
                     xtal(c).sampleSize.x =
                         fromMillimetres(v.number(0, Quantity::SampleLength, Bound::NonNegative));
                 }));
    add(makeFlag({"-xtal_width", "-xtal_y", "-sample_width", "-sample_y", "-width"}, 1, "<mm>",
                 "crystal size along b in mm (replaces -Nb; 0: use -Nb)", "0", G::Crystal,
                 [](ParseContext& c, const FlagValues& v) {
                     xtal(c).sampleSize.y =
                         fromMillimetres(v.number(0, Quantity::SampleLength, Bound::NonNegative));
                 }));
    add(makeFlag({"-xtal_height", "-xtal_heigh", "-xtal_z", "-sample_height", "-sample_heigh",
                  "-sample_z", "-height", "-heigh"},
                 1, "<mm>", "crystal size along c in mm (replaces -Nc; 0: use -Nc)", "0",
                 G::Crystal, [](ParseContext& c, const FlagValues& v) {
                     xtal(c).sampleSize.z =
                         fromMillimetres(v.number(0, Quantity::SampleLength, Bound::NonNegative));
                 }));
    add(makeFlag({"-square_xtal"}, 0, "", "parallelepiped crystal: sinc-like lattice transform",
                 "on", G::Crystal, [](ParseContext& c, const FlagValues&) {
                     xtal(c).shape = LatticeShape::Square;
                 }));
    add(makeFlag({"-round_xtal"}, 0, "", "ellipsoidal crystal", "off", G::Crystal,
                 [](ParseContext& c, const FlagValues&) { xtal(c).shape = LatticeShape::Round; }));
    add(makeFlag({"-gauss_xtal"}, 0, "", "Gaussian spots: no inter-Bragg maxima", "off",
                 G::Crystal,
                 [](ParseContext& c, const FlagValues&) { xtal(c).shape = LatticeShape::Gauss; }));
    add(makeFlag({"-tophat_spots", "-binary_spots"}, 0, "",
                 "lattice transform clipped at its half width: flat spots, no inter-Bragg maxima",
                 "off", G::Crystal,
                 [](ParseContext& c, const FlagValues&) { xtal(c).shape = LatticeShape::Tophat; }));
    add(makeFlag({"-fudge"}, 1, "<factor>",
                 "scales the spot-shape argument of -round_xtal, -gauss_xtal and -tophat_spots",
                 "1", G::Crystal, [](ParseContext& c, const FlagValues& v) {
                     xtal(c).fudge = v.number(0, Quantity::ShapeFactor, Bound::Positive);
                 }));
    add(makeFlag({"-mosaic", "-mosaicity", "-mosaic_spread", "-mosaici", "-mosaic_spr"}, 1, "<deg>",
                 "isotropic mosaic spread in degrees (90 for a powder)", "0", G::Crystal,
                 [](ParseContext& c, const FlagValues& v) {
                     xtal(c).mosaicSpread =
                         fromDegrees(v.number(0, Quantity::Angle, Bound::NonNegative));
                 }));
    add(makeFlag({"-mosaic_domains", "-mosaic_dom"}, 1, "<n>",
                 "number of randomly oriented mosaic domains (0: 10 with a mosaic spread, else 1)",
                 "0", G::Crystal, [](ParseContext& c, const FlagValues& v) {
                     xtal(c).mosaicDomains = v.count(0);
                 }));
    add(makeFlag({"-mosaic_seed"}, 1, "<n>", "random-number seed for the mosaic domains",
                 "12345678", G::Crystal, [](ParseContext& c, const FlagValues& v) {
                     xtal(c).mosaicSeed = seedValue(v);
                 }));
    add(makeFlag({"-phi"}, 1, "<deg>", "spindle rotation at the start of the exposure, degrees",
                 "0", G::Crystal, [](ParseContext& c, const FlagValues& v) {
                     const double degrees = v.number(0, Quantity::Angle);
                     xtal(c).phi0 = fromDegrees(degrees);
                     c.request.phiDegrees = degrees;
                 }));
    add(makeFlag({"-osc"}, 1, "<deg>", "spindle rotation range, degrees", "0 (a still)", G::Crystal,
                 [](ParseContext& c, const FlagValues& v) {
                     const double degrees = v.number(0, Quantity::Angle, Bound::NonNegative);
                     xtal(c).phi.range = fromDegrees(degrees);
                     c.request.oscDegrees = degrees;
                 }));
    add(makeFlag({"-phistep"}, 1, "<deg>", "spindle rotation step, degrees", "-osc / -phisteps",
                 G::Crystal, [](ParseContext& c, const FlagValues& v) {
                     xtal(c).phi.step =
                         fromDegrees(v.number(0, Quantity::Angle, Bound::NonNegative));
                 }));
    add(makeFlag({"-phisteps"}, 1, "<n>", "number of spindle rotation steps",
                 "1 for a still, 2 with -osc", G::Crystal, [](ParseContext& c, const FlagValues& v) {
                     xtal(c).phi.steps = v.count(0);
                 }));
    add(makeFlag({"-spindle_axis"}, 3, "<x> <y> <z>",
                 "right-handed phi rotation axis (selects the custom convention)", "0 0 1",
                 G::Crystal, [](ParseContext& c, const FlagValues& v) {
                     customAxes(c).spindle = v.vector(false);
                 }));
    add(makeFlag(
        {"-density", "-sample_density", "-sample_den"}, 1, "<g/cm^3>", "sample density", "1",
        G::Crystal,
        [](ParseContext&, const FlagValues& v) { v.number(0, Quantity::Density, Bound::Positive); },
        true));
    add(makeFlag(
        {"-MW", "-molecular_weight", "-molec"}, 1, "<g/mol>", "molecular weight", "18", G::Crystal,
        [](ParseContext&, const FlagValues& v) {
            v.number(0, Quantity::MolecularWeight, Bound::Positive);
        },
        true));

    // ---- beam ----
    add(makeFlag({"-lambda", "-wave", "-wavelength"}, 1, "<A>",
                 "incident X-ray wavelength in Angstrom (or -energy)", "1", G::Beam,
                 [](ParseContext& c, const FlagValues& v) {
                     beam(c).wavelength =
                         fromAngstroms(v.number(0, Quantity::Wavelength, Bound::Positive));
                     keepExperimentCell(c);
                 }));
    add(makeFlag({"-energy"}, 1, "<eV>", "incident X-ray photon energy in eV (or -lambda)",
                 "12398.42", G::Beam, [](ParseContext& c, const FlagValues& v) {
                     beam(c).wavelength =
                         fromAngstroms(units::kElectronvoltAngstrom /
                                       v.number(0, Quantity::PhotonEnergy, Bound::Positive));
                     keepExperimentCell(c);
                 }));
    add(makeFlag({"-dispersion"}, 1, "<percent>",
                 "spectral dispersion: delta-lambda/lambda in percent", "0", G::Beam,
                 [](ParseContext& c, const FlagValues& v) {
                     beam(c).dispersion.range =
                         fromPercent(v.number(0, Quantity::Dispersion, Bound::NonNegative));
                 }));
    add(makeFlag({"-dispsteps"}, 1, "<n>", "number of wavelengths across -dispersion",
                 "1 without dispersion, 2 with", G::Beam,
                 [](ParseContext& c, const FlagValues& v) { beam(c).dispersion.steps = v.count(0); }));
    add(makeFlag({"-divergence"}, 1, "<mrad>",
                 "horizontal and vertical angular spread of the source points, mrad", "0", G::Beam,
                 [](ParseContext& c, const FlagValues& v) {
                     const double range =
                         fromMilliradians(v.number(0, Quantity::Divergence, Bound::NonNegative));
                     beam(c).horizontalDivergence.range = range;
                     beam(c).verticalDivergence.range = range;
                 }));
    add(makeFlag({"-hdivrange"}, 1, "<mrad>", "horizontal angular spread of the source points",
                 "0", G::Beam, [](ParseContext& c, const FlagValues& v) {
                     beam(c).horizontalDivergence.range =
                         fromMilliradians(v.number(0, Quantity::Divergence, Bound::NonNegative));
                 }));
    add(makeFlag({"-vdivrange"}, 1, "<mrad>", "vertical angular spread of the source points",
                 "0", G::Beam, [](ParseContext& c, const FlagValues& v) {
                     beam(c).verticalDivergence.range =
                         fromMilliradians(v.number(0, Quantity::Divergence, Bound::NonNegative));
                 }));
    add(makeFlag({"-hdivstep"}, 1, "<mrad>", "horizontal spacing of the source points",
                 "-hdivrange / (-hdivsteps - 1)", G::Beam, [](ParseContext& c, const FlagValues& v) {
                     beam(c).horizontalDivergence.step =
                         fromMilliradians(v.number(0, Quantity::Divergence, Bound::NonNegative));
                 }));
    add(makeFlag({"-vdivstep"}, 1, "<mrad>", "vertical spacing of the source points",
                 "-vdivrange / (-vdivsteps - 1)", G::Beam, [](ParseContext& c, const FlagValues& v) {
                     beam(c).verticalDivergence.step =
                         fromMilliradians(v.number(0, Quantity::Divergence, Bound::NonNegative));
                 }));
    add(makeFlag({"-hdivsteps"}, 1, "<n>", "number of source points in the horizontal",
                 "1 without divergence, 2 with", G::Beam, [](ParseContext& c, const FlagValues& v) {
                     beam(c).horizontalDivergence.steps = v.count(0);
                 }));
    add(makeFlag({"-vdivsteps"}, 1, "<n>", "number of source points in the vertical",
                 "1 without divergence, 2 with", G::Beam, [](ParseContext& c, const FlagValues& v) {
                     beam(c).verticalDivergence.steps = v.count(0);
                 }));
    add(makeFlag({"-divsteps"}, 1, "<n>",
                 "number of source points in the horizontal and in the vertical", "", G::Beam,
                 [](ParseContext& c, const FlagValues& v) {
                     const int steps = v.count(0);
                     beam(c).horizontalDivergence.steps = steps;
                     beam(c).verticalDivergence.steps = steps;
                 }));
    add(makeFlag({"-round_div"}, 0, "", "trim the divergence grid to an ellipse", "on",
                 G::Beam, [](ParseContext& c, const FlagValues&) { beam(c).roundDivergence = true; }));
    add(makeFlag({"-square_div"}, 0, "", "keep the full divergence grid", "off", G::Beam,
                 [](ParseContext& c, const FlagValues&) { beam(c).roundDivergence = false; }));
    add(makeFlag({"-polar"}, 1, "<factor>",
                 "Kahn polarization factor, -1 to 1 (0: unpolarized); turns polarization on",
                 "0", G::Beam, [](ParseContext& c, const FlagValues& v) {
                     beam(c).kahnFactor = v.number(0, Quantity::KahnFactor);
                     beam(c).polarization = true;
                 }));
    add(makeFlag({"-nopolar"}, 0, "", "turn off the polarization correction", "off", G::Beam,
                 [](ParseContext& c, const FlagValues&) { beam(c).polarization = false; }));
    add(makeFlag({"-beam_vector"}, 3, "<x> <y> <z>",
                 "direction of the X-ray beam (selects the custom convention)", "1 0 0", G::Beam,
                 [](ParseContext& c, const FlagValues& v) { customAxes(c).beam = v.vector(false); }));
    add(makeFlag({"-polar_vector"}, 3, "<x> <y> <z>",
                 "E-vector of the X-ray beam (selects the custom convention)", "0 0 1", G::Beam,
                 [](ParseContext& c, const FlagValues& v) {
                     customAxes(c).polarization = v.vector(false);
                 }));
    add(makeFlag({"-fluence"}, 1, "<photons/m^2>", "integrated incident beam intensity",
                 "1.25932e+29", G::Beam, [](ParseContext& c, const FlagValues& v) {
                     beam(c).fluence = v.number(0, Quantity::Fluence, Bound::NonNegative);
                 }));
    add(makeFlag({"-flux"}, 1, "<photons/s>",
                 "alternative to -fluence, with -exposure and -beamsize", "0 (use -fluence)",
                 G::Beam, [](ParseContext& c, const FlagValues& v) {
                     beam(c).flux = v.number(0, Quantity::Flux, Bound::NonNegative);
                 }));
    add(makeFlag({"-exposure"}, 1, "<s>", "exposure time, with -flux", "1", G::Beam,
                 [](ParseContext& c, const FlagValues& v) {
                     beam(c).exposure = v.number(0, Quantity::ExposureTime, Bound::NonNegative);
                 }));
    add(makeFlag({"-beamsize"}, 1, "<mm>",
                 "edge of the square beam, with -flux; clips a larger crystal", "0.1", G::Beam,
                 [](ParseContext& c, const FlagValues& v) {
                     beam(c).beamSize =
                         fromMillimetres(v.number(0, Quantity::SampleLength, Bound::NonNegative));
                 }));
    add(makeFlag({"-coherent"}, 0, "", "add the sources coherently", "off", G::Beam,
                 [](ParseContext&, const FlagValues&) {}, true));
    // nanoBragg.c reads it in a block that is commented out: the word and its value are
    // passed over there, and the source stays 10 m away; said, not refused
    add(makeFlag(
        {"-source_distance", "-source_dist"}, 1, "<mm>",
        "distance from the source to the sample: nanoBragg does not read it (the "
        "sources stay 10 m away)",
        "10000", G::Beam,
        [](ParseContext& c, const FlagValues& v) {
            c.request.notices.push_back(v.name() +
                                        ": nanoBragg does not read it (its reading is commented "
                                        "out); the sources stay 10 m away, as there");
        },
        true));

    // ---- detector ----
    add(makeFlag({"-distance"}, 1, "<mm>",
                 "sample to direct-beam spot along the beam, mm; pivots the detector about the "
                 "beam spot; a close distance, if given, decides instead",
                 "100", G::Detector, [](ParseContext& c, const FlagValues& v) {
                     det(c).distance =
                         fromMillimetres(v.number(0, Quantity::DetectorLength, Bound::Positive));
                     det(c).distanceStated = true;
                     c.distanceGiven = true;
                     det(c).pivot = Pivot::Beam;
                 }));
    add(makeFlag({"-close_distance"}, 1, "<mm>",
                 "sample to detector plane along its normal, mm; pivots the detector about the "
                 "sample",
                 "from -distance", G::Detector, [](ParseContext& c, const FlagValues& v) {
                     det(c).closeDistance =
                         fromMillimetres(v.number(0, Quantity::DetectorLength, Bound::Positive));
                     det(c).pivot = Pivot::Sample;
                 }));
    add(makeFlag({"-detsize"}, 1, "<mm>", "detector edge, fast and slow (see -detpixels)", "102.4",
                 G::Detector, [](ParseContext& c, const FlagValues& v) {
                     const double size =
                         fromMillimetres(v.number(0, Quantity::DetectorLength, Bound::Positive));
                     det(c).sizeFast = size;
                     det(c).sizeSlow = size;
                 }));
    add(makeFlag({"-detsize_f"}, 1, "<mm>", "detector size along the fast axis", "102.4",
                 G::Detector, [](ParseContext& c, const FlagValues& v) {
                     det(c).sizeFast =
                         fromMillimetres(v.number(0, Quantity::DetectorLength, Bound::Positive));
                 }));
    add(makeFlag({"-detsize_s"}, 1, "<mm>", "detector size along the slow axis", "102.4",
                 G::Detector, [](ParseContext& c, const FlagValues& v) {
                     det(c).sizeSlow =
                         fromMillimetres(v.number(0, Quantity::DetectorLength, Bound::Positive));
                 }));
    add(makeFlag({"-detpixels"}, 1, "<n>",
                 "detector pixels, fast and slow; given counts win over -detsize (0: from "
                 "-detsize)",
                 "from -detsize", G::Detector, [](ParseContext& c, const FlagValues& v) {
                     c.fastPixels = c.slowPixels = v.count(0);
                 }));
    add(makeFlag({"-detpixels_f", "-detpixels_x"}, 1, "<n>", "detector pixels along fast",
                 "from -detsize_f", G::Detector,
                 [](ParseContext& c, const FlagValues& v) { c.fastPixels = v.count(0); }));
    add(makeFlag({"-detpixels_s", "-detpixels_y"}, 1, "<n>", "detector pixels along slow",
                 "from -detsize_s", G::Detector,
                 [](ParseContext& c, const FlagValues& v) { c.slowPixels = v.count(0); }));
    add(makeFlag({"-pixel", "-pixel_size"}, 1, "<mm>", "detector pixel size", "0.1", G::Detector,
                 [](ParseContext& c, const FlagValues& v) {
                     det(c).pixelSize =
                         fromMillimetres(v.number(0, Quantity::PixelSize, Bound::Positive));
                 }));
    add(makeFlag({"-Xbeam"}, 1, "<mm>",
                 "direct-beam spot, header X (meaning depends on the convention); pivots about "
                 "the beam spot",
                 "detector centre", G::Detector, [](ParseContext& c, const FlagValues& v) {
                     det(c).beamX = fromMillimetres(v.number(0, Quantity::DetectorLength));
                     det(c).pivot = Pivot::Beam;
                 }));
    add(makeFlag({"-Ybeam"}, 1, "<mm>", "direct-beam spot, header Y; pivots about the beam spot",
                 "detector centre", G::Detector, [](ParseContext& c, const FlagValues& v) {
                     det(c).beamY = fromMillimetres(v.number(0, Quantity::DetectorLength));
                     det(c).pivot = Pivot::Beam;
                 }));
    add(makeFlag({"-Xclose"}, 1, "<mm>",
                 "point of the detector nearest the sample, fast; pivots about the sample",
                 "detector centre", G::Detector, [](ParseContext& c, const FlagValues& v) {
                     det(c).closeX = fromMillimetres(v.number(0, Quantity::DetectorLength));
                     det(c).pivot = Pivot::Sample;
                 }));
    add(makeFlag({"-Yclose"}, 1, "<mm>",
                 "point of the detector nearest the sample, slow; pivots about the sample",
                 "detector centre", G::Detector, [](ParseContext& c, const FlagValues& v) {
                     det(c).closeY = fromMillimetres(v.number(0, Quantity::DetectorLength));
                     det(c).pivot = Pivot::Sample;
                 }));
    add(makeFlag({"-ORGX"}, 1, "<pixels>", "XDS origin, fast; pivots about the sample",
                 "detector centre", G::Detector, [](ParseContext& c, const FlagValues& v) {
                     det(c).orgX = v.number(0, Quantity::PixelPosition);
                     det(c).pivot = Pivot::Sample;
                 }));
    add(makeFlag({"-ORGY"}, 1, "<pixels>", "XDS origin, slow; pivots about the sample",
                 "detector centre", G::Detector, [](ParseContext& c, const FlagValues& v) {
                     det(c).orgY = v.number(0, Quantity::PixelPosition);
                     det(c).pivot = Pivot::Sample;
                 }));
    add(makeFlag({"-pivot"}, 1, "beam|sample",
                 "point the detector rotations keep fixed (only the custom convention honours it)",
                 "beam", G::Detector, [](ParseContext& c, const FlagValues& v) {
                     det(c).pivot = v.choice(0, {"beam", "sample"}) == 0 ? Pivot::Beam
                                                                         : Pivot::Sample;
                 }));
    add(makeFlag({"-mosflm"}, 0, "", "MOSFLM beam-centre convention, pivot about the beam spot",
                 "on", G::Detector, [](ParseContext& c, const FlagValues&) {
                     selectConvention(c, Convention::Mosflm, Pivot::Beam);
                 }));
    add(makeFlag({"-xds"}, 0, "", "XDS convention (ORGX/ORGY), pivot about the sample", "off",
                 G::Detector, [](ParseContext& c, const FlagValues&) {
                     selectConvention(c, Convention::Xds, Pivot::Sample);
                 }));
    add(makeFlag({"-adxv"}, 0, "", "ADXV beam-centre convention, pivot about the beam spot",
                 "off", G::Detector, [](ParseContext& c, const FlagValues&) {
                     selectConvention(c, Convention::Adxv, Pivot::Beam);
                 }));
    add(makeFlag({"-denzo"}, 0, "", "DENZO beam-centre convention, pivot about the beam spot",
                 "off", G::Detector, [](ParseContext& c, const FlagValues&) {
                     selectConvention(c, Convention::Denzo, Pivot::Beam);
                 }));
    add(makeFlag({"-dials"}, 0, "", "DIALS convention, pivot about the sample", "off",
                 G::Detector, [](ParseContext& c, const FlagValues&) {
                     selectConvention(c, Convention::Dials, Pivot::Beam); // sic: nanoBragg's -dials
                 }));
    add(makeFlag({"-fdet_vector"}, 3, "<x> <y> <z>",
                 "direction of increasing fast pixel index (selects the custom convention)",
                 "0 0 1", G::Detector, [](ParseContext& c, const FlagValues& v) {
                     customAxes(c).fdet = v.vector(false);
                 }));
    add(makeFlag({"-sdet_vector"}, 3, "<x> <y> <z>",
                 "direction of increasing slow pixel index (selects the custom convention)",
                 "0 -1 0", G::Detector, [](ParseContext& c, const FlagValues& v) {
                     customAxes(c).sdet = v.vector(false);
                 }));
    add(makeFlag({"-odet_vector"}, 3, "<x> <y> <z>",
                 "detector normal, away from the sample (selects the custom convention); "
                 "anything but a unit vector (0 0 0, say) means fast x slow",
                 "1 0 0", G::Detector, [](ParseContext& c, const FlagValues& v) {
                     customAxes(c).odet = v.vector(true);
                 }));
    add(makeFlag({"-twotheta_axis"}, 3, "<x> <y> <z>",
                 "axis of the detector two-theta swing (selects the custom convention)",
                 "the convention's", G::Detector, [](ParseContext& c, const FlagValues& v) {
                     customAxes(c).twothetaAxis = v.vector(false);
                 }));
    add(makeFlag({"-pix0_vector"}, 3, "<x> <y> <z>",
                 "selects the custom convention; the vector itself is ignored, as by the "
                 "reference (the beam centre and distance place the first pixel)",
                 "", G::Detector, [](ParseContext& c, const FlagValues& v) {
                     v.vector(true);
                     customAxes(c);
                 }));
    add(makeFlag({"-detector_rotx"}, 1, "<deg>", "detector rotation about x (applied first)",
                 "0", G::Detector, [](ParseContext& c, const FlagValues& v) {
                     det(c).rotX = fromDegrees(v.number(0, Quantity::Angle));
                 }));
    add(makeFlag({"-detector_roty"}, 1, "<deg>", "detector rotation about y (second)", "0",
                 G::Detector, [](ParseContext& c, const FlagValues& v) {
                     det(c).rotY = fromDegrees(v.number(0, Quantity::Angle));
                 }));
    add(makeFlag({"-detector_rotz"}, 1, "<deg>", "detector rotation about z (third)", "0",
                 G::Detector, [](ParseContext& c, const FlagValues& v) {
                     det(c).rotZ = fromDegrees(v.number(0, Quantity::Angle));
                 }));
    add(makeFlag({"-twotheta"}, 1, "<deg>",
                 "detector swing about the two-theta axis, after the rotations; pivots about the "
                 "sample",
                 "0", G::Detector, [](ParseContext& c, const FlagValues& v) {
                     det(c).twotheta = fromDegrees(v.number(0, Quantity::Angle));
                     det(c).pivot = Pivot::Sample;
                 }));
    add(makeFlag({"-curved_det", "-curved_detector"}, 0, "",
                 "curved detector: every pixel at the same distance from the sample", "off",
                 G::Detector, [](ParseContext& c, const FlagValues&) { det(c).curved = true; }));
    add(makeFlag({"-point_pixel"}, 0, "",
                 "pixel solid angle 1/R^2, no obliquity correction", "off", G::Detector,
                 [](ParseContext& c, const FlagValues&) { det(c).pointPixel = true; }));
    add(makeFlag({"-detector_abs", "-detector_absorb", "-detector_absorption"}, 1, "<um>|inf",
                 "sensor attenuation depth in microns; inf or 0: no absorption, and sets the "
                 "sensor thickness to 0",
                 "the sensor thickness", G::Detector, [](ParseContext& c, const FlagValues& v) {
                     std::string word = v.text(0);
                     std::transform(word.begin(), word.end(), word.begin(), [](char ch) {
                         return static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
                     });
                     const bool infinite = word == "inf" || word == "infinity";
                     const double depth =
                         infinite ? 0.0 : v.number(0, Quantity::Thickness, Bound::NonNegative);
                     if (depth == 0.0) {
                         det(c).thickness.range = 0.0;
                         det(c).attenuationDepth = 0.0;
                     } else {
                         det(c).attenuationDepth = fromMicrons(depth);
                     }
                 }));
    add(makeFlag({"-detector_thick"}, 1, "<um>", "sensor thickness in microns", "0", G::Detector,
                 [](ParseContext& c, const FlagValues& v) {
                     det(c).thickness.range =
                         fromMicrons(v.number(0, Quantity::Thickness, Bound::NonNegative));
                 }));
    add(makeFlag({"-detector_thicksteps", "-thicksteps"}, 1, "<n>",
                 "number of sensor layers", "1 without thickness, 2 with", G::Detector,
                 [](ParseContext& c, const FlagValues& v) { det(c).thickness.steps = v.count(0); }));

    // ---- sampling ----
    add(makeFlag({"-oversample"}, 1, "<n>",
                 "sub-pixels per pixel edge (0: from the crystal size and pixel)", "0",
                 G::Sampling, [](ParseContext& c, const FlagValues& v) {
                     const int n = v.count(0);
                     if (n > 0)
                         experimentOf(c).sampling.oversample = n;
                     else
                         experimentOf(c).sampling.oversample.reset();
                 }));
    add(makeFlag({"-oversample_thick"}, 0, "",
                 "recompute the sensor absorption for every sub-pixel", "off", G::Sampling,
                 [](ParseContext& c, const FlagValues&) { experimentOf(c).sampling.oversampleThick = true; }));
    add(makeFlag({"-oversample_polar"}, 0, "",
                 "recompute the polarization factor for every sub-pixel", "off", G::Sampling,
                 [](ParseContext& c, const FlagValues&) { experimentOf(c).sampling.oversamplePolar = true; }));
    add(makeFlag({"-oversample_omega"}, 0, "",
                 "recompute the pixel solid angle for every sub-pixel", "off", G::Sampling,
                 [](ParseContext& c, const FlagValues&) { experimentOf(c).sampling.oversampleOmega = true; }));
    add(makeFlag({"-roi"}, 4, "<xmin> <xmax> <ymin> <ymax>",
                 "render only pixels with xmin <= fast <= xmax and ymin <= slow <= ymax; a "
                 "negative bound means the detector's edge",
                 "the whole detector", G::Sampling, [](ParseContext& c, const FlagValues& v) {
                     const int big = FlagValues::kMaxCount;
                     c.roi = std::array<int, 4>{v.integer(0, -big, big), v.integer(1, -big, big),
                                                v.integer(2, -big, big), v.integer(3, -big, big)};
                 }));
    add(makeFlag({"-dmin"}, 1, "<A>", "skip scattering to resolution finer than this (0: off)", "0",
                 G::Sampling, [](ParseContext& c, const FlagValues& v) {
                     experimentOf(c).sampling.dmin =
                         v.number(0, Quantity::Resolution, Bound::NonNegative) * 1e-10;
                 }));
    add(makeFlag({"-interpolate"}, 0, "", "tricubic interpolation of structure factors",
                 "on when the crystal is at most 2 cells wide", G::Sampling,
                 [](ParseContext& c, const FlagValues&) {
                     experimentOf(c).sampling.interpolation = Interpolation::Tricubic;
                 }));
    add(makeFlag({"-nointerpolate"}, 0, "", "nearest structure factor, no interpolation",
                 "see -interpolate", G::Sampling, [](ParseContext& c, const FlagValues&) {
                     experimentOf(c).sampling.interpolation = Interpolation::Nearest;
                 }));
    add(makeFlag({"-interpolate_local"}, 0, "",
                 "with interpolation: keep interpolating wherever the 4x4x4 neighbourhood is on "
                 "the HKL grid (braggview's; nanoBragg, and braggview by default, take the "
                 "nearest value for every step after the first one that leaves the grid, and warn)",
                 "off", G::Braggview, [](ParseContext& c, const FlagValues&) {
                     experimentOf(c).sampling.interpolationEdge = InterpolationEdge::Local;
                 }));
    add(makeFlag({"-water"}, 1, "<um>", "thickness of water around the crystal (background)", "0",
                 G::Sampling, [](ParseContext& c, const FlagValues& v) {
                     experimentOf(c).waterThickness =
                         v.number(0, Quantity::Thickness, Bound::NonNegative) / 1e6;
                 }));

    // ---- input files ----
    add(makeFlag({"-hkl"}, 1, "<file>",
                 "structure factors, lines of h k l F; cached in the -dump file", "", G::Files,
                 [](ParseContext& c, const FlagValues& v) {
                     c.request.hkl = fileName(v);
                     c.request.hklFormat = RunRequest::HklFormat::Text; // after -mtz, -model
                 }));
    // structure factors from crystallographers' files, read with gemmi
    // (compute/io/StructureFactorFiles.h): the same table as -hkl's, expanded to P1
    add(makeFlag({"-mtz"}, 1, "<file>",
                 "structure factors from an MTZ file (amplitudes, or intensities as sqrt(I)), "
                 "expanded to P1 by its space group; instead of -hkl, cached in the -dump file",
                 "", G::Files, [](ParseContext& c, const FlagValues& v) {
                     c.request.hkl = fileName(v);
                     c.request.hklFormat = RunRequest::HklFormat::Mtz;
                 }));
    add(makeFlag({"-sfcif"}, 1, "<file>",
                 "structure factors from an mmCIF reflection file (_refln), expanded to P1 by "
                 "its space group; instead of -hkl",
                 "", G::Files, [](ParseContext& c, const FlagValues& v) {
                     c.request.hkl = fileName(v);
                     c.request.hklFormat = RunRequest::HklFormat::Cif;
                 }));
    add(makeFlag({"-sf_column"}, 1, "<label>",
                 "the column of -mtz (type F or J, G or K) or -sfcif (F_meas_au, intensity_meas, "
                 "...)",
                 "the first amplitudes, else the first intensities", G::Files,
                 [](ParseContext& c, const FlagValues& v) {
                     if (v.text(0).empty())
                         v.fail(0, "a column label");
                     c.request.sfColumn = v.text(0);
                 }));
    add(makeFlag({"-model"}, 1, "<file>",
                 "structure factors computed from a model (PDB or mmCIF coordinates, B factors "
                 "as in the file), expanded to P1; instead of -hkl",
                 "", G::Files, [](ParseContext& c, const FlagValues& v) {
                     c.request.hkl = fileName(v);
                     c.request.hklFormat = RunRequest::HklFormat::Model;
                 }));
    add(makeFlag({"-model_dmin"}, 1, "<A>", "resolution limit of the -model's structure factors",
                 "the detector's farthest corner, less 5%", G::Files,
                 [](ParseContext& c, const FlagValues& v) {
                     c.request.modelDminAngstrom =
                         v.number(0, Quantity::Resolution, Bound::Positive);
                 }));
    add(makeFlag({"-mat"}, 1, "<file>",
                 "MOSFLM orientation matrix (reciprocal cell vectors times the wavelength); "
                 "alternative to -cell",
                 "", G::Files, [](ParseContext& c, const FlagValues& v) { c.request.mat = fileName(v); }));
    add(makeFlag({"-default_F"}, 1, "<F>",
                 "structure factor of every hkl the -hkl file does not list (alternative to "
                 "-hkl)",
                 "0", G::Files, [](ParseContext& c, const FlagValues& v) {
                     experimentOf(c).structureFactors.defaultF =
                         v.number(0, Quantity::StructureFactor, Bound::NonNegative);
                 }));
    add(makeFlag({"-dump", "-dumpfile"}, 1, "<file>",
                 "structure-factor cache: written after -hkl is read, read when -hkl is not given",
                 "Fdump.bin", G::Files,
                 [](ParseContext& c, const FlagValues& v) { c.request.dumpFile = fileName(v); }));
    add(makeFlag({"-sourcefile"}, 1, "<file>",
                 "X-ray sources, lines of X Y Z weight lambda (m, relative, m); replaces the "
                 "divergence and dispersion options",
                 "", G::Files,
                 [](ParseContext& c, const FlagValues& v) { c.request.sourceFile = fileName(v); }));
    add(makeFlag({"-img"}, 1, "<file>",
                 "SMV image whose header sets defaults (read before every other option: "
                 "PIXEL_SIZE, SIZE1/2, DISTANCE, CLOSE_DISTANCE, WAVELENGTH, BEAM_CENTER_X/Y, "
                 "ORGX/Y, PHI, OSC_RANGE); its pixels are not used",
                 "", G::Files, [](ParseContext& c, const FlagValues& v) { c.request.img = fileName(v); }));
    add(makeFlag({"-mask"}, 1, "<file>",
                 "SMV image: pixels that are 0 are skipped; its header sets defaults like -img's "
                 "(BEAM_CENTER_Y counted from the other edge), read before -img",
                 "", G::Files, [](ParseContext& c, const FlagValues& v) { c.request.mask = fileName(v); }));
    add(makeFlag({"-stol"}, 1, "<file>", "amorphous scattering, F vs sin(theta)/lambda (checked readable, not used)", "",
                 G::Files, [](ParseContext& c, const FlagValues& v) { c.request.stol = fileName(v); },
                 true));
    add(makeFlag({"-4stol"}, 1, "<file>", "amorphous scattering, F vs 4 sin(theta)/lambda (checked readable, not used)", "",
                 G::Files, [](ParseContext& c, const FlagValues& v) { c.request.stol = fileName(v); },
                 true));
    add(makeFlag({"-Q"}, 1, "<file>", "amorphous scattering, F vs Q (checked readable, not used)", "", G::Files,
                 [](ParseContext& c, const FlagValues& v) { c.request.stol = fileName(v); }, true));
    add(makeFlag({"-stolout"}, 1, "<file>", "output file for the amorphous scattering curve",
                 "output.stol", G::Files,
                 [](ParseContext&, const FlagValues& v) { fileName(v); }, true));

    // ---- output ----
    add(makeFlag({"-floatfile", "-floatimage"}, 1, "<file>",
                 "raw 4-byte float image, photons per pixel", "floatimage.bin", G::Output,
                 [](ParseContext& c, const FlagValues& v) { c.request.outputs.floatFile = fileName(v); }));
    add(makeFlag({"-intfile", "-intimage"}, 1, "<file>",
                 "SMV image without noise, scaled by -scale (always written)", "intimage.img",
                 G::Output,
                 [](ParseContext& c, const FlagValues& v) { c.request.outputs.intFile = fileName(v); }));
    add(makeFlag({"-pgmfile", "-pgmimage"}, 1, "<file>",
                 "8-bit greymap image (turns it on)", "image.pgm", G::Output,
                 [](ParseContext& c, const FlagValues& v) {
                     c.request.outputs.pgmFile = fileName(v);
                     c.request.outputs.writePgm = true;
                 }));
    add(makeFlag({"-noisefile", "-noiseimage"}, 1, "<file>",
                 "SMV image with Poisson noise (turns it on)", "noiseimage.img", G::Output,
                 [](ParseContext& c, const FlagValues& v) {
                     c.request.outputs.noiseFile = fileName(v);
                     c.request.outputs.writeNoise = true;
                     c.request.outputs.countPhotons = true;
                 }));
    add(makeFlag({"-cbffile", "-cbfimage"}, 1, "<file>",
                 "miniCBF image (PILATUS style, byte-offset compressed) of the photon counts: "
                 "the noise image's Poisson deviates without the -adc pedestal (docs/series.md)",
                 "not written", G::Output, [](ParseContext& c, const FlagValues& v) {
                     c.request.outputs.cbfFile = fileName(v);
                     c.request.outputs.writeCbf = true;
                 }));
    add(makeFlag({"-nexusfile"}, 1, "<file.h5>",
                 "NeXus/NXmx (HDF5) file, as DIALS reads EIGER data: one file for a whole "
                 "-series (no # needed), its frames bitshuffle/LZ4 compressed; the photon "
                 "counts of -cbffile, or the float image with -nonoise (docs/nexus.md)",
                 "not written", G::Output, [](ParseContext& c, const FlagValues& v) {
                     c.request.outputs.nexusFile = fileName(v);
                     c.request.outputs.writeNexus = true;
                 }));
    add(makeFlag({"-nonoise"}, 0, "", "do not write the noise image", "written", G::Output,
                 [](ParseContext& c, const FlagValues&) {
                     c.request.outputs.writeNoise = false;
                     c.request.outputs.countPhotons = false;
                 }));
    add(makeFlag({"-nopgm"}, 0, "", "do not write the greymap image", "written", G::Output,
                 [](ParseContext& c, const FlagValues&) { c.request.outputs.writePgm = false; }));
    add(makeFlag({"-scale"}, 1, "<factor>",
                 "photons to int-image counts (0: automatic, brightest pixel at 55000)", "0",
                 G::Output, [](ParseContext& c, const FlagValues& v) {
                     c.request.outputs.intScale =
                         v.number(0, Quantity::IntensityScale, Bound::NonNegative);
                 }));
    add(makeFlag(
        {"-pgmscale"}, 1, "<factor>", "photons to grey levels (0: automatic); turns the greymap on",
        "0", G::Output, [](ParseContext& c, const FlagValues& v) {
            c.request.outputs.pgmScale = v.number(0, Quantity::IntensityScale, Bound::NonNegative);
            c.request.outputs.writePgm = true;
        }));
    add(makeFlag({"-adc"}, 1, "<counts>", "offset added to int and noise image pixels", "40",
                 G::Output, [](ParseContext& c, const FlagValues& v) {
                     c.request.outputs.adcOffset = v.number(0, Quantity::AdcOffset);
                 }));
    add(makeFlag({"-seed"}, 1, "<n>", "random-number seed of the noise image",
                 "the current time", G::Output,
                 [](ParseContext& c, const FlagValues& v) { experimentOf(c).seed = seedValue(v); }));
    add(makeFlag({"-noise_generator"}, 1, "reference|counter",
                 "where the noise image's, CBF's and NeXus counts' Poisson deviates come from: "
                 "reference (nanoBragg's serial generator, its noise draw for draw) or counter "
                 "(Philox keyed by -seed and the frame, counted by pixel: the same noise on "
                 "any device, GPU count and -threads, drawn on the GPU; not nanoBragg's "
                 "sequence; docs/numerics/counter-noise.md)",
                 "reference", G::Output, [](ParseContext& c, const FlagValues& v) {
                     c.request.outputs.noiseGenerator = v.choice(0, {"reference", "counter"}) == 0
                                                            ? NoiseGenerator::Reference
                                                            : NoiseGenerator::Counter;
                 }));
    add(makeFlag({"-printout"}, 0, "", "print pixel values to the screen", "off", G::Output,
                 [](ParseContext&, const FlagValues&) {}, true));
    add(makeFlag({"-printout_pixel"}, 2, "<fast> <slow>",
                 "print how one pixel's value comes about", "", G::Output,
                 [](ParseContext& c, const FlagValues& v) {
                     c.request.printoutPixel = std::pair<int, int>{v.count(0), v.count(1)};
                 }));
    add(makeFlag({"-progress"}, 0, "", "show the progress meter", "on", G::Output,
                 [](ParseContext& c, const FlagValues&) { c.request.progress = true; }));
    add(makeFlag({"-noprogress"}, 0, "", "hide the progress meter", "", G::Output,
                 [](ParseContext& c, const FlagValues&) { c.request.progress = false; }));

    // ---- braggview ----
    add(makeFlag({"-precision"}, 1, "fast|precise",
                 "GPU arithmetic: fast (single precision, also \"single\") or precise (double, "
                 "also \"double\")",
                 "precise", G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     const std::optional<Precision> precision = precisionFromName(v.text(0));
                     if (!precision)
                         v.fail(0, "fast, single, precise or double");
                     c.request.precision = *precision;
                 }));
    add(makeFlag({"-phi_sampling"}, 1, "start|centre",
                 "where each phi step takes the crystal: at its start (nanoBragg's, phi0 + t * "
                 "step) or its centre (phi0 + (t + 1/2) * step: an even rotation's midpoint "
                 "rule, as a measured frame integrates it; docs/numerics/fit-sampling.md)",
                 "start; a fit chooses", G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     xtal(c).phiSampling = v.choice(0, {"start", "centre", "center"}) == 0
                                               ? PhiSampling::StepStart
                                               : PhiSampling::StepCentre;
                 }));
    add(makeFlag({"-background"}, 1, "<material>|<file.stol>",
                 "an amorphous layer in the beam whose scattering is added to the image before "
                 "noise: water, air, ice, nanoice, unity or a .stol file (nonBragg's physics, "
                 "docs/amorphous.md)",
                 "none", G::Braggview,
                 [](ParseContext& c, const FlagValues& v) { c.request.experiment.background.material = fileName(v); }));
    add(makeFlag({"-background_thickness"}, 1, "<mm>",
                 "thickness of the -background layer along the beam (its cross-section is the "
                 "beam's, -beamsize)",
                 "0.1", G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     c.request.experiment.background.thickness =
                         v.number(0, Quantity::SampleLength, Bound::Positive) / 1000.0;
                 }));
    add(makeFlag({"-background_density"}, 1, "<g/cm^3>", "density of the -background material",
                 "1", G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     c.request.experiment.background.density =
                         v.number(0, Quantity::Density, Bound::Positive) * 1e6;
                 }));
    add(makeFlag({"-background_MW"}, 1, "<g/mol>",
                 "molecular weight of the -background material (one molecule of its .stol F)",
                 "18", G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     c.request.experiment.background.molecularWeight =
                         v.number(0, Quantity::MolecularWeight, Bound::Positive);
                 }));
    add(makeFlag({"-response_psf"}, 1, "gauss|fiber",
                 "the detector's point spread function on the noise image (noisify's, "
                 "docs/detector-response.md)",
                 "none", G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     v.choice(0, {"gauss", "fiber"});
                     c.request.experiment.response.psf = v.text(0);
                     c.request.experiment.response.enabled = true;
                 }));
    add(makeFlag({"-response_psf_fwhm"}, 1, "<um>", "full width at half maximum of -response_psf",
                 "46", G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     c.request.experiment.response.psfFwhm =
                         v.number(0, Quantity::Thickness, Bound::Positive) / 1e6;
                     c.request.experiment.response.enabled = true;
                 }));
    add(makeFlag({"-response_psf_radius"}, 1, "<pixels>",
                 "radius of -response_psf's disc (0: chosen per pixel, noisify's rule)", "0",
                 G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     c.request.experiment.response.psfRadius = v.count(0);
                     c.request.experiment.response.enabled = true;
                 }));
    add(makeFlag({"-response_flicker"}, 1, "<fraction>",
                 "1/f source noise: every pixel's photons times (1 + fraction x gaussian)", "0",
                 G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     c.request.experiment.response.flicker =
                         v.number(0, Quantity::IntensityScale, Bound::NonNegative);
                     c.request.experiment.response.enabled = true;
                 }));
    add(makeFlag({"-response_calibration"}, 1, "<fraction>",
                 "per-pixel calibration error, the same for every image of one "
                 "-response_calib_seed",
                 "0", G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     c.request.experiment.response.calibration =
                         v.number(0, Quantity::IntensityScale, Bound::NonNegative);
                     c.request.experiment.response.enabled = true;
                 }));
    add(makeFlag({"-response_calib_seed"}, 1, "<n>", "seed of -response_calibration's error",
                 "noisify's", G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     c.request.experiment.response.calibSeed = seedValue(v);
                     c.request.experiment.response.enabled = true;
                 }));
    add(makeFlag({"-response_readout"}, 1, "<ADU>", "Gaussian readout noise of every pixel", "0",
                 G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     c.request.experiment.response.readout =
                         v.number(0, Quantity::IntensityScale, Bound::NonNegative);
                     c.request.experiment.response.enabled = true;
                 }));
    add(makeFlag({"-response_gain"}, 1, "<ADU/photon>", "the noise image's counts per photon", "1",
                 G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     c.request.experiment.response.gain = v.number(0, Quantity::IntensityScale, Bound::Positive);
                     c.request.experiment.response.enabled = true;
                 }));
    add(makeFlag({"-detector"}, 1, "<preset>|<file.expt>|<file.geom>|list",
                 "a detector of several panels: a preset (-detector list shows them), a DIALS "
                 "experiment list or a CrystFEL geometry file; moved as one body by -distance, "
                 "-detector_rotx/y/z and -twotheta (docs/numerics/detector-panels.md); list: "
                 "print the presets and stop",
                 "", G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     const std::string name = v.text(0);
                     if (name == "list") {
                         c.request.listDetectors = true;
                         return;
                     }
                     const PanelDetector panels = readDetectorSource(name, v.name() + " " + name);
                     det(c).panels = panels.panels;
                     det(c).panelsSource = detectorSourceName(name);
                 }));
    add(makeFlag({"-experiment"}, 1, "<file.expt>",
                 "a DIALS experiment list (dials.import, index, refine): its beam, detector, "
                 "crystal (orientation, cell, mosaicity), goniometer axis and scan (phi and "
                 "oscillation of -frame) set those parameters; options after it override "
                 "(docs/dials-experiment.md)",
                 "", G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     applyDialsExperiment(c, v.text(0),
                                          static_cast<std::size_t>(c.request.experimentId),
                                          v.name() + " " + v.text(0));
                 }));
    add(makeFlag({"-experiment_id"}, 1, "<n>",
                 "which experiment of an -experiment list, from 0; given before -experiment",
                 "0", G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     if (!c.request.experimentFile.empty())
                         throw Error(v.name() + " " + v.text(0) + ": give it before -experiment " +
                                     c.request.experimentFile + ", whose models it picks");
                     c.request.experimentId = v.integer(0, 0, 1 << 20);
                 }));
    add(makeFlag({"-frame"}, 1, "<n>",
                 "with -experiment: the image of its scan, by DIALS's image number, whose phi "
                 "and oscillation the run takes",
                 "the scan's first image", G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     applyExperimentFrame(c, v.integer(0, 0, std::numeric_limits<int>::max()),
                                          v.name() + " " + v.text(0));
                 }));
    add(makeFlag({"-measured"}, 1, "<file>",
                 "a measured image (miniCBF, SMV, NeXus/NXmx) to compare with (-compare); "
                 "-measured_frame picks a frame of a NeXus file",
                 "the -experiment's image of -frame", G::Braggview,
                 [](ParseContext& c, const FlagValues& v) { c.request.measured = v.text(0); }));
    add(makeFlag({"-measured_frame"}, 1, "<n>", "which frame of a -measured file, from 1", "1",
                 G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     c.request.measuredFrame = v.integer(0, 1, std::numeric_limits<int>::max());
                 }));
    add(makeFlag({"-compare"}, 0, "",
                 "after the run, fit the image to the measured one (measured = scale x "
                 "simulated + background) and print the correlation, scale, background and "
                 "residual, overall and per panel",
                 "", G::Braggview,
                 [](ParseContext& c, const FlagValues&) { c.request.compare = true; }));
    add(makeFlag({"-refine"}, 1, "<groups>",
                 "fit the simulation to the measured image (-measured, or the -experiment's "
                 "own): a comma list of distance, beam, detector_rotation (in its own plane), "
                 "panels (each panel on its own), orientation, cell, mosaic, ncells, scale "
                 "(always fitted); prints each value, its change and uncertainty "
                 "(docs/refinement.md)",
                 "", G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     std::vector<std::string> groups;
                     std::string word = v.text(0);
                     std::size_t start = 0;
                     while (start <= word.size()) {
                         const std::size_t comma = std::min(word.find(',', start), word.size());
                         if (comma > start)
                             groups.push_back(word.substr(start, comma - start));
                         start = comma + 1;
                     }
                     if (groups.empty())
                         v.fail(0, "a comma list of parameter groups (distance,beam,orientation)");
                     c.request.refine = groups;
                 }));
    add(makeFlag({"-refine_pixels"}, 1, "spots|all",
                 "the pixels a -refine fits: the spot regions of the start's image, or every "
                 "pixel with data",
                 "spots", G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     c.request.refineAllPixels = v.choice(0, {"spots", "all"}) == 1;
                 }));
    add(makeFlag({"-refine_background"}, 1, "local|constant",
                 "the background under the spots a -refine assumes: the measured frame's own, "
                 "estimated around the spots in 32-pixel tiles, plus a fitted constant; or the "
                 "fitted constant alone",
                 "local", G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     c.request.refineConstantBackground = v.choice(0, {"local", "constant"}) == 1;
                 }));
    add(makeFlag({"-refined_experiment"}, 1, "<file.expt>",
                 "after -refine: the -experiment's list with the refined values, for DIALS",
                 "", G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     c.request.refinedExperiment = v.text(0);
                 }));
    add(makeFlag({"-fit_report"}, 1, "<file.json>",
                 "after -refine: every parameter's start, value, change and uncertainty, the "
                 "residual and the spot RMSD, as JSON",
                 "", G::Braggview,
                 [](ParseContext& c, const FlagValues& v) { c.request.fitReport = v.text(0); }));
    add(makeFlag({"-spots"}, 1, "<file.refl>",
                 "with -compare or -refine: DIALS's observed spots (strong.refl, indexed.refl) "
                 "against the simulated spot centroids, their RMSD per experiment id and panel "
                 "(in the viewer: drawn over the image, the RMSD in the Display dock)",
                 "", G::Braggview,
                 [](ParseContext& c, const FlagValues& v) { c.request.spots = v.text(0); }));
    add(makeFlag({"-device"}, 1, "<index>|cpu|all|<list>",
                 "Vulkan device: an index into the driver's list, or cpu (lavapipe); a -series "
                 "or --job also takes all (every GPU) or a comma list (0,1), one renderer per "
                 "entry, the frames shared among them (docs/series.md)",
                 "the fastest GPU", G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     std::string word = v.text(0);
                     std::transform(word.begin(), word.end(), word.begin(), [](char ch) {
                         return static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
                     });
                     if (word != "all") { // a comma list of indices and "cpu"
                         std::size_t start = 0;
                         while (true) {
                             const std::size_t comma = word.find(',', start);
                             const std::string entry = word.substr(start, comma - start);
                             const bool index =
                                 !entry.empty() && entry.size() <= 9 &&
                                 std::all_of(entry.begin(), entry.end(), [](char ch) {
                                     return std::isdigit(static_cast<unsigned char>(ch)) != 0;
                                 });
                             if (entry != "cpu" && !index)
                                 v.fail(0, "a device index (0, 1, ...), cpu, all, or a comma "
                                           "list of indices and cpu (0,1)");
                             if (comma == std::string::npos)
                                 break;
                             start = comma + 1;
                         }
                     }
                     c.request.device = word;
                 }));
    add(makeFlag({"-series"}, 1, "<frames>",
                 "render a rotation series: frame i (from 0) at phi = -phi + i * -osc with its "
                 "own -phisteps, noise as -seed + i; every output file named must hold a run "
                 "of # for the frame number (sim_#####.img) and only those named are written "
                 "(docs/series.md)",
                 "one image", G::Braggview, [](ParseContext& c, const FlagValues& v) {
                     c.request.series = v.integer(0, 1, 1000000);
                 }));
    add(makeFlag({"-threads"}, 1, "<count>",
                 "a -series or --job: CPU threads that make the frames' files (noise, int "
                 "images, CBF) while the GPU renders the next frames; the files are the same "
                 "whatever the count (docs/series.md)",
                 "the cores this process may use", G::Braggview,
                 [](ParseContext& c, const FlagValues& v) {
                     c.request.threads = v.integer(0, 1, 1024);
                 }));
    add(makeFlag({"--job", "-job"}, 1, "<file.json>",
                 "render the frames of a JSON job file, skipping those already complete on "
                 "disk; must be the first argument, options after the file name add to the "
                 "job's base (docs/series.md)",
                 "", G::Braggview, [](ParseContext&, const FlagValues& v) {
                     throw Error(v.name() + ": must be the first argument (braggview --headless "
                                            "--job FILE [options]), and a job file cannot name "
                                            "another job");
                 }));
    add(makeFlag({"-restart"}, 0, "",
                 "with --job: render every frame again, also those already complete on disk",
                 "off", G::Braggview,
                 [](ParseContext& c, const FlagValues&) { c.request.restart = true; }));
    add(makeFlag({"-v"}, 0, "", "verbose: report GPU timings", "off", G::Braggview,
                 [](ParseContext& c, const FlagValues&) { c.request.verbose = true; }));
    add(makeFlag({"-h", "-help", "--help"}, 0, "", "print this text and stop", "", G::Braggview,
                 [](ParseContext& c, const FlagValues&) { c.request.help = true; }));
    return t;
}

// ---- writing: each option's values from a request, the inverse of apply ------------------
//
// In the order commandWords writes them, which matters where options act on each other: the
// -mask header first (every option overrides it); the options that also set the pivot before
// -pivot; -twotheta_axis (also read as -twotheta) before -twotheta; -detector_abs (whose 0
// also zeroes the thickness) before -detector_thick; -misset_seed last (followed by three
// more words it would also be read as -misset). A value that is the default, or that the
// options cannot state, writes nothing; a few are always written so that the words state the
// whole experiment whatever the defaults become.

using Words = std::optional<std::vector<std::string>>;

std::string text(double value) {
    return io::shortestNumberText(value);
}
double toMillimetres(double metres) {
    return metres * 1000.0;
}
double toDegrees(double radians) {
    return units::degreesFromRadians(radians);
}

Words number(double value) {
    return std::vector<std::string>{text(value)};
}
Words integer(long value) {
    return std::vector<std::string>{std::to_string(value)};
}
Words word(const std::string& value) {
    return std::vector<std::string>{value};
}
Words vector3(const glm::dvec3& v) {
    return std::vector<std::string>{text(v.x), text(v.y), text(v.z)};
}
Words switchedOn(bool on) {
    return on ? Words(std::vector<std::string>{}) : std::nullopt;
}
Words fileIfNamed(const std::string& path) {
    return path.empty() ? std::nullopt : word(path);
}
Words numberIf(bool stated, double value) {
    return stated ? number(value) : std::nullopt;
}
// an optional value in the option's unit (`scale` per SI unit); nothing when automatic
Words optionalNumber(const std::optional<double>& value, double scale = 1.0) {
    return value ? number(*value * scale) : std::nullopt;
}
Words optionalCount(const std::optional<int>& value) {
    return value ? integer(*value) : std::nullopt;
}
Words conventionIs(const RunRequest& r, Convention convention) {
    return switchedOn(r.experiment.convention == convention);
}
Words customAxis(const RunRequest& r, glm::dvec3 LabAxes::*axis) {
    if (r.experiment.convention != Convention::Custom)
        return std::nullopt;
    return vector3(r.experiment.customAxes.*axis);
}
Words shapeIs(const RunRequest& r, LatticeShape shape) {
    return switchedOn(r.experiment.crystal.shape == shape);
}
Words divergence(const RunRequest& r, bool horizontal, int part) {
    const Beam& b = r.experiment.beam;
    const SweepRequest& s = horizontal ? b.horizontalDivergence : b.verticalDivergence;
    if (part == 0)
        return optionalNumber(s.range, 1000.0);
    if (part == 1)
        return optionalNumber(s.step, 1000.0);
    return optionalCount(s.steps);
}
const Crystal& crystalOf(const RunRequest& r) {
    return r.experiment.crystal;
}
const Beam& beamOf(const RunRequest& r) {
    return r.experiment.beam;
}
const Detector& detectorOf(const RunRequest& r) {
    return r.experiment.detector;
}
const Sampling& samplingOf(const RunRequest& r) {
    return r.experiment.sampling;
}

struct Writer {
    const char* name; // the option, by any of its names
    Words (*write)(const RunRequest&);
    const char* spelled; // the name written, when not names[0]
};

const Writer kWriters[] = {
    // first: every option after -experiment overrides it (-experiment_id and -frame, before
    // it, are read by it)
    {"-experiment_id",
     [](const RunRequest& r) { return numberIf(r.experimentId != 0, r.experimentId); }, nullptr},
    {"-frame",
     [](const RunRequest& r) -> Words { return r.frame ? integer(*r.frame) : std::nullopt; },
     nullptr},
    {"-experiment", [](const RunRequest& r) { return fileIfNamed(r.experimentFile); }, nullptr},
    {"-measured", [](const RunRequest& r) { return fileIfNamed(r.measured); }, nullptr},
    {"-measured_frame",
     [](const RunRequest& r) { return numberIf(r.measuredFrame > 0, r.measuredFrame); }, nullptr},
    {"-compare", [](const RunRequest& r) { return switchedOn(r.compare); }, nullptr},
    {"-spots", [](const RunRequest& r) { return fileIfNamed(r.spots); }, nullptr},
    {"-mask", [](const RunRequest& r) { return fileIfNamed(r.mask); }, nullptr},
    // the laboratory frame
    {"-mosflm", [](const RunRequest& r) { return conventionIs(r, Convention::Mosflm); }, nullptr},
    {"-xds", [](const RunRequest& r) { return conventionIs(r, Convention::Xds); }, nullptr},
    {"-adxv", [](const RunRequest& r) { return conventionIs(r, Convention::Adxv); }, nullptr},
    {"-denzo", [](const RunRequest& r) { return conventionIs(r, Convention::Denzo); }, nullptr},
    {"-dials", [](const RunRequest& r) { return conventionIs(r, Convention::Dials); }, nullptr},
    {"-beam_vector", [](const RunRequest& r) { return customAxis(r, &LabAxes::beam); }, nullptr},
    {"-polar_vector", [](const RunRequest& r) { return customAxis(r, &LabAxes::polarization); },
     nullptr},
    {"-spindle_axis", [](const RunRequest& r) { return customAxis(r, &LabAxes::spindle); },
     nullptr},
    // also sets -twotheta: given again below
    {"-twotheta_axis", [](const RunRequest& r) { return customAxis(r, &LabAxes::twothetaAxis); },
     nullptr},
    {"-fdet_vector", [](const RunRequest& r) { return customAxis(r, &LabAxes::fdet); }, nullptr},
    {"-sdet_vector", [](const RunRequest& r) { return customAxis(r, &LabAxes::sdet); }, nullptr},
    {"-odet_vector", [](const RunRequest& r) { return customAxis(r, &LabAxes::odet); }, nullptr},
    // crystal
    {"-mat", [](const RunRequest& r) { return fileIfNamed(r.mat); }, nullptr},
    {"-cell",
     [](const RunRequest& r) -> Words {
         const std::optional<UnitCell>& cell = crystalOf(r).cell;
         if (!r.mat.empty() || !cell)
             return std::nullopt;
         std::vector<std::string> out;
         // an edge of 0 stands for a (resolve's rule) and an angle of 0 for 90 degrees: "-cell
         // 100 110" leaves c and the angles so, and is written so; only the parser's
         // positions make the words, so a 0 edge before a stated value is written as a
         const bool anglesStated = cell->alpha != 0.0 || cell->beta != 0.0 || cell->gamma != 0.0;
         const double edges[] = {cell->a, cell->b, cell->c};
         std::size_t stated = 3;
         while (!anglesStated && stated > 1 && edges[stated - 1] <= 0.0)
             --stated;
         for (std::size_t i = 0; i < stated; ++i)
             out.push_back(text(edges[i] > 0.0 ? edges[i] : cell->a));
         if (stated < 3)
             return out;
         for (double v : {cell->alpha, cell->beta, cell->gamma})
             out.push_back(text(v == 0.0 ? 90.0 : toDegrees(v)));
         return out;
     },
     nullptr},
    {"-misset",
     [](const RunRequest& r) -> Words {
         const Crystal& c = crystalOf(r);
         if (c.misset == MissetKind::Random)
             return word("random");
         if (c.misset != MissetKind::Angles)
             return std::nullopt;
         return vector3({toDegrees(c.missetAngles.x), toDegrees(c.missetAngles.y),
                         toDegrees(c.missetAngles.z)});
     },
     nullptr},
    {"-Na", [](const RunRequest& r) { return integer(std::lround(crystalOf(r).cells.x)); },
     nullptr},
    {"-Nb", [](const RunRequest& r) { return integer(std::lround(crystalOf(r).cells.y)); },
     nullptr},
    {"-Nc", [](const RunRequest& r) { return integer(std::lround(crystalOf(r).cells.z)); },
     nullptr},
    {"-xtal_thick",
     [](const RunRequest& r) {
         const double size = crystalOf(r).sampleSize.x;
         return numberIf(size > 0.0, toMillimetres(size));
     },
     nullptr},
    {"-xtal_width",
     [](const RunRequest& r) {
         const double size = crystalOf(r).sampleSize.y;
         return numberIf(size > 0.0, toMillimetres(size));
     },
     nullptr},
    {"-xtal_height",
     [](const RunRequest& r) {
         const double size = crystalOf(r).sampleSize.z;
         return numberIf(size > 0.0, toMillimetres(size));
     },
     nullptr},
    {"-square_xtal", [](const RunRequest& r) { return shapeIs(r, LatticeShape::Square); }, nullptr},
    {"-round_xtal", [](const RunRequest& r) { return shapeIs(r, LatticeShape::Round); }, nullptr},
    {"-gauss_xtal", [](const RunRequest& r) { return shapeIs(r, LatticeShape::Gauss); }, nullptr},
    {"-tophat_spots", [](const RunRequest& r) { return shapeIs(r, LatticeShape::Tophat); },
     nullptr},
    {"-fudge", [](const RunRequest& r) { return number(crystalOf(r).fudge); }, nullptr},
    {"-mosaic",
     [](const RunRequest& r) {
         const auto& spread = crystalOf(r).mosaicSpread;
         return numberIf(spread.has_value(), spread ? toDegrees(*spread) : 0.0);
     },
     nullptr},
    {"-mosaic_domains",
     [](const RunRequest& r) { return optionalCount(crystalOf(r).mosaicDomains); }, "-mosaic_dom"},
    {"-mosaic_seed", [](const RunRequest& r) { return integer(-crystalOf(r).mosaicSeed); },
     nullptr},
    {"-phi", [](const RunRequest& r) { return number(toDegrees(crystalOf(r).phi0)); }, nullptr},
    {"-osc",
     [](const RunRequest& r) {
         const auto& range = crystalOf(r).phi.range;
         return numberIf(range.has_value(), range ? toDegrees(*range) : 0.0);
     },
     nullptr},
    {"-phistep",
     [](const RunRequest& r) {
         const auto& step = crystalOf(r).phi.step;
         return numberIf(step.has_value(), step ? toDegrees(*step) : 0.0);
     },
     nullptr},
    {"-phisteps", [](const RunRequest& r) { return optionalCount(crystalOf(r).phi.steps); },
     nullptr},
    // beam
    {"-lambda", [](const RunRequest& r) { return number(beamOf(r).wavelength * 1e10); }, nullptr},
    {"-dispersion",
     [](const RunRequest& r) { return optionalNumber(beamOf(r).dispersion.range, 100.0); },
     nullptr},
    {"-dispsteps", [](const RunRequest& r) { return optionalCount(beamOf(r).dispersion.steps); },
     nullptr},
    {"-hdivrange", [](const RunRequest& r) { return divergence(r, true, 0); }, nullptr},
    {"-hdivstep", [](const RunRequest& r) { return divergence(r, true, 1); }, nullptr},
    {"-hdivsteps", [](const RunRequest& r) { return divergence(r, true, 2); }, nullptr},
    {"-vdivrange", [](const RunRequest& r) { return divergence(r, false, 0); }, nullptr},
    {"-vdivstep", [](const RunRequest& r) { return divergence(r, false, 1); }, nullptr},
    {"-vdivsteps", [](const RunRequest& r) { return divergence(r, false, 2); }, nullptr},
    {"-round_div", [](const RunRequest& r) { return switchedOn(beamOf(r).roundDivergence); },
     nullptr},
    {"-square_div", [](const RunRequest& r) { return switchedOn(!beamOf(r).roundDivergence); },
     nullptr},
    {"-polar", [](const RunRequest& r) { return number(beamOf(r).kahnFactor); }, nullptr},
    {"-nopolar", [](const RunRequest& r) { return switchedOn(!beamOf(r).polarization); }, nullptr},
    {"-fluence", [](const RunRequest& r) { return number(beamOf(r).fluence); }, nullptr},
    // the flux, exposure and beam size replace the fluence only with a flux
    {"-flux", [](const RunRequest& r) { return numberIf(beamOf(r).flux != 0.0, beamOf(r).flux); },
     nullptr},
    {"-exposure",
     [](const RunRequest& r) { return numberIf(beamOf(r).flux != 0.0, beamOf(r).exposure); },
     nullptr},
    {"-beamsize",
     [](const RunRequest& r) {
         return numberIf(beamOf(r).flux != 0.0, toMillimetres(beamOf(r).beamSize));
     },
     nullptr},
    {"-sourcefile", [](const RunRequest& r) { return fileIfNamed(r.sourceFile); }, nullptr},
    // detector
    {"-pixel", [](const RunRequest& r) { return number(toMillimetres(detectorOf(r).pixelSize)); },
     nullptr},
    {"-detsize_f",
     [](const RunRequest& r) { return number(toMillimetres(detectorOf(r).sizeFast)); }, nullptr},
    {"-detsize_s",
     [](const RunRequest& r) { return number(toMillimetres(detectorOf(r).sizeSlow)); }, nullptr},
    // a file's panels not moved: where the file puts them (-distance would move them)
    {"-distance",
     [](const RunRequest& r) {
         const Detector& d = detectorOf(r);
         return numberIf(!d.panelsFromSource() || d.distanceStated, toMillimetres(d.distance));
     },
     nullptr},
    {"-close_distance",
     [](const RunRequest& r) { return optionalNumber(detectorOf(r).closeDistance, 1000.0); },
     nullptr},
    {"-Xbeam", [](const RunRequest& r) { return optionalNumber(detectorOf(r).beamX, 1000.0); },
     nullptr},
    {"-Ybeam", [](const RunRequest& r) { return optionalNumber(detectorOf(r).beamY, 1000.0); },
     nullptr},
    {"-Xclose", [](const RunRequest& r) { return optionalNumber(detectorOf(r).closeX, 1000.0); },
     nullptr},
    {"-Yclose", [](const RunRequest& r) { return optionalNumber(detectorOf(r).closeY, 1000.0); },
     nullptr},
    {"-ORGX", [](const RunRequest& r) { return optionalNumber(detectorOf(r).orgX); }, nullptr},
    {"-ORGY", [](const RunRequest& r) { return optionalNumber(detectorOf(r).orgY); }, nullptr},
    {"-detector_rotx", [](const RunRequest& r) { return number(toDegrees(detectorOf(r).rotX)); },
     nullptr},
    {"-detector_roty", [](const RunRequest& r) { return number(toDegrees(detectorOf(r).rotY)); },
     nullptr},
    {"-detector_rotz", [](const RunRequest& r) { return number(toDegrees(detectorOf(r).rotZ)); },
     nullptr},
    {"-twotheta", [](const RunRequest& r) { return number(toDegrees(detectorOf(r).twotheta)); },
     nullptr},
    {"-curved_det", [](const RunRequest& r) { return switchedOn(detectorOf(r).curved); }, nullptr},
    {"-point_pixel", [](const RunRequest& r) { return switchedOn(detectorOf(r).pointPixel); },
     nullptr},
    {"-detector_abs",
     [](const RunRequest& r) { return optionalNumber(detectorOf(r).attenuationDepth, 1e6); },
     nullptr},
    {"-detector_thick",
     [](const RunRequest& r) { return optionalNumber(detectorOf(r).thickness.range, 1e6); },
     nullptr},
    {"-detector_thicksteps",
     [](const RunRequest& r) { return optionalCount(detectorOf(r).thickness.steps); }, nullptr},
    // last of the options that set the pivot
    {"-pivot", [](const RunRequest& r) { return word(pivotName(detectorOf(r).pivot)); }, nullptr},
    // a detector of several panels, read again from its source
    {"-detector",
     [](const RunRequest& r) {
         const Detector& d = detectorOf(r);
         return !d.panelsFromSource() ? std::nullopt : word(d.panelsSource);
     },
     nullptr},
    // sampling
    {"-oversample", [](const RunRequest& r) { return optionalCount(samplingOf(r).oversample); },
     nullptr},
    {"-oversample_thick",
     [](const RunRequest& r) { return switchedOn(samplingOf(r).oversampleThick); }, nullptr},
    {"-oversample_polar",
     [](const RunRequest& r) { return switchedOn(samplingOf(r).oversamplePolar); }, nullptr},
    {"-oversample_omega",
     [](const RunRequest& r) { return switchedOn(samplingOf(r).oversampleOmega); }, nullptr},
    {"-roi",
     [](const RunRequest& r) -> Words {
         const std::optional<Roi>& roi = samplingOf(r).roi;
         if (!roi)
             return std::nullopt;
         std::vector<std::string> out;
         for (int v : {roi->xmin, roi->xmax, roi->ymin, roi->ymax})
             out.push_back(std::to_string(v));
         return out;
     },
     nullptr},
    {"-dmin",
     [](const RunRequest& r) {
         return numberIf(samplingOf(r).dmin > 0.0, samplingOf(r).dmin * 1e10);
     },
     nullptr},
    {"-interpolate",
     [](const RunRequest& r) {
         return switchedOn(samplingOf(r).interpolation == Interpolation::Tricubic);
     },
     nullptr},
    {"-nointerpolate",
     [](const RunRequest& r) {
         return switchedOn(samplingOf(r).interpolation == Interpolation::Nearest);
     },
     nullptr},
    {"-interpolate_local",
     [](const RunRequest& r) {
         return switchedOn(samplingOf(r).interpolationEdge == InterpolationEdge::Local);
     },
     nullptr},
    {"-water",
     [](const RunRequest& r) {
         return numberIf(r.experiment.waterThickness > 0.0, r.experiment.waterThickness * 1e6);
     },
     nullptr},
    // structure factors, outputs, braggview's own
    {"-hkl",
     [](const RunRequest& r) {
         return r.hklFormat == RunRequest::HklFormat::Text ? fileIfNamed(r.hkl) : std::nullopt;
     },
     nullptr},
    {"-mtz",
     [](const RunRequest& r) {
         return r.hklFormat == RunRequest::HklFormat::Mtz ? fileIfNamed(r.hkl) : std::nullopt;
     },
     nullptr},
    {"-sfcif",
     [](const RunRequest& r) {
         return r.hklFormat == RunRequest::HklFormat::Cif ? fileIfNamed(r.hkl) : std::nullopt;
     },
     nullptr},
    {"-model",
     [](const RunRequest& r) {
         return r.hklFormat == RunRequest::HklFormat::Model ? fileIfNamed(r.hkl) : std::nullopt;
     },
     nullptr},
    {"-sf_column", [](const RunRequest& r) { return fileIfNamed(r.sfColumn); }, nullptr},
    {"-model_dmin",
     [](const RunRequest& r) { return numberIf(r.modelDminAngstrom > 0.0, r.modelDminAngstrom); },
     nullptr},
    {"-default_F",
     [](const RunRequest& r) { return number(r.experiment.structureFactors.defaultF); }, nullptr},
    {"-scale",
     [](const RunRequest& r) { return numberIf(r.outputs.intScale > 0.0, r.outputs.intScale); },
     nullptr},
    {"-pgmscale",
     [](const RunRequest& r) { return numberIf(r.outputs.pgmScale > 0.0, r.outputs.pgmScale); },
     nullptr},
    {"-adc",
     [](const RunRequest& r) {
         return numberIf(r.outputs.adcOffset != OutputOptions().adcOffset, r.outputs.adcOffset);
     },
     nullptr},
    {"-seed", [](const RunRequest& r) { return integer(-r.experiment.seed); }, nullptr},
    {"-precision", [](const RunRequest& r) { return word(precisionName(r.precision)); }, nullptr},
    {"-phi_sampling",
     [](const RunRequest& r) {
         const auto& sampling = crystalOf(r).phiSampling;
         return !sampling ? Words(std::nullopt)
                          : word(*sampling == PhiSampling::StepStart ? "start" : "centre");
     },
     nullptr},
    {"-response_psf", [](const RunRequest& r) { return fileIfNamed(r.experiment.response.psf); }, nullptr},
    {"-response_psf_fwhm",
     [](const RunRequest& r) { return numberIf(!r.experiment.response.psf.empty(), r.experiment.response.psfFwhm * 1e6); },
     nullptr},
    {"-response_psf_radius",
     [](const RunRequest& r) {
         return r.experiment.response.psfRadius != 0 ? integer(r.experiment.response.psfRadius) : Words(std::nullopt);
     },
     nullptr},
    {"-response_flicker",
     [](const RunRequest& r) { return numberIf(r.experiment.response.flicker != 0.0, r.experiment.response.flicker); },
     nullptr},
    {"-response_calibration",
     [](const RunRequest& r) {
         return numberIf(r.experiment.response.calibration != 0.0, r.experiment.response.calibration);
     },
     nullptr},
    {"-response_calib_seed",
     [](const RunRequest& r) {
         return r.experiment.response.calibSeed != 123456789 ? integer(-r.experiment.response.calibSeed)
                                                  : Words(std::nullopt);
     },
     nullptr},
    {"-response_readout",
     [](const RunRequest& r) { return numberIf(r.experiment.response.readout != 0.0, r.experiment.response.readout); },
     nullptr},
    {"-response_gain",
     [](const RunRequest& r) { return numberIf(r.experiment.response.enabled, r.experiment.response.gain); }, nullptr},
    {"-background", [](const RunRequest& r) { return fileIfNamed(r.experiment.background.material); }, nullptr},
    {"-background_thickness",
     [](const RunRequest& r) {
         return numberIf(!r.experiment.background.material.empty(), r.experiment.background.thickness * 1000.0);
     },
     nullptr},
    {"-background_density",
     [](const RunRequest& r) {
         return numberIf(!r.experiment.background.material.empty(), r.experiment.background.density / 1e6);
     },
     nullptr},
    {"-background_MW",
     [](const RunRequest& r) {
         return numberIf(!r.experiment.background.material.empty(), r.experiment.background.molecularWeight);
     },
     nullptr},
    // last: followed by three more words it would also be read as -misset
    {"-misset_seed",
     [](const RunRequest& r) -> Words {
         const std::optional<long>& seed = crystalOf(r).missetSeed;
         return seed ? integer(-*seed) : std::nullopt;
     },
     nullptr},
};

// The table with each writer set on its option (buildTable gives the rest).
std::vector<Flag> tableWithWriters() {
    std::vector<Flag> t = buildTable();
    for (const Writer& w : kWriters)
        for (Flag& f : t)
            if (std::find(f.names.begin(), f.names.end(), w.name) != f.names.end()) {
                f.write = w.write;
                f.writtenName = w.spelled ? w.spelled : f.names[0];
            }
    addParameterViews(t);
    return t;
}

} // namespace

const std::vector<Flag>& flagTable() {
    static const std::vector<Flag> table = tableWithWriters();
    return table;
}

std::vector<std::string> commandWords(const RunRequest& request) {
    std::vector<std::string> words;
    for (const Writer& w : kWriters) {
        const Flag* flag = findFlag(w.name);
        const std::optional<std::vector<std::string>> values = flag->write(request);
        if (!values)
            continue;
        words.push_back(flag->writtenName);
        words.insert(words.end(), values->begin(), values->end());
    }
    return words;
}

const Flag* findFlag(std::string_view name) {
    for (const Flag& f : flagTable())
        for (const std::string& n : f.names)
            if (n == name)
                return &f;
    return nullptr;
}

const FieldView* findField(std::string_view key) {
    for (const Flag& f : flagTable())
        for (const FieldView& v : f.fields)
            if (v.key == key)
                return &v;
    return nullptr;
}

std::vector<const FieldView*> fieldsOf(FlagGroup group) {
    std::vector<const FieldView*> out;
    for (const Flag& f : flagTable())
        for (const FieldView& v : f.fields)
            if (v.panel == group)
                out.push_back(&v);
    return out;
}

const char* flagGroupTitle(FlagGroup group) {
    switch (group) {
    case FlagGroup::Crystal:
        return "Crystal";
    case FlagGroup::Beam:
        return "Beam";
    case FlagGroup::Detector:
        return "Detector";
    case FlagGroup::Sampling:
        return "Sampling";
    case FlagGroup::Files:
        return "Input files";
    case FlagGroup::Output:
        return "Output";
    case FlagGroup::Braggview:
        return "braggview";
    }
    return "";
}

} // namespace bv::request
