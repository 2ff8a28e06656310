// One run's preparation (compute/run/PreparedRun.h) against the sequence every front end wrote
// out before it: resolve(), makePlan(), Simulator::setPlan with the reference's serial loop.
// The same plan (no table differs), the same generator afterwards, the same image on the
// Vulkan driver (lavapipe here and in CI, validation on), and the viewer's preview the same as
// reduceSampling's plan. There is no skip: a machine without a Vulkan device fails here.

#include "compute/cli/CommandLine.h"
#include "compute/engine/SerialOrder.h"
#include "compute/engine/Simulator.h"
#include "compute/plan/Plan.h"
#include "compute/plan/Preview.h"
#include "compute/random/ReferenceRandom.h"
#include "compute/run/PreparedRun.h"
#include "compute/vk/Device.h"
#include "tests/TestSupport.h"

#include <QTest>

#include <algorithm>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace {

// A small crystal with what the preparation carries: a random misset and mosaic domains drawn
// from the generator, phi steps the serial loop carries over, sub-pixels a preview reduces.
const char* const kCase =
    "-cell 60 60 60 90 90 90 -N 5 -default_F 100 -lambda 1 -distance 60 -pixel 0.4 "
    "-detpixels 40 -mosaic 1 -mosaic_dom 4 -misset random -phi 0 -osc 1 -phisteps 3 "
    "-oversample 2 -seed -12345";

bv::Experiment experimentOf(const char* line) {
    return bv::cli::parseCommandLine(bv::testing::words(QString::fromLatin1(line))).experiment;
}

// the next draws of a generator, from where the run left it (the noise continues there)
std::vector<float> nextDraws(bv::random::ReferenceRandom& rng) {
    long seed = 12345;
    std::vector<float> draws;
    for (int i = 0; i < 8; ++i)
        draws.push_back(rng.uniform(seed));
    return draws;
}

// No table differs (changedParts marks the small uniform block changed always: its scalars
// are compared here).
void comparePlans(const bv::plan::Plan& got, const bv::plan::Plan& expected) {
    QCOMPARE(bv::plan::changedParts(expected, got) & ~unsigned(bv::plan::FrameChanged), 0u);
    QCOMPARE(got.fastPixels, expected.fastPixels);
    QCOMPARE(got.slowPixels, expected.slowPixels);
    QCOMPARE(got.oversample, expected.oversample);
    QVERIFY(got.pix0 == expected.pix0 && got.fdet == expected.fdet && got.sdet == expected.sdet);
    QCOMPARE(got.distance, expected.distance);
    QCOMPARE(got.phiSteps, expected.phiSteps);
    QCOMPARE(got.mosaicDomains, expected.mosaicDomains);
    QVERIFY(got.aStar == expected.aStar && got.bStar == expected.bStar &&
            got.cStar == expected.cStar);
    QCOMPARE(got.steps, expected.steps);
    QCOMPARE(got.photonScale, expected.photonScale);
    QCOMPARE(got.orientations.size(), expected.orientations.size());
    QCOMPARE(got.sources.size(), expected.sources.size());
    QVERIFY(got.structureFactors == expected.structureFactors);
}

std::vector<float> imageOf(const bv::vk::Device& device, bv::Precision precision,
                           const std::function<void(bv::engine::Simulator&)>& setPlan) {
    bv::engine::SimulatorOptions options;
    options.precision = precision;
    bv::engine::Simulator simulator(device, options);
    setPlan(simulator);
    simulator.run();
    return simulator.image();
}

bv::vk::DeviceOptions validated() {
    bv::vk::DeviceOptions options;
    options.validation = true;
    return options;
}

} // namespace

class TestPreparedRun : public QObject {
    Q_OBJECT

  private slots:
    void planAndGeneratorAsTheSequence() {
        const bv::Experiment experiment = experimentOf(kCase);
        // the sequence as the front ends wrote it out
        bv::random::ReferenceRandom oldRng;
        std::ostringstream oldLog;
        const bv::ResolvedExperiment r = bv::resolve(experiment, oldRng, oldLog);
        const bv::plan::Plan oldPlan = bv::plan::makePlan(r, experiment.mask);

        bv::random::ReferenceRandom rng;
        std::ostringstream log;
        int calls = 0;
        const bv::run::PreparedRun prepared =
            bv::run::prepare(experiment, rng, log, [&](const bv::ResolvedExperiment& resolved) {
                ++calls;
                QCOMPARE(resolved.phi.steps, r.phi.steps);
                QVERIFY(log.str() == oldLog.str()); // resolve's lines come before the step's
            });
        QCOMPARE(calls, 1);
        comparePlans(prepared.plan, oldPlan);
        QVERIFY(!QTest::currentTestFailed());
        QCOMPARE(prepared.resolved.phi.steps, 3);
        QVERIFY(log.str() == oldLog.str());
        QCOMPARE(nextDraws(rng), nextDraws(oldRng));

        // the quiet one: the same run, its generator and warnings its own
        const bv::run::PreparedRun quiet = bv::run::prepareQuietly(experiment);
        comparePlans(quiet.plan, oldPlan);
        const bv::plan::Plan fromResolved =
            bv::plan::makePlan(bv::run::resolveQuietly(experiment), experiment.mask);
        comparePlans(fromResolved, oldPlan);

        const bv::engine::ReferenceLoop loop = bv::run::referenceLoop(prepared.resolved);
        QCOMPARE(loop.phiAngles, bv::engine::phiAngles(r));
        QCOMPARE(loop.threads, bv::engine::referenceThreads());
    }

    void previewAsReduceSampling() {
        const bv::Experiment experiment = experimentOf(kCase);
        const bv::run::PreparedRun exact = bv::run::prepareQuietly(experiment);
        bv::plan::SamplingCounts light = bv::plan::samplingCounts(exact.resolved);
        QCOMPARE(light.oversample, 2);
        light.oversample = 1;
        light.domains = 2;
        const bv::ResolvedExperiment reduced = bv::plan::reduceSampling(exact.resolved, light);
        const bv::plan::Plan oldPreview = bv::plan::makePlan(reduced, experiment.mask);

        const bv::run::PreparedRun preview = bv::run::preparePreview(experiment, exact, light);
        comparePlans(preview.plan, oldPreview);
        QCOMPARE(preview.plan.oversample, 1);
        QCOMPARE(bv::run::referenceLoop(preview.resolved).phiAngles,
                 bv::engine::phiAngles(reduced));
    }

    void imageAsTheSequence_data() {
        QTest::addColumn<QString>("precision");
        QTest::newRow("fast") << "fast";
        QTest::newRow("precise") << "precise";
    }

    void imageAsTheSequence() {
        QFETCH(QString, precision);
        const bv::Precision p = *bv::precisionFromName(precision.toStdString());
        const bv::Experiment experiment = experimentOf(kCase);
        const bv::vk::Device device(validated());

        const std::vector<float> old = imageOf(device, p, [&](bv::engine::Simulator& s) {
            bv::random::ReferenceRandom rng;
            std::ostringstream log;
            const bv::ResolvedExperiment r = bv::resolve(experiment, rng, log);
            const bv::plan::Plan plan = bv::plan::makePlan(r, experiment.mask);
            s.setPlan(plan, {bv::engine::phiAngles(r), bv::engine::referenceThreads()});
        });
        const std::vector<float> prepared = imageOf(device, p, [&](bv::engine::Simulator& s) {
            bv::run::setPlan(s, bv::run::prepareQuietly(experiment));
        });
        QCOMPARE(prepared.size(), std::size_t(40 * 40));
        QVERIFY(old == prepared); // bit for bit
        float peak = 0.0f;
        for (float v : prepared)
            peak = std::max(peak, v);
        QVERIFY(peak > 0.0f); // an image with something in it
        for (const std::string& message : device.validationMessages())
            QFAIL(message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestPreparedRun)
#include "tst_preparedrun.moc"
