#include "compute/amorphous/Background.h"

#include "compute/amorphous/AmorphousGpu.h"
#include "compute/amorphous/AmorphousImage.h"
#include "compute/amorphous/Materials.h"
#include "compute/core/Error.h"
#include "compute/model/Units.h"
#include "compute/vk/Device.h"

#include <optional>

namespace bv::amorphous {

namespace {

// nonBragg's setup for one panel of the run: its detector frame, the run's beam and sources
NonBraggSetup panelSetup(const ResolvedExperiment& run, const PanelGeometry& panel,
                         const BackgroundSample& sample, const StolSpline& spline) {
    NonBraggSetup s;
    s.options.pixelSize = panel.pixelSize;
    s.options.polarization = run.kahnFactor;
    s.options.noPolar = !run.polarization;
    s.options.pointPixel = run.pointPixel;
    s.fpixels = panel.fastPixels;
    s.spixels = panel.slowPixels;
    s.roiXmin = 0;
    s.roiXmax = s.fpixels;
    s.roiYmin = 0;
    s.roiYmax = s.spixels;
    s.pix0 = panel.pix0;
    s.fdet = panel.fdet;
    s.sdet = panel.sdet;
    s.odet = panel.odet;
    s.closeDistance = panel.closeDistance();
    s.distance = s.closeDistance;
    s.beam = run.axes.beam;
    s.polar = run.axes.polarization;
    s.oversample = std::max(1, run.oversample);
    s.fluence = run.fluence;
    const double side = run.beamSize > 0.0 ? run.beamSize : 0.1e-3;
    s.molecules =
        sample.thickness * side * side * sample.density * units::kAvogadro / sample.molecularWeight;
    for (const Source& src : run.sources) {
        AmorphousSource a;
        a.position = src.direction * 10.0; // only its direction counts
        a.weight = 1.0;
        a.lambda = src.wavelength;
        s.sources.push_back(a);
    }
    s.spline = spline;
    return s;
}

} // namespace

std::vector<float> backgroundImage(const ResolvedExperiment& run, const BackgroundSample& sample,
                                   int width, int height, const vk::Device* device, bool fast) {
    if (!(sample.thickness > 0.0) || !(sample.density > 0.0) || !(sample.molecularWeight > 0.0))
        throw Error("-background: the thickness, density and molecular weight must be positive");
    if (run.curved)
        throw Error("-background is not computed for a curved detector (-curved_det)");
    const StolSpline spline(stolTable(sample.material), 1e10);
    std::vector<float> image(static_cast<std::size_t>(width) * height, 0.0f);
    // one pass for every panel; without float64 on the device, precise is the host's double loop
    std::optional<AmorphousPass> pass;
    if (device && (fast || device->float64Enabled()))
        pass.emplace(*device, fast ? AmorphousPrecision::Fast : AmorphousPrecision::Precise);
    int firstRow = 0;
    for (const PanelGeometry& panel : run.panels) {
        const NonBraggSetup s = panelSetup(run, panel, sample, spline);
        const AmorphousImage part = pass ? pass->render(s) : renderAmorphous(s);
        for (int row = 0; row < s.spixels && firstRow + row < height; ++row)
            for (int col = 0; col < s.fpixels && col < width; ++col)
                image[static_cast<std::size_t>(firstRow + row) * width + col] =
                    part.pixels[static_cast<std::size_t>(row) * s.fpixels + col];
        firstRow += s.spixels;
    }
    const Roi roi = run.roi;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            if (!roi.contains(x, y))
                image[static_cast<std::size_t>(y) * width + x] = 0.0f;
    return image;
}

void addBackground(std::vector<float>& image, const ResolvedExperiment& run,
                   const BackgroundSample& sample, int width, int height, const vk::Device* device,
                   bool fast) {
    const std::vector<float> extra = backgroundImage(run, sample, width, height, device, fast);
    for (std::size_t i = 0; i < image.size() && i < extra.size(); ++i)
        image[i] += extra[i];
}

} // namespace bv::amorphous
