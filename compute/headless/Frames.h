#pragma once
// What every frame of the headless mode shares, whether it is the reference's single image,
// a frame of a -series or one of a job file: the headers of its files, the GPU that renders
// it, and the files computed whole before the first one is written.

#include "compute/cli/CommandLine.h"
#include "compute/engine/Simulator.h"
#include "compute/io/CbfImage.h"
#include "compute/io/ImageStatistics.h"
#include "compute/io/NoiseImage.h"
#include "compute/io/Smv.h"
#include "compute/model/Resolve.h"
#include "compute/plan/Plan.h"
#include "compute/random/ReferenceRandom.h"

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace bv::vk {
class Device;
}

namespace bv::headless {

// The reference's SMV header (nanoBragg.c writes the same for the int and noise images).
io::SmvHeader smvHeader(const cli::CommandLine& cl, const ResolvedExperiment& r);

// A miniCBF header with the frame's geometry: pixel size, wavelength, the distance along the
// detector normal, the beam centre (where the direct beam meets the detector), the frame's
// start angle and oscillation, the exposure, flux and sensor thickness. `path` names the CIF
// block; `epochSeconds` is the frame's time stamp (runStartSeconds()).
io::CbfHeader cbfHeader(const ResolvedExperiment& r, const std::string& path, double epochSeconds);

// When the run started, in seconds since 1970: $SOURCE_DATE_EPOCH when set (reproducible
// files), else the clock. Frame i of a series is stamped with it + i exposures.
double runStartSeconds();
// "2026-01-31T12:00:00.000" (UTC), the PILATUS time stamp.
std::string isoTimestamp(double epochSeconds);

// -cbffile of a single run: the counts are drawn from a copy of the run's generator as it is
// before the noise image, with the run's seed, so the noise image keeps the reference's draws.
struct CbfOutput {
    io::CbfHeader header;
    io::CbfCounts counts;
};
CbfOutput prepareCbf(const cli::CommandLine& cl, const ResolvedExperiment& r,
                     const std::vector<float>& image, random::ReferenceRandom rng, long seed,
                     const std::string& path, double epochSeconds);
// Writes it, saying so on `out` in the words of the reference's other files.
void writeCbfOutput(std::ostream& out, const std::string& path, const CbfOutput& cbf);

// The files one frame writes; an empty name is a file not written.
struct FrameFiles {
    std::string floatFile, intFile, pgmFile, noiseFile, cbfFile;
    // the names in writing order, with the option that names each
    std::vector<std::pair<std::string, std::string>> named() const;
    bool empty() const { return named().empty(); }
    bool
    allExist() const; // every file is on disk (a frame is written file by file, each atomically)
};

// One Vulkan device and one Simulator for every frame of a run: a frame costs its uploads
// (what changed since the last frame) and its dispatches; the recorded command buffer is
// reused (engine::Simulator::recordCount()).
class FrameRenderer {
  public:
    FrameRenderer(const std::string& deviceOverride, Precision precision);
    ~FrameRenderer();
    FrameRenderer(const FrameRenderer&) = delete;
    FrameRenderer& operator=(const FrameRenderer&) = delete;

    const vk::Device& device() const { return *m_device; }
    const engine::Simulator& simulator() const { return *m_simulator; }
    // "GPU: <device>, <precision> precision" as the single run prints it
    std::string description() const;

    // Takes the plan (uploading only what changed) without rendering it.
    void setPlan(const ResolvedExperiment& r, const plan::Plan& plan);
    // setPlan, then runs the recorded commands and reads the image back.
    std::vector<float> render(const ResolvedExperiment& r, const plan::Plan& plan);

  private:
    std::unique_ptr<vk::Device> m_device;
    std::unique_ptr<engine::Simulator> m_simulator;
};

// Everything a frame writes, computed before its first file is written.
struct FrameProducts {
    std::vector<float> image;
    int width = 0, height = 0;
    io::Roi roi;
    io::ImageStatistics stats;
    double intScale = 0.0, pgmScale = 0.0;
    std::vector<std::uint16_t> intPixels;
    io::SmvHeader smv;
    io::NoiseImage noise;
    CbfOutput cbf;
};

// `rng` is the frame's generator after resolve() (the noise continues it, as the reference's
// does); `noiseSeed` the reference's seed variable for the noise (the negative of -seed).
// Only what `files` names is computed.
FrameProducts makeProducts(const cli::CommandLine& cl, const ResolvedExperiment& r,
                           std::vector<float> image, const random::ReferenceRandom& rng,
                           long noiseSeed, const FrameFiles& files, double epochSeconds);

// Writes the named files in the order float, int, pgm, noise, CBF, each atomically.
void writeProducts(const FrameProducts& products, const FrameFiles& files);

} // namespace bv::headless
