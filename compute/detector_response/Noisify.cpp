#include "compute/detector_response/Noisify.h"

#include "compute/core/Error.h"
#include "compute/detector_response/DetectorResponse.h"
#include "compute/detector_response/Psf.h"
#include "compute/io/AtomicFile.h"
#include "compute/io/InputFile.h"
#include "compute/io/PrintfFormat.h"
#include "compute/io/ReferenceWords.h"
#include "compute/io/Smv.h"
#include "compute/model/Units.h"
#include "compute/random/ReferenceRandom.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>

namespace bv::detector {

namespace {

enum class PsfChoice { None, Gauss, Fiber };

// noisify's command line, in the reference's units (m, photons/m^2)
struct NoisifyOptions {
    std::string floatFile, headerFile;
    std::string intFile = "intimage.img", pgmFile = "image.pgm", noiseFile = "noiseimage.img";
    double distance = 100.0e-3, detsizeX = 102.4e-3, detsizeY = 102.4e-3, pixel = 0.1e-3;
    double Xbeam = -1e99, Ybeam = -1e99;
    int xpixels = 0, ypixels = 0;
    double lambda = 1; // written to the header as given
    PsfChoice psf = PsfChoice::None;
    float psfFwhm = 46e-6f; // m (a float in the reference)
    int psfRadius = 0;
    int bits = 16;
    bool noise = true, pgm = true;
    double readout = 0.0, flicker = 0.0, calibration = 0.03;
    double adcOffset = 40.0, gain = 1.0;
    double fluence = 125932015286227086360700780544.0, photonScale = 1.0;
    double phi0 = 0, osc = 1;
    std::optional<long> seed;
    long calibSeed = 123456789, badpixSeed = 1234, hotpixSeed = 5678;
    std::vector<std::string> warnings;
};

using O = NoisifyOptions;
using V = io::OptionValues;
using Rule = io::WordRule<O>;

long negatedSeed(const V& v) {
    return -static_cast<long>(v.integer(0));
}

// noisify.c's argument loop, rule for rule, in its order
const std::vector<Rule>& rules() {
    static const std::vector<Rule> table = {
        {{"-lambda"}, false, 1, [](O& o, const V& v) { o.lambda = v.number(0); }},
        {{"-Xbeam"}, false, 1, [](O& o, const V& v) { o.Xbeam = v.number(0) / 1000.0; }},
        {{"-Ybeam"}, false, 1, [](O& o, const V& v) { o.Ybeam = v.number(0) / 1000.0; }},
        {{"-distance"}, false, 1, [](O& o, const V& v) { o.distance = v.number(0) / 1000.0; }},
        {{"-detsize"},
         true,
         1,
         [](O& o, const V& v) { o.detsizeX = o.detsizeY = v.number(0) / 1000.0; }},
        {{"-detsize_x"}, false, 1, [](O& o, const V& v) { o.detsizeX = v.number(0) / 1000.0; }},
        {{"-detsize_y"}, false, 1, [](O& o, const V& v) { o.detsizeY = v.number(0) / 1000.0; }},
        {{"-detpixels"}, true, 1, [](O& o, const V& v) { o.xpixels = o.ypixels = v.integer(0); }},
        {{"-detpixels_x"}, false, 1, [](O& o, const V& v) { o.xpixels = v.integer(0); }},
        {{"-detpixels_y"}, false, 1, [](O& o, const V& v) { o.ypixels = v.integer(0); }},
        {{"-pixel"}, false, 1, [](O& o, const V& v) { o.pixel = v.number(0) / 1000.0; }},
        {{"-psf"},
         true,
         1,
         [](O& o, const V& v) {
             o.psf = PsfChoice::None;
             if (v.text(0).find("gauss") != std::string::npos)
                 o.psf = PsfChoice::Gauss;
             if (v.text(0).find("fiber") != std::string::npos)
                 o.psf = PsfChoice::Fiber;
             if (o.psf == PsfChoice::None)
                 throw Error("-psf " + v.text(0) + ": gauss or fiber");
         }},
        {{"-psf_rad"},
         false,
         1,
         [](O& o, const V& v) {
             const double r = v.number(0);
             if (std::fabs(r) > 1e9)
                 throw Error(v.option() + " " + v.text(0) + ": not a radius in pixels");
             o.psfRadius = static_cast<int>(r); // the reference stores atof() in an int
         }},
        {{"-psf_si", "-psf_fw", "-psf_wi"},
         false,
         1,
         [](O& o, const V& v) { o.psfFwhm = static_cast<float>(v.number(0) / 1e6); }},
        {{"-fluence"}, false, 1, [](O& o, const V& v) { o.fluence = v.number(0); }},
        {{"-floatfile", "-floatimage", "-bin"},
         false,
         1,
         [](O& o, const V& v) { o.floatFile = v.text(0); }},
        {{"-header"}, false, 1, [](O& o, const V& v) { o.headerFile = v.text(0); }},
        {{"-pgmfile", "-pgmimage"}, false, 1, [](O& o, const V& v) { o.pgmFile = v.text(0); }},
        {{"-intfile", "-intimage"}, false, 1, [](O& o, const V& v) { o.intFile = v.text(0); }},
        {{"-bits"},
         false,
         1,
         [](O& o, const V& v) {
             o.bits = v.integer(0);
             if (o.bits != 16 && o.bits != 32)
                 throw Error("-bits " + v.text(0) + ": 16 or 32");
         }},
        {{"-noisefile", "-noiseimage"},
         false,
         1,
         [](O& o, const V& v) { o.noiseFile = v.text(0); }},
        {{"-nonoise"}, false, 0, [](O& o, const V&) { o.noise = false; }},
        {{"-nopgm"}, false, 0, [](O& o, const V&) { o.pgm = false; }},
        {{"-readout", "-readnoi"}, false, 1, [](O& o, const V& v) { o.readout = v.number(0); }},
        {{"-flicker"}, false, 1, [](O& o, const V& v) { o.flicker = v.number(0); }},
        {{"-calibration"}, false, 1, [](O& o, const V& v) { o.calibration = v.number(0); }},
        {{"-scale"}, false, 1, [](O& o, const V& v) { o.photonScale = v.number(0); }},
        // "-seed" is also found in -calib_seed, -badpix_seed and -hotpix_seed
        {{"-seed"}, false, 1, [](O& o, const V& v) { o.seed = negatedSeed(v); }},
        {{"-calib_seed"}, false, 1, [](O& o, const V& v) { o.calibSeed = negatedSeed(v); }},
        {{"-badpix_seed"}, false, 1, [](O& o, const V& v) { o.badpixSeed = negatedSeed(v); }},
        {{"-hotpix_seed"}, false, 1, [](O& o, const V& v) { o.hotpixSeed = negatedSeed(v); }},
        {{"-adc"}, false, 1, [](O& o, const V& v) { o.adcOffset = v.number(0); }},
        {{"-gain"}, false, 1, [](O& o, const V& v) { o.gain = v.number(0); }},
        {{"-phi"}, false, 1, [](O& o, const V& v) { o.phi0 = v.number(0); }},
        {{"-osc"}, false, 1, [](O& o, const V& v) { o.osc = v.number(0); }},
    };
    return table;
}

NoisifyOptions parse(const std::vector<std::string>& args) {
    NoisifyOptions o;
    io::applyWordRules<O>(rules(), args, o, "--noisify", [](O& opt, const std::string& word) {
        // a bare word naming a "...floatimage.bin" is the input, as in the reference
        if (word.find("floatimage.bin") == std::string::npos)
            return false;
        opt.floatFile = word;
        return true;
    });
    if (o.floatFile.empty())
        throw Error("--noisify: no input: -floatfile FILE (or a file named ...floatimage.bin)");
    return o;
}

// The header block of an SMV file given to -header, copied byte for byte (HEADER_BYTES
// bytes), and the geometry the reference takes from it.
struct CopiedHeader {
    std::string bytes;
    io::SmvImage text; // for valueOf()
    int width = 0, height = 0;
};

CopiedHeader readHeader(const std::string& path) {
    const std::string file = io::readWholeFile(path, "SMV header file", io::kImageFileMaxBytes);
    if (file.size() < 512 || file.compare(0, 12, "{\nHEADER_BYT") != 0)
        throw Error("-header " + path +
                    ": not an SMV (ADSC) image: it must start with "
                    "\"{\\nHEADER_BYTES=\" and hold at least 512 bytes");
    CopiedHeader h;
    h.text.header = std::string(file.c_str(), strnlen(file.c_str(), 512));
    const double size = h.text.valueOf("HEADER_BYTES");
    if (!(size >= 512) || size > static_cast<double>(file.size()))
        throw Error("-header " + path + ": HEADER_BYTES " + io::formatG(size) +
                    " is not between 512 and the file's size");
    h.bytes = file.substr(0, static_cast<std::size_t>(size));
    h.text.header = std::string(h.bytes.c_str(), strnlen(h.bytes.c_str(), h.bytes.size()));
    double w = h.text.valueOf("SIZE1"), ht = h.text.valueOf("SIZE2");
    if (!(w != 0) || std::isnan(w))
        w = ht = h.text.valueOf("DETECTOR_DIMENSIONS");
    if (!(w >= 1 && ht >= 1 && w * ht <= double(1 << 28)))
        throw Error("-header " + path + ": SIZE1 x SIZE2 is not an image size");
    h.width = static_cast<int>(w);
    h.height = static_cast<int>(ht);
    return h;
}

std::string ownHeader(const NoisifyOptions& o, int xpixels, int ypixels, double detsizeY,
                      double Xbeam, double Ybeam) {
    using io::formatG;
    std::string h = "{\nHEADER_BYTES=512;\nDIM=2;\nBYTE_ORDER=little_endian;\nTYPE=";
    h += o.bits == 16 ? "unsigned_short;\n" : "long_integer;\n";
    h += "SIZE1=" + std::to_string(xpixels) + ";\nSIZE2=" + std::to_string(ypixels) +
         ";\nPIXEL_SIZE=" + formatG(o.pixel * 1000.0) +
         ";\nDISTANCE=" + formatG(o.distance * 1000.0) + ";\n";
    h += "WAVELENGTH=" + formatG(o.lambda) + ";\nBEAM_CENTER_X=" + formatG(Xbeam * 1000.0) +
         ";\nBEAM_CENTER_Y=" + formatG((detsizeY - Ybeam) * 1000) + ";\n";
    h += "PHI=" + formatG(o.phi0) + ";\nOSC_START=" + formatG(o.phi0) +
         ";\nOSC_RANGE=" + formatG(o.osc) + ";\n";
    h += "DETECTOR_SN=000;\nBEAMLINE=fake;\n}\f";
    if (h.size() > 512)
        throw Error("--noisify: the SMV header does not fit in 512 bytes");
    h.resize(512, ' ');
    return h;
}

} // namespace

int runNoisify(const std::vector<std::string>& args, std::ostream& out) {
    for (const std::string& a : args)
        if (a == "-h" || a == "-help" || a == "--help") {
            out << "usage: braggview --headless --noisify -floatfile floatimage.bin [options]\n"
                   "  the options of the reference noisify program: -scale -gain -adc -readout\n"
                   "  -flicker -calibration -calib_seed -seed -psf gauss|fiber -psf_fwhm (um)\n"
                   "  -psf_radius (pixels) -bits 16|32 -intfile -pgmfile -noisefile -nonoise\n"
                   "  -nopgm -header -detpixels(_x/_y) -pixel -distance -detsize -Xbeam -Ybeam\n"
                   "  -lambda -phi -osc -fluence (docs/detector-response.md)\n";
            return 0;
        }
    NoisifyOptions o = parse(args);
    const std::string input = io::readWholeFile(o.floatFile, "float image", io::kImageFileMaxBytes);
    long long pixels = static_cast<long long>(input.size() / sizeof(float));
    double pixel = o.pixel, detsizeX = o.detsizeX, detsizeY = o.detsizeY, distance = o.distance;
    double Xbeam = o.Xbeam, Ybeam = o.Ybeam;
    int xpixels = o.xpixels, ypixels = o.ypixels;
    std::optional<CopiedHeader> header;
    out << "noisify - add noise to pixels (braggview --noisify)\n";
    if (!o.headerFile.empty()) {
        out << "taking header from " << o.headerFile << "\n";
        header = readHeader(o.headerFile);
        xpixels = header->width;
        ypixels = header->height;
        pixels = static_cast<long long>(xpixels) * ypixels;
        if (const double v = header->text.valueOf("PIXEL_SIZE"); !std::isnan(v))
            pixel = v / 1000.0;
        detsizeX = pixel * xpixels;
        detsizeY = pixel * ypixels;
        if (const double v = header->text.valueOf("DISTANCE"); !std::isnan(v))
            distance = v / 1000.0;
        if (const double v = header->text.valueOf("BEAM_CENTER_X"); !std::isnan(v))
            Xbeam = v / 1000.0;
        if (const double v = header->text.valueOf("BEAM_CENTER_Y"); !std::isnan(v))
            Ybeam = detsizeY - v / 1000.0;
    }
    if (pixels <= 0)
        throw Error(o.floatFile + ": no float pixels in the file");
    if (!(pixel > 0.0))
        throw Error("--noisify: -pixel must be positive");
    if (!xpixels && !ypixels) {
        out << "WARNING: guessing xy pixel dimensions.\n";
        xpixels = static_cast<int>(std::sqrt(static_cast<double>(pixels)));
        ypixels = static_cast<int>(pixels / xpixels);
        while (pixels != static_cast<long long>(xpixels) * ypixels && xpixels > 0) {
            --xpixels;
            ypixels = static_cast<int>(pixels / xpixels);
        }
    }
    if (xpixels < 0 || ypixels < 0)
        throw Error("--noisify: a negative pixel count");
    if (xpixels && !ypixels)
        ypixels = static_cast<int>(pixels / xpixels);
    if (!xpixels && ypixels)
        xpixels = static_cast<int>(pixels / ypixels);
    if (xpixels)
        detsizeX = pixel * xpixels;
    if (ypixels)
        detsizeY = pixel * ypixels;
    const long long count = static_cast<long long>(xpixels) * ypixels;
    if (count <= 0 || count > static_cast<long long>(input.size() / sizeof(float)))
        throw Error(o.floatFile + ": " + std::to_string(input.size() / sizeof(float)) +
                    " floats, fewer than the " + std::to_string(xpixels) + " x " +
                    std::to_string(ypixels) + " pixels of the image");
    const std::size_t n = static_cast<std::size_t>(count);
    std::vector<float> floats(n);
    std::memcpy(floats.data(), input.data(), n * sizeof(float));
    out << "importing " << n << " pixel intensites: " << o.floatFile << "\n";
    if (Xbeam <= -1e99)
        Xbeam = detsizeX / 2.0;
    if (Ybeam <= -1e99)
        Ybeam = detsizeY / 2.0;
    if (!o.noise)
        o.calibration = o.readout = o.flicker = 0;
    long seed = o.seed ? *o.seed : -static_cast<long>(std::time(nullptr));
    long calibSeed = o.calibSeed;

    using io::formatG;
    out << "  distance=" << formatG(distance) << " detsize=" << formatG(detsizeX) << "x"
        << formatG(detsizeY) << "  pixel=" << formatG(pixel) << " meters (" << xpixels << "x"
        << ypixels << " pixels)\n  Xbeam=" << formatG(Xbeam) << " Ybeam=" << formatG(Ybeam) << "\n";
    out << "  seed: " << seed << "\n  calibration noise seed: " << calibSeed
        << "\n  calibration_noise = " << formatG(o.calibration * 100)
        << " %\n  input file scale = " << formatG(o.photonScale)
        << "\n  readout_noise = " << formatG(o.readout)
        << " ADU\n  flicker_noise = " << formatG(o.flicker * 100)
        << " %\n  quantum_gain = " << formatG(o.gain)
        << " ADU/photon\n  adc_offset = " << formatG(o.adcOffset) << " ADU\n\n";

    // the files are created (and their names checked) before the work
    io::AtomicFile intFile(o.intFile);
    std::unique_ptr<io::AtomicFile> pgmFile, noiseFile;
    if (o.pgm)
        pgmFile = std::make_unique<io::AtomicFile>(o.pgmFile);
    if (o.noise)
        noiseFile = std::make_unique<io::AtomicFile>(o.noiseFile);
    const bool psfOn = o.psf != PsfChoice::None && o.psfFwhm > 0.0f;
    PsfSettings psf;
    psf.shape = o.psf == PsfChoice::Fiber ? PsfShape::Fiber : PsfShape::Gauss;
    psf.fwhmPixels = o.psfFwhm / pixel;
    psf.radius = o.psfRadius;

    double maxI = 0.0;
    std::vector<float> photons(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double I = floats[i];
        maxI = maxI < I ? I : maxI;
        if (I < 0.0)
            out << "WARNING: negative intensity in " << o.floatFile << ": " << formatG(I) << "\n";
        photons[i] =
            static_cast<float>((o.fluence * units::kThomsonCrossSection) * o.photonScale * I);
    }
    out << "maximum value in input file: " << formatG(maxI) << " ( "
        << formatG(maxI * o.photonScale * o.fluence * units::kThomsonCrossSection)
        << " on photon scale)\n";
    if (!o.noise && psfOn) {
        out << "  applying PSF to noiseless image width = " << formatG(psf.fwhmPixels)
            << " pixels\n";
        photons = applyPsf(photons, xpixels, ypixels, psf, out);
    }

    const std::string ownHeaderText =
        header ? std::string() : ownHeader(o, xpixels, ypixels, detsizeY, Xbeam, Ybeam);
    auto writeInts = [&](io::AtomicFile& file, const std::vector<std::uint16_t>& i16,
                         const std::vector<std::uint32_t>& i32) {
        file.write(header ? header->bytes : ownHeaderText);
        if (o.bits == 16)
            file.write(i16.data(), i16.size() * sizeof(std::uint16_t));
        else
            file.write(i32.data(), i32.size() * sizeof(std::uint32_t));
    };
    std::vector<std::uint16_t> int16(n);
    std::vector<std::uint32_t> int32(n);
    for (std::size_t i = 0; i < n; ++i) {
        double adu = photons[i] * o.gain + o.adcOffset;
        adu = std::min(adu, 65535.0); // the reference clips the noiseless 32-bit image at 65535 too
        int32[i] = narrowAdu<std::uint32_t>(adu);
        int16[i] = narrowAdu<std::uint16_t>(adu);
    }
    out << "writing " << o.intFile << " as " << n << " " << o.bits / 8 << "-byte integers\n";
    writeInts(intFile, int16, int32);
    if (pgmFile) {
        std::vector<std::uint8_t> bytes(n);
        for (std::size_t i = 0; i < n; ++i)
            bytes[i] = static_cast<std::uint8_t>(std::min<double>(int16[i], 255.0));
        out << "writing " << o.pgmFile << " as 1-byte integers\n";
        pgmFile->write("P5\n" + std::to_string(xpixels) + " " + std::to_string(ypixels) +
                       "\n# pixels scaled by 1\n255\n");
        pgmFile->write(bytes.data(), bytes.size());
    }
    if (noiseFile) {
        random::ReferenceRandom rng;
        ResponseSettings response;
        response.flicker = o.flicker;
        response.calibration = o.calibration;
        response.readout = o.readout;
        response.gain = o.gain;
        response.adcOffset = o.adcOffset;
        if (psfOn)
            response.psf = psf;
        std::ostringstream psfLog; // the reference prints the PSF's width between its lines
        const NoisyImage noisy =
            respond(photons, xpixels, ypixels, response, rng, seed, calibSeed, psfLog);
        std::string lines = psfLog.str();
        if (psfOn) {
            const std::size_t first = lines.find('\n') + 1;
            lines.insert(first, "  applying PSF width = " + formatG(o.psfFwhm * 1e6) + " um\n");
        }
        out << lines;
        out << io::formatFixed(noisy.photons, 0) << " photons on noise image ("
            << (o.bits == 16 ? noisy.overloads16 : noisy.overloads32) << " overloads)\n";
        out << "writing " << o.noiseFile << " as " << o.bits / 8 << "-byte integers\n";
        writeInts(*noiseFile, noisy.counts16, noisy.counts32);
    }
    intFile.commit();
    if (pgmFile)
        pgmFile->commit();
    if (noiseFile)
        noiseFile->commit();
    return 0;
}

} // namespace bv::detector
