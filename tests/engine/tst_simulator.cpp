// The Simulator on a real Vulkan driver (lavapipe here and in CI) with the validation layer
// on: its images against a plain CPU computation of the same pixels (ReferencePixel.h) for
// every shader variant, in both precisions; slicing that changes nothing; a command buffer
// recorded once per detector size and variant; uploads limited to what changed; the float64
// fallback; the pipeline cache on disk; progress and timestamps. There is no skip: a machine
// without a Vulkan device fails here.

#include "compute/core/Error.h"
#include "compute/engine/DiffractionShaders.h"
#include "compute/engine/SerialOrder.h"
#include "compute/engine/Simulator.h"
#include "compute/model/Units.h"
#include "compute/random/ReferenceRandom.h"
#include "compute/vk/Device.h"
#include "tests/engine/ReferencePixel.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <sstream>
#include <thread>

using bv::engine::Precision;
using bv::engine::Simulator;
using bv::engine::SimulatorOptions;
using bv::units::radiansFromDegrees;

namespace {

// A small cubic crystal on a 48x48 detector close enough for several orders of spots.
bv::Experiment cubic() {
    bv::Experiment e;
    e.crystal.cell = bv::UnitCell{60, 60, 60, 0, 0, 0};
    e.crystal.cells = {5, 5, 5};
    e.beam.wavelength = 1e-10;
    e.detector.pixelSize = 0.4e-3;
    e.detector.distance = 60e-3;
    e.detector.setPixels(48, 48);
    e.sampling.oversample = 1;
    e.structureFactors.defaultF = 100;
    return e;
}

// F(hkl) on -8..8, values that vary from node to node
bv::StructureFactors table() {
    bv::StructureFactors sf;
    sf.hMin = sf.kMin = sf.lMin = -8;
    sf.hMax = sf.kMax = sf.lMax = 8;
    for (int h = -8; h <= 8; ++h)
        for (int k = -8; k <= 8; ++k)
            for (int l = -8; l <= 8; ++l)
                sf.F.push_back(50.0 + 40.0 * std::sin(1.3 * h + 0.7 * k * k + 0.37 * l));
    sf.reflectionCount = sf.F.size();
    sf.defaultF = 10;
    return sf;
}

bv::Experiment variant(const QString& name) {
    bv::Experiment e = cubic();
    if (name == "square, cells refined and many") {
        // a size between whole numbers (as a refinement of ncells moves it) and one past the
        // Chebyshev polynomials take the ratio of sines; 3 cells the polynomial
        e.crystal.cells = {6.37, 20, 3};
    } else if (name == "round") {
        e.crystal.shape = bv::LatticeShape::Round;
        e.crystal.cells = {8, 8, 8};
    } else if (name == "gauss") {
        e.crystal.shape = bv::LatticeShape::Gauss;
        e.crystal.fudge = 1.5;
    } else if (name == "tophat") {
        e.crystal.shape = bv::LatticeShape::Tophat;
        e.crystal.cells = {10, 10, 10};
    } else if (name == "table") {
        e.structureFactors = table();
    } else if (name == "interpolated") {
        e.structureFactors = table();
        e.crystal.cells = {2, 2, 2};
        e.sampling.interpolation = bv::Interpolation::Tricubic;
    } else if (name == "interpolated, grid left mid-image" ||
               name == "interpolated, local at the edge") {
        // a 20 A cell, the direct beam near pixel (0, 0): the first rows stay inside the
        // grid's -6..6 neighbourhoods, the far corner leaves them; several steps per pixel
        e.structureFactors = table();
        e.crystal.cell = bv::UnitCell{30, 30, 30, 0, 0, 0};
        e.crystal.cells = {2, 2, 2};
        e.sampling.interpolation = bv::Interpolation::Tricubic;
        e.sampling.oversample = 2;
        e.beam.dispersion = {0.01, {}, 2};
        e.detector.beamX = 2e-3;
        e.detector.beamY = 9.6e-3;
        if (name == "interpolated, local at the edge")
            e.sampling.interpolationEdge = bv::InterpolationEdge::Local;
    } else if (name == "oversample flags") {
        e.sampling.oversample = 2;
        e.sampling.oversampleThick = e.sampling.oversamplePolar = e.sampling.oversampleOmega = true;
        e.detector.thickness = {100e-6, {}, 3};
        e.detector.attenuationDepth = 200e-6;
    } else if (name == "thick sensor") {
        e.detector.thickness = {300e-6, {}, 4};
        e.detector.attenuationDepth = 250e-6;
        e.detector.rotX = radiansFromDegrees(10);
    } else if (name == "curved") {
        e.detector.curved = true;
    } else if (name == "point pixel") {
        e.detector.pointPixel = true;
    } else if (name == "no polarization") {
        e.beam.polarization = false;
    } else if (name == "sources") {
        e.beam.kahnFactor = 0.9;
        e.beam.dispersion = {0.01, {}, 3};
        e.beam.horizontalDivergence = {1e-3, {}, 3};
        e.beam.verticalDivergence = {1e-3, {}, 3};
    } else if (name == "dmin") {
        e.sampling.dmin = 6e-10;
    } else if (name == "water") {
        e.waterThickness = 50e-6;
        e.crystal.shape = bv::LatticeShape::Tophat;
    } else if (name == "rotation") {
        // phi from 0: the phi carry-over, mosaic domains
        e.crystal.phi = {radiansFromDegrees(3), {}, 3};
        e.crystal.mosaicSpread = radiansFromDegrees(0.3);
        e.crystal.mosaicDomains = 3;
    } else if (name == "roi and mask") {
        e.sampling.roi = bv::Roi{5, 40, 10, 30};
        e.mask.assign(48 * 48, 1);
        for (int i = 0; i < 48 * 48; i += 7)
            e.mask[static_cast<std::size_t>(i)] = 0;
    } else if (name == "detector turned") {
        e.convention = bv::Convention::Xds;
        e.detector.twotheta = radiansFromDegrees(15);
        e.detector.rotZ = radiansFromDegrees(5);
        e.crystal.cell = bv::UnitCell{
            50, 60, 70, radiansFromDegrees(80), radiansFromDegrees(95), radiansFromDegrees(100)};
    }
    return e;
}

const QStringList kVariants = {"square",
                               "square, cells refined and many", // lattice.glsl's three paths
                               "round",
                               "gauss",
                               "tophat",
                               "table",
                               "interpolated",
                               "interpolated, grid left mid-image",
                               "interpolated, local at the edge",
                               "oversample flags",
                               "thick sensor",
                               "curved",
                               "point pixel",
                               "no polarization",
                               "sources",
                               "dmin",
                               "water",
                               "rotation",
                               "roi and mask",
                               "detector turned"};

struct Case {
    bv::Experiment experiment;
    bv::ResolvedExperiment resolved;
    bv::plan::Plan plan;
    bv::engine::ReferenceLoop loop;

    explicit Case(const bv::Experiment& e) : experiment(e) {
        bv::random::ReferenceRandom rng;
        std::ostringstream log;
        resolved = bv::resolve(experiment, rng, log);
        plan = bv::plan::makePlan(resolved, experiment.mask);
        loop = {bv::engine::phiAngles(resolved), 1};
    }
    Case(const Case&) = delete; // the plan points into experiment

    // every pixel on the CPU, with the same phi carry-over as the GPU
    std::vector<double> cpuImage() const {
        const bv::engine::OrderedOrientations ordered =
            bv::engine::orderOrientations(plan, loop.phiAngles, loop.threads);
        std::vector<double> image;
        bool interpolating = plan.interpolate; // the reference's variable, one for the image
        for (int s = 0; s < plan.slowPixels; ++s)
            for (int f = 0; f < plan.fastPixels; ++f) {
                bv::testing::ReferencePixelOptions o;
                o.rows = &ordered.rows;
                o.interpolating = &interpolating;
                for (const auto& u : ordered.freshUnits)
                    if (u.pixel == static_cast<long long>(s) * plan.fastPixels + f) {
                        o.freshRows = &ordered.freshRows;
                        o.freshUnit = u.unit;
                    }
                image.push_back(bv::testing::referencePixel(plan, f, s, o));
            }
        return image;
    }
};

std::string joined(const std::vector<std::string>& lines) {
    std::string all;
    for (const std::string& line : lines)
        all += line + "\n";
    return all;
}

} // namespace

class TestSimulator : public QObject {
    Q_OBJECT

  private:
    std::unique_ptr<bv::vk::Device> m_device;
    QTemporaryDir m_cacheDir;

    SimulatorOptions options(Precision precision) const {
        SimulatorOptions o;
        o.precision = precision;
        o.pipelineCacheDirectory = m_cacheDir.path().toStdString();
        return o;
    }

  private slots:
    void initTestCase() {
        try {
            bv::vk::DeviceOptions o;
            o.applicationName = "braggview engine tests";
            o.validation = true;
            m_device = std::make_unique<bv::vk::Device>(o);
        } catch (const bv::Error& error) {
            QFAIL(error.what()); // no skipping: CI has lavapipe
        }
        qInfo("running on %s", m_device->description().c_str());
        QVERIFY2(m_device->validationEnabled(),
                 "VK_LAYER_KHRONOS_validation missing: install vulkan-validationlayers");
        QVERIFY2(m_device->float64Enabled(),
                 "the precise shader needs shaderFloat64 (lavapipe has it)");
    }

    // Every test leaves the validation log empty.
    void cleanup() {
        if (m_device)
            QVERIFY2(m_device->validationMessages().empty(),
                     joined(m_device->validationMessages()).c_str());
    }

    void cleanupTestCase() { m_device.reset(); }

    void precisionNames() {
        QCOMPARE(std::string(bv::engine::precisionName(Precision::Precise)),
                 std::string("precise"));
        QVERIFY(bv::engine::precisionFromName("fast") == Precision::Fast);
        QVERIFY(bv::engine::precisionFromName("double") ==
                Precision::Precise); // the reference's word
        QVERIFY(!bv::engine::precisionFromName("quad"));
    }

    // The GPU image against the CPU one: precise to float rounding, fast within its bar.
    void matchesTheCpuReference_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("precision");
        for (const QString& name : kVariants) {
            // the CPU loop is the reference's sin(N pi h) / sin(pi h) of the whole index, which
            // the reduced argument equals for whole N only, the reference's only kind; a size
            // between whole numbers exists only inside a refinement (docs/refinement.md)
            if (name == "square, cells refined and many")
                continue;
            QTest::newRow(qPrintable(name + " precise")) << name << int(Precision::Precise);
            QTest::newRow(qPrintable(name + " fast")) << name << int(Precision::Fast);
        }
    }
    void matchesTheCpuReference() {
        QFETCH(QString, name);
        QFETCH(int, precision);
        const Case c(variant(name));
        Simulator simulator(*m_device, options(Precision(precision)));
        simulator.setPlan(c.plan, c.loop);
        simulator.run();
        const std::vector<float> gpu = simulator.image();
        const std::vector<double> cpu = c.cpuImage();
        QCOMPARE(gpu.size(), cpu.size());
        double largest = 0.0, worst = 0.0;
        for (double v : cpu)
            largest = std::max(largest, std::fabs(v));
        QVERIFY2(largest > 0.0, "the case must show something");
        for (std::size_t i = 0; i < cpu.size(); ++i) {
            worst = std::max(worst, std::fabs(double(gpu[i]) - cpu[i]));
            if (cpu[i] == 0.0 && (!c.plan.roi.contains(int(i % 48), int(i / 48)) ||
                                  (!c.experiment.mask.empty() && c.experiment.mask[i] == 0)))
                QCOMPARE(gpu[i], 0.0f); // outside the ROI or masked: exactly 0
        }
        // precise: float rounding of the result (2^-24) plus the shader's own transcendentals;
        // fast: the fast parity bar
        const double bar = precision == int(Precision::Precise) ? 2e-7 : 1e-3;
        qInfo("max |gpu - cpu| / max |cpu| = %.3g", worst / largest);
        QVERIFY2(worst <= bar * largest,
                 qPrintable(QString("max |gpu - cpu| / max |cpu| = %1").arg(worst / largest)));
    }

    // The reference stops interpolating for good at the first step, in its serial loop order,
    // whose 4x4x4 neighbourhood leaves the HKL grid. The GPU finds that step with search slices
    // before the image's slices; the CPU model walks the pixels in order with one shared flag,
    // as the reference does. Same pixel; the step reported is really off the grid and the steps
    // the GPU interpolated were not; slicing changes nothing; the local rule differs only after
    // that pixel.
    void gridExitFollowsTheSerialLoop_data() {
        QTest::addColumn<int>("precision");
        QTest::newRow("precise") << int(Precision::Precise);
        QTest::newRow("fast") << int(Precision::Fast);
    }
    void gridExitFollowsTheSerialLoop() {
        QFETCH(int, precision);
        const Case c(variant("interpolated, grid left mid-image"));
        // the CPU model: the first pixel after which the shared flag is down
        long long cpuExit = -1;
        {
            bool interpolating = true;
            for (int s = 0; s < c.plan.slowPixels && cpuExit < 0; ++s)
                for (int f = 0; f < c.plan.fastPixels && cpuExit < 0; ++f) {
                    bv::testing::ReferencePixelOptions o;
                    o.interpolating = &interpolating;
                    bv::testing::referencePixel(c.plan, f, s, o);
                    if (!interpolating)
                        cpuExit = static_cast<long long>(s) * c.plan.fastPixels + f;
                }
        }
        QVERIFY2(cpuExit > c.plan.fastPixels, "the case must leave the grid after its first row");
        QVERIFY(cpuExit < c.plan.fastPixels * (c.plan.slowPixels - 1)); // and before its last

        Simulator whole(*m_device, options(Precision(precision)));
        whole.setPlan(c.plan, c.loop);
        QCOMPARE(whole.sliceCount(), 2); // a search slice, then the image's
        whole.run();
        QVERIFY(whole.gridExit().has_value());
        const bv::engine::GridExit exit = *whole.gridExit();
        QCOMPARE(static_cast<long long>(exit.slow) * c.plan.fastPixels + exit.fast, cpuExit);
        QVERIFY(!bv::testing::referenceNeighbourhoodOnGrid(c.plan.structureFactors, exit.hkl));
        QVERIFY(exit.step < whole.stepsPerPixel());

        SimulatorOptions cut = options(Precision(precision));
        cut.workPerSlice = 1;
        cut.maxSlices = 8;
        Simulator sliced(*m_device, cut);
        sliced.setPlan(c.plan, c.loop);
        QCOMPARE(sliced.sliceCount(), 8); // four search slices, four of the image
        sliced.run();
        const std::vector<float> a = whole.image(), b = sliced.image();
        QVERIFY(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
        QVERIFY(sliced.gridExit().has_value());
        QCOMPARE(sliced.gridExit()->step, exit.step);
        QCOMPARE(sliced.gridExit()->fast, exit.fast);
        QCOMPARE(sliced.gridExit()->slow, exit.slow);

        const Case local(variant("interpolated, local at the edge"));
        Simulator keeps(*m_device, options(Precision(precision)));
        keeps.setPlan(local.plan, local.loop);
        QCOMPARE(keeps.sliceCount(), 1); // nothing to search for
        keeps.run();
        QVERIFY(!keeps.gridExit().has_value());
        const std::vector<float> l = keeps.image();
        const auto exitIndex = static_cast<std::size_t>(cpuExit);
        QVERIFY(std::memcmp(a.data(), l.data(), exitIndex * sizeof(float)) == 0);
        int differing = 0;
        for (std::size_t i = exitIndex + 1; i < a.size(); ++i)
            differing += a[i] != l[i] ? 1 : 0;
        // rows 36-47: the pixels whose neighbourhoods still fit (47 of them here) interpolate
        QVERIFY2(differing > 10, qPrintable(QString("%1 pixels differ").arg(differing)));
    }

    // However the work is cut into dispatches, every pixel comes out the same, bit for bit:
    // the state between slices is carried exactly, -oversample_* flags included.
    void slicingChangesNothing_data() {
        QTest::addColumn<int>("precision");
        QTest::addColumn<int>("maxSlices");
        QTest::newRow("precise, 32 slices") << int(Precision::Precise) << 32;
        QTest::newRow("precise, 7 slices") << int(Precision::Precise) << 7;
        QTest::newRow("fast, 5 slices") << int(Precision::Fast) << 5;
    }
    void slicingChangesNothing() {
        QFETCH(int, precision);
        QFETCH(int, maxSlices);
        bv::Experiment e = variant("oversample flags");
        e.crystal.phi = {radiansFromDegrees(2), {}, 2};
        e.crystal.mosaicSpread = radiansFromDegrees(0.3);
        e.crystal.mosaicDomains = 2;
        e.beam.dispersion = {0.01, {}, 2};
        e.sampling.dmin = 5e-10;
        const Case c(e);

        Simulator whole(*m_device, options(Precision(precision)));
        whole.setPlan(c.plan, c.loop);
        QCOMPARE(whole.sliceCount(), 1);
        whole.run();

        SimulatorOptions cut = options(Precision(precision));
        cut.workPerSlice = 1;
        cut.maxSlices = maxSlices;
        Simulator sliced(*m_device, cut);
        sliced.setPlan(c.plan, c.loop);
        QCOMPARE(sliced.sliceCount(), maxSlices);
        QVERIFY(sliced.stepsPerPixel() > std::uint64_t(maxSlices));
        int calls = 0, lastDone = -1, lastTotal = -1;
        sliced.run([&](int done, int total) {
            ++calls;
            QVERIFY(done >= lastDone);
            lastDone = done;
            lastTotal = total;
        });
        QVERIFY(calls >= 1);
        QCOMPARE(lastDone, maxSlices);
        QCOMPARE(lastTotal, maxSlices);
        QCOMPARE(int(sliced.dispatchMilliseconds().size()), maxSlices);

        const std::vector<float> a = whole.image(), b = sliced.image();
        QCOMPARE(a.size(), b.size());
        QVERIFY(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
    }

    // The generic pipeline (flags and loop counts read from the parameter block) and the one
    // specialised to the plan's shape (the same as constants) give the same image bit for bit,
    // in every variant of the shader's paths; so does a run that switches from one to the other
    // between slices.
    void genericAndSpecialisedAgree_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("precision");
        for (const QString& name : kVariants) {
            QTest::newRow(qPrintable(name + " precise")) << name << int(Precision::Precise);
            QTest::newRow(qPrintable(name + " fast")) << name << int(Precision::Fast);
        }
    }
    void genericAndSpecialisedAgree() {
        QFETCH(QString, name);
        QFETCH(int, precision);
        const Case c(variant(name));
        auto image = [&](SimulatorOptions::Specialisation mode, bool switchMidRun) {
            SimulatorOptions o = options(Precision(precision));
            o.specialisation = mode;
            o.maxSlices = 4;
            o.workPerSlice = 1; // as many slices as there are slots
            Simulator simulator(*m_device, o);
            simulator.setPlan(c.plan, c.loop);
            if (!switchMidRun) {
                simulator.run();
                return std::make_pair(simulator.image(), simulator.specialised());
            }
            const bool startedGeneric = !simulator.specialised(); // its own on its way
            simulator.start(); // the first slice on the generic pipeline (its build is slower)
            simulator.waitForBackgroundBuild();
            simulator.finish(); // the slices left run on the specialised pipeline
            return std::make_pair(simulator.image(), startedGeneric && simulator.specialised());
        };
        using Mode = SimulatorOptions::Specialisation;
        const auto generic = image(Mode::Generic, false);
        const auto specialised = image(Mode::Wait, false);
        const auto switched = image(Mode::Background, true);
        QVERIFY(!generic.second);
        QVERIFY(specialised.second);
        QVERIFY(switched.second);
        QCOMPARE(generic.first.size(), specialised.first.size());
        QVERIFY(std::memcmp(generic.first.data(), specialised.first.data(),
                            generic.first.size() * sizeof(float)) == 0);
        QVERIFY(std::memcmp(generic.first.data(), switched.first.data(),
                            generic.first.size() * sizeof(float)) == 0);
    }

    // A viewer's setPlan never waits for a compile: the generic pipeline runs until the shape's
    // own is built; the specialised pipelines kept are bounded (the least recently used go).
    void specialisedPipelinesAreBuiltInTheBackgroundAndBounded() {
        SimulatorOptions o = options(Precision::Fast);
        o.specialisation = SimulatorOptions::Specialisation::Background;
        Simulator simulator(*m_device, o);
        bv::Experiment e = cubic();
        const int shapes = Simulator::kSpecialisedPipelines + 3;
        for (int i = 1; i <= shapes; ++i) {
            e.sampling.oversample = i; // a loop count: a new shape each time
            const Case c(e);
            simulator.setPlan(c.plan, c.loop);
            QVERIFY(!simulator.specialised()); // never built before: the generic pipeline
            simulator.run();
            simulator.waitForBackgroundBuild();
            simulator.setPlan(c.plan, c.loop); // the same shape again: its own pipeline now
            QVERIFY(simulator.specialised());
            QVERIFY(simulator.pipelinesHeld() <= 1 + Simulator::kSpecialisedPipelines);
        }
        QCOMPARE(simulator.pipelineCount(), 1 + shapes);
        QCOMPARE(simulator.pipelinesHeld(), 1 + Simulator::kSpecialisedPipelines);
    }

    // Automatic: a specialised pipeline for a plan of at least specialiseWork pixel-steps
    // (48 x 48 pixels x 1 step here), the generic one below
    void automaticSpecialisesFromItsThreshold_data() {
        QTest::addColumn<qulonglong>("threshold");
        QTest::addColumn<bool>("specialised");
        QTest::newRow("by default: always") << qulonglong(0) << true;
        QTest::newRow("one pixel-step") << qulonglong(1) << true;
        QTest::newRow("exactly the plan's work") << qulonglong(48 * 48) << true;
        QTest::newRow("one more") << qulonglong(48 * 48 + 1) << false;
    }
    void automaticSpecialisesFromItsThreshold() {
        QFETCH(qulonglong, threshold);
        QFETCH(bool, specialised);
        SimulatorOptions o = options(Precision::Fast);
        o.specialisation = SimulatorOptions::Specialisation::Automatic;
        o.specialiseWork = threshold;
        Simulator simulator(*m_device, o);
        const Case c(cubic());
        simulator.setPlan(c.plan, c.loop);
        QCOMPARE(simulator.stepsPerPixel(), std::uint64_t(1));
        QCOMPARE(simulator.specialised(), specialised);
    }

    // requestCancel() stops a run inside its one long slice: the shader reads the word at the
    // top of every unit, the pixels not yet done are left unwritten, and the next run is whole.
    void cancelStopsInsideASlice() {
        bv::Experiment e = cubic();
        e.detector.setPixels(128, 128);
        e.sampling.oversample = 4;
        e.crystal.mosaicSpread = radiansFromDegrees(0.3);
        e.crystal.mosaicDomains = 200; // 128^2 x 16 x 200 = 52 M pixel-steps, in one slice
        const Case c(e);
        SimulatorOptions o = options(Precision::Fast);
        o.specialisation = SimulatorOptions::Specialisation::Generic;
        o.workPerSlice = std::uint64_t(1) << 40;
        Simulator simulator(*m_device, o);
        simulator.setPlan(c.plan, c.loop);
        QCOMPARE(simulator.sliceCount(), 1);
        simulator.start();
        QVERIFY(!simulator.wasCancelled());
        simulator.requestCancel(); // from another thread, as a viewer's GUI thread would
        std::thread([&] { simulator.requestCancel(); }).join();
        QVERIFY(simulator.wasCancelled());
        simulator.finish(); // the slice ends early; its copy still runs
        QVERIFY(simulator.wasCancelled());
        const std::vector<float> cut = simulator.image();
        const long unwritten = std::count(cut.begin(), cut.end(), 0.0f);
        QVERIFY2(unwritten > 0, "every pixel was written: the run was not stopped");

        simulator.run(); // the word is cleared: the whole image
        QVERIFY(!simulator.wasCancelled());
        const std::vector<float> whole = simulator.image();
        QCOMPARE(std::count(whole.begin(), whole.end(), 0.0f), 0L);
        Simulator fresh(*m_device, o);
        fresh.setPlan(c.plan, c.loop);
        fresh.run();
        QVERIFY(fresh.image() == whole);
    }

    // The command buffer is recorded once per detector size and pipeline variant; parameter
    // changes only rewrite buffers.
    void recordsOncePerSizeAndVariant() {
        bv::Experiment e = cubic();
        SimulatorOptions o = options(Precision::Precise);
        o.specialisation = SimulatorOptions::Specialisation::Wait; // a pipeline per shape
        Simulator simulator(*m_device, o);
        auto set = [&](const bv::Experiment& x) {
            const Case c(x);
            simulator.setPlan(c.plan, c.loop);
            simulator.run();
            return simulator.image();
        };
        const std::vector<float> first = set(e);
        QCOMPARE(simulator.recordCount(), 1);
        QCOMPARE(simulator.pipelineCount(), 1);

        e.detector.distance = 70e-3; // a slider: same variant, same size
        const std::vector<float> moved = set(e);
        QCOMPARE(simulator.recordCount(), 1);
        QVERIFY(moved != first);

        e.crystal.shape = bv::LatticeShape::Gauss; // a structural option: a new variant
        set(e);
        QCOMPARE(simulator.recordCount(), 2);
        QCOMPARE(simulator.pipelineCount(), 2);

        e.crystal.shape = bv::LatticeShape::Square; // back: the first variant, still recorded
        QCOMPARE(set(e), moved);
        QCOMPARE(simulator.recordCount(), 2);

        e.detector.setPixels(32, 40); // a new detector size: new buffers, new recording
        const std::vector<float> resized = set(e);
        QCOMPARE(resized.size(), std::size_t(32 * 40));
        QCOMPARE(simulator.recordCount(), 3);
    }

    // What the viewer's sliders do: each change is a new plan for the same recording. Every
    // one of these parameters must change the image and none may re-record.
    void everySliderReusesTheRecording() {
        bv::Experiment e = cubic();
        e.crystal.phi = {radiansFromDegrees(1), {}, 2};
        e.crystal.mosaicSpread = radiansFromDegrees(0.2);
        e.crystal.mosaicDomains = 3;
        SimulatorOptions o = options(Precision::Fast);
        o.specialisation = SimulatorOptions::Specialisation::Wait;
        Simulator simulator(*m_device, o);
        auto render = [&](const bv::Experiment& x) {
            const Case c(x);
            simulator.setPlan(c.plan, c.loop);
            simulator.run();
            return simulator.image();
        };
        std::vector<float> last = render(e);
        QCOMPARE(simulator.recordCount(), 1);
        const std::vector<std::pair<const char*, std::function<void(bv::Experiment&)>>> sliders = {
            {"distance", [](bv::Experiment& x) { x.detector.distance *= 1.1; }},
            {"wavelength", [](bv::Experiment& x) { x.beam.wavelength *= 1.05; }},
            {"cell", [](bv::Experiment& x) { x.crystal.cell->a *= 1.03; }},
            {"misset",
             [](bv::Experiment& x) {
                 x.crystal.misset = bv::MissetKind::Angles;
                 x.crystal.missetAngles.y += radiansFromDegrees(2);
             }},
            {"mosaic spread", [](bv::Experiment& x) { *x.crystal.mosaicSpread *= 3; }},
            {"phi", [](bv::Experiment& x) { x.crystal.phi0 += radiansFromDegrees(5); }},
        };
        for (const auto& [name, change] : sliders) {
            change(e);
            const std::vector<float> image = render(e);
            QVERIFY2(image != last, name);
            QVERIFY2(simulator.recordCount() == 1, name);
            last = image;
        }
    }

    // A detector moved between two plans draws what a fresh simulator draws for the moved
    // one, in both precisions: the fast shader's source rows hold the detector's axes and
    // origin in each source's frame, so a move must reach them too (DeviceTables::upload).
    void aMovedDetectorDrawsAsAFreshSimulatorDoes_data() {
        QTest::addColumn<int>("precision");
        QTest::newRow("precise") << int(Precision::Precise);
        QTest::newRow("fast") << int(Precision::Fast);
    }
    void aMovedDetectorDrawsAsAFreshSimulatorDoes() {
        QFETCH(int, precision);
        const SimulatorOptions o = options(Precision(precision));
        bv::Experiment e = cubic();
        Simulator simulator(*m_device, o);
        auto render = [](Simulator& s, const bv::Experiment& x) {
            const Case c(x);
            s.setPlan(c.plan, c.loop);
            s.run();
            return s.image();
        };
        const std::vector<float> before = render(simulator, e);
        e.detector.distance *= 1.1;
        e.detector.rotY += radiansFromDegrees(3);
        const std::vector<float> moved = render(simulator, e);
        QVERIFY(moved != before);
        Simulator fresh(*m_device, o);
        QVERIFY(render(fresh, e) == moved);
    }

    void uploadsOnlyWhatChanged() {
        bv::Experiment e = variant("rotation");
        e.structureFactors = table();
        Simulator simulator(*m_device, options(Precision::Fast));
        {
            const Case c(e);
            simulator.setPlan(c.plan, c.loop);
        }
        const unsigned all = bv::plan::FrameChanged | bv::plan::SourcesChanged |
                             bv::plan::OrientationsChanged | bv::plan::StructureFactorsChanged |
                             bv::plan::MaskChanged | bv::plan::ImageSizeChanged;
        QCOMPARE(simulator.lastUploadedParts(), all);

        e.detector.distance = 80e-3;
        {
            const Case c(e);
            simulator.setPlan(c.plan, c.loop);
        }
        QCOMPARE(simulator.lastUploadedParts(), unsigned(bv::plan::FrameChanged));

        e.structureFactors.F[5] += 1.0; // the same object changed in place: found by content
        {
            const Case c(e);
            simulator.setPlan(c.plan, c.loop);
        }
        QCOMPARE(simulator.lastUploadedParts(),
                 unsigned(bv::plan::FrameChanged | bv::plan::StructureFactorsChanged));

        e.crystal.mosaicDomains = 4;
        {
            const Case c(e);
            simulator.setPlan(c.plan, c.loop);
        }
        QCOMPARE(simulator.lastUploadedParts(),
                 unsigned(bv::plan::FrameChanged | bv::plan::OrientationsChanged));
    }

    // A device without shaderFloat64 (here: lavapipe borrowed as if it had none) runs the fast
    // shader and says why.
    void precisionFallsBackWithoutFloat64() {
        bv::vk::BorrowedDevice borrowed;
        borrowed.instance = m_device->instance();
        borrowed.physicalDevice = m_device->physicalDevice();
        borrowed.device = m_device->handle();
        borrowed.queueFamily = m_device->queueFamily();
        borrowed.queue = m_device->queue();
        borrowed.float64Enabled = false;
        const bv::vk::Device withoutDouble(borrowed);
        Simulator simulator(withoutDouble, options(Precision::Precise));
        QVERIFY(simulator.precision() == Precision::Fast);
        QVERIFY(simulator.notice().find("shaderFloat64") != std::string::npos);
        const Case c(cubic());
        simulator.setPlan(c.plan, c.loop);
        simulator.run();
        const std::vector<float> image = simulator.image();
        QVERIFY(*std::max_element(image.begin(), image.end()) > 0.0f);
    }

    void pipelineCacheIsKeptOnDisk() {
        QTemporaryDir dir;
        SimulatorOptions o = options(Precision::Precise);
        o.pipelineCacheDirectory = dir.path().toStdString();
        {
            Simulator simulator(*m_device, o);
            const Case c(cubic());
            simulator.setPlan(c.plan, c.loop);
        }
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);
        // the next start (another process, or here another Simulator) builds from the file
        Simulator next(*m_device, o);
        QVERIFY(next.pipelineCacheLoadedBytes() > 0);
        QVERIFY2(next.warnings().empty(), joined(next.warnings()).c_str());
    }

    void timesEachDispatch() {
        SimulatorOptions o = options(Precision::Fast);
        o.workPerSlice = 1;
        o.maxSlices = 3;
        Simulator simulator(*m_device, o);
        const Case c(variant("sources"));
        simulator.setPlan(c.plan, c.loop);
        simulator.run();
        QVERIFY(simulator.hasTimestamps());
        QCOMPARE(int(simulator.dispatchMilliseconds().size()), 3);
        double sum = 0.0;
        for (double ms : simulator.dispatchMilliseconds()) {
            QVERIFY(ms >= 0.0);
            sum += ms;
        }
        QVERIFY(std::fabs(sum - simulator.gpuMilliseconds()) <= 1e-9 * std::max(1.0, sum));
    }

    // The GPUs' shader, with the parameter block in a uniform buffer and the orientation and
    // source tables read through uniform-buffer views, gives the CPU devices' image bit for
    // bit, generic and specialised; and so does its specialised pipeline when the orientations
    // outgrow the views (1500 mosaic domains: over 64 KiB of rows in either precision) and are
    // read from storage again. (Not the generic one there: lavapipe ends a shader's loops
    // after 65535 iterations in all, and the generic pipeline's Chebyshev and axis loops make
    // that about 3600 orientations of N = 5; docs/robustness.md, "lavapipe's loop limit".)
    void uniformTablesGiveTheSameImage_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("precision");
        for (const char* name : {"square", "sources", "table", "interpolated, grid left mid-image",
                                 "rotation", "roi and mask"}) {
            QTest::newRow((std::string(name) + " precise").c_str()) << name << int(Precision::Precise);
            QTest::newRow((std::string(name) + " fast").c_str()) << name << int(Precision::Fast);
        }
    }
    void uniformTablesGiveTheSameImage() {
        QFETCH(QString, name);
        QFETCH(int, precision);
        using Mode = SimulatorOptions::Specialisation;
        SimulatorOptions cpuShader = options(Precision(precision));
        cpuShader.specialisation = Mode::Wait;
        SimulatorOptions generic = cpuShader, specialised = cpuShader;
        generic.gpuShaderOnCpu = specialised.gpuShaderOnCpu = true;
        generic.specialisation = Mode::Generic;
        Simulator a(*m_device, cpuShader), b(*m_device, generic), c(*m_device, specialised);
        QVERIFY(a.paramsInStorage() && !b.paramsInStorage() && !c.paramsInStorage());
        bv::Experiment e = variant(name);
        auto same = [](const std::vector<float>& x, const std::vector<float>& y) {
            return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * 4) == 0;
        };
        {
            const Case small(e);
            for (Simulator* s : {&a, &b, &c}) {
                s->setPlan(small.plan, small.loop);
                s->run();
            }
            QVERIFY(!a.tablesInUniformBuffers());
            QVERIFY(b.tablesInUniformBuffers() && c.tablesInUniformBuffers());
            QVERIFY(c.specialised() && !b.specialised());
            const std::vector<float> expected = a.image();
            QVERIFY(*std::max_element(expected.begin(), expected.end()) > 0.0f);
            QVERIFY(same(b.image(), expected));
            QVERIFY(same(c.image(), expected));
        }
        e.crystal.mosaicSpread = radiansFromDegrees(0.3);
        e.crystal.mosaicDomains = 1500;
        const Case outgrown(e);
        for (Simulator* s : {&a, &c}) {
            s->setPlan(outgrown.plan, outgrown.loop);
            s->run();
        }
        QVERIFY(!c.tablesInUniformBuffers());
        QVERIFY(same(c.image(), a.image()));
    }

    // A pixel of 70000 steps on a CPU device: lavapipe would end the dispatch's loop after
    // 65535 iterations, so the run is cut into dispatches of at most kCpuStepsPerSlice steps
    // (three here, though the pixel-steps would fit one) and every step is counted.
    void longPixelsOnCpuDevicesAreCutIntoDispatches() {
        bv::Experiment e = variant("square");
        e.crystal.mosaicSpread = radiansFromDegrees(0.5);
        e.crystal.mosaicDomains = 70000;
        e.sampling.roi = bv::Roi{20, 22, 20, 22}; // nine pixels
        const Case c(e);
        SimulatorOptions o = options(Precision::Precise);
        o.specialisation = SimulatorOptions::Specialisation::Wait;
        Simulator simulator(*m_device, o);
        simulator.setPlan(c.plan, c.loop);
        simulator.run();
        QCOMPARE(int(simulator.dispatchMilliseconds().size()),
                 int((70000 + bv::engine::kCpuStepsPerSlice - 1) / bv::engine::kCpuStepsPerSlice));
        const std::vector<float> image = simulator.image();
        const std::vector<double> reference = c.cpuImage();
        double top = 0.0;
        for (double v : reference)
            top = std::max(top, v);
        QVERIFY(top > 0.0);
        for (std::size_t i = 0; i < image.size(); ++i)
            QVERIFY2(std::fabs(image[i] - reference[i]) <= 1e-6 * top,
                     qPrintable(QString("pixel %1: %2 against %3").arg(i).arg(image[i]).arg(reference[i])));
    }

    // Tables copied through a staging buffer (a discrete GPU's path) give the same image as
    // tables written in place, also after a second plan that changes some of them.
    void stagedUploadsGiveTheSameImage() {
        bv::Experiment e = variant("rotation");
        e.structureFactors = table();
        e.mask.assign(48 * 48, 1);
        e.mask[100] = 0;
        SimulatorOptions staged = options(Precision::Precise);
        staged.stagedUploads = true;
        Simulator a(*m_device, options(Precision::Precise)), b(*m_device, staged);
        for (int round = 0; round < 2; ++round) {
            const Case c(e);
            a.setPlan(c.plan, c.loop);
            b.setPlan(c.plan, c.loop);
            a.run();
            b.run();
            QCOMPARE(b.image(), a.image());
            QCOMPARE(b.image()[100], 0.0f);
            e.crystal.mosaicDomains = 5; // new orientations, the rest as before
            e.structureFactors.F[7] = 3.0;
        }
    }

    // start/isFinished/finish: the non-blocking form of run(), same image.
    void runsWithoutBlocking() {
        SimulatorOptions o = options(Precision::Fast);
        o.workPerSlice = 1;
        o.maxSlices = 4;
        Simulator simulator(*m_device, o);
        const Case c(variant("sources"));
        simulator.setPlan(c.plan, c.loop);
        simulator.run();
        const std::vector<float> blocking = simulator.image();
        simulator.start();
        QVERIFY_THROWS_EXCEPTION(bv::Error, simulator.start()); // one run at a time
        QVERIFY_THROWS_EXCEPTION(bv::Error, simulator.image());
        while (!simulator.isFinished())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        QVERIFY(simulator.finishedSlices() <= 4);
        simulator.finish();
        QCOMPARE(simulator.finishedSlices(), 4);
        QVERIFY(simulator.imageBuffer() != VK_NULL_HANDLE);
        QCOMPARE(simulator.image(), blocking);
        // polled to the end: each slice was its own submission, then the copy
        QCOMPARE(simulator.lastSubmissionCount(), 4 + 1);
    }

    // Heavy work: every slice is its own submission, so no submission holds the GPU for the
    // whole image, and a caller (the viewer, on a new slider value) can stop between slices.
    void slicesAreSeparateSubmissionsAndCanBeCancelled() {
        SimulatorOptions o = options(Precision::Fast);
        o.workPerSlice = 1;
        o.maxSlices = 5;
        Simulator simulator(*m_device, o);
        const Case c(variant("sources"));
        simulator.setPlan(c.plan, c.loop);
        QCOMPARE(simulator.sliceCount(), 5);
        simulator.run();
        QCOMPARE(simulator.lastSubmissionCount(), 5); // the copy goes with the last slice
        const std::vector<float> complete = simulator.image();

        simulator.start();
        while (simulator.lastSubmissionCount() < 2)
            QVERIFY(!simulator.isFinished());
        simulator.cancel(); // after two slices: nothing more is submitted
        QCOMPARE(simulator.lastSubmissionCount(), 2);
        QVERIFY(simulator.isFinished());
        QCOMPARE(simulator.recordCount(), 1);

        simulator.run(); // the next run starts over and completes the image
        QCOMPARE(simulator.image(), complete);
        QVERIFY2(m_device->validationMessages().empty(),
                 joined(m_device->validationMessages()).c_str());
    }

    void rejectsWhatItCannotRun() {
        const Case c(cubic());
        Simulator simulator(*m_device, options(Precision::Fast));
        bv::plan::Plan noSources = c.plan;
        noSources.sources.clear();
        QVERIFY_THROWS_EXCEPTION(bv::Error, simulator.setPlan(noSources));
        bv::plan::Plan noPixels = c.plan;
        noPixels.fastPixels = 0;
        QVERIFY_THROWS_EXCEPTION(bv::Error, simulator.setPlan(noPixels));
        QVERIFY_THROWS_EXCEPTION(bv::Error, simulator.run()); // no plan yet
        // and it still works afterwards
        simulator.setPlan(c.plan);
        simulator.run();
    }

    // A benchmark's shader variant (braggview-bench --shader) is checked against the device
    // and the precision before any pipeline is made: lavapipe crashed on a GPU build.
    void aShaderVariantMustFitTheDeviceAndPrecision() {
        const Case c(cubic());
        bool storage = false;
        {
            Simulator plain(*m_device, options(Precision::Fast));
            storage = plain.paramsInStorage();
        }
        using bv::engine::diffractionShaderCode;
        SimulatorOptions otherDevice = options(Precision::Fast);
        otherDevice.shaderCode = diffractionShaderCode({Precision::Fast, !storage, false});
        try {
            Simulator simulator(*m_device, otherDevice);
            QFAIL("a build for the other kind of device was taken");
        } catch (const bv::Error& error) {
            QVERIFY2(std::string(error.what()).find(storage ? "a CPU device" : "a GPU") !=
                         std::string::npos,
                     error.what());
        }
        SimulatorOptions otherPrecision = options(Precision::Fast);
        otherPrecision.shaderCode = diffractionShaderCode({Precision::Precise, storage, false});
        try {
            Simulator simulator(*m_device, otherPrecision);
            QFAIL("a precise build was taken for a fast run");
        } catch (const bv::Error& error) {
            QVERIFY2(std::string(error.what()).find("precise build") != std::string::npos,
                     error.what());
        }
        // the build that fits runs, and draws what the built-in shader draws
        SimulatorOptions fits = options(Precision::Fast);
        fits.shaderCode = diffractionShaderCode({Precision::Fast, storage, false});
        Simulator variant(*m_device, fits);
        variant.setPlan(c.plan);
        variant.run();
        Simulator builtIn(*m_device, options(Precision::Fast));
        builtIn.setPlan(c.plan);
        builtIn.run();
        QCOMPARE(variant.image(), builtIn.image());
    }
};

QTEST_APPLESS_MAIN(TestSimulator)
#include "tst_simulator.moc"
