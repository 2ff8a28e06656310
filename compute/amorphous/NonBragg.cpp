#include "compute/amorphous/NonBragg.h"

#include "compute/amorphous/AmorphousGpu.h"
#include "compute/amorphous/AmorphousImage.h"
#include "compute/amorphous/NonBraggSetup.h"
#include "compute/amorphous/NonBraggStol.h"
#include "compute/core/Error.h"
#include "compute/io/AtomicFile.h"
#include "compute/io/PrintfFormat.h"
#include "compute/model/Units.h"
#include "compute/random/ReferenceRandom.h"
#include "compute/vk/Device.h"

#include <chrono>

#include <cmath>
#include <cstdint>
#include <ctime>
#include <memory>
#include <optional>

namespace bv::amorphous {

namespace {

std::string g(double v) {
    return io::formatG(v);
}

// nonBragg's SMV header: its own keys (fewer than nanoBragg's), BYTE_ORDER always
// little_endian, padded with spaces to 512 bytes.
std::string smvHeader(const NonBraggSetup& s) {
    const NonBraggOptions& o = s.options;
    std::string h =
        "{\nHEADER_BYTES=512;\nDIM=2;\nBYTE_ORDER=little_endian;\nTYPE=unsigned_short;\n";
    h += "SIZE1=" + std::to_string(s.fpixels) + ";\nSIZE2=" + std::to_string(s.spixels) +
         ";\nPIXEL_SIZE=" + g(o.pixelSize * 1000.0) + ";\nDISTANCE=" + g(s.distance * 1000.0) +
         ";\n";
    h += "WAVELENGTH=" + g(o.lambda0 * 1e10) + ";\n";
    h += "BEAM_CENTER_X=" + g(s.Xbeam * 1000.0) +
         ";\nBEAM_CENTER_Y=" + g((s.detsizeY - s.Ybeam) * 1000) + ";\n";
    h += "ORGX=" + g(s.Xclose / o.pixelSize) + ";\nORGY=" + g(s.Yclose / o.pixelSize) + ";\n";
    h += "CLOSE_DISTANCE=" + g(s.closeDistance * 1000.0) + ";\n";
    h += "PHI=" + g(units::degreesFromRadians(o.phi0)) +
         ";\nOSC_START=" + g(units::degreesFromRadians(o.phi0)) +
         ";\nOSC_RANGE=" + g(units::degreesFromRadians(s.osc)) + ";\n";
    h += "TWOTHETA=" + g(units::degreesFromRadians(o.twotheta)) + ";\n";
    h += "DETECTOR_SN=000;\nBEAMLINE=fake;\n}\f";
    if (h.size() > 512)
        throw Error("--nonbragg: the SMV header does not fit in 512 bytes");
    h.resize(512, ' ');
    return h;
}

// x86's conversion of a double to a narrow unsigned integer, which the reference's casts
// rely on for negative values: truncate to int, keep the low bits
template <class T> T narrow(double v) {
    return static_cast<T>(static_cast<std::int64_t>(v));
}

bool inRoi(const NonBraggSetup& s, int f, int sl) {
    return !(f < s.roiXmin || f > s.roiXmax || sl < s.roiYmin || sl > s.roiYmax);
}

void printSetup(std::ostream& out, const NonBraggSetup& s, long seed) {
    const NonBraggOptions& o = s.options;
    out << "nonBragg amorphous material diffraction simulator (braggview --nonbragg)\n";
    for (const std::string& option : o.ignored)
        out << "WARNING: " << option << ": nonBragg does not read it (its reading is commented "
            << "out); ignored, as there\n";
    for (const std::string& note : s.notes)
        out << note << "\n";
    out << (o.pivot == NonBraggPivot::Sample ? "pivoting detector around sample\n"
                                             : "pivoting detector around direct beam spot\n");
    out << "reading " << o.stol << "\n";
    out << "  created a total of " << s.sources.size() << " sources:\n";
    for (const AmorphousSource& src : s.sources)
        out << g(src.position.x) << " " << g(src.position.y) << " " << g(src.position.z) << "   "
            << g(src.weight) << " " << g(src.lambda) << "\n";
    out << "  " << s.spline.points()
        << " initialized F points (will cubic-spline interpolate between them)\n";
    out << "  wave=" << g(o.lambda0) << " meters +/- " << g(s.dispersion * 100) << "% in "
        << s.dispsteps << " steps\n";
    if (o.noPolar)
        out << "  polarization effect disabled\n";
    else
        out << "  Kahn polarization factor: " << io::formatFixed(o.polarization, 6) << "\n";
    if (o.curved)
        out << "  curved detector: all pixels same distance from origin\n";
    if (o.pointPixel)
        out << "  pixel obliquity effect disabled\n";
    if (o.Fmap)
        out << "  Fmap mode: plotting structure factor at every pixel\n";
    out << "  incident fluence: " << g(s.fluence) << " photons/m^2\n";
    out << "  sample is " << g(s.sampleX) << " m thick x " << g(s.sampleY) << " m high x "
        << g(s.sampleZ) << " m wide, " << g(s.density / 1e6) << " g/cm^3 and "
        << g(o.molecularWeight) << " g/mol (" << g(s.molecules) << " molecules)\n";
    out << "  distance=" << g(s.distance) << " detsize=" << g(s.detsizeX) << "x" << g(s.detsizeY)
        << "  pixel=" << g(o.pixelSize) << " meters (" << s.fpixels << "x" << s.spixels
        << " pixels)\n";
    out << "  Xbeam=" << g(s.Xbeam) << " Ybeam=" << g(s.Ybeam) << "\n";
    out << "  detector origin: " << g(s.pix0.x) << " " << g(s.pix0.y) << " " << g(s.pix0.z) << "\n";
    out << "  roi: " << s.roiXmin << " < x < " << s.roiXmax << " && " << s.roiYmin << " < y < "
        << s.roiYmax << "\n";
    out << "  " << s.divsteps << " divergence steps\n  " << s.sources.size() << " sources\n  "
        << s.oversample << " pixel oversample steps\n";
    if (o.noise)
        out << "\n  noise image paramters:\n  seed: " << seed << "\n";
}

// The image where -engine says: the Vulkan device (default; -precision, -device), or the
// host's threads (bit for bit the reference's).
AmorphousImage render(const NonBraggSetup& s, std::ostream& out) {
    const NonBraggOptions& o = s.options;
    const auto start = std::chrono::steady_clock::now();
    AmorphousImage image;
    double gpuMs = -1.0;
    std::string where = "the host's threads (double)";
    if (o.engine == NonBraggOptions::Engine::Host) {
        image = renderAmorphous(s);
    } else {
        vk::DeviceOptions options;
        options.deviceOverride = o.device;
        const vk::Device device(options);
        image = renderAmorphousOnDevice(
            device, s, o.fast ? AmorphousPrecision::Fast : AmorphousPrecision::Precise, &gpuMs);
        where = device.description() + (o.fast ? " (float)" : " (double)");
    }
    if (o.verbose) {
        const double wallMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        out << "  amorphous image on " << where << ": " << g(wallMs) << " ms wall";
        if (gpuMs >= 0.0)
            out << ", " << g(gpuMs) << " ms GPU";
        out << "\n";
    }
    return image;
}

} // namespace

int runNonBragg(const std::vector<std::string>& args, std::ostream& out) {
    for (const std::string& a : args)
        if (a == "-h" || a == "-help" || a == "--help") {
            out << nonBraggUsage();
            return 0;
        }
    const NonBraggOptions options = parseNonBraggArguments(args);
    const NonBraggSetup s = setUpNonBragg(options);
    const NonBraggOptions& o = s.options;
    long seed = o.seed ? *o.seed : -static_cast<long>(std::time(nullptr));
    printSetup(out, s, seed);

    // the files are created (and their names checked) before the long computation
    io::AtomicFile floatFile(o.floatFile), intFile(o.intFile), pgmFile(o.pgmFile);
    std::unique_ptr<io::AtomicFile> noiseFile, stolFile;
    if (o.noise)
        noiseFile = std::make_unique<io::AtomicFile>(o.noiseFile);
    if (!o.imageIn.empty())
        stolFile = std::make_unique<io::AtomicFile>(o.stolOut);

    const AmorphousImage image = render(s, out);
    const std::vector<float>& f = image.pixels;
    const std::size_t pixels = f.size();
    out << "\nsolid angle subtended by detector = " << g(image.omegaSum) << " steradian ( "
        << g(100 * image.omegaSum / 4 / M_PI) << "% sphere)\n";

    // -img: the measured image's F against sin(theta)/lambda (NonBraggStol.h)
    std::optional<StolExtraction> extracted;
    if (stolFile) {
        extracted = extractStol(s);
        if (extracted->sparseBins > 0)
            out << "WARNING: " << extracted->sparseBins << " of the table's bins have 100 pixels "
                << "or fewer (of " << extracted->validPixels << " valid pixels) and are left out\n";
        stolFile->write(extracted->text);
        out << "wrote " << o.stolOut << " as " << extracted->lines << " lines of text\n";
    }

    // statistics as the reference gathers them (its rmsd loop reads each pixel's successor)
    double maxI = 0.0, sum = 0.0, sumsqr = 0.0;
    int n = 0;
    for (int sl = 0; sl < s.spixels; ++sl)
        for (int fp = 0; fp < s.fpixels; ++fp) {
            if (!inRoi(s, fp, sl))
                continue;
            const double v = f[static_cast<std::size_t>(sl) * s.fpixels + fp];
            maxI = v > maxI ? v : maxI;
            sum += v;
            sumsqr += v * v;
            ++n;
        }
    if (extracted && extracted->anyBin)
        n = extracted->lastBinPixels; // the reference's extraction reused its pixel count
    if (n <= 0)
        n = 1;
    const double avg = sum / n;
    if (n <= 1)
        n = 2;
    const double rms = std::sqrt(sumsqr / (n - 1));
    sumsqr = 0.0;
    n = 0;
    std::size_t j = 0;
    for (int sl = 0; sl < s.spixels; ++sl)
        for (int fp = 0; fp < s.fpixels; ++fp) {
            ++j;
            if (!inRoi(s, fp, sl))
                continue;
            const double test = (j < pixels ? f[j] : 0.0f) - avg;
            sumsqr += test * test;
            ++n;
        }
    if (n <= 1)
        n = 2;
    const double rmsd = std::sqrt(sumsqr / (n - 1));

    out << "writing " << o.floatFile << " as " << pixels << " 4-byte floats\n";
    floatFile.write(f.data(), pixels * sizeof(float));

    out << "max_I = " << g(maxI) << "\nmean= " << g(avg) << " rms= " << g(rms)
        << " rmsd= " << g(rmsd) << "\n";
    double intScale = o.intScale;
    if (intScale <= 0.0)
        intScale = maxI > 0.0 ? 55000.0 / maxI : 1.0;
    out << "intfile_scale = " << g(intScale) << "\n";
    std::vector<std::uint16_t> ints(pixels, 0);
    for (int sl = 0; sl < s.spixels; ++sl)
        for (int fp = 0; fp < s.fpixels; ++fp) {
            if (!inRoi(s, fp, sl))
                continue;
            const std::size_t k = static_cast<std::size_t>(sl) * s.fpixels + fp;
            double test = f[k] * intScale + o.adcOffset;
            test = std::min(65535.0, std::max(0.0, test));
            ints[k] = static_cast<std::uint16_t>(std::floor(static_cast<float>(test + 0.5)));
        }
    const std::string header = smvHeader(s);
    out << "writing " << o.intFile << " as 2-byte integers\n";
    intFile.write(header);
    intFile.write(ints.data(), pixels * sizeof(std::uint16_t));

    double pgmScale = o.pgmScale;
    if (pgmScale <= 0.0)
        pgmScale = rmsd > 0.0 ? 250.0 / (5.0 * rmsd) : intScale;
    out << "pgm_scale = " << g(pgmScale) << "\n";
    std::vector<std::uint8_t> bytes(pixels, 0);
    for (int sl = 0; sl < s.spixels; ++sl)
        for (int fp = 0; fp < s.fpixels; ++fp) {
            if (!inRoi(s, fp, sl))
                continue;
            const std::size_t k = static_cast<std::size_t>(sl) * s.fpixels + fp;
            const double test = std::min(255.0, f[k] * pgmScale);
            bytes[k] = narrow<std::uint8_t>(test);
        }
    out << "writing " << o.pgmFile << " as 1-byte integers\n";
    pgmFile.write("P5\n" + std::to_string(s.fpixels) + " " + std::to_string(s.spixels) +
                  "\n# pixels scaled by " + g(pgmScale) + "\n255\n");
    pgmFile.write(bytes.data(), bytes.size());

    if (noiseFile) {
        random::ReferenceRandom rng;
        double photons = 0.0;
        int overloads = 0;
        for (int sl = 0; sl < s.spixels; ++sl)
            for (int fp = 0; fp < s.fpixels; ++fp) {
                if (!inRoi(s, fp, sl))
                    continue;
                const std::size_t k = static_cast<std::size_t>(sl) * s.fpixels + fp;
                double test = rng.poisson(f[k], seed);
                photons += test;
                test += o.adcOffset;
                if (test > 65535.0) {
                    test = 65535.0;
                    ++overloads;
                }
                ints[k] = narrow<std::uint16_t>(test);
            }
        out << io::formatFixed(photons, 0) << " photons on noise image (" << overloads
            << " overloads)\n";
        out << "writing " << o.noiseFile << " as 2-byte integers\n";
        noiseFile->write(header);
        noiseFile->write(ints.data(), pixels * sizeof(std::uint16_t));
    }
    floatFile.commit();
    intFile.commit();
    pgmFile.commit();
    if (noiseFile)
        noiseFile->commit();
    if (stolFile)
        stolFile->commit();
    return 0;
}

} // namespace bv::amorphous
