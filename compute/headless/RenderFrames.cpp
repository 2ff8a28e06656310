#include "compute/headless/RenderFrames.h"

#include "compute/core/Error.h"
#include "compute/headless/FrameRenderer.h"
#include "compute/headless/Progress.h"
#include "compute/headless/Summary.h"
#include "compute/io/NumberText.h"
#include "compute/io/PrintfFormat.h"
#include "compute/plan/Plan.h"
#include "compute/products/FileHeaders.h"
#include "compute/products/NexusSeries.h"
#include "compute/products/Products.h"
#include "compute/vk/Device.h"

#include <algorithm>
#include <cerrno>
#include <deque>
#include <exception>
#include <future>
#include <sched.h>
#include <thread>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <sstream>
#include <sys/types.h>
#include <unistd.h>

namespace bv::headless {

namespace {

using Clock = std::chrono::steady_clock;

// Temporaries that a killed run left beside the frames' files (AtomicFile names them
// ".<name>.tmp-<pid>-..."): removed when their process is gone, so that a resumed job leaves
// a clean directory. They never count as complete frames either way.
int removeStaleTemporaries(const std::vector<BatchFrame>& frames) {
    namespace fs = std::filesystem;
    std::map<std::string, std::set<std::string>> names; // directory -> the frames' file names
    for (const BatchFrame& frame : frames)
        for (const auto& [option, path] : frame.files.named()) {
            const fs::path p(path);
            names[p.has_parent_path() ? p.parent_path().string() : "."].insert(
                p.filename().string());
        }
    int removed = 0;
    for (const auto& [dir, files] : names) {
        std::error_code ec;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string n = it->path().filename().string();
            const std::size_t tmp = n.find(".tmp-");
            if (n.empty() || n[0] != '.' || tmp == std::string::npos || tmp < 2 ||
                !files.count(n.substr(1, tmp - 1)))
                continue;
            const std::size_t start = tmp + 5, stop = n.find('-', start);
            const auto pid = stop == std::string::npos
                                 ? std::nullopt
                                 : io::parseInteger(n.substr(start, stop - start));
            if (!pid || *pid <= 0 || *pid > std::numeric_limits<pid_t>::max())
                continue;
            if (::kill(static_cast<pid_t>(*pid), 0) == 0 || errno != ESRCH)
                continue; // its writer may still be at work
            std::error_code ignored;
            if (fs::remove(it->path(), ignored))
                ++removed;
        }
    }
    return removed;
}

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

// A frame in flight: rendered, its files being made on a CPU thread while the GPU renders the
// frames after it. It owns all it needs (the products' part of its command line, its
// resolved experiment, its image and its generator), because the frame source prepares the
// next frame's command line in the same object.
struct FrameWork {
    std::size_t index = 0;
    cli::CommandLine commandLine; // products::productsCommandLine
    ResolvedExperiment resolved;
    std::vector<float> image;
    std::vector<float> counterDeviates; // -noise_generator counter, drawn on the device
    products::GeneratorState generator;
    double epochSeconds = 0.0;
    std::string gridExitLine; // the reference's warning, printed in frame order
    BatchReport::FrameTiming timing;
    unsigned uploadedParts = 0;
    bool nexus = false; // make the frame's NeXus data too
    // made on the CPU thread
    products::Summary summary;
    std::optional<products::NexusFrame> nexusFrame;

    products::ImageSource source() const {
        products::ImageSource s{commandLine, resolved, image, generator, epochSeconds};
        s.frame = static_cast<std::uint32_t>(index); // the counter noise's key
        s.counterDeviates = counterDeviates.empty() ? nullptr : &counterDeviates;
        return s;
    }
};

// The products step of one frame, on a CPU thread: the frame's files, renamed into place
// when all are made, and its NeXus data (appended to the file in frame order by the caller).
void makeFiles(FrameWork& w, const products::OutputFiles& files) {
    const auto start = Clock::now();
    w.summary = products::writeProducts(w.source(), files);
    if (w.nexus)
        w.nexusFrame = products::nexusFrame(w.source());
    w.timing.filesMs = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

} // namespace

BatchReport renderFrames(const std::vector<BatchFrame>& frames, FrameSource& source,
                         const RunSettings& settings, std::ostream& out, std::ostream& err) {
    BatchReport report;
    report.frames = static_cast<int>(frames.size());
    const bool terminal = err.rdbuf() == std::cerr.rdbuf() && isatty(STDERR_FILENO);
    FrameProgress progress(err, report.frames, settings.progress && terminal);
    std::unique_ptr<FrameRenderer> renderer;
    const double startSeconds = products::runStartSeconds();
    const auto started = Clock::now();
    const std::string total = std::to_string(frames.size());
    bool warnedGridExit = false; // the reference's interpolation warning, once per run
    // the series' NeXus file: gone again unless every frame reaches it
    std::optional<products::NexusSeries> nexus;
    if (!settings.nexusFile.empty())
        nexus.emplace(settings.nexusFile);
    // Frames in flight: the GPU renders frame i + 1 while CPU threads make the files of frames
    // i, i - 1, ...; each frame's files come from its own image and generator alone, so they
    // are the bytes the serial loop wrote, and lines, NeXus frames and the report follow in
    // frame order (docs/series.md, "Frames in flight").
    const std::size_t inFlight = static_cast<std::size_t>(productThreads(settings.threads));
    std::deque<std::future<std::unique_ptr<FrameWork>>> pending;
    int launched = 0;

    auto say = [&](const std::string& line) { // a line, with the bar redrawn below it after
        progress.clear();
        out << line << "\n" << std::flush;
    };
    if (settings.resume)
        if (const int removed = removeStaleTemporaries(frames))
            out << "removed " << removed << " temporary file" << (removed == 1 ? "" : "s")
                << " of an interrupted run\n";
    auto makeRenderer = [&]() {
        renderer = std::make_unique<FrameRenderer>(settings.device, settings.precision);
        out << "  " << renderer->description() << "\n";
        if (!renderer->simulator().notice().empty())
            err << "braggview: warning: " << renderer->simulator().notice() << "\n";
    };
    auto frameName = [&](const BatchFrame& frame) {
        return "frame " + std::to_string(frame.number) + "/" + total;
    };
    // the oldest frame in flight, finished: its line, its NeXus frame, its report (a frame
    // whose files failed throws here, after the lines of the frames before it)
    auto finishOldest = [&]() {
        std::future<std::unique_ptr<FrameWork>> oldest = std::move(pending.front());
        pending.pop_front();
        const std::unique_ptr<FrameWork> w = oldest.get();
        const BatchFrame& frame = frames[w->index];
        if (!w->gridExitLine.empty())
            say(frameName(frame) + ": " + w->gridExitLine);
        if (nexus)
            nexus->append(w->source(), *w->nexusFrame);
        report.uploadedParts.push_back(w->uploadedParts);
        report.timings.push_back(w->timing);
        ++report.rendered;
        std::string line = frameName(frame) + (frame.label.empty() ? "" : " (" + frame.label + ")") +
                           ": " + products::frameSummary(w->summary, frame.files);
        if (settings.verbose)
            line += ", GPU " + io::formatG(w->timing.gpuMs) + " ms";
        if (frame.files.empty() && nexus) {
            line += "; added to " + nexus->path();
        } else {
            line += "; wrote";
            for (const auto& [option, path] : frame.files.named()) {
                line += " " + path;
                report.writtenFiles.push_back(path);
            }
        }
        say(line);
        progress.done();
    };

    // a problem of frame i (its command line, its rendering) stops the run after the frames
    // before it, as in the serial loop: their lines come first, and when one of their files
    // failed, that earlier error is the one reported
    try {
    for (std::size_t i = 0; i < frames.size(); ++i) {
        const BatchFrame& frame = frames[i];
        if (settings.resume && frame.files.allExist()) {
            while (!pending.empty()) // its line after those of the frames before it
                finishOldest();
            ++report.skipped;
            say(frameName(frame) + ": complete on disk, skipped (" +
                frame.files.named().front().second + ")");
            progress.skipped();
            continue;
        }
        const bool first = launched == 0;
        if (first && settings.primeFrame && *settings.primeFrame != i) {
            long ignored = 0;
            const cli::CommandLine& cl = source.prepare(*settings.primeFrame, ignored);
            random::ReferenceRandom rng;
            std::ostringstream quiet;
            const ResolvedExperiment r = resolve(cl.experiment, rng, quiet);
            makeRenderer();
            renderer->setPlan(r, plan::makePlan(r, cl.experiment.mask));
        }
        long noiseSeed = 0;
        const cli::CommandLine& cl = source.prepare(i, noiseSeed);
        // each frame's generator starts as a run of the reference does: misset, mosaic
        // domains, then the noise
        random::ReferenceRandom rng;
        std::ostringstream quiet;
        // what the frame's experiment cannot be (a detector too large for the device, say)
        // names the frame: the frames before it are written, the run stops here
        const auto named = [&](auto&& step) {
            try {
                return step();
            } catch (const Error& e) {
                throw Error(frameName(frame) + ": " + e.what());
            }
        };
        auto w = std::make_unique<FrameWork>();
        w->index = i;
        w->resolved = named([&] { return resolve(cl.experiment, rng, first ? out : quiet); });
        const ResolvedExperiment& r = w->resolved;
        if (first)
            printSummary(out, cl, r);
        const plan::Plan plan = named([&] { return plan::makePlan(r, cl.experiment.mask); });
        if (!renderer)
            makeRenderer();
        if (first) {
            progress.startClock(); // the rate counts rendering, not the device's creation
            progress.draw();
        }
        const auto renderStart = Clock::now();
        w->image = named([&] { return renderer->render(r, plan); });
        w->timing.renderMs =
            std::chrono::duration<double, std::milli>(Clock::now() - renderStart).count();
        if (cl.outputs.noiseGenerator == cli::NoiseGenerator::Counter &&
            (!frame.files.noiseFile.empty() || !frame.files.cbfFile.empty() ||
             (nexus && cl.outputs.countPhotons)))
            w->counterDeviates = named([&] {
                return renderer->counterNoise(
                    w->image.size(), random::counterKey(noiseSeed, static_cast<std::uint32_t>(i)));
            });
        w->timing.gpuMs = renderer->simulator().gpuMilliseconds();
        w->uploadedParts = renderer->simulator().lastUploadedParts();
        if (const auto& exit = renderer->simulator().gridExit(); exit && !warnedGridExit) {
            w->gridExitLine = gridExitWarning(exit->hkl) +
                              "(tricubic interpolation off from there on; this warning is not "
                              "repeated)";
            warnedGridExit = true;
        }
        if (first) { // the pipeline cache's, from the first setPlan
            progress.clear();
            for (const std::string& warning : renderer->simulator().warnings())
                err << "braggview: warning: " << warning << "\n";
        }
        const double exposure = r.exposure > 0.0 ? r.exposure : 1.0;
        w->commandLine = products::productsCommandLine(cl);
        w->resolved.structureFactors = nullptr; // the source's, replaced by the next frame's
        w->generator = {rng, noiseSeed};
        w->epochSeconds = startSeconds + static_cast<double>(frame.number - 1) * exposure;
        w->nexus = nexus.has_value();
        ++launched;
        pending.push_back(std::async(std::launch::async,
                                     [work = std::move(w), &files = frame.files]() mutable {
                                         makeFiles(*work, files);
                                         return std::move(work);
                                     }));
        while (pending.size() >= inFlight ||
               (!pending.empty() && pending.front().wait_for(std::chrono::seconds(0)) ==
                                        std::future_status::ready))
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
        std::rethrow_exception(failure);
    }
    while (!pending.empty())
        finishOldest();
    progress.finish();
    if (nexus) {
        nexus->commit();
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
    if (renderer) {
        report.recordCount = renderer->simulator().recordCount();
        report.pipelineCount = renderer->simulator().pipelineCount();
        out << "  " << report.recordCount << " command buffer recording"
            << (report.recordCount == 1 ? "" : "s") << " and " << report.pipelineCount
            << " pipeline" << (report.pipelineCount == 1 ? "" : "s") << " for " << report.rendered
            << " frame" << (report.rendered == 1 ? "" : "s") << "\n";
        for (const std::string& message : renderer->device().validationMessages())
            err << "braggview: validation: " << message << "\n";
    }
    out << std::flush;
    return report;
}

} // namespace bv::headless
