// The plan flattens the loops the shader runs: one orientation per (phi step, mosaic domain),
// one entry per source, the photon scale divided by the number of steps.

#include "compute/plan/Plan.h"
#include "compute/model/Units.h"

#include <QTest>
#include <sstream>

using bv::units::radiansFromDegrees;

namespace {
bv::Experiment cubic() {
    bv::Experiment e;
    e.crystal.cell = bv::UnitCell{100, 100, 100, 0, 0, 0};
    e.detector.setPixels(64, 64);
    e.structureFactors.defaultF = 100;
    return e;
}
bv::plan::Plan planFor(const bv::Experiment& e) {
    bv::random::ReferenceRandom rng;
    std::ostringstream log;
    return bv::plan::makePlan(bv::resolve(e, rng, log), e.mask);
}
} // namespace

class TestPlan : public QObject {
    Q_OBJECT
private slots:
    void stillShotHasOneOrientation() {
        const bv::plan::Plan p = planFor(cubic());
        QCOMPARE(p.orientations.size(), std::size_t(1));
        QCOMPARE(p.sources.size(), std::size_t(1));
        QCOMPARE(p.steps, 1L);
        // a = 100 A along x, in metres
        QVERIFY(std::fabs(p.orientations[0].a.x - 100e-10) < 1e-22);
        // MOSFLM beam along +x: the incident direction is +x
        QVERIFY(std::fabs(p.sources[0].incident.x - 1.0) < 1e-15);
    }

    void phiStepsRotateAboutTheSpindle() {
        // phi 0..90 in 2 steps (0 and 45 degrees) about MOSFLM's spindle z
        bv::Experiment e = cubic();
        e.crystal.phi = {radiansFromDegrees(90), {}, 2};
        const bv::plan::Plan p = planFor(e);
        QCOMPARE(p.orientations.size(), std::size_t(2));
        const glm::dvec3 a45 = p.orientations[1].a;
        QVERIFY(std::fabs(a45.x - 100e-10 * std::cos(radiansFromDegrees(45))) < 1e-22);
        QVERIFY(std::fabs(a45.y - 100e-10 * std::sin(radiansFromDegrees(45))) < 1e-22);
        QCOMPARE(p.steps, 2L);
    }

    void mosaicDomainsMultiplyOrientations() {
        bv::Experiment e = cubic();
        e.crystal.phi = {radiansFromDegrees(10), {}, 3};
        e.crystal.mosaicSpread = radiansFromDegrees(1);
        e.crystal.mosaicDomains = 4;
        const bv::plan::Plan p = planFor(e);
        QCOMPARE(p.orientations.size(), std::size_t(12));
        // the first domain of every phi step is the unturned crystal
        QVERIFY(glm::length(p.orientations[0].a - glm::dvec3(100e-10, 0, 0)) < 1e-22);
        // every domain keeps the cell's length (a rotation)
        for (const auto& o : p.orientations)
            QVERIFY(std::fabs(glm::length(o.a) - 100e-10) < 1e-20);
        // steps = sources * domains * phi steps * oversample^2
        QCOMPARE(p.steps, 12L);
    }

    void photonScaleIsElectronCrossSectionTimesFluencePerStep() {
        bv::Experiment e = cubic();
        e.beam.fluence = 1e24;
        e.sampling.oversample = 2;
        const bv::plan::Plan p = planFor(e);
        QCOMPARE(p.steps, 4L);
        // r_e^2 = 7.94079248018965e-30 m^2 (classical electron radius 2.8179403e-15 m, squared)
        QVERIFY(qFuzzyCompare(p.photonScale, 7.94079248018965e-30 * 1e24 / 4));
    }

    void distanceChangeLeavesOrientationsAlone() {
        bv::Experiment e = cubic();
        const bv::plan::Plan before = planFor(e);
        e.detector.distance = 150e-3;
        const bv::plan::Plan after = planFor(e);
        const unsigned parts = bv::plan::changedParts(before, after);
        QVERIFY(parts & bv::plan::FrameChanged);
        QVERIFY(!(parts & bv::plan::OrientationsChanged));
        QVERIFY(!(parts & bv::plan::SourcesChanged));
        QVERIFY(!(parts & bv::plan::ImageSizeChanged));
        e.crystal.missetAngles = {0.1, 0, 0};
        e.crystal.misset = bv::MissetKind::Angles;
        QVERIFY(bv::plan::changedParts(after, planFor(e)) & bv::plan::OrientationsChanged);
    }
};

QTEST_APPLESS_MAIN(TestPlan)
#include "tst_plan.moc"
