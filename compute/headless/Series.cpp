#include "compute/headless/Series.h"

#include "compute/io/FileTemplate.h"
#include "compute/core/Error.h"
#include "compute/model/Units.h"

#include <filesystem>
#include <limits>
#include <optional>

namespace bv::headless {

products::OutputFiles namedOutputs(const RunRequest& cl) {
    const OutputOptions& o = cl.outputs;
    products::OutputFiles files;
    if (cl.wasGiven("-floatfile"))
        files.floatFile = o.floatFile;
    if (cl.wasGiven("-intfile"))
        files.intFile = o.intFile;
    if (cl.wasGiven("-pgmfile") && o.writePgm)
        files.pgmFile = o.pgmFile;
    if (cl.wasGiven("-noisefile") && o.writeNoise)
        files.noiseFile = o.noiseFile;
    if (o.writeCbf)
        files.cbfFile = o.cbfFile;
    if (o.writeNexus)
        files.nexusFile = o.nexusFile;
    return files;
}

std::string seriesNexusFile(const RunRequest& cl) {
    return cl.outputs.writeNexus ? cl.outputs.nexusFile : std::string();
}

std::vector<SeriesFrame> seriesFrames(const RunRequest& cl) {
    const int count = cl.series;
    if (count < 1)
        throw Error("-series: expected a number of frames, 1 or more");
    products::OutputFiles named = namedOutputs(cl);
    named.nexusFile.clear(); // the series' one file (seriesNexusFile), not a frame's
    const auto outputs = named.named();
    if (outputs.empty() && seriesNexusFile(cl).empty())
        throw Error("-series " + std::to_string(count) +
                    ": name the files to write, each with a run of # for the frame number (a "
                    "series writes only the files named), e.g. -noisefile frame_#####.img");
    std::vector<io::FileTemplate> templates;
    for (const auto& output : outputs) {
        // (named, not structured bindings: a lambda may capture those only from C++20)
        const auto& option = output.first;
        const auto& pattern = output.second;
        io::FileTemplate t = [&] {
            try {
                return io::FileTemplate(pattern);
            } catch (const Error& e) {
                throw Error(option + " " + e.what());
            }
        }();
        if (!t.hasField())
            throw Error(option + " " + pattern +
                        ": a -series writes one file per frame, so the "
                        "name needs a run of # for the frame number (e.g. frame_#####" +
                        std::filesystem::path(pattern).extension().string() + ")");
        if (!t.fits(count))
            throw Error(option + " " + pattern + ": " + std::to_string(count) + " frames need " +
                        std::to_string(std::to_string(count).size()) + " digits but the name has " +
                        std::to_string(t.width()) + " #");
        for (std::size_t k = 0; k < templates.size(); ++k)
            if (templates[k].fileName(1) == t.fileName(1))
                throw Error(outputs[k].first + " and " + option + " name the same files (" +
                            pattern + ")");
        templates.push_back(t);
    }

    // angles as given, in degrees, so that frame i is the run with "-phi <phi0 + i*osc>"
    const Crystal& crystal = cl.experiment.crystal;
    const double phiDeg = cl.phiDegrees.value_or(units::degreesFromRadians(crystal.phi0));
    const double oscDeg =
        cl.oscDegrees.value_or(units::degreesFromRadians(crystal.phi.range.value_or(0.0)));
    // the number given to -seed (the reference keeps its negative)
    const long long seed = -static_cast<long long>(cl.experiment.seed);
    if (seed + count - 1 > kMaxSeed || seed < -kMaxSeed)
        throw Error("-seed " + std::to_string(seed) + ": the series' last frame would use seed " +
                    std::to_string(seed + count - 1) + ", beyond the generator's " +
                    std::to_string(kMaxSeed));

    std::vector<SeriesFrame> frames;
    frames.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        SeriesFrame f;
        f.number = i + 1;
        f.phiDeg = phiDeg + i * oscDeg;
        f.phi0 = units::radiansFromDegrees(f.phiDeg);
        f.noiseSeed = static_cast<long>(-(seed + i));
        std::string* slots[] = {&f.files.floatFile, &f.files.intFile, &f.files.pgmFile,
                                &f.files.noiseFile, &f.files.cbfFile};
        const std::string* given[] = {&named.floatFile, &named.intFile, &named.pgmFile,
                                      &named.noiseFile, &named.cbfFile};
        for (std::size_t k = 0; k < 5; ++k)
            if (!given[k]->empty())
                *slots[k] = io::FileTemplate(*given[k]).fileName(f.number);
        frames.push_back(std::move(f));
    }
    return frames;
}

} // namespace bv::headless
