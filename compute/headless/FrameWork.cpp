#include "compute/headless/FrameWork.h"

#include "compute/amorphous/Background.h"
#include "compute/core/Error.h"
#include "compute/headless/Manifest.h"
#include "compute/random/CounterRandom.h"

namespace bv::headless {

namespace {
using Clock = std::chrono::steady_clock;
} // namespace

// The frame on the runner it was given, then its files, renamed into place when all are
// made, and its NeXus data (appended to the file in frame order by the log). A frame's
// image depends on its plan alone, not on the runner or the frames it rendered before.
// The plan borrows the frame source's structure factors and mask, which the source's next
// frame replaces: `planTaken` is set once the runner has them (setPlan copies them to the
// device), and the main thread prepares the next frame only then.
void runAndWrite(FrameWork& w, FrameRunners& runners, std::size_t runnerIndex,
                    std::promise<void>& planTaken, const products::OutputFiles& files,
                    const std::string& name) {
    bool told = false;
    const auto tell = [&] {
        if (!told)
            planTaken.set_value();
        told = true;
    };
    try {
        FrameRunners::Lease lease(runners, runnerIndex);
        FrameRunner& runner = lease.runner();
        const auto start = Clock::now();
        runner.setPlan(w.resolved, *w.plan);
        tell();
        w.timing.planMs = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        w.image = runner.run();
        if (!w.background.material.empty()) // nonBragg's amorphous layer (docs/amorphous.md)
            amorphous::addBackground(w.image, w.resolved,
                                     {w.background.material, w.background.thickness,
                                      w.background.density, w.background.molecularWeight},
                                     w.plan->fastPixels, w.plan->slowPixels, &runner.device(),
                                     w.commandLine.precision == Precision::Fast);
        if (w.counterNoise) // from the image still on the device, keyed by seed and frame
            w.counterDeviates = runner.counterNoise(
                w.image.size(),
                random::counterKey(w.generator.seed, static_cast<std::uint32_t>(w.index)));
        w.imageAt = Clock::now();
        w.timing.renderMs = std::chrono::duration<double, std::milli>(w.imageAt - start).count();
        w.timing.gpuMs = runner.simulator().gpuMilliseconds();
        w.uploadedParts = runner.simulator().lastUploadedParts();
        if (const auto& exit = runner.simulator().gridExit())
            w.gridExit = exit->hkl;
    } catch (const Error& e) { // what the frame cannot be (too large for the device) names it
        tell();
        throw Error(name + ": " + e.what());
    } catch (...) {
        tell();
        throw;
    }
    w.plan.reset();
    const auto start = Clock::now();
    w.summary = products::writeProducts(w.source(), files);
    if (!w.command.empty()) // the digests of the files just written, read back from disk
        w.manifestLine = manifestLine(writtenEntry(w.number, std::move(w.command), files));
    if (w.nexus)
        w.nexusFrame = products::nexusFrame(w.source());
    w.timing.filesMs = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

} // namespace bv::headless
