#pragma once
// A run request: everything a run of braggview is asked to do, whatever front end asked. The
// command line (compute/cli), a session file (compute/request/SessionFile.h) and the viewer
// each make one; headless, products, the viewer and Python take one and never look at words.
// Which options were given is part of the request (`given`), for the few places where the
// reference's behaviour depends on it (a series writes only the files named), so that no code
// after parsing scans the words again.
//
//     bv::RunRequest r = bv::cli::parseCommandLine({"-cell", "100", "100", "100", "90", "90",
//                                                   "90", "-default_F", "100"});
//     bv::request::loadInputs(r, std::cerr); // matrix, sources, structure factors
//     r.wasGiven("-floatfile");              // false: the default name is written

#include "compute/model/Experiment.h"
#include "compute/model/Precision.h"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bv::request {
struct ReadExperiment; // ExperimentFile.h
}

namespace bv {

// -noise_generator: where the Poisson deviates of the noise image, the CBF and the NeXus photon
// counts come from. Reference: nanoBragg's serial generator, continued after the mosaic
// domains (the reference's noise, draw for draw). Counter: Philox keyed by (seed, frame) and
// counted by pixel (compute/random/CounterRandom.h), the same on any device and thread count,
// drawn on the GPU where one rendered the image; not the reference's noise.
enum class NoiseGenerator { Reference, Counter };

// What the run asks to be written, as the reference names and scales it.
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
    double intScale = 0.0;   // -scale: photons -> int image counts; 0: automatic
    double pgmScale = 0.0;   // -pgmscale: photons -> grey levels; 0: automatic
    double adcOffset = 40.0; // -adc: added to every int and noise image pixel
    std::string cbfFile;     // -cbffile: miniCBF of the photon counts (braggview's own)
    bool writeCbf = false;   // on when -cbffile names a file
    std::string nexusFile;   // -nexusfile: NeXus/NXmx (HDF5) of a run or a whole series
    bool writeNexus = false; // on when -nexusfile names a file
    NoiseGenerator noiseGenerator = NoiseGenerator::Reference; // -noise_generator
    // whether a file of the run holds Poisson deviates (noise image, CBF, counted NeXus)
    bool drawsNoise() const { return writeNoise || writeCbf || (writeNexus && countPhotons); }
};

struct RunRequest {
    Experiment experiment; // with -background and -response_* (experiment.background, .response)
    OutputOptions outputs;
    Precision precision = Precision::Precise; // -precision: fast or precise (the default)
    std::string device;         // -device: "" (automatic), a device index, or "cpu" (lavapipe)
    bool progress = true;       // -progress / -noprogress
    bool verbose = false;       // -v: report GPU timings
    bool help = false;          // -h, -help, --help: print the usage text and stop
    bool listDetectors = false; // -detector list: print the detector presets and stop
    // -series N: a rotation series of N frames (0: one image, as the reference renders it);
    // see compute/headless/Series.h
    int series = 0;
    int threads = 0;      // -threads: CPU threads making a batch's files (0: the usable cores)
    bool restart = false; // -restart: a job renders every frame again, even those on disk
    std::optional<std::pair<int, int>> printoutPixel; // -printout_pixel fast slow
    // things the user should know about how the request was read (printed as WARNING lines)
    std::vector<std::string> notices;

    // input files, as named (relative to the working directory)
    std::string hkl;                    // -hkl, or the file of -mtz, -sfcif, -model
    // how the structure-factor file `hkl` is read: nanoBragg's "h k l F" text (-hkl) or, with
    // gemmi, an MTZ (-mtz), mmCIF structure factors (-sfcif) or a model (-model)
    // (compute/io/StructureFactorFiles.h; docs/structure-factors.md)
    enum class HklFormat { Text, Mtz, Cif, Model };
    HklFormat hklFormat = HklFormat::Text;
    std::string sfColumn;          // -sf_column: the column of -mtz or -sfcif ("": the first)
    double modelDminAngstrom = 0.0; // -model_dmin: 0: from the detector's farthest corner
    std::string mat;                    // -mat
    std::string sourceFile;             // -sourcefile
    std::string dumpFile = "Fdump.bin"; // -dump: structure-factor cache
    std::string img;                    // -img: header supplies defaults
    std::string mask;                   // -mask: header supplies defaults, pixels the mask
    std::string stol;                   // -stol/-4stol/-Q: checked readable, not used
    std::string experimentFile;         // -experiment: a DIALS experiment list
    int experimentId = 0;               // -experiment_id: which experiment of the list
    // -experiment's file as it was read when the option was applied, kept so that what a run
    // takes from it later (the measured image's name, the mask, the scan's first image, the
    // detector as filed) comes from that one reading; null in a request made otherwise (a
    // session's), whose file is read when asked (request::experimentRead, ExperimentFile.h)
    std::shared_ptr<const request::ReadExperiment> experimentRead;
    std::optional<long long> frame;     // -frame: DIALS's image number in its scan
    std::string measured;               // -measured: a measured image (CBF, SMV, NeXus)
    int measuredFrame = 0;              // -measured FILE N: its frame N (from 1), 0: the first
    bool compare = false;               // -compare: print the fit of the image to the measured
    std::vector<std::string> refine;    // -refine distance,beam,...: the groups to refine
    bool refineAllPixels = false;       // -refine_pixels all (else the spot regions)
    bool refineConstantBackground = false; // -refine_background constant (else local)
    std::string refinedExperiment;      // -refined_experiment: the .expt written after it
    std::string fitReport;              // -fit_report: the fit as JSON
    std::string spots;                  // -spots: DIALS's observed spots (.refl) for -compare, -refine

    // The options given, by the table's first name ("-floatfile" also for "-floatimage"):
    // those of every parse that made this request (a request parsed on top of another keeps
    // the other's). A session states values, not options: it gives none.
    std::set<std::string> given;
    // -phi and -osc as given, in degrees: a series steps frame by frame in the units the
    // words used, so that frame i is the run of "-phi <phi + i * osc>" to the last bit
    std::optional<double> phiDegrees, oscDegrees;

    // whether the option whose first name in the table is `name` was given
    bool wasGiven(std::string_view name) const { return given.count(std::string(name)) != 0; }
};

} // namespace bv
