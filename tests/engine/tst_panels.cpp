// A detector of several flat panels in one dispatch (plan::stackPanels, kPanels in the shader).
// Each panel must be drawn exactly as the same flat detector alone would be: its rows of the
// stacked image equal, bit for bit, the image the one-detector path (nanoBragg's, checked
// against the reference by the parity suite) makes of it, whatever the panel's size, place
// and tilt; pixels beyond a narrower panel stay 0. On the Vulkan driver (lavapipe in CI) with
// validation on, both precisions.

#include "compute/core/Error.h"
#include "compute/engine/Simulator.h"
#include "compute/model/Resolve.h"
#include "compute/model/Units.h"
#include "compute/plan/Plan.h"
#include "compute/random/ReferenceRandom.h"
#include "compute/vk/Device.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>
#include <sstream>

using bv::engine::Precision;
using bv::engine::Simulator;
using bv::units::radiansFromDegrees;

namespace {

// A small cubic crystal and a flat detector `fast` x `slow` pixels at `distance`, turned by
// `rotX`, `rotY` (degrees); oversampled and with a thick sensor, so every per-pixel factor
// (sub-pixel positions, solid angle, parallax) depends on the panel's own frame.
bv::Experiment experiment(int fast, int slow, double distance, double rotX, double rotY) {
    bv::Experiment e;
    e.crystal.cell = bv::UnitCell{60, 60, 60, 0, 0, 0};
    e.crystal.cells = {5, 5, 5};
    e.beam.wavelength = 1e-10;
    e.detector.pixelSize = 0.4e-3;
    e.detector.distance = distance;
    e.detector.setPixels(fast, slow);
    e.detector.rotX = radiansFromDegrees(rotX);
    e.detector.rotY = radiansFromDegrees(rotY);
    e.detector.thickness = {50e-6, std::nullopt, 2};
    e.sampling.oversample = 2;
    e.structureFactors.defaultF = 100;
    return e;
}

struct Flat {
    bv::Experiment experiment;
    bv::ResolvedExperiment resolved;
    bv::plan::Plan plan;

    explicit Flat(const bv::Experiment& e) : experiment(e) {
        bv::random::ReferenceRandom rng;
        std::ostringstream log;
        resolved = bv::resolve(experiment, rng, log);
        plan = bv::plan::makePlan(resolved, experiment.mask);
    }
    Flat(const Flat&) = delete; // the plan points into experiment

    // this flat detector as one panel of a larger one
    bv::plan::PanelEntry panel() const {
        bv::plan::PanelEntry p;
        p.pix0 = plan.pix0;
        p.fdet = plan.fdet;
        p.sdet = plan.sdet;
        p.odet = plan.odet;
        p.pixelSize = plan.pixelSize;
        p.closeDistance = plan.closeDistance;
        p.fastPixels = plan.fastPixels;
        p.slowPixels = plan.slowPixels;
        return p;
    }
};

} // namespace

class TestPanels : public QObject {
    Q_OBJECT

    std::unique_ptr<bv::vk::Device> m_device;
    QTemporaryDir m_cacheDir;

    std::vector<float> render(const bv::plan::Plan& plan, Precision precision) {
        bv::engine::SimulatorOptions o;
        o.precision = precision;
        o.pipelineCacheDirectory = m_cacheDir.path().toStdString();
        Simulator simulator(*m_device, o);
        simulator.setPlan(plan);
        simulator.run();
        return simulator.image();
    }

  private slots:
    void initTestCase() {
        try {
            bv::vk::DeviceOptions o;
            o.applicationName = "braggview panel tests";
            o.validation = true;
            m_device = std::make_unique<bv::vk::Device>(o);
        } catch (const bv::Error& error) {
            QFAIL(error.what()); // no skipping: CI has lavapipe
        }
        QVERIFY(m_device->float64Enabled());
    }

    void cleanup() {
        if (m_device)
            QVERIFY(m_device->validationMessages().empty());
    }

    void cleanupTestCase() { m_device.reset(); }

    void eachPanelIsDrawnAsTheFlatDetectorItIs_data() {
        QTest::addColumn<int>("precision");
        QTest::newRow("precise") << int(Precision::Precise);
        QTest::newRow("fast") << int(Precision::Fast);
    }
    // Three panels of different sizes, distances and tilts, stacked 40 + 16 + 24 rows; the
    // widest is 40 pixels.
    void eachPanelIsDrawnAsTheFlatDetectorItIs() {
        QFETCH(int, precision);
        const Flat front(experiment(40, 40, 60e-3, 0, 0));
        const Flat tilted(experiment(24, 16, 50e-3, 12, -7));
        const Flat far(experiment(32, 24, 80e-3, -5, 20));

        bv::plan::Plan stacked = bv::plan::makePlan(front.resolved, {});
        bv::plan::stackPanels(stacked, {front.panel(), tilted.panel(), far.panel()});
        QCOMPARE(stacked.fastPixels, 40);
        QCOMPARE(stacked.slowPixels, 40 + 16 + 24);

        const std::vector<float> image = render(stacked, Precision(precision));
        int firstRow = 0, lit = 0;
        for (const Flat* flat : {&front, &tilted, &far}) {
            const std::vector<float> alone = render(flat->plan, Precision(precision));
            for (int s = 0; s < flat->plan.slowPixels; ++s)
                for (int f = 0; f < stacked.fastPixels; ++f) {
                    const float pixel = image[std::size_t(firstRow + s) * 40 + std::size_t(f)];
                    if (f >= flat->plan.fastPixels) {
                        QCOMPARE(pixel, 0.0f); // beyond this panel's width
                        continue;
                    }
                    const float expected =
                        alone[std::size_t(s) * std::size_t(flat->plan.fastPixels) + std::size_t(f)];
                    // precise: the same arithmetic, bit for bit; fast: the flat detector's
                    // point comes from the host's projections of its axes on the source's
                    // frame, a panel's from its lab position (diffraction.glsl, rayTo*):
                    // the same geometry by two float sums
                    const bool same =
                        Precision(precision) == Precision::Precise
                            ? pixel == expected
                            : std::fabs(pixel - expected) <= 1e-4f * std::fabs(expected);
                    if (!same)
                        QFAIL(qPrintable(QString("panel pixel %1, %2 (image row %3): %4, alone %5")
                                             .arg(f)
                                             .arg(s)
                                             .arg(firstRow + s)
                                             .arg(double(pixel), 0, 'g', 9)
                                             .arg(double(expected), 0, 'g', 9)));
                    lit += pixel > 0.0f ? 1 : 0;
                }
            firstRow += flat->plan.slowPixels;
        }
        QVERIFY2(lit > 1000, "the panels must show diffraction, not only zeros");
    }

    // A panel placed where the one detector's lower half is draws what that half shows: the
    // same pixels by another sum (pix0 moved along sdet), so equal to float rounding.
    void twoHalvesMakeTheWhole() {
        const Flat whole(experiment(32, 32, 60e-3, 3, 4));
        bv::plan::PanelEntry upper = whole.panel(), lower = whole.panel();
        upper.slowPixels = lower.slowPixels = 16;
        lower.pix0 = whole.plan.pix0 + 16.0 * whole.plan.pixelSize * whole.plan.sdet;
        bv::plan::Plan halves = whole.plan;
        bv::plan::stackPanels(halves, {upper, lower});

        const std::vector<float> expected = render(whole.plan, Precision::Precise);
        const std::vector<float> image = render(halves, Precision::Precise);
        QCOMPARE(image.size(), expected.size());
        double largest = 0.0, worst = 0.0;
        for (std::size_t i = 0; i < image.size(); ++i) {
            largest = std::max(largest, double(expected[i]));
            worst = std::max(worst, std::fabs(double(image[i]) - double(expected[i])));
        }
        QVERIFY(largest > 0.0);
        QVERIFY2(worst <= 2e-7 * largest, qPrintable(QString::number(worst / largest)));
    }

    // The resolved experiment's panels become the plan's stacked panels: the corner, axes and
    // size as placed, the distance to each panel's plane from its corner and normal.
    void makePlanStacksTheResolvedPanels() {
        const Flat front(experiment(40, 40, 60e-3, 0, 0));
        const Flat tilted(experiment(24, 16, 50e-3, 12, -7));
        bv::ResolvedExperiment r = front.resolved;
        r.panels.clear(); // the flat detector's one panel, replaced by two of a source
        r.panelsFromSource = true;
        for (const Flat* flat : {&front, &tilted}) {
            bv::PanelGeometry g;
            g.pix0 = flat->plan.pix0;
            g.fdet = flat->plan.fdet;
            g.sdet = flat->plan.sdet;
            g.odet = flat->plan.odet;
            g.pixelSize = flat->plan.pixelSize;
            g.fastPixels = flat->plan.fastPixels;
            g.slowPixels = flat->plan.slowPixels;
            r.panels.push_back(g);
        }
        r.roi = bv::Roi::whole(40, 56);
        const bv::plan::Plan plan = bv::plan::makePlan(r, {});
        QCOMPARE(plan.fastPixels, 40);
        QCOMPARE(plan.slowPixels, 56);
        QCOMPARE(int(plan.panels.size()), 2);
        QCOMPARE(plan.panels[1].fastPixels, 24);
        QVERIFY(plan.panels[1].pix0 == tilted.plan.pix0);
        // the reference's close distance of the tilted detector, to rounding
        QVERIFY(std::abs(plan.panels[1].closeDistance - tilted.plan.closeDistance) < 1e-15);
        QVERIFY(plan.panels[1].closeDistance > 0.04 && plan.panels[1].closeDistance < 0.05);
    }

    // An experiment whose detector is a list of panels resolves to those panels, moved by
    // -distance (their centre 80 mm down the beam), and the image stacks them.
    void anExperimentOfPanelsResolvesAndRenders() {
        bv::Experiment e = experiment(16, 16, 60e-3, 0, 0);
        for (int i = 0; i < 2; ++i) {
            bv::Panel p;
            p.name = "module " + std::to_string(i);
            p.origin = {0.05, 0.008, i == 0 ? -0.010 : 0.002}; // 2 mm wide gap at z = 0..2
            p.fast = {0, 0, 1};
            p.slow = {0, -1, 0};
            p.pixelSizeFast = p.pixelSizeSlow = 0.4e-3;
            p.fastPixels = 20;
            p.slowPixels = 40;
            e.detector.panels.push_back(p);
        }
        e.detector.distance = 80e-3;
        e.detector.distanceStated = true;
        const Flat flat(e);
        QCOMPARE(int(flat.resolved.panels.size()), 2);
        QCOMPARE(flat.resolved.panels[1].name, std::string("module 1"));
        QVERIFY(std::abs(flat.resolved.panels[0].closeDistance() - 0.08) < 1e-15);
        QCOMPARE(flat.plan.fastPixels, 20);
        QCOMPARE(flat.plan.slowPixels, 80);
        const std::vector<float> image = render(flat.plan, Precision::Fast);
        QCOMPARE(int(image.size()), 20 * 80);
        QVERIFY(*std::max_element(image.begin(), image.end()) > 0.0f);
    }

    void refusesWhatItCannotDraw() {
        Flat flat(experiment(16, 16, 60e-3, 0, 0));
        bv::plan::Plan plan = flat.plan;
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::plan::stackPanels(plan, {}));
        bv::plan::PanelEntry empty = flat.panel();
        empty.fastPixels = 0;
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::plan::stackPanels(plan, {flat.panel(), empty}));

        bv::Experiment curved = experiment(16, 16, 60e-3, 0, 0);
        curved.detector.curved = true;
        Flat sphere(curved);
        bv::plan::stackPanels(sphere.plan, {sphere.panel(), sphere.panel()});
        try {
            render(sphere.plan, Precision::Fast);
            QFAIL("a curved detector of panels was drawn");
        } catch (const bv::Error& error) {
            QVERIFY2(QString(error.what()).contains("curved"), error.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestPanels)
#include "tst_panels.moc"
