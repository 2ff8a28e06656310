#pragma once
// ModelRenderer: one experiment rendered again and again with new parameter values on one
// Simulator, as a fit's forward model wants it (compute/refine; docs/refinement.md, "Speed").
// "Same plan, new parameters": the experiments it is given differ from the first only in what
// a fit moves (the detector's place, the crystal's orientation, cell, mosaic spread and size
// in cells); their structure factors, mask, detector size and loop counts are the first's.
// So each rendering resolves and plans the new values (microseconds for a few mosaic domains)
// and the Simulator uploads only the tables that changed (the parameter block, the panels, the
// orientations), without comparing the structure factors and the mask again; the pipeline
// and its recorded commands stay. After setPixels only the chosen pixels are rendered (the
// others masked) and read back, gathered on the device (engine::PixelGather), not the frame.
//
//     run::ModelRenderer renderer(simulator);
//     std::vector<float> whole = renderer.image(start);   // the whole image, start's own mask
//     renderer.setPixels(spotPixels);                      // fast-major indices
//     std::vector<float> v = renderer.pixels(moved);       // moved's image at spotPixels
//
// Borrows the Simulator (which must outlive it, and which it alone drives meanwhile); owns the
// mask of the chosen pixels and the gather. Not thread-safe.

#include "compute/engine/PixelGather.h"
#include "compute/engine/Simulator.h"
#include "compute/model/Experiment.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace bv::run {

// Where the renderings' time went, summed over all of them (wall ms unless named GPU).
struct RenderTimes {
    int renderings = 0;
    double resolve = 0.0;  // resolve(): the geometry, mosaic domains, ...
    double plan = 0.0;     // plan::makePlan
    double setPlan = 0.0;  // Simulator::setPlan: the diff, the uploads, a pipeline if new
    double run = 0.0;      // Simulator::run: the submissions and the wait
    double readBack = 0.0; // the image or the chosen pixels to the host
    double gpu = 0.0;      // the dispatches, from the timestamp queries (0 without them)
    double total() const { return resolve + plan + setPlan + run + readBack; }
};

class ModelRenderer {
  public:
    explicit ModelRenderer(engine::Simulator& simulator);
    ModelRenderer(const ModelRenderer&) = delete;
    ModelRenderer& operator=(const ModelRenderer&) = delete;

    // The whole image of `e` with its own mask, as run::prepare, setPlan and run make it.
    std::vector<float> image(const Experiment& e);
    // From now on pixels() renders only these pixels (fast-major indices into the image, each
    // below its pixel count) and returns their values in this order.
    void setPixels(const std::vector<std::size_t>& pixels);
    // The image of `e` at the chosen pixels (the same numbers image() has there, bit for bit:
    // a pixel's value depends on its own loop alone). `e` is the first experiment with new
    // parameter values (the class's comment): its own mask is not used.
    std::vector<float> pixels(const Experiment& e);

    // image() and pixels() in two halves, for a caller that must not block while the GPU
    // works (the viewer's Refine dock, on its window's device): start, then isFinished()
    // (engine::Simulator's: it submits the next slice) until true, then finish. One rendering
    // in flight at a time, and nothing else on the Simulator meanwhile.
    void startImage(const Experiment& e);
    void startPixels(const Experiment& e);
    bool isFinished() { return m_simulator.isFinished(); }
    std::vector<float> finish(); // the image, or the chosen pixels' values

    const RenderTimes& times() const { return m_times; }

  private:
    enum class Rendering { None, Image, Pixels };
    // resolve, plan and setPlan for the image of `e` or the chosen pixels; the run's clock
    // starts at their end
    void prepareImage(const Experiment& e);
    void preparePixels(const Experiment& e);
    void setPlanFor(const Experiment& e, const std::vector<std::uint16_t>& mask,
                    engine::Simulator::PlanInputs inputs);
    // after the run: its times, then the image or the chosen pixels read back
    std::vector<float> readBack();

    engine::Simulator& m_simulator;
    engine::PixelGather m_gather;
    std::vector<std::uint16_t> m_mask; // 1 on the chosen pixels
    std::size_t m_imagePixels = 0;
    bool m_maskUploaded = false; // the Simulator's last plan had m_mask
    Rendering m_rendering = Rendering::None;
    std::chrono::steady_clock::time_point m_runStart; // set by setPlanFor
    RenderTimes m_times;
};

} // namespace bv::run
