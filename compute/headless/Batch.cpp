#include "compute/headless/Batch.h"

#include "compute/cli/BatchWords.h"
#include "compute/cli/CommandLine.h"
#include "compute/request/Inputs.h"
#include "compute/core/Error.h"
#include "compute/headless/BatchFrames.h"
#include "compute/headless/JobFiles.h"
#include "compute/headless/Manifest.h"
#include "compute/headless/Ranks.h"
#include "compute/headless/Series.h"
#include "compute/headless/Summary.h"
#include "compute/io/FileIdentity.h"
#include "compute/io/FileTemplate.h"
#include "compute/io/PrintfFormat.h"
#include "compute/model/PanelAim.h"
#include "compute/model/Resolve.h"
#include "compute/run/PreparedRun.h"

#include <map>
#include <optional>
#include <ostream>
#include <set>

namespace bv::headless {

namespace {

std::string joined(const std::vector<std::string>& tokens) {
    std::string text;
    for (const std::string& t : tokens)
        text += (text.empty() ? "" : " ") + t;
    return text;
}

// ---- -series -----------------------------------------------------------------------------

// beside the first file the series names (Manifest.h)
std::string seriesManifest(const RunRequest& cl) {
    const auto named = namedOutputs(cl).named();
    return manifestPath(named.empty() ? seriesNexusFile(cl) : named.front().second);
}

class SeriesSource : public FrameSource {
  public:
    SeriesSource(RunRequest cl, std::vector<SeriesFrame> frames)
        : m_cl(std::move(cl)), m_frames(std::move(frames)) {}
    const RunRequest& prepare(std::size_t index, long& noiseSeed) override {
        // only the spindle start changes; the misset is drawn with the series' own seed
        m_cl.experiment.crystal.phi0 = m_frames.at(index).phi0;
        noiseSeed = m_frames.at(index).noiseSeed;
        return m_cl;
    }

  private:
    RunRequest m_cl;
    std::vector<SeriesFrame> m_frames;
};

BatchReport runSeries(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    RunRequest cl = cli::parseCommandLine(args);
    if (cl.help) {
        out << cli::usageText();
        return {};
    }
    if (cl.restart)
        throw Error("-restart: only a job (--job) resumes and restarts; a -series always renders "
                    "every frame");
    std::vector<SeriesFrame> series = seriesFrames(cl);
    { // no frame's file may be an input, another frame's file or the cache -hkl writes
        std::vector<request::NamedFile> outputs;
        for (const SeriesFrame& f : series)
            for (const auto& [option, path] : f.files.named())
                outputs.push_back({option, path, "frame " + std::to_string(f.number)});
        if (const std::string nexus = seriesNexusFile(cl); !nexus.empty())
            outputs.push_back({"-nexusfile", nexus, "the series"});
        if (const auto cache = request::cacheOutput(cl))
            outputs.push_back(*cache);
        outputs.push_back({"the manifest", seriesManifest(cl), "the series"});
        request::checkOutputFiles(request::inputFiles(cl), outputs);
    }
    printBanner(out, cl);
    request::loadInputs(cl, out);

    std::vector<BatchFrame> frames;
    for (const SeriesFrame& f : series)
        frames.push_back({f.number, f.files,
                          "phi " + io::formatG(f.phiDeg) + " deg, seed " +
                              std::to_string(-static_cast<long long>(f.noiseSeed))});

    RunSettings settings;
    settings.device = cl.device;
    settings.precision = cl.precision;
    settings.progress = cl.progress;
    settings.verbose = cl.verbose;
    settings.threads = cl.threads;
    settings.nexusFile = seriesNexusFile(cl);
    settings.manifest = seriesManifest(cl);
    // a later frame whose first phi step is exactly 0 has the reference's carry-over rows
    // (SerialOrder.h) on top of its own: set its plan first so no table outgrows its buffer
    {
        const ResolvedExperiment r = run::resolveQuietly(cl.experiment);
        auto hasZeroStep = [&](double phi0) {
            for (int t = 0; t < r.phi.steps; ++t) // as ResolvedExperiment::phiAt forms it
                if (phi0 + r.phi.step * (t + r.phiSampleFraction) == 0.0)
                    return true;
            return false;
        };
        if (!hasZeroStep(series.front().phi0))
            for (std::size_t i = 1; i < series.size(); ++i)
                if (hasZeroStep(series[i].phi0)) {
                    settings.primeFrame = i;
                    break;
                }
    }
    out << "series of " << series.size() << " frames from phi "
        << io::formatG(series.front().phiDeg) << " deg in steps of "
        << io::formatG(series.size() > 1 ? series[1].phiDeg - series[0].phiDeg : 0.0) << " deg\n";
    SeriesSource source(std::move(cl), std::move(series));
    return runFrames(frames, source, settings, out, err);
}

// ---- --job -------------------------------------------------------------------------------

struct InputsKey {
    std::string hkl, mat, sourceFile, dumpFile, stol;
    double defaultF = 0.0;
    bool operator==(const InputsKey& o) const {
        return hkl == o.hkl && mat == o.mat && sourceFile == o.sourceFile &&
               dumpFile == o.dumpFile && stol == o.stol && defaultF == o.defaultF;
    }
};

InputsKey inputsKey(const RunRequest& cl) {
    return {cl.hkl,      cl.mat,  cl.sourceFile,
            cl.dumpFile, cl.stol, cl.experiment.structureFactors.defaultF};
}

// A frame's command line: its arguments alone, or on top of the job's session.
RunRequest frameCommandLine(const std::vector<std::string>& args,
                                  const RunRequest* session) {
    return session ? cli::parseCommandLine(args, *session) : cli::parseCommandLine(args);
}

// A frame on top of a session keeps the session's tables (HKL, matrix, sources, as the viewer
// has them) unless it names other inputs; -default_F changes the table only where there is
// an HKL file to fill in.
bool keepsSessionInputs(const RunRequest& frame, const RunRequest& session) {
    InputsKey a = inputsKey(frame), b = inputsKey(session);
    if (session.hkl.empty())
        a.defaultF = b.defaultF;
    return a == b;
}

class JobSource : public FrameSource {
  public:
    JobSource(const Job& job, std::vector<std::string> extra, std::vector<long> seeds,
              const RunRequest* session, std::ostream& log)
        : m_job(job), m_extra(std::move(extra)), m_seeds(std::move(seeds)), m_session(session),
          m_log(log) {}

    const RunRequest& prepare(std::size_t index, long& noiseSeed) override {
        try {
            RunRequest next = frameCommandLine(m_job.arguments(index, m_extra), m_session);
            next.experiment.seed = m_seeds.at(index);
            // the structure factors, matrix and sources of the frame before when the frame
            // names the same inputs: a long job reads its HKL file once
            if (m_session && keepsSessionInputs(next, *m_session)) {
                m_loaded = false; // the session's, copied with it: not the frame before's
            } else if (m_loaded && inputsKey(next) == m_key) {
                next.experiment.structureFactors = std::move(m_cl.experiment.structureFactors);
                next.experiment.crystal.mosflmMatrix = m_cl.experiment.crystal.mosflmMatrix;
                next.experiment.beam.sourceFile = std::move(m_cl.experiment.beam.sourceFile);
            } else {
                request::loadInputs(next, m_log);
                m_key = inputsKey(next);
                m_loaded = true;
            }
            m_cl = std::move(next);
        } catch (const request::UsageError& e) {
            throw request::UsageError(m_job.where(index) + ": " + e.reason(), cli::usageText());
        } catch (const Error& e) {
            m_loaded = false;
            throw Error(m_job.where(index) + ": " + e.what());
        }
        noiseSeed = m_cl.experiment.seed;
        return m_cl;
    }

  private:
    const Job& m_job;
    std::vector<std::string> m_extra;
    std::vector<long> m_seeds;
    const RunRequest* m_session; // the start of every frame, or none
    std::ostream& m_log;
    RunRequest m_cl;
    InputsKey m_key;
    bool m_loaded = false;
};

BatchReport runJob(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const cli::JobCommand command = cli::jobCommand(args);
    const std::string& path = command.path;
    const std::vector<std::string>& extra = command.extra;
    const Job resolvedJob = readJob(path);
    std::optional<RunRequest> session;
    if (resolvedJob.hasSession()) {
        // a header would be read under the session's values: refused rather than guessed
        const auto refuseHeaders = [](const std::vector<std::string>& tokens,
                                      const std::string& where) {
            if (const std::string* token = cli::headerOption(tokens))
                throw Error(where + ": " + *token +
                            ": a job based on a session cannot read an image header on top "
                            "of it; open the mask in the viewer and save the session again");
        };
        refuseHeaders(resolvedJob.base, path + ": base");
        refuseHeaders(extra, path);
        for (std::size_t i = 0; i < resolvedJob.frames.size(); ++i)
            refuseHeaders(resolvedJob.frames[i].overrides, resolvedJob.where(i));
        session = sessionBase(resolvedJob, out);
    }
    const RunRequest* start = session ? &*session : nullptr;

    // the base alone: its seed is the seed of frame 1
    std::vector<std::string> baseArgs = resolvedJob.base;
    baseArgs.insert(baseArgs.end(), extra.begin(), extra.end());
    RunRequest baseLine = [&] {
        try {
            return frameCommandLine(baseArgs, start);
        } catch (const Error& e) {
            throw Error(path + ": base: " + e.what());
        }
    }();
    if (baseLine.help) {
        out << cli::usageText();
        return {};
    }
    const long long baseSeed = -static_cast<long long>(baseLine.experiment.seed);

    // every frame's command line and files, checked before anything is rendered
    std::vector<BatchFrame> frames;
    std::vector<long> seeds;
    // file identity (compute/io/FileIdentity.h) -> the frame and option that write it
    std::map<std::string, std::pair<std::size_t, std::string>> owners;
    // what any frame reads, and the structure-factor caches the frames write
    std::vector<request::NamedFile> inputs = {{"job file", path, ""}};
    std::vector<request::NamedFile> caches;
    std::set<std::string> inputPaths;      // as named: each is checked once
    std::set<std::string> cacheIdentities; // frames may share one cache
    std::string manifest;
    for (std::size_t i = 0; i < resolvedJob.frames.size(); ++i) {
        const std::vector<std::string> frameArgs = resolvedJob.arguments(i, extra);
        RunRequest cl = [&] {
            try {
                return frameCommandLine(frameArgs, start);
            } catch (const Error& e) {
                throw Error(resolvedJob.where(i) + ": " + e.what());
            }
        }();
        const auto fail = [&](const std::string& message) {
            throw Error(resolvedJob.where(i) + ": " + message);
        };
        if (cl.series != 0)
            fail("-series cannot be used in a job: a job lists its frames");
        if (cl.device != baseLine.device || cl.precision != baseLine.precision)
            fail("-device and -precision are the job's, not a frame's: give them in the base or "
                 "after the job file");
        // a detector of panels that the frame's options cannot place (a beam centre, from an
        // option or an -img/-mask header, -curved_det): refused now rather than when the
        // frames before it are written (resolve() places it again for the frame)
        if (const Detector& d = cl.experiment.detector; d.panelsFromSource()) {
            try {
                (void)resolveStatedPanels(cl.experiment, cl.experiment.axes());
            } catch (const Error& e) {
                fail(e.what());
            }
        }
        const long long seed = resolvedJob.frames[i].ownSeed
                                   ? -static_cast<long long>(cl.experiment.seed)
                                   : baseSeed + static_cast<long long>(i);
        if (seed > kMaxSeed || seed < -kMaxSeed)
            fail("its seed " + std::to_string(seed) + " (the base's -seed + " + std::to_string(i) +
                 ") is beyond the generator's " + std::to_string(kMaxSeed));
        seeds.push_back(static_cast<long>(-seed));

        const products::OutputFiles named = namedOutputs(cl);
        if (named.empty())
            fail("it writes no file: name at least one of -floatfile, -intfile, -pgmfile, "
                 "-noisefile, -cbffile and -nexusfile (with a run of # for the frame number, a job "
                 "writes "
                 "only the files named)");
        BatchFrame frame;
        frame.number = static_cast<int>(i) + 1;
        std::string* slots[] = {&frame.files.floatFile, &frame.files.intFile,
                                &frame.files.pgmFile,   &frame.files.noiseFile,
                                &frame.files.cbfFile,   &frame.files.nexusFile};
        const std::string* given[] = {&named.floatFile, &named.intFile, &named.pgmFile,
                                      &named.noiseFile, &named.cbfFile, &named.nexusFile};
        const char* options[] = {"-floatfile", "-intfile", "-pgmfile",
                                 "-noisefile", "-cbffile", "-nexusfile"};
        for (std::size_t k = 0; k < 6; ++k) {
            if (given[k]->empty())
                continue;
            try {
                *slots[k] = io::FileTemplate(*given[k]).fileName(frame.number);
            } catch (const Error& e) {
                fail(std::string(options[k]) + " " + e.what());
            }
            const auto [it, inserted] =
                owners.emplace(io::fileIdentity(*slots[k]), std::make_pair(i, options[k]));
            if (!inserted)
                fail(std::string(options[k]) + " " + *slots[k] + " is also the " +
                     it->second.second + " of frame " + std::to_string(it->second.first + 1) +
                     ": give the name a run of # for the frame number (e.g. frame_####.img)");
        }
        if (i == 0) // the manifest: beside the first file of frame 1 (Manifest.h)
            manifest = manifestPath(named.named().front().second);
        frame.label = joined(resolvedJob.frames[i].overrides);
        for (request::NamedFile& input : request::inputFiles(cl))
            if (inputPaths.insert(input.path).second) {
                input.context += (input.context.empty() ? "" : ", ") + std::string("frame ") +
                                 std::to_string(frame.number);
                inputs.push_back(std::move(input));
            }
        if (auto cache = request::cacheOutput(cl))
            if (cacheIdentities.insert(io::fileIdentity(cache->path)).second) {
                cache->context += ", frame " + std::to_string(frame.number);
                caches.push_back(std::move(*cache));
            }
        frames.push_back(std::move(frame));
    }
    { // no frame may write over what any frame reads, nor over the cache -hkl writes
        std::vector<request::NamedFile> outputs;
        for (const BatchFrame& frame : frames)
            for (const auto& [option, file] : frame.files.named())
                outputs.push_back({option, file, "frame " + std::to_string(frame.number)});
        outputs.insert(outputs.end(), caches.begin(), caches.end());
        outputs.push_back({"the manifest", manifest, "the job"});
        request::checkOutputFiles(inputs, outputs);
    }

    printBanner(out, baseLine);
    out << "job " << path << ": " << frames.size() << " frame" << (frames.size() == 1 ? "" : "s")
        << "\n";
    RunSettings settings;
    settings.device = baseLine.device;
    settings.precision = baseLine.precision;
    settings.resume = !baseLine.restart;
    settings.progress = baseLine.progress;
    settings.verbose = baseLine.verbose;
    settings.threads = baseLine.threads;
    settings.manifest = manifest;
    JobSource source(resolvedJob, extra, std::move(seeds), start, out);
    return runFrames(frames, source, settings, out, err);
}

} // namespace

bool isBatch(const std::vector<std::string>& args) {
    return cli::isBatchCommand(args);
}

BatchReport runBatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    // under mpirun every rank reads the same job and would say the same: rank 0 alone prints
    // (the frames' lines of every rank reach it, BatchFrames.h)
    std::ostream silent(nullptr);
    std::ostream& said = rankPlaceFromEnvironment().rank == 0 ? out : silent;
    return cli::isJobCommand(args) ? runJob(args, said, err) : runSeries(args, said, err);
}

} // namespace bv::headless
