#include "compute/products/Products.h"

#include "compute/core/Error.h"
#include "compute/detector_response/DetectorResponse.h"
#include "compute/io/AtomicFile.h"
#include "compute/io/CbfImage.h"
#include "compute/io/FloatImageFile.h"
#include "compute/io/IntImage.h"
#include "compute/io/NoiseImage.h"
#include "compute/io/PgmFile.h"
#include "compute/io/PrintfFormat.h"
#include "compute/io/Smv.h"
#include "compute/products/NexusSeries.h"
#include "compute/random/CounterRandom.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <sstream>

namespace bv::products {
namespace {

// The files of one call, each written to its temporary as soon as its product is made;
// commit() renames them all. Until then (and if anything throws) no target has changed.
class Staging {
  public:
    io::AtomicFile& stage(const std::string& path) {
        m_files.push_back(std::make_unique<io::AtomicFile>(path));
        return *m_files.back();
    }
    void commit() {
        for (const std::unique_ptr<io::AtomicFile>& file : m_files)
            file->commit();
    }

  private:
    std::vector<std::unique_ptr<io::AtomicFile>> m_files;
};

// The hooks, callable whether or not the caller set them.
class Report {
  public:
    explicit Report(const Hooks& hooks) : m_hooks(hooks) {}
    void print(const std::string& text) const {
        if (m_hooks.print)
            m_hooks.print(text);
    }
    void phase(const std::string& name) const {
        if (m_hooks.phase)
            m_hooks.phase(name);
    }

  private:
    const Hooks& m_hooks;
};

std::string photonsLine(double photons, int overloads, const char* on) {
    return io::formatFixed(photons, 0) + " photons on " + on + " (" + std::to_string(overloads) +
           " overloads)";
}

// -response_*: the noise image through noisify's chain (docs/detector-response.md), with a
// generator of its own seeded by the image's noise seed, as --noisify would make it from the
// float image with that -seed; the PSF's lines ("auto-selected psf_radius = ...") to `log`.
io::NoiseImage responseNoise(const ImageSource& source, int width, std::ostream& log) {
    const ResponseRequest& q = source.commandLine.experiment.response;
    detector::ResponseSettings settings;
    settings.flicker = q.flicker;
    settings.calibration = q.calibration;
    settings.readout = q.readout;
    settings.gain = q.gain;
    settings.adcOffset = source.commandLine.outputs.adcOffset;
    if (!q.psf.empty())
        settings.psf = detector::PsfSettings{
            q.psf == "fiber" ? detector::PsfShape::Fiber : detector::PsfShape::Gauss,
            q.psfFwhm / source.resolved.panels.front().pixelSize, q.psfRadius};
    random::ReferenceRandom generator;
    long seed = source.generator.seed, calibSeed = q.calibSeed;
    const int height = static_cast<int>(source.image.size() / static_cast<std::size_t>(width));
    detector::NoisyImage noisy = detector::respond(source.image, width, height, settings,
                                                   generator, seed, calibSeed, log);
    io::NoiseImage out;
    out.data = std::move(noisy.counts16);
    out.photons = noisy.photons;
    out.overloads = noisy.overloads16;
    return out;
}

} // namespace

Summary writeProducts(const ImageSource& source, const OutputFiles& files, const Hooks& hooks) {
    const RunRequest& cl = source.commandLine;
    const OutputOptions& o = cl.outputs;
    const ResolvedExperiment& r = source.resolved;
    const DetectorGeometry& d = r.detector;
    const std::vector<float>& image = source.image;
    const int width = d.fastPixels, height = d.slowPixels;
    const std::vector<std::uint16_t>& mask = cl.experiment.mask;
    if (image.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height))
        throw Error("an image of " + std::to_string(image.size()) + " pixels is not the " +
                    std::to_string(width) + "x" + std::to_string(height) + " detector's");
    // SMV and CBF headers state one flat detector: the stacked panels under one would be a
    // file that lies about its geometry (the command line refuses them first; the viewer's
    // exports meet this)
    if (r.panelsFromSource)
        for (const std::string* path : {&files.intFile, &files.noiseFile, &files.cbfFile})
            if (!path->empty())
                throw Error(*path + ": a detector of several panels cannot be written as SMV or "
                                    "CBF, whose header describes one flat detector; write it as "
                                    "NeXus/NXmx (one module per panel) or as a float image");
    const Report report(hooks);

    Summary s;
    s.stats = io::statistics(image, width, height, r.roi, mask, d.pixelSize, r.oversample);
    s.intScale = io::intImageScale(o.intScale, s.stats.maxI);
    s.pgmScale = io::pgmScale(o.pgmScale, s.intScale, s.stats.rmsd);
    const bool smv = !files.intFile.empty() || !files.noiseFile.empty();
    const io::SmvHeader header = smv ? smvHeader(cl, r) : io::SmvHeader{};
    report.phase("statistics");

    Staging staging;
    if (!files.floatFile.empty()) {
        report.print("writing " + files.floatFile + " as " + std::to_string(image.size()) + " " +
                     std::to_string(sizeof(float)) + "-byte floats\n");
        io::writeFloatImage(staging.stage(files.floatFile), image);
        report.phase("write " + files.floatFile);
    }
    // the reference prints them after its float file, whatever else it writes
    report.print(io::formatStatistics(s.stats) + "intfile_scale = " + io::formatG(s.intScale) +
                 "\n");
    if (!files.intFile.empty()) {
        report.print("writing " + files.intFile + " as " + std::to_string(sizeof(std::uint16_t)) +
                     "-byte integers\n");
        io::writeSmv(staging.stage(files.intFile), header,
                     io::intImage(image, width, height, s.intScale, o.adcOffset, r.roi));
        report.phase("write " + files.intFile);
    }
    if (!files.pgmFile.empty()) {
        report.print("pgm_scale = " + io::formatG(s.pgmScale) + "\nwriting " + files.pgmFile +
                     " as 1-byte integers\n");
        io::writePgm(staging.stage(files.pgmFile), width, height, image, s.pgmScale, r.roi);
        report.phase("write " + files.pgmFile);
    }
    // -noise_generator counter: one set of deviates for the noise image and the CBF
    const bool counter = o.noiseGenerator == NoiseGenerator::Counter;
    std::vector<float> drawn;
    if (!files.noiseFile.empty()) {
        // the run's generator continues after the mosaic domains (a copy: the CBF's counts
        // draw the same deviates)
        GeneratorState g = source.generator;
        const bool response = cl.experiment.response.enabled;
        if (response && counter)
            throw Error("-response_* with -noise_generator counter: the detector response draws "
                        "from the reference generator (noisify's); use it");
        std::ostringstream responseLog;
        const io::NoiseImage noise =
            response  ? responseNoise(source, width, responseLog)
            : counter ? io::noiseImage(counterDeviates(source, drawn), width, height, o.adcOffset,
                                       r.roi)
                      : io::noiseImage(g.rng, g.seed, image, width, height, o.adcOffset, r.roi);
        report.print(responseLog.str());
        s.noisePhotons = noise.photons;
        s.noiseOverloads = noise.overloads;
        report.print(photonsLine(noise.photons, noise.overloads, "noise image") + "\nwriting " +
                     files.noiseFile + " as " + std::to_string(sizeof(std::uint16_t)) +
                     "-byte integers\n");
        io::writeSmv(staging.stage(files.noiseFile), header, noise.data);
        report.phase("write " + files.noiseFile);
    }
    if (!files.cbfFile.empty()) {
        // -cbffile (braggview's own): the photon counts from the same point of the sequence
        GeneratorState g = source.generator;
        io::CbfHeader cbf = cbfHeader(r, files.cbfFile, source.epochSeconds);
        const io::CbfCounts counts = counter ? io::cbfCounts(counterDeviates(source, drawn), width,
                                                             height, r.roi, mask, cbf.countCutoff)
                                             : io::cbfCounts(g.rng, g.seed, image, width, height,
                                                             r.roi, mask, cbf.countCutoff);
        cbf.excludedPixels = counts.excludedPixels;
        s.cbfPhotons = counts.photons;
        s.cbfOverloads = counts.overloads;
        report.print(photonsLine(counts.photons, counts.overloads, "CBF image") + "\nwriting " +
                     files.cbfFile + " as 4-byte integers (miniCBF, byte offset)\n");
        io::writeCbf(staging.stage(files.cbfFile), cbf, counts.data);
        report.phase("write " + files.cbfFile);
    }
    std::optional<NexusSeries> nexus;
    if (!files.nexusFile.empty()) {
        // -nexusfile (braggview's own) of one image: a series' file is made by its own sink
        report.print("writing " + files.nexusFile + " as NeXus/NXmx (" +
                     (o.countPhotons ? "4-byte integer photon counts" : "4-byte floats") +
                     ", bitshuffle/LZ4)\n");
        nexus.emplace(files.nexusFile);
        nexus->append(source);
        nexus->finish();
        report.phase("write " + files.nexusFile);
    }
    staging.commit();
    if (nexus)
        nexus->commit();
    report.phase("rename");
    return s;
}

const std::vector<float>& counterDeviates(const ImageSource& source, std::vector<float>& storage) {
    if (source.counterDeviates) {
        if (source.counterDeviates->size() != source.image.size())
            throw Error("the counter noise's " + std::to_string(source.counterDeviates->size()) +
                        " deviates are not one per pixel of the image's " +
                        std::to_string(source.image.size()));
        return *source.counterDeviates;
    }
    if (storage.size() != source.image.size())
        storage = random::counterPoissonImage(
            source.image, random::counterKey(source.generator.seed, source.frame), 0);
    return storage;
}

RunRequest productsCommandLine(const RunRequest& cl) {
    RunRequest c;
    c.outputs = cl.outputs;
    c.precision = cl.precision;
    c.experiment.convention = cl.experiment.convention;
    c.experiment.customAxes = cl.experiment.customAxes;
    c.experiment.detector = cl.experiment.detector;
    c.experiment.mask = cl.experiment.mask;
    c.experiment.seed = cl.experiment.seed;
    c.experiment.response = cl.experiment.response;
    return c;
}

std::string frameSummary(const Summary& s, const OutputFiles& files) {
    std::string text = "max_I " + io::formatG(s.stats.maxI);
    if (!files.noiseFile.empty())
        text += ", " + photonsLine(s.noisePhotons, s.noiseOverloads, "noise image");
    if (!files.cbfFile.empty())
        text += ", " + photonsLine(s.cbfPhotons, s.cbfOverloads, "CBF");
    return text;
}

} // namespace bv::products
