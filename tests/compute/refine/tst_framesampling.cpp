// The oversampling of a fit that lets it follow the crystal (refine::fitFindingSampling): a
// frame made by nanoBragg's automatic rule was sampled as its own crystal's size says, so a
// fit that moves the size across one of the rule's steps fits again with the fitted crystal's
// oversampling; a stated -oversample, or a size held, is left alone. The fits here are
// stand-ins that report a crystal of 20 cells (no GPU): what is tested is which fits are asked
// for, and with what. The search of the frame's phi sampling renders its candidates at the
// pixels it compares, and nowhere else.

#include "compute/model/Units.h"
#include "compute/refine/FrameSampling.h"

#include <QTest>

#include <algorithm>
#include <utility>

namespace {

// a small crystal on the default detector: nanoBragg's rule gives it few sub-pixels
bv::Experiment stated(double cells) {
    bv::Experiment e;
    e.crystal.cell = bv::UnitCell{50.0, 60.0, 70.0, 0.0, 0.0, 0.0};
    e.crystal.cells = glm::dvec3(cells);
    e.beam.wavelength = 1e-10;
    return e;
}

struct Calls {
    std::vector<int> oversamples;    // of each fit's start
    std::vector<double> startCells;  // likewise
};

// a fit that finds 20 cells whatever it starts from
bv::refine::FitFrom fitFinding20(Calls& calls) {
    return [&calls](const bv::Experiment& start, const std::vector<std::string>&, bool) {
        calls.oversamples.push_back(start.sampling.oversample.value_or(-1));
        calls.startCells.push_back(start.crystal.cells.x);
        bv::refine::FitReport report;
        report.refined = start;
        report.refined.crystal.cells = glm::dvec3(20.0);
        report.renders = 1;
        return report;
    };
}

const bv::refine::ForwardModel noImage = [](const bv::Experiment&) { return std::vector<float>(); };

constexpr int kSide = 64;

// four spots of nine pixels on an empty frame
std::vector<float> fourSpots() {
    std::vector<float> image(kSide * kSide, 0.0f);
    const std::pair<int, int> centres[] = {{10, 12}, {40, 20}, {25, 50}, {52, 48}};
    for (const auto& [x, y] : centres)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
                image[(y + dy) * kSide + x + dx] = dx == 0 && dy == 0 ? 400.0f : 120.0f;
    return image;
}

} // namespace

class TestFrameSampling : public QObject {
    Q_OBJECT
  private slots:
    void theRuleGrowsWithTheCrystal() {
        const int small = bv::refine::automaticOversampling(stated(3.0));
        const int large = bv::refine::automaticOversampling(stated(20.0));
        qInfo("nanoBragg's automatic oversampling: 3 cells %d, 20 cells %d", small, large);
        QVERIFY(small >= 1);
        QVERIFY(large > small);
        // a stated -oversample is set aside: the rule's own answer
        bv::Experiment told = stated(20.0);
        told.sampling.oversample = 1;
        QCOMPARE(bv::refine::automaticOversampling(told), large);
    }

    void followsTheFittedSizeWhereTheRuleDecides() {
        bv::Experiment start = stated(3.0);
        start.sampling.oversample = bv::refine::automaticOversampling(start); // canonicalStart's
        const std::vector<std::string> groups = {"ncells"};
        QVERIFY(bv::refine::followsCrystalOversampling(stated(3.0), groups));
        Calls calls;
        const bv::refine::SampledFit f = bv::refine::fitFindingSampling(
            stated(3.0), start, groups, {}, fitFinding20(calls), noImage);
        const int fitted = bv::refine::automaticOversampling(stated(20.0));
        // the user's fit, then the same from the same start with the fitted crystal's
        QCOMPARE(calls.oversamples, (std::vector<int>{*start.sampling.oversample, fitted}));
        QCOMPARE(calls.startCells, (std::vector<double>{3.0, 3.0}));
        QVERIFY(f.oversampling);
        QCOMPARE(f.oversampling->first, *start.sampling.oversample);
        QCOMPARE(f.oversampling->second, fitted);
        QCOMPARE(*f.report.refined.sampling.oversample, fitted);
        QCOMPARE(f.report.renders, 2); // both fits' renderings counted
    }

    void statedOversamplingOrHeldSizeIsKept() {
        Calls told;
        bv::Experiment withOversample = stated(3.0);
        withOversample.sampling.oversample = 2;
        QVERIFY(!bv::refine::followsCrystalOversampling(withOversample, {"ncells"}));
        const bv::refine::SampledFit a = bv::refine::fitFindingSampling(
            withOversample, withOversample, {"ncells"}, {}, fitFinding20(told), noImage);
        QCOMPARE(told.oversamples, std::vector<int>{2});
        QVERIFY(!a.oversampling);

        Calls held;
        bv::Experiment start = stated(3.0);
        start.sampling.oversample = bv::refine::automaticOversampling(start);
        QVERIFY(!bv::refine::followsCrystalOversampling(stated(3.0), {"distance"}));
        const bv::refine::SampledFit b = bv::refine::fitFindingSampling(
            stated(3.0), start, {"distance"}, {}, fitFinding20(held), noImage);
        QCOMPARE(held.oversamples.size(), std::size_t(1));
        QVERIFY(!b.oversampling);
    }

    void candidatesAreRenderedWhereTheyAreCompared() {
        // the frame: the model's spots on 5 counts of background
        bv::io::MeasuredImage measured;
        measured.format = "SMV";
        measured.width = measured.height = kSide;
        measured.pixels = fourSpots();
        for (float& p : measured.pixels)
            p += 5.0f;
        measured.hasData.assign(measured.pixels.size(), 1);
        // a fitted crystal on a 0.5 degree oscillation; the model draws the same spots
        // whatever it is asked, and keeps the mask each rendering was asked with
        bv::Experiment fitted = stated(10.0);
        fitted.crystal.phi.range = bv::units::radiansFromDegrees(0.5);
        fitted.crystal.mosflmMatrix =
            glm::dmat3(1.0 / 50.0, 0.0, 0.0, 0.0, 1.0 / 60.0, 0.0, 0.0, 0.0, 1.0 / 70.0);
        std::vector<std::vector<std::uint16_t>> masks;
        const bv::refine::ForwardModel spots = [&masks](const bv::Experiment& e) {
            masks.push_back(e.mask);
            return fourSpots();
        };
        const bv::refine::FrameSampling found =
            bv::refine::searchFrameSampling(fitted, fitted, measured, spots, true, false);
        qInfo("%zu renderings; %zu pixels compared of %d", masks.size(), found.pixels,
              kSide * kSide);
        // the fitted image, whole, finds the spot regions; every candidate after it is
        // rendered at those pixels alone (the four spots, grown by a few pixels)
        QVERIFY(masks.size() > 10);
        QVERIFY(masks.front().empty());
        QVERIFY(found.pixels >= 4 * 9 && found.pixels < std::size_t(kSide * kSide / 4));
        for (std::size_t k = 1; k < masks.size(); ++k) {
            QCOMPARE(masks[k].size(), std::size_t(kSide * kSide));
            QCOMPARE(std::size_t(std::count(masks[k].begin(), masks[k].end(), 1)), found.pixels);
            QCOMPARE(masks[k][12 * kSide + 10], std::uint16_t(1)); // a spot's centre
            QCOMPARE(masks[k][0], std::uint16_t(0));               // the empty corner
        }
        // the experiment's own mask is kept: a pixel it masks is not rendered
        masks.clear();
        fitted.mask.assign(kSide * kSide, 1);
        fitted.mask[12 * kSide + 10] = 0;
        bv::refine::searchFrameSampling(fitted, fitted, measured, spots, true, false);
        QVERIFY(masks.size() > 10);
        QCOMPARE(masks[0], fitted.mask);
        for (std::size_t k = 1; k < masks.size(); ++k) {
            QCOMPARE(masks[k][12 * kSide + 10], std::uint16_t(0));
            QCOMPARE(masks[k][12 * kSide + 11], std::uint16_t(1));
        }
    }
};

QTEST_APPLESS_MAIN(TestFrameSampling)
#include "tst_framesampling.moc"
