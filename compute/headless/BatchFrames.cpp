#include "compute/headless/BatchFrames.h"

#include "compute/core/Error.h"
#include "compute/headless/FrameLog.h"
#include "compute/headless/FrameWork.h"
#include "compute/headless/FrameRunner.h"
#include "compute/headless/Manifest.h"
#include "compute/headless/Progress.h"
#include "compute/headless/Ranks.h"
#include "compute/headless/Summary.h"
#include "compute/headless/Temporaries.h"
#include "compute/io/NumberText.h"
#include "compute/io/PrintfFormat.h"
#include "compute/plan/Plan.h"
#include "compute/products/FileHeaders.h"
#include "compute/products/NexusSeries.h"
#include "compute/products/Products.h"
#include "compute/run/PreparedRun.h"
#include "compute/run/RunNotices.h"
#include "compute/vk/Device.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <functional>
#include <future>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <ostream>
#include <sched.h>
#include <set>
#include <sstream>
#include <sys/types.h>
#include <thread>
#include <unistd.h>

namespace bv::headless {

namespace {

using Clock = std::chrono::steady_clock;

} // namespace

int productThreads(int requested) {
    if (requested > 0)
        return requested;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0)
        return std::max(1, CPU_COUNT(&set));
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

namespace {

constexpr int kRecordTag = 1; // a frame's record, to rank 0
constexpr int kEndTag = 2;    // a rank's last message: its recordings and pipelines

} // namespace

BatchReport runFrames(const std::vector<BatchFrame>& frames, FrameSource& source,
                      const RunSettings& settings, std::ostream& out, std::ostream& err) {
    BatchReport report;
    report.frames = static_cast<int>(frames.size());
    // under mpirun: this rank renders the frames i with i % size == rank; rank 0 prints
    const RankPlace place = rankPlaceFromEnvironment();
    std::optional<Ranks> ranks;
    if (place.size > 1)
        ranks.emplace();
    const std::size_t rank = ranks ? static_cast<std::size_t>(ranks->rank()) : 0;
    const std::size_t size = ranks ? static_cast<std::size_t>(ranks->size()) : 1;
    const bool prints = rank == 0;
    const bool terminal = err.rdbuf() == std::cerr.rdbuf() && isatty(STDERR_FILENO);
    FrameProgress progress(err, report.frames, prints && settings.progress && terminal);
    const auto started = Clock::now();
    std::unique_ptr<FrameRunners> runners;
    // every rank's frames carry rank 0's start as their time stamps' origin
    const double startSeconds =
        ranks ? ranks->broadcast(products::runStartSeconds()) : products::runStartSeconds();
    const std::string total = std::to_string(frames.size());
    // the series' NeXus file, written by rank 0: gone again unless every frame reaches it
    std::optional<products::NexusSeries> nexus;
    if (!settings.nexusFile.empty() && prints)
        nexus.emplace(settings.nexusFile);
    std::unique_ptr<FrameWork> firstFrame; // the file's geometry is the first frame's
    // Frames in flight: while a device renders frame i, the main thread prepares frame i + 1
    // and CPU threads make the files of frames before; each frame's files come from its own
    // image and generator alone, so they are the bytes the serial loop wrote, and lines, NeXus
    // frames and the report follow in frame order (docs/series.md, "Frames in flight").
    std::size_t inFlight = 1; // set with the runners: the product threads and a frame a device
    std::deque<std::future<std::unique_ptr<FrameWork>>> pending;
    int launched = 0;
    // -v: when the devices were ready and the first and last images of this process were read
    Clock::time_point devicesReady{}, firstImage = Clock::time_point::max(), lastImage{};
    std::set<std::string> noticesSaid; // run::runNotices, once each

    auto say = [&](const std::string& line) { // a line, with the bar redrawn below it after
        progress.clear();
        out << line << "\n" << std::flush;
    };
    std::function<void(const products::NexusFrame&)> appendNexus;
    if (nexus)
        appendNexus = [&](const products::NexusFrame& f) {
            nexus->append(firstFrame->source(), f);
        };
    FrameLog log(frames.size(), say, appendNexus, report, progress);
    auto mine = [&](std::size_t i) { return i % size == rank; };
    // the manifest: what a resumed job compares with, and, on the process that prints, the
    // lines of the frames finished so far (with the earlier lines of those not reached yet)
    std::map<int, ManifestEntry> earlier;
    if (!settings.manifest.empty() && settings.resume)
        if (auto read = readManifest(settings.manifest))
            for (auto& [number, entry] : *read)
                if (number >= 1 && static_cast<std::size_t>(number) <= frames.size())
                    earlier.emplace(number, std::move(entry));
    std::optional<ManifestWriter> manifest;
    if (!settings.manifest.empty() && prints) {
        manifest.emplace(settings.manifest, earlier);
        log.onFinished([&](const FrameRecord& r) {
            if (r.manifestLine.empty())
                return;
            manifest->set(frames[r.index].number, r.manifestLine);
            // a series' NeXus file is all or nothing: its frames are on disk only when it is
            // committed, and the manifest with it (a slow frame must not write it earlier)
            if (settings.nexusFile.empty())
                manifest->commitSoon();
        });
    }
    if (settings.resume) {
        std::vector<BatchFrame> own; // another rank's temporaries are its own business
        for (std::size_t i = 0; i < frames.size(); ++i)
            if (mine(i))
                own.push_back(frames[i]);
        if (const int removed = removeStaleTemporaries(own, {rank == 0 ? settings.manifest : ""}))
            out << "removed " << removed << " temporary file" << (removed == 1 ? "" : "s")
                << " of an interrupted run\n";
    }
    auto makeRunners = [&](const std::optional<run::PreparedRun>& prime) {
        runners = std::make_unique<FrameRunners>(settings.device, place, settings.precision);
        devicesReady = Clock::now();
        inFlight = static_cast<std::size_t>(productThreads(settings.threads)) + runners->size() - 1;
        for (std::size_t k = 0; k < runners->size(); ++k) {
            FrameRunner& runner = runners->at(k);
            out << "  " << runner.description() << "\n";
            if (!runner.simulator().notice().empty())
                err << "braggview: warning: " << runner.simulator().notice() << "\n";
            if (prime)
                runner.setPlan(prime->resolved, prime->plan);
        }
        if (ranks)
            out << "  " << size << " processes (mpirun): rank r renders the frames i with "
                << "i % " << size << " == r\n";
    };
    auto frameName = [&](std::size_t i) {
        return "frame " + std::to_string(frames[i].number) + "/" + total;
    };
    // a finished frame to the log, here or on rank 0
    auto record = [&](FrameRecord r) {
        if (prints) {
            log.add(std::move(r));
            while (ranks && !log.complete())
                if (auto bytes = ranks->poll(kRecordTag))
                    log.add(recordFromBytes(*bytes));
                else
                    break;
        } else {
            ranks->send(kRecordTag, toBytes(r));
        }
    };
    // the oldest frame in flight, finished: its record (a frame whose rendering or files
    // failed throws here, after the frames before it)
    auto finishOldest = [&]() {
        std::future<std::unique_ptr<FrameWork>> oldest = std::move(pending.front());
        pending.pop_front();
        std::unique_ptr<FrameWork> w = oldest.get();
        const BatchFrame& frame = frames[w->index];
        FrameRecord r;
        r.index = w->index;
        if (w->gridExit)
            r.gridExitLine = frameName(w->index) + ": " + gridExitWarning(*w->gridExit) +
                             "(tricubic interpolation off from there on; this warning is not "
                             "repeated)";
        r.timing = w->timing;
        firstImage = std::min(firstImage, w->imageAt);
        lastImage = std::max(lastImage, w->imageAt);
        r.uploadedParts = w->uploadedParts;
        r.line = frameName(w->index) + (frame.label.empty() ? "" : " (" + frame.label + ")") +
                 ": " + (w->staleReason.empty() ? "" : w->staleReason + ", rendered again: ") +
                 products::frameSummary(w->summary, frame.files);
        r.manifestLine = std::move(w->manifestLine);
        if (settings.verbose)
            r.line += ", GPU " + io::formatG(w->timing.gpuMs) + " ms";
        if (frame.files.empty() && !settings.nexusFile.empty()) {
            r.line += "; added to " + settings.nexusFile;
        } else {
            r.line += "; wrote";
            for (const auto& [option, path] : frame.files.named()) {
                r.line += " " + path;
                r.written.push_back(path);
            }
        }
        r.nexus = std::move(w->nexusFrame);
        if (w->index == 0 && nexus)
            firstFrame = std::move(w);
        record(std::move(r));
    };

    // a problem of frame i (its command line, its rendering) stops the run after the frames
    // before it, as in the serial loop: their lines come first, and when one of their files
    // failed, that earlier error is the one reported
    try {
        for (std::size_t i = 0; i < frames.size(); ++i) {
            if (!mine(i))
                continue;
            const auto frameStart = Clock::now();
            const BatchFrame& frame = frames[i];
            // a resumed job skips a frame whose manifest line and files are what it now
            // describes; the others render and say why
            std::vector<std::string> command;
            std::string stale;
            if (!settings.manifest.empty()) {
                long seed = 0;
                const RunRequest& now = source.prepare(i, seed);
                command = frameCommand(now, seed, frame.files);
            }
            if (settings.resume) {
                const auto line = earlier.find(frame.number);
                const std::optional<std::string> why = staleReason(
                    line == earlier.end() ? nullptr : &line->second, command, frame.files);
                if (!why) { // its line in frame order
                    FrameRecord r;
                    r.index = i;
                    r.skipped = true;
                    r.line = frameName(i) + ": complete on disk, skipped (" +
                             frame.files.named().front().second + ")";
                    r.manifestLine = manifestLine(line->second);
                    record(std::move(r));
                    continue;
                }
                stale = *why;
            }
            const bool first = launched == 0;
            if (first && settings.primeFrame && *settings.primeFrame != i) {
                long ignored = 0;
                const RunRequest& cl = source.prepare(*settings.primeFrame, ignored);
                makeRunners(run::prepareQuietly(cl.experiment));
            }
            long noiseSeed = 0;
            const RunRequest& cl = source.prepare(i, noiseSeed);
            // each frame's generator starts as a run of the reference does: misset, mosaic
            // domains, then the noise
            random::ReferenceRandom rng;
            std::ostringstream quiet;
            // what the frame's experiment cannot be names the frame: the frames before it are
            // written, the run stops here
            const auto named = [&](auto&& step) {
                try {
                    return step();
                } catch (const Error& e) {
                    throw Error(frameName(i) + ": " + e.what());
                }
            };
            auto w = std::make_unique<FrameWork>();
            w->index = i;
            w->number = frame.number;
            w->command = std::move(command);
            w->staleReason = std::move(stale);
            // the first frame prints the reference's warnings and summary, as a single run
            run::PreparedRun prepared = named([&] {
                return run::prepare(cl.experiment, rng, first ? out : quiet,
                                    [&](const ResolvedExperiment& r) {
                                        if (first)
                                            printSummary(out, cl, r);
                                    });
            });
            w->resolved = std::move(prepared.resolved);
            w->plan = std::move(prepared.plan);
            const ResolvedExperiment& r = w->resolved;
            if (!runners)
                makeRunners(std::nullopt);
            // a likely slip of units, a frame that will take long: said before the frame
            // renders, and again only when a frame's notice differs from the one before
            for (const std::string& notice : run::runNotices(
                     w->resolved, *w->plan, runners->at(0).device().info(), settings.precision))
                if (noticesSaid.insert(notice).second)
                    err << "braggview: warning: " << frameName(i) << ": " << notice << "\n"
                        << std::flush;
            if (first) {
                progress.startClock(); // the rate counts rendering, not the devices' creation
                progress.draw();
            }
            const double exposure = r.exposure > 0.0 ? r.exposure : 1.0;
            w->commandLine = products::productsCommandLine(cl);
            w->resolved.structureFactors = nullptr; // the source's, replaced by the next frame's
            w->generator = {rng, noiseSeed};
            w->epochSeconds = startSeconds + static_cast<double>(frame.number - 1) * exposure;
            w->nexus = !settings.nexusFile.empty();
            w->counterNoise = cl.outputs.noiseGenerator == NoiseGenerator::Counter &&
                              (!frame.files.noiseFile.empty() || !frame.files.cbfFile.empty() ||
                               ((w->nexus || !frame.files.nexusFile.empty()) &&
                                cl.outputs.countPhotons));
            w->background = cl.experiment.background;
            // -response_*: the frame's noise image is noisify's chain's, made by the products
            // step from the frame's image and noise seed, as a single run's
            if (cl.experiment.response.enabled && w->counterNoise)
                throw Error(frameName(i) + ": -response_* with -noise_generator counter: the "
                            "detector response draws from the reference generator (noisify's); "
                            "use it");
            if (!w->background.material.empty() && w->counterNoise)
                throw Error(frameName(i) + ": -background with -noise_generator counter: the "
                            "counter noise is drawn from the Bragg image on the device, before "
                            "the background is added; use the reference generator");
            ++launched;
            w->timing.prepareMs =
                std::chrono::duration<double, std::milli>(Clock::now() - frameStart).count();
            const std::size_t device = runners->acquire(); // waits while every one is busy
            auto planTaken = std::make_shared<std::promise<void>>();
            std::future<void> taken = planTaken->get_future();
            pending.push_back(
                std::async(std::launch::async,
                           [work = std::move(w), &runners = *runners, device, planTaken,
                            &files = frame.files, name = frameName(i)]() mutable {
                               runAndWrite(*work, runners, device, *planTaken, files, name);
                               return std::move(work);
                           }));
            taken.wait(); // the source may replace the plan's tables from here on
            while (pending.size() >= inFlight ||
                   (!pending.empty() &&
                    pending.front().wait_for(std::chrono::seconds(0)) == std::future_status::ready))
                finishOldest();
        }
    } catch (...) {
        std::exception_ptr failure = std::current_exception();
        try {
            while (!pending.empty())
                finishOldest();
        } catch (...) {
            failure = std::current_exception();
        }
        pending.clear(); // waits for the frames still in flight
        try { // the frames finished before the failure are in the manifest (a series'
              // NeXus file is all or nothing: none of its frames is on disk)
            if (manifest && settings.nexusFile.empty())
                manifest->commitIfChanged();
        } catch (...) {
        }
        std::rethrow_exception(failure);
    }
    while (!pending.empty())
        finishOldest();

    int recordCount = 0, pipelineCount = 0;
    if (runners)
        for (std::size_t k = 0; k < runners->size(); ++k) {
            recordCount += runners->at(k).simulator().recordCount();
            pipelineCount += runners->at(k).simulator().pipelineCount();
        }
    if (ranks && !prints) { // this rank's part is done: rank 0 prints the rest
        std::vector<char> end(2 * sizeof(int));
        std::memcpy(end.data(), &recordCount, sizeof(int));
        std::memcpy(end.data() + sizeof(int), &pipelineCount, sizeof(int));
        ranks->send(kEndTag, std::move(end));
        ranks->finishSends();
    } else if (ranks) {
        while (!log.complete())
            log.add(recordFromBytes(ranks->receive(kRecordTag)));
        for (std::size_t k = 1; k < size; ++k) {
            const std::vector<char> end = ranks->receive(kEndTag);
            int counts[2] = {0, 0};
            if (end.size() == sizeof(counts))
                std::memcpy(counts, end.data(), sizeof(counts));
            recordCount += counts[0];
            pipelineCount += counts[1];
        }
    }
    progress.finish();
    if (nexus)
        nexus->commit();
    if (manifest) // after the NeXus file: its frames are on disk only now
        manifest->commit();
    if (nexus) {
        out << "wrote " << nexus->path() << " (NeXus/NXmx, " << nexus->frames() << " frame"
            << (nexus->frames() == 1 ? "" : "s") << ")\n";
        report.writtenFiles.push_back(nexus->path());
    }

    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    report.seconds = seconds;
    out << report.frames << " frame" << (report.frames == 1 ? "" : "s") << ": " << report.rendered
        << " rendered";
    if (settings.resume)
        out << ", " << report.skipped << " complete on disk already";
    if (report.rendered > 0)
        out << ", in " << io::formatFixed(seconds, 2) << " s ("
            << io::formatFixed(report.rendered / seconds, 2) << " frames/s)";
    out << "\n";
    if (runners || recordCount > 0) {
        report.recordCount = recordCount;
        report.pipelineCount = pipelineCount;
        out << "  " << recordCount << " command buffer recording" << (recordCount == 1 ? "" : "s")
            << " and " << pipelineCount << " pipeline" << (pipelineCount == 1 ? "" : "s") << " for "
            << report.rendered << " frame" << (report.rendered == 1 ? "" : "s") << "\n";
    }
    if (settings.verbose && !report.timings.empty()) {
        out << "  " << timingLine(report.timings) << "\n";
        const auto at = [&](Clock::time_point t) {
            return io::formatFixed(std::chrono::duration<double, std::milli>(t - started).count(), 0);
        };
        if (runners && lastImage != Clock::time_point{})
            out << "  this process, ms from its start: devices ready " << at(devicesReady)
                << ", first image " << at(firstImage) << ", last image " << at(lastImage)
                << ", end " << io::formatFixed(seconds * 1e3, 0) << "\n";
    }
    if (runners) {
        // the pipeline cache's warnings, from each runner's first plan, once each
        std::set<std::string> said;
        for (std::size_t k = 0; k < runners->size(); ++k) {
            for (const std::string& warning : runners->at(k).simulator().warnings())
                if (said.insert(warning).second)
                    err << "braggview: warning: " << warning << "\n";
        }
        // the runners share one instance, and with it the validation layer's log
        for (const std::string& message : runners->at(0).device().validationMessages())
            err << "braggview: validation: " << message << "\n";
    }
    out << std::flush;
    return report;
}

} // namespace bv::headless
