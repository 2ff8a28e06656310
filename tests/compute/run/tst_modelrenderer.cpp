// run::ModelRenderer, a fit's forward model (compute/run/ModelRenderer.h): after the whole
// image of the start, the chosen pixels of experiments with new parameter values, gathered on
// the device without the frame's read-back and with the Simulator told that the structure
// factors and mask are the last plan's. Each is compared, bit for bit, with what a fresh
// Simulator makes of the same experiment masked to the same pixels (run::prepare, setPlan,
// run, image), and the whole image after them with a fresh one's. On the Vulkan driver
// (lavapipe here and in CI, validation on); there is no skip.

#include "compute/cli/CommandLine.h"
#include "compute/core/Error.h"
#include "compute/engine/Simulator.h"
#include "compute/run/ModelRenderer.h"
#include "compute/run/PreparedRun.h"
#include "compute/vk/Device.h"
#include "tests/TestSupport.h"

#include <QTest>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace {

// mosaic domains and phi steps (the orientation table moves with the mosaic spread and the
// cell), a tilted detector; small enough for lavapipe
const char* const kStart =
    "-cell 60 60 60 90 90 90 -N 6 -default_F 100 -lambda 1 -distance 60 -pixel 0.4 "
    "-detpixels 48 -mosaic 0.3 -mosaic_dom 4 -misset 10 20 30 -phi 0 -osc 0.5 -phisteps 2 "
    "-detector_rotx 1";

bv::Experiment experimentOf(const std::string& line) {
    return bv::cli::parseCommandLine(bv::testing::words(QString::fromStdString(line))).experiment;
}

bv::vk::DeviceOptions validated() {
    bv::vk::DeviceOptions options;
    options.validation = true;
    return options;
}

// the image a fresh Simulator makes of `e` with its own mask
std::vector<float> freshImage(const bv::vk::Device& device, const bv::Experiment& e) {
    bv::engine::SimulatorOptions options;
    options.precision = bv::Precision::Fast;
    bv::engine::Simulator simulator(device, options);
    const bv::run::PreparedRun prepared = bv::run::prepareQuietly(e);
    bv::run::setPlan(simulator, prepared);
    simulator.run();
    return simulator.image();
}

bool sameBits(float a, float b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

} // namespace

class TestModelRenderer : public QObject {
    Q_OBJECT
  private slots:
    void chosenPixelsAsAFreshMaskedImage() {
        const bv::vk::Device device(validated());
        bv::engine::SimulatorOptions options;
        options.precision = bv::Precision::Fast;
        bv::engine::Simulator simulator(device, options);
        bv::run::ModelRenderer renderer(simulator);

        const bv::Experiment start = experimentOf(kStart);
        const std::vector<float> whole = renderer.image(start);
        QCOMPARE(whole, freshImage(device, start));

        // the brighter pixels and a few dark ones, as a fit's spot regions would be
        const float brightest = *std::max_element(whole.begin(), whole.end());
        std::vector<std::size_t> chosen;
        for (std::size_t i = 0; i < whole.size(); ++i)
            if (whole[i] > 1e-3f * brightest || i % 97 == 0)
                chosen.push_back(i);
        QVERIFY(chosen.size() > 50 && chosen.size() < whole.size());
        renderer.setPixels(chosen);
        std::vector<std::uint16_t> mask(whole.size(), 0);
        for (std::size_t i : chosen)
            mask[i] = 1;

        // the detector moved, then the crystal (cell, mosaic spread, size): the second and
        // third take the mask and structure factors as the last plan's without looking
        const std::string moves[] = {" -distance 60.3",
                                     " -distance 60.3 -cell 60.1 60.1 60.1 90 90 90",
                                     " -cell 59.9 59.9 59.9 90 90 90 -mosaic 0.4 -N 7"};
        for (const std::string& move : moves) {
            const bv::Experiment moved = experimentOf(std::string(kStart) + move);
            const std::vector<float> values = renderer.pixels(moved);
            bv::Experiment masked = moved;
            masked.mask = mask;
            const std::vector<float> expected = freshImage(device, masked);
            QCOMPARE(values.size(), chosen.size());
            int differ = 0;
            for (std::size_t r = 0; r < chosen.size(); ++r)
                differ += sameBits(values[r], expected[chosen[r]]) ? 0 : 1;
            QCOMPARE(differ, 0);
            // the move changed the image (else the comparison shows nothing)
            bool changed = false;
            for (std::size_t r = 0; r < chosen.size(); ++r)
                changed = changed || values[r] != whole[chosen[r]];
            QVERIFY(changed);
        }

        // the whole image again afterwards: read back, with the experiment's own mask
        const bv::Experiment last = experimentOf(std::string(kStart) + " -distance 59.8");
        QCOMPARE(renderer.image(last), freshImage(device, last));
        QCOMPARE(renderer.times().renderings, 5);
        QVERIFY(renderer.times().total() > 0.0);
    }

    // In halves, as the viewer's Refine dock drives it from a timer: start, poll, finish give
    // what the blocking calls give, image and pixels alike.
    void inHalvesAsTheBlockingCalls() {
        const bv::vk::Device device(validated());
        bv::engine::SimulatorOptions options;
        options.precision = bv::Precision::Fast;
        bv::engine::Simulator simulator(device, options);
        bv::run::ModelRenderer halves(simulator);
        bv::engine::Simulator other(device, options);
        bv::run::ModelRenderer blocking(other);
        const auto finished = [](bv::run::ModelRenderer& r) {
            while (!r.isFinished()) {
            }
            return r.finish();
        };

        const bv::Experiment start = experimentOf(kStart);
        halves.startImage(start);
        const std::vector<float> whole = finished(halves);
        QCOMPARE(whole, blocking.image(start));
        std::vector<std::size_t> chosen;
        for (std::size_t i = 0; i < whole.size(); i += 7)
            chosen.push_back(i);
        halves.setPixels(chosen);
        blocking.setPixels(chosen);
        for (const char* move : {" -distance 60.3", " -distance 60.3 -mosaic 0.4"}) {
            const bv::Experiment moved = experimentOf(std::string(kStart) + move);
            halves.startPixels(moved);
            QCOMPARE(finished(halves), blocking.pixels(moved));
        }
        QCOMPARE(halves.times().renderings, 3);
        QVERIFY_THROWS_EXCEPTION(bv::Error, halves.finish()); // nothing started
    }

    void pixelsBeforeTheyAreChosenRefused() {
        const bv::vk::Device device(validated());
        bv::engine::Simulator simulator(device);
        bv::run::ModelRenderer renderer(simulator);
        QVERIFY_THROWS_EXCEPTION(bv::Error, renderer.setPixels({1, 2, 3}));
        QVERIFY_THROWS_EXCEPTION(bv::Error, renderer.pixels(experimentOf(kStart)));
    }
};

QTEST_GUILESS_MAIN(TestModelRenderer)
#include "tst_modelrenderer.moc"
