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

#include <cerrno>
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

    for (std::size_t i = 0; i < frames.size(); ++i) {
        const BatchFrame& frame = frames[i];
        const std::string name = "frame " + std::to_string(frame.number) + "/" + total;
        if (settings.resume && frame.files.allExist()) {
            ++report.skipped;
            say(name + ": complete on disk, skipped (" + frame.files.named().front().second + ")");
            progress.skipped();
            continue;
        }
        const bool first = report.rendered == 0;
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
                throw Error(name + ": " + e.what());
            }
        };
        const ResolvedExperiment r =
            named([&] { return resolve(cl.experiment, rng, first ? out : quiet); });
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
        const std::vector<float> image = named([&] { return renderer->render(r, plan); });
        const auto filesStart = Clock::now();
        if (const auto& exit = renderer->simulator().gridExit(); exit && !warnedGridExit) {
            say(name + ": " + gridExitWarning(exit->hkl) +
                "(tricubic interpolation off from there on; this warning is not repeated)");
            warnedGridExit = true;
        }
        if (first) { // the pipeline cache's, from the first setPlan
            progress.clear();
            for (const std::string& warning : renderer->simulator().warnings())
                err << "braggview: warning: " << warning << "\n";
        }
        report.uploadedParts.push_back(renderer->simulator().lastUploadedParts());
        const double gpuMs = renderer->simulator().gpuMilliseconds();
        const double exposure = r.exposure > 0.0 ? r.exposure : 1.0;
        const products::ImageSource imageSource{
            cl, r, image, {rng, noiseSeed},
            startSeconds + static_cast<double>(frame.number - 1) * exposure};
        const products::Summary summary = products::writeProducts(imageSource, frame.files);
        if (nexus)
            nexus->append(imageSource);
        auto ms = [](Clock::duration d) {
            return std::chrono::duration<double, std::milli>(d).count();
        };
        report.timings.push_back(
            {ms(filesStart - renderStart), gpuMs, ms(Clock::now() - filesStart)});
        ++report.rendered;
        std::string line = name + (frame.label.empty() ? "" : " (" + frame.label + ")") + ": " +
                           products::frameSummary(summary, frame.files);
        if (settings.verbose)
            line += ", GPU " + io::formatG(gpuMs) + " ms";
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
    }
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
