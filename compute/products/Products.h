#pragma once
// The products step: what a simulated image turns into. From the image, the experiment it
// was computed from and the generator as resolve() left it, writeProducts() makes the files
// a run asks for (float, SMV int image, PGM, SMV noise image, miniCBF, NeXus), with their scales
// and headers, prints the reference's lines about them, and renames them into place together.
// The single headless run, each frame of a batch and each viewer export call it, which is
// why their files are the same bytes (docs/architecture.md, "The products step").
//
//     random::ReferenceRandom rng;
//     const ResolvedExperiment r = resolve(cl.experiment, rng, log);
//     std::vector<float> image = ...; // rendered by the engine
//     const products::Summary s = products::writeProducts(
//         {cl, r, image, {rng, cl.experiment.seed}, products::runStartSeconds()},
//         products::OutputFiles::ofSingleRun(cl.outputs),
//         {[&](const std::string& text) { std::cout << text; }, {}});
//     s.stats.maxI; // "max_I = ..." as printed
//
// All or nothing: each file is written beside its target and all are renamed at the end
// (io::AtomicFile), so an error on the way (a bad value, memory, a full disk) throws
// bv::Error and leaves no file of the call behind. The image and one product are held at a
// time: each product is freed once its file is staged (docs/performance.md, "Memory").

#include "compute/request/RunRequest.h"
#include "compute/io/ImageStatistics.h"
#include "compute/model/Resolve.h"
#include "compute/products/FileHeaders.h"
#include "compute/products/OutputFiles.h"
#include "compute/random/ReferenceRandom.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bv::products {

// The run's random generator where resolve() left it (the random misset and the mosaic
// domains drawn) and the reference's seed variable: the noise image continues this sequence
// as the reference's does, and the CBF counts draw the same deviates from a copy of it.
// A value: whoever resolved the run keeps it beside the image and hands it on.
struct GeneratorState {
    random::ReferenceRandom rng;
    long seed = -1; // the reference's seed variable for the noise (Experiment::seed)
};

// An image and what its files are made from.
struct ImageSource {
    // the output options (scales, ADC offset), the mask, the detector's two-theta
    const RunRequest& commandLine;
    const ResolvedExperiment& resolved;
    const std::vector<float>& image; // photons per pixel, fast index fastest
    GeneratorState generator;
    double epochSeconds = 0.0; // the CBF's time stamp (runStartSeconds(), + i exposures)
    // -noise_generator counter: the frame's index in its series or job (0 for one image; with
    // generator.seed, the generator's key), and the deviates if the GPU drew them already
    // (engine::CounterNoise, the same bits); null: counterDeviates() draws them on the CPU
    std::uint32_t frame = 0;
    const std::vector<float>* counterDeviates = nullptr;
};

// -noise_generator counter: the image's Poisson deviates, one per pixel, for the noise image,
// the CBF and the NeXus counts alike: source.counterDeviates when given, else drawn into
// `storage` on every core (random::counterPoissonImage). The result lives as long as both;
// while the noise image and the CBF are made it adds 4 bytes a pixel to what the step holds.
const std::vector<float>& counterDeviates(const ImageSource& source, std::vector<float>& storage);

// Where the step reports.
struct Hooks {
    // The reference's lines about the files, whole lines in its stdout order ("writing
    // float.bin as ...", the statistics, the scales, the noise image's photons); none: silent.
    std::function<void(const std::string& text)> print;
    // A phase of the work ended ("statistics", "write <file>", "rename"), for -v; a phase
    // runs from the last print or phase.
    std::function<void(const std::string& name)> phase;
};

// What the files hold, for a caller's own report (a batch's line per frame).
struct Summary {
    io::ImageStatistics stats;
    double intScale = 0.0; // photons -> int image counts (-scale, else automatic)
    double pgmScale = 0.0; // photons -> grey levels (-pgmscale, else automatic)
    double noisePhotons = 0.0, cbfPhotons = 0.0; // the deviates' sums, when written
    int noiseOverloads = 0, cbfOverloads = 0;    // pixels clipped, when written
};

// Makes and writes the files `files` names (in the order float, int, PGM, noise, CBF, NeXus),
// all renamed together at the end. Throws bv::Error naming the file, or for an image whose
// size is not the detector's.
Summary writeProducts(const ImageSource& source, const OutputFiles& files, const Hooks& hooks = {});

// What writeProducts() reads of a command line, and nothing more: the output options, the
// mask and the detector (its two-theta for the SMV header), without the structure-factor
// table and the source list, which may be megabytes. A frame in flight keeps this copy while
// CPU threads make its files and the next frame's command line is prepared (BatchFrames.h).
RunRequest productsCommandLine(const RunRequest& cl);

// A batch frame's part of its line: "max_I 154.652, 111988 photons on noise image (0
// overloads), 111988 photons on CBF (0 overloads)", each count only for a file written.
std::string frameSummary(const Summary& summary, const OutputFiles& files);

} // namespace bv::products
