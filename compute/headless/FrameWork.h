#pragma once
// A frame of a batch in flight (compute/headless/BatchFrames.cpp's runFrames): what it owns
// while a device renders it and a thread writes its files, and that thread's work.

#include "compute/headless/BatchFrames.h"
#include "compute/headless/FrameRunner.h"
#include "compute/model/Resolve.h"
#include "compute/plan/Plan.h"
#include "compute/products/NexusSeries.h"
#include "compute/products/Products.h"
#include "compute/request/RunRequest.h"

#include <glm/vec3.hpp>

#include <chrono>
#include <future>
#include <optional>
#include <string>
#include <vector>

namespace bv::headless {

// A frame in flight: its plan, then its image, then its files, made on a thread of its own
// while the main thread prepares the frames after it. It owns all it needs (the products'
// part of its command line, its resolved experiment, its plan, its image and its
// generator), because the frame source prepares the next frame's command line in the same
// object.
struct FrameWork {
    std::size_t index = 0;
    RunRequest commandLine; // products::productsCommandLine
    ResolvedExperiment resolved;
    std::optional<plan::Plan> plan; // dropped once rendered
    std::vector<float> image;
    bool counterNoise = false;          // -noise_generator counter, for a file of this frame
    BackgroundRequest background;       // -background: added to the image before its files
    std::vector<float> counterDeviates; // drawn on the frame's device from its image
    products::GeneratorState generator;
    double epochSeconds = 0.0;
    std::optional<glm::dvec3> gridExit; // where interpolation left the HKL grid
    BatchReport::FrameTiming timing;
    std::chrono::steady_clock::time_point imageAt; // when its image was read back
    unsigned uploadedParts = 0;
    bool nexus = false; // make the frame's NeXus data too
    int number = 0;                   // the frame's number (its files' #)
    std::vector<std::string> command; // its manifest line's command; empty: no manifest
    std::string staleReason;          // why a resumed job renders it again, or ""
    // made on the frame's thread
    std::string manifestLine;
    products::Summary summary;
    std::optional<products::NexusFrame> nexusFrame;

    products::ImageSource source() const {
        products::ImageSource s{commandLine, resolved, image, generator, epochSeconds};
        s.frame = static_cast<std::uint32_t>(index); // the counter noise's key
        s.counterDeviates = counterDeviates.empty() ? nullptr : &counterDeviates;
        return s;
    }
};

// The frame on the runner it was given, then its files, renamed into place when all are
// made, and its NeXus data (appended to the file in frame order by the log). A frame's
// image depends on its plan alone, not on the runner or the frames it rendered before.
// The plan borrows the frame source's structure factors and mask, which the source's next
// frame replaces: `planTaken` is set once the runner has them (setPlan copies them to the
// device), and the main thread prepares the next frame only then.
void runAndWrite(FrameWork& w, FrameRunners& runners, std::size_t runnerIndex,
                    std::promise<void>& planTaken, const products::OutputFiles& files,
                    const std::string& name);

} // namespace bv::headless
