#pragma once
// nanoBragg's command line, read into an Experiment. Every option the reference accepts is
// accepted here under the spellings it effectively accepts (see Flags.h for the table),
// plus braggview's own (-precision, -device, -v, -h). Options take effect left to right, so
// a later option overrides an earlier one; -img and -mask headers are read first, so any
// option overrides what they say.
//
//     bv::cli::CommandLine cl = bv::cli::parseCommandLine({"-cell", "100", "100", "100",
//                                                           "90", "90", "90", "-default_F", "100"});
//     if (cl.help) { std::cout << bv::cli::usageText(); return 0; }
//     bv::cli::loadInputs(cl, std::cerr); // matrix, sources, structure factors
//     bv::random::ReferenceRandom rng;
//     bv::ResolvedExperiment r = bv::resolve(cl.experiment, rng, std::cout);
//
// Bad input throws bv::Error whose message names the option and what it expected.

#include "compute/core/Error.h"
#include "compute/model/Experiment.h"
#include "compute/model/Precision.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bv::cli {

// What the command line asks to be written, as the reference names and scales it.
// -noise_generator: where the Poisson deviates of the noise image, the CBF and the NeXus photon
// counts come from. Reference: nanoBragg's serial generator, continued after the mosaic
// domains (the reference's noise, draw for draw). Counter: Philox keyed by (seed, frame) and
// counted by pixel (compute/random/CounterRandom.h), the same on any device and thread count,
// drawn on the GPU where one rendered the image; not the reference's noise.
enum class NoiseGenerator { Reference, Counter };

struct OutputOptions {
    std::string floatFile = "floatimage.bin"; // raw 4-byte floats, always written
    std::string intFile = "intimage.img";     // SMV, noiseless, always written
    std::string pgmFile = "image.pgm";        // 8-bit greymap
    bool writePgm = true;                     // -nopgm turns it off, -pgmfile/-pgmscale on
    std::string noiseFile = "noiseimage.img"; // SMV with Poisson noise
    bool writeNoise = true;                   // -nonoise turns it off, -noisefile on
    // photon counts (the noise's deviates) rather than floats in the NeXus file: -nonoise
    // turns it off, -noisefile on; as writeNoise, except for a detector of panels, which
    // writes no SMV noise image but counts in its NeXus file
    bool countPhotons = true;
    double intScale = 0.0;  // -scale: photons -> int image counts; 0: automatic
    double pgmScale = 0.0;  // -pgmscale: photons -> grey levels; 0: automatic
    double adcOffset = 40.0; // -adc: added to every int and noise image pixel
    std::string cbfFile;     // -cbffile: miniCBF of the photon counts (braggview's own)
    bool writeCbf = false;   // on when -cbffile names a file
    std::string nexusFile;   // -nexusfile: NeXus/NXmx (HDF5) of a run or a whole series
    bool writeNexus = false; // on when -nexusfile names a file
    NoiseGenerator noiseGenerator = NoiseGenerator::Reference; // -noise_generator
    // whether a file of the run holds Poisson deviates (noise image, CBF, counted NeXus)
    bool drawsNoise() const { return writeNoise || writeCbf || (writeNexus && countPhotons); }
};

// -precision: single-precision shaders (fast) or double precision (precise, the default).
using bv::Precision; // compute/model/Precision.h

struct CommandLine {
    Experiment experiment;
    OutputOptions outputs;
    Precision precision = Precision::Precise;
    std::string device;   // -device: "" (automatic), a device index, or "cpu" (lavapipe)
    bool progress = true; // -progress / -noprogress
    bool verbose = false; // -v: report GPU timings
    bool help = false;    // -h, -help, --help: print usageText() and stop
    bool listDetectors = false; // -detector list: print detectorListText() and stop
    // -series N: a rotation series of N frames (0: one image, as the reference renders it);
    // see compute/headless/Series.h
    int series = 0;
    int threads = 0;      // -threads: CPU threads making a batch's files (0: the usable cores)
    bool restart = false; // -restart: a job renders every frame again, even those on disk
    std::optional<std::pair<int, int>> printoutPixel; // -printout_pixel fast slow
    // things the user should know about how the line was read (printed as WARNING lines)
    std::vector<std::string> notices;

    // input files, as named on the command line (relative to the working directory)
    std::string hkl;                    // -hkl
    std::string mat;                    // -mat
    std::string sourceFile;             // -sourcefile
    std::string dumpFile = "Fdump.bin"; // -dump: structure-factor cache
    std::string img;                    // -img: header supplies defaults
    std::string mask;                   // -mask: header supplies defaults, pixels the mask
    std::string stol;                   // -stol/-4stol/-Q: checked readable, not used
};

// The reference's usage stop: nothing to take structure factors from, or no unit cell.
// what() is the whole usage text; reason() says what was missing.
class UsageError : public Error {
public:
    UsageError(std::string reason, const std::string& usage);
    const std::string& reason() const { return m_reason; }

private:
    std::string m_reason;
};

// `args` without the program name. Reads nothing but the headers (and mask pixels) of -img
// and -mask. The run seed defaults to -time(nullptr), as the reference's.
CommandLine parseCommandLine(const std::vector<std::string>& args);
// The options of `args` applied on top of `start` (a viewer session's command line, inputs
// loaded), left to right as above: what they do not set stays as `start` has it.
CommandLine parseCommandLine(const std::vector<std::string>& args, CommandLine start);

// Reads -mat into experiment.crystal.mosflmMatrix, -sourcefile into experiment.beam.sourceFile
// and the structure factors: from -hkl (then caches them in dumpFile; a cache that cannot be
// written is a warning on `log`), else from dumpFile if it exists, else only -default_F.
// Throws UsageError, before reading anything, when there is neither -hkl, nor a dump file, nor
// a non-zero -default_F, or neither -cell nor -mat (the reference prints its usage then).
void loadInputs(CommandLine& commandLine, std::ostream& log);

// Every option with its synonyms, values, units and default, generated from the table.
std::string usageText();

// The detector presets (compute/model/DetectorPresets.h), one line each: name, maker and
// model, modules, pixels with the gaps, pixel size, size in mm.
std::string detectorListText();

// ---- inputs and outputs of a run --------------------------------------------------------

// A file a run reads or writes, and what names it: an option ("-hkl", "-floatfile"), or words
// ("the job file", "the structure-factor cache").
struct NamedFile {
    std::string role;
    std::string path;
    std::string context; // for messages, e.g. "frame 3" (may be empty)
};

// What the run reads: -hkl, -mat, -sourcefile, -stol, -img, -mask, the -detector file (not a
// preset), and the structure-factor cache (-dump, default Fdump.bin) when loadInputs will read
// it (no -hkl and the file exists).
std::vector<NamedFile> inputFiles(const CommandLine& cl);

// What a single run (not a series or job) writes: the float and int images, the PGM, noise
// and CBF images when on, and the structure-factor cache that -hkl writes (as nanoBragg
// writes its Fdump.bin) unless that file is one of the inputs (loadInputs then keeps the
// input and skips the cache, with a warning).
std::vector<NamedFile> outputFiles(const CommandLine& cl);

// The cache loadInputs writes (cl.dumpFile), or nothing: without -hkl, or when the cache
// names the same file as one of the inputs.
std::optional<NamedFile> cacheOutput(const CommandLine& cl);

// Throws bv::Error, naming both, when an output is the same file as an input or as an
// earlier output (compared by file identity, compute/io/FileIdentity.h, so "./a.img", a link
// to a.img and a.img are one file). Nothing is read or written by the check but stat().
void checkOutputFiles(const std::vector<NamedFile>& inputs, const std::vector<NamedFile>& outputs);

} // namespace bv::cli
