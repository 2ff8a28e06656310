#include "compute/amorphous/NonBraggOptions.h"

#include "compute/core/Error.h"
#include "compute/io/ReferenceWords.h"
#include "compute/io/Smv.h"
#include "compute/model/Units.h"

#include <cmath>
#include <cstdint>

namespace bv::amorphous {

namespace {

using O = NonBraggOptions;
using V = io::OptionValues;
using Rule = io::WordRule<O>;

glm::dvec3 vec(const V& v) {
    return {v.number(0), v.number(1), v.number(2)};
}

// The -img file's header as nonBragg reads it (its GetFrame and ValueOf: a key is found by
// substring, its last occurrence, so DISTANCE finds CLOSE_DISTANCE's value in the headers
// nonBragg and nanoBragg write): defaults for the options that follow. BEAM_CENTER_Y counts
// from the far edge of the detector the header describes. The pixels are kept for the
// extraction of F (NonBraggStol.h).
void applyImageHeader(O& o) {
    io::SmvImage image;
    try {
        image = io::readSmv(o.imageIn);
    } catch (const Error& e) {
        throw Error("--nonbragg: -img: " + std::string(e.what()));
    }
    const auto set = [&image, &o](const char* key, double& target, double scale) {
        const double value = image.valueOf(key);
        if (std::isnan(value))
            return false;
        if (!std::isfinite(value))
            throw Error("--nonbragg: -img " + o.imageIn + ": header " + key +
                        " is not a finite number");
        target = value * scale;
        return true;
    };
    o.fpixels = image.width;
    o.spixels = image.height;
    set("PIXEL_SIZE", o.pixelSize, 1.0 / 1000.0);
    o.detsizeX = o.pixelSize * o.fpixels;
    o.detsizeY = o.pixelSize * o.spixels;
    set("DISTANCE", o.distance, 1.0 / 1000.0);
    set("CLOSE_DISTANCE", o.closeDistance, 1.0 / 1000.0);
    set("WAVELENGTH", o.lambda0, 1e-10);
    set("BEAM_CENTER_X", o.Xbeam, 1.0 / 1000.0);
    double y = 0.0;
    if (set("BEAM_CENTER_Y", y, 1.0 / 1000.0))
        o.Ybeam = o.detsizeY - y;
    set("ORGX", o.ORGX, 1.0);
    set("ORGY", o.ORGY, 1.0);
    if (set("PHI", o.phi0, 1.0))
        o.phi0 = units::radiansFromDegrees(o.phi0);
    if (set("OSC_RANGE", o.osc, 1.0))
        o.osc = units::radiansFromDegrees(o.osc);
    if (set("TWOTHETA", o.twotheta, 1.0))
        o.twotheta = units::radiansFromDegrees(o.twotheta);
    o.imageWidth = image.width;
    o.imageHeight = image.height;
    o.imagePixels.assign(image.data.begin(), image.data.end());
}

// nonBragg.c's argument loop, rule for rule, in its order.
const std::vector<Rule>& rules() {
    static const std::vector<Rule> table = {
        {{"-samplesize", "-sample_size"}, false, 1,
         [](O& o, const V& v) { o.sampleX = o.sampleY = o.sampleZ = v.number(0) / 1000; }},
        {{"-sample_thick", "-sample_x", "-thick"}, false, 1,
         [](O& o, const V& v) { o.sampleX = v.number(0) / 1000; }},
        {{"-sample_width", "-sample_y", "-width"}, false, 1,
         [](O& o, const V& v) { o.sampleY = v.number(0) / 1000; }},
        {{"-sample_heigh", "-sample_z", "-heigh"}, false, 1,
         [](O& o, const V& v) { o.sampleZ = v.number(0) / 1000; }},
        {{"-density", "-sample_den"}, false, 1,
         [](O& o, const V& v) { o.density = v.number(0) * 1e6; }},
        {{"-molecules", "-sample_molecules"}, false, 1,
         [](O& o, const V& v) { o.molecules = v.number(0); }},
        {{"-molecular"}, false, 1, [](O& o, const V& v) { o.molecularWeight = v.number(0); }},
        {{"-MW"}, true, 1, [](O& o, const V& v) { o.molecularWeight = v.number(0); }},
        {{"-Xbeam"}, false, 1, [](O& o, const V& v) {
             o.Xbeam = v.number(0) / 1000.0;
             o.pivot = NonBraggPivot::Beam;
         }},
        {{"-Ybeam"}, false, 1, [](O& o, const V& v) {
             o.Ybeam = v.number(0) / 1000.0;
             o.pivot = NonBraggPivot::Beam;
         }},
        {{"-Xclose"}, false, 1, [](O& o, const V& v) {
             o.Xclose = v.number(0) / 1000.0;
             o.pivot = NonBraggPivot::Sample;
         }},
        {{"-Yclose"}, false, 1, [](O& o, const V& v) {
             o.Yclose = v.number(0) / 1000.0;
             o.pivot = NonBraggPivot::Sample;
         }},
        {{"-ORGX"}, false, 1, [](O& o, const V& v) {
             o.ORGX = v.number(0);
             o.pivot = NonBraggPivot::Sample;
         }},
        {{"-ORGY"}, false, 1, [](O& o, const V& v) {
             o.ORGY = v.number(0);
             o.pivot = NonBraggPivot::Sample;
         }},
        {{"-pivot"}, false, 1, [](O& o, const V& v) {
             if (v.text(0).find("sample") != std::string::npos)
                 o.pivot = NonBraggPivot::Sample;
             if (v.text(0).find("beam") != std::string::npos)
                 o.pivot = NonBraggPivot::Beam;
         }},
        {{"-fdet_vector"}, false, 3, [](O& o, const V& v) { o.fdet = vec(v); }},
        {{"-sdet_vector"}, false, 3, [](O& o, const V& v) { o.sdet = vec(v); }},
        {{"-odet_vector"}, false, 3, [](O& o, const V& v) { o.odet = vec(v); }},
        {{"-beam_vector"}, false, 3, [](O& o, const V& v) { o.beam = vec(v); }},
        {{"-polar_vector"}, false, 3, [](O& o, const V& v) { o.polar = vec(v); }},
        {{"-spindle_axis"}, false, 3, [](O& o, const V& v) { o.spindle = vec(v); }},
        {{"-twotheta_axis"}, false, 3, [](O& o, const V& v) { o.twothetaAxis = vec(v); }},
        // read and then overwritten by either pivot's rule, as in the reference
        {{"-pix0_vector"}, false, 3, [](O&, const V& v) { (void)vec(v); }},
        {{"-distance"}, false, 1, [](O& o, const V& v) {
             o.distance = v.number(0) / 1000.0;
             o.pivot = NonBraggPivot::Beam;
         }},
        {{"-close_distance"}, false, 1, [](O& o, const V& v) {
             o.closeDistance = v.number(0) / 1000.0;
             o.pivot = NonBraggPivot::Sample;
         }},
        {{"-source_distance"}, false, 1,
         [](O& o, const V& v) { o.sourceDistance = v.number(0) / 1000.0; }},
        {{"-twotheta"}, false, 1, [](O& o, const V& v) {
             o.twotheta = units::radiansFromDegrees(v.number(0));
             o.pivot = NonBraggPivot::Sample;
         }},
        {{"-detector_rotx"}, false, 1, [](O& o, const V& v) { o.rotx = units::radiansFromDegrees(v.number(0)); }},
        {{"-detector_roty"}, false, 1, [](O& o, const V& v) { o.roty = units::radiansFromDegrees(v.number(0)); }},
        {{"-detector_rotz"}, false, 1, [](O& o, const V& v) { o.rotz = units::radiansFromDegrees(v.number(0)); }},
        {{"-detsize"}, true, 1,
         [](O& o, const V& v) { o.detsizeX = o.detsizeY = v.number(0) / 1000.0; }},
        {{"-detsize_x"}, false, 1, [](O& o, const V& v) { o.detsizeX = v.number(0) / 1000.0; }},
        {{"-detsize_y"}, false, 1, [](O& o, const V& v) { o.detsizeY = v.number(0) / 1000.0; }},
        {{"-detpixels"}, true, 1, [](O& o, const V& v) { o.fpixels = o.spixels = v.integer(0); }},
        {{"-detpixels_f", "-detpixels_x"}, false, 1,
         [](O& o, const V& v) { o.fpixels = v.integer(0); }},
        {{"-detpixels_s", "-detpixels_y"}, false, 1,
         [](O& o, const V& v) { o.spixels = v.integer(0); }},
        {{"-curved_det"}, false, 0, [](O& o, const V&) { o.curved = true; }},
        {{"-pixel"}, false, 1, [](O& o, const V& v) { o.pixelSize = v.number(0) / 1000.0; }},
        {{"-point_pixel"}, false, 0, [](O& o, const V&) { o.pointPixel = true; }},
        {{"-Fmap"}, false, 0, [](O& o, const V&) { o.Fmap = true; }},
        {{"-polar"}, true, 1, [](O& o, const V& v) {
             o.polarization = v.number(0);
             o.noPolar = false;
         }},
        {{"-nopolar"}, false, 0, [](O& o, const V&) { o.noPolar = true; }},
        {{"-oversample"}, false, 1, [](O& o, const V& v) { o.oversample = v.integer(0); }},
        {{"-roi"}, false, 4, [](O& o, const V& v) {
             o.roiXmin = v.integer(0);
             o.roiXmax = v.integer(1);
             o.roiYmin = v.integer(2);
             o.roiYmax = v.integer(3);
         }},
        {{"-lambda", "-wave"}, false, 1, [](O& o, const V& v) { o.lambda0 = v.number(0) / 1.0e10; }},
        {{"-energy"}, false, 1,
         [](O& o, const V& v) { o.lambda0 = (12398.42 / v.number(0)) / 1.0e10; }},
        {{"-fluence"}, false, 1, [](O& o, const V& v) { o.fluence = v.number(0); }},
        {{"-flux"}, false, 1, [](O& o, const V& v) { o.flux = v.number(0); }},
        {{"-exposure"}, false, 1, [](O& o, const V& v) { o.exposure = v.number(0); }},
        {{"-beamsize"}, false, 1, [](O& o, const V& v) { o.beamsize = v.number(0) / 1000; }},
        {{"-dispersion"}, false, 1, [](O& o, const V& v) { o.dispersion = v.number(0) / 100.0; }},
        {{"-dispsteps"}, false, 1, [](O& o, const V& v) { o.dispsteps = v.integer(0); }},
        {{"-divergence"}, false, 1,
         [](O& o, const V& v) { o.hdivrange = o.vdivrange = v.number(0) / 1000.0; }},
        {{"-hdivrange"}, false, 1, [](O& o, const V& v) { o.hdivrange = v.number(0) / 1000.0; }},
        {{"-vdivrange"}, false, 1, [](O& o, const V& v) { o.vdivrange = v.number(0) / 1000.0; }},
        {{"-hdivstep"}, true, 1, [](O& o, const V& v) { o.hdivstep = v.number(0) / 1000.0; }},
        {{"-hdivsteps"}, false, 1, [](O& o, const V& v) { o.hdivsteps = v.integer(0); }},
        {{"-vdivstep"}, true, 1, [](O& o, const V& v) { o.vdivstep = v.number(0) / 1000.0; }},
        {{"-vdivsteps"}, false, 1, [](O& o, const V& v) { o.vdivsteps = v.integer(0); }},
        {{"-divsteps"}, false, 1,
         [](O& o, const V& v) { o.hdivsteps = o.vdivsteps = v.integer(0); }},
        {{"-round_div"}, false, 0, [](O& o, const V&) { o.roundDiv = true; }},
        {{"-square_div"}, false, 0, [](O& o, const V&) { o.roundDiv = false; }},
        {{"-adc"}, false, 1, [](O& o, const V& v) { o.adcOffset = v.number(0); }},
        {{"-gain"}, false, 1, [](O& o, const V& v) { o.quantumGain = v.number(0); }},
        {{"-phi"}, true, 1, [](O& o, const V& v) { o.phi0 = units::radiansFromDegrees(v.number(0)); }},
        {{"-osc"}, false, 1, [](O& o, const V& v) { o.osc = units::radiansFromDegrees(v.number(0)); }},
        {{"-phistep"}, true, 1, [](O& o, const V& v) { o.phistep = units::radiansFromDegrees(v.number(0)); }},
        {{"-phisteps"}, false, 1, [](O& o, const V& v) { o.phisteps = v.integer(0); }},
        // the header was read before this loop (applyImageHeader)
        {{"-img"}, false, 1, [](O&, const V&) {}},
        {{"-ignore"}, false, 1, [](O& o, const V& v) {
             // atof() stored in an unsigned short, as x86 converts it
             o.ignoreValues.push_back(static_cast<std::uint16_t>(static_cast<std::int64_t>(v.number(0))));
         }},
        {{"-stolout"}, false, 1, [](O& o, const V& v) { o.stolOut = v.text(0); }},
        {{"-stol"}, true, 1, [](O& o, const V& v) {
             o.stol = v.text(0);
             o.stolFileMultiplier = 1e10;
         }},
        {{"-4stol"}, true, 1, [](O& o, const V& v) {
             o.stol = v.text(0);
             o.stolFileMultiplier = 1e10 / 4;
         }},
        {{"-Q"}, true, 1, [](O& o, const V& v) {
             o.stol = v.text(0);
             o.stolFileMultiplier = 1e10 / M_PI / 4;
         }},
        {{"-sourcefile"}, false, 1, [](O& o, const V& v) { o.sourceFile = v.text(0); }},
        {{"-floatfile", "-floatimage"}, false, 1, [](O& o, const V& v) { o.floatFile = v.text(0); }},
        {{"-intfile", "-intimage"}, false, 1, [](O& o, const V& v) { o.intFile = v.text(0); }},
        {{"-pgmfile", "-pgmimage"}, false, 1, [](O& o, const V& v) { o.pgmFile = v.text(0); }},
        {{"-noisefile", "-noiseimage"}, false, 1, [](O& o, const V& v) {
             o.noiseFile = v.text(0);
             o.noise = true;
         }},
        {{"-nonoise"}, false, 0, [](O& o, const V&) { o.noise = false; }},
        // the reference reads -nopgm and still writes its PGM file
        {{"-nopgm"}, false, 0, [](O&, const V&) {}},
        {{"-noreject"}, false, 0, [](O&, const V&) {}},
        {{"-scale"}, false, 1, [](O& o, const V& v) { o.intScale = v.number(0); }},
        {{"-pgmscale"}, false, 1, [](O& o, const V& v) { o.pgmScale = v.number(0); }},
        {{"-coherent"}, false, 0, [](O&, const V&) {}},
        {{"-printout"}, false, 0, [](O& o, const V&) { o.printout = true; }},
        {{"-noprogress"}, false, 0, [](O&, const V&) {}},
        {{"-progress"}, false, 0, [](O&, const V&) {}},
        {{"-printout_pixel"}, false, 2, [](O& o, const V& v) {
             o.printoutFpixel = v.integer(0);
             o.printoutSpixel = v.integer(1);
         }},
        {{"-seed"}, false, 1, [](O& o, const V& v) { o.seed = -static_cast<long>(v.integer(0)); }},
        // read in blocks of nonBragg.c that are commented out: passed over there, said here
        {{"-dmin", "-hkl", "-mat"}, false, 1, [](O& o, const V& v) {
             o.ignored.push_back(v.option());
         }},
        // braggview's own (no reference word contains them)
        {{"-engine"}, true, 1, [](O& o, const V& v) {
             if (v.text(0) != "vulkan" && v.text(0) != "host")
                 throw Error("-engine " + v.text(0) + ": vulkan or host");
             o.engine = v.text(0) == "host" ? O::Engine::Host : O::Engine::Vulkan;
         }},
        {{"-precision"}, true, 1, [](O& o, const V& v) {
             if (v.text(0) != "precise" && v.text(0) != "fast")
                 throw Error("-precision " + v.text(0) + ": precise or fast");
             o.fast = v.text(0) == "fast";
         }},
        {{"-device"}, true, 1, [](O& o, const V& v) { o.device = v.text(0); }},
        {{"-v"}, true, 0, [](O& o, const V&) { o.verbose = true; }},
    };
    return table;
}

} // namespace

NonBraggOptions parseNonBraggArguments(const std::vector<std::string>& args) {
    NonBraggOptions options;
    // nonBragg reads -img's header before its option loop: the last word with "-img" in it
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
        if (!args[i].empty() && args[i][0] == '-' && io::wordMatches(args[i], {"-img"}, false))
            options.imageIn = args[i + 1];
    if (!options.imageIn.empty())
        applyImageHeader(options);
    io::applyWordRules<O>(rules(), args, options, "--nonbragg",
                          [](O&, const std::string&) { return false; });
    if (options.stol.empty())
        throw Error("--nonbragg: no -stol given (a .stol file, or one of the built-in "
                    "materials water, air, ice, nanoice, unity)\n" +
                    nonBraggUsage());
    return options;
}

std::string nonBraggUsage() {
    return "usage: braggview --headless --nonbragg -stol water.stol|water [options]\n"
           "  the options of the reference nonBragg program: -thickness -samplesize -density\n"
           "  -MW -molecules -lambda -dispersion -dispsteps -divergence -hdivrange -vdivrange\n"
           "  -hdivstep -vdivstep -distance -detsize -detpixels -pixel -oversample -fluence\n"
           "  -flux -exposure -beamsize -sourcefile -floatfile -intfile -pgmfile -noisefile\n"
           "  -Xbeam -Ybeam -seed ... (docs/amorphous.md lists them all)\n"
           "  -img FILE.img [-stolout FILE.stol] [-ignore VALUE]: a measured SMV image's header\n"
           "  sets the geometry, and its pixels become a curve of F against sin(theta)/lambda\n"
           "  braggview's: -engine vulkan|host, -precision precise|fast, -device N|cpu, -v\n";
}

} // namespace bv::amorphous
