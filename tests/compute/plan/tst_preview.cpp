// The viewer's preview sampling (compute/plan/Preview.h): which loops a preview thins, in
// which order, and what the thinned experiment keeps. Numbers worked by hand.

#include "compute/request/RunRequest.h"
#include "compute/plan/Preview.h"
#include "compute/plan/RunCost.h"
#include "tests/TestResolve.h"

#include <QTest>

#include <string>
#include <vector>

Q_DECLARE_METATYPE(bv::plan::SamplingCounts)

namespace {

using bv::plan::SamplingCounts;

// a 100 A cubic cell on 100 x 100 pixels, then `options`
bv::ResolvedExperiment resolvedOf(const char* options) {
    return bv::testing::resolvedOf(
        QStringLiteral("-cell 100 100 100 90 90 90 -default_F 100 -detpixels 100 ") +
        QLatin1String(options));
}

SamplingCounts counts(int oversample, int domains, int phiSteps, int sources, int layers) {
    SamplingCounts c;
    c.oversample = oversample;
    c.domains = domains;
    c.phiSteps = phiSteps;
    c.sources = sources;
    c.layers = layers;
    return c;
}

} // namespace

class TestPreview : public QObject {
    Q_OBJECT
  private slots:
    // The budget affords rate x budget / pixels steps per pixel; the loops are thinned in
    // the fixed order sub-pixels, domains, phi steps, sources, layers, each down to one
    // before the next, the last only as far as needed.
    void reducesInOrderUntilItFits_data() {
        QTest::addColumn<SamplingCounts>("exact");
        QTest::addColumn<qulonglong>("pixels");
        QTest::addColumn<double>("stepsPerMs");
        QTest::addColumn<double>("budgetMs");
        QTest::addColumn<SamplingCounts>("preview");
        // 2^2 x 8 = 32 steps; 1000 pixels at 1000 steps/ms in 100 ms afford 100 a pixel
        QTest::newRow("fits: unchanged") << counts(2, 8, 1, 1, 1) << qulonglong(1000) << 1000.0
                                         << 100.0 << counts(2, 8, 1, 1, 1);
        // 3^2 x 8 = 72 > 40 afforded; oversample 2: 4 x 8 = 32 fits
        QTest::newRow("fewer sub-pixels")
            << counts(3, 8, 1, 1, 1) << qulonglong(1000) << 1000.0 << 40.0 << counts(2, 8, 1, 1, 1);
        // 5 afforded: oversample 1 leaves 8 domains = 8 > 5; 5 would fit, the ladder's 4 is taken
        QTest::newRow("then domains")
            << counts(3, 8, 1, 1, 1) << qulonglong(1000) << 1000.0 << 5.0 << counts(1, 4, 1, 1, 1);
        // 100 domains, 11 afforded: the ladder below 11 is 8 (1, 2, 3, 4, 6, 8, 12, ...)
        QTest::newRow("domains on the ladder")
            << counts(1, 100, 1, 1, 1) << qulonglong(10) << 11.0 << 10.0 << counts(1, 8, 1, 1, 1);
        // 24 afforded of 100: 24 is on the ladder (3 x 8)
        QTest::newRow("a rung of three")
            << counts(1, 100, 1, 1, 1) << qulonglong(10) << 24.0 << 10.0 << counts(1, 24, 1, 1, 1);
        // the demo's 512^2 pixels at 5e4 steps/ms in 100 ms: 5e6 / 262144 = 19.07 a pixel;
        // oversample 2 x 8 domains = 32 does not fit, oversample 1 x 8 does
        QTest::newRow("512^2, 8 domains") << counts(2, 8, 1, 1, 1) << qulonglong(512 * 512) << 5e4
                                          << 100.0 << counts(1, 8, 1, 1, 1);
        // 2^2 x 10 x 6 x 9 x 3 = 6480; 20 afforded: oversample 1 -> 1620; domains 1 -> 162;
        // phi 1 -> 27; sources: 3 layers each, floor(20 / 3) = 6 -> 18
        QTest::newRow("down to the sources")
            << counts(2, 10, 6, 9, 3) << qulonglong(100) << 100.0 << 20.0 << counts(1, 1, 1, 6, 3);
        // 5 layers alone, 3 afforded
        QTest::newRow("layers last")
            << counts(1, 1, 1, 1, 5) << qulonglong(10) << 3.0 << 10.0 << counts(1, 1, 1, 1, 3);
        // half a step a pixel: nothing fits, everything goes to one
        QTest::newRow("nothing fits")
            << counts(4, 3, 2, 5, 2) << qulonglong(1000) << 5.0 << 100.0 << counts(1, 1, 1, 1, 1);
        // no rate (0) or no pixels: no preview
        QTest::newRow("no rate") << counts(3, 8, 1, 1, 1) << qulonglong(1000) << 0.0 << 100.0
                                 << counts(3, 8, 1, 1, 1);
    }
    void reducesInOrderUntilItFits() {
        QFETCH(SamplingCounts, exact);
        QFETCH(qulonglong, pixels);
        QFETCH(double, stepsPerMs);
        QFETCH(double, budgetMs);
        QFETCH(SamplingCounts, preview);
        const SamplingCounts got = bv::plan::previewCounts(exact, pixels, stepsPerMs, budgetMs);
        QCOMPARE(got.oversample, preview.oversample);
        QCOMPARE(got.domains, preview.domains);
        QCOMPARE(got.phiSteps, preview.phiSteps);
        QCOMPARE(got.sources, preview.sources);
        QCOMPARE(got.layers, preview.layers);
    }

    void countsAreTheResolvedLoops() {
        // 3 sub-pixels, 5 domains, 4 phi steps, 3 wavelengths, 4 layers
        const bv::ResolvedExperiment r =
            resolvedOf("-oversample 3 -mosaic 0.5 -mosaic_domains 5 -phi 0 -osc 1 -phisteps 4 "
                       "-dispersion 10 -dispsteps 3 -detector_thick 100 -detector_thicksteps 4");
        const SamplingCounts c = bv::plan::samplingCounts(r);
        QCOMPARE(c.oversample, 3);
        QCOMPARE(c.domains, 5);
        QCOMPARE(c.phiSteps, 4);
        QCOMPARE(c.sources, 3);
        QCOMPARE(c.layers, 4);
        // 4 x 9 x 3 x 4 x 5, as the run's cost counts them
        QCOMPARE(qulonglong(c.stepsPerPixel()), qulonglong(2160));
        QCOMPARE(qulonglong(bv::plan::runCost(bv::plan::makePlan(r, {})).stepsPerPixel),
                 qulonglong(2160));
    }

    // Thinning keeps the extent of every loop and the divisor follows the counts.
    void reducedSamplingKeepsTheExtent() {
        const bv::ResolvedExperiment r =
            resolvedOf("-oversample 3 -mosaic 0.5 -mosaic_domains 5 -phi 0 -osc 1 -phisteps 4 "
                       "-dispersion 10 -dispsteps 3 -detector_thick 100 -detector_thicksteps 4");
        const bv::ResolvedExperiment p = bv::plan::reduceSampling(r, counts(1, 2, 2, 2, 2));
        QCOMPARE(p.oversample, 1);
        // domains floor(0 x 5 / 2) = 0 and floor(1 x 5 / 2) = 2
        QCOMPARE(int(p.mosaicDomains.size()), 2);
        QVERIFY(p.mosaicDomains[0] == r.mosaicDomains[0]);
        QVERIFY(p.mosaicDomains[1] == r.mosaicDomains[2]);
        // sources floor(0 x 3 / 2) = 0 and floor(1 x 3 / 2) = 1
        QCOMPARE(int(p.sources.size()), 2);
        QCOMPARE(p.sources[0].wavelength, r.sources[0].wavelength);
        QCOMPARE(p.sources[1].wavelength, r.sources[1].wavelength);
        // phi: 1 degree in 4 steps of 0.25 -> 2 steps of 0.5 from the same phi0
        QCOMPARE(p.phi.steps, 2);
        QVERIFY(qFuzzyCompare(p.phi.step, 0.5 * M_PI / 180.0));
        QCOMPARE(p.phi0, r.phi0);
        // layers: 4 of 100/3 um stand for 133.3 um of sensor; 2 layers of 66.7 um
        QCOMPARE(p.thickness.steps, 2);
        QVERIFY(qFuzzyCompare(p.thickness.step, 200e-6 / 3.0));
        QCOMPARE(p.thickness.range, r.thickness.range);
        // the reference's divisor: 2 sources x 2 domains x 2 phi steps x 1
        QCOMPARE(p.steps(), 8L);
        // nothing else moves: the detector, the cell, the fluence
        QCOMPARE(p.detector.pixelSize, r.detector.pixelSize);
        QCOMPARE(p.detector.fastPixels, r.detector.fastPixels);
        QCOMPARE(p.fluence, r.fluence);
        QVERIFY(p.cell.a == r.cell.a);
    }

    void theExactCountsChangeNothing() {
        const bv::ResolvedExperiment r =
            resolvedOf("-oversample 2 -mosaic 0.5 -mosaic_domains 3 -phi 0 -osc 1 -phisteps 2");
        const bv::ResolvedExperiment p = bv::plan::reduceSampling(r, bv::plan::samplingCounts(r));
        QCOMPARE(p.oversample, r.oversample);
        QCOMPARE(p.mosaicDomains.size(), r.mosaicDomains.size());
        QCOMPARE(p.phi.step, r.phi.step);
        QCOMPARE(p.sources.size(), r.sources.size());
        QCOMPARE(p.steps(), r.steps());
    }

    void describesWhatIsLeftOut_data() {
        QTest::addColumn<SamplingCounts>("preview");
        QTest::addColumn<QString>("text");
        QTest::newRow("exact") << counts(2, 8, 3, 4, 2) << QString();
        QTest::newRow("sub-pixels and domains")
            << counts(1, 2, 3, 4, 2) << QStringLiteral("oversample 1 of 2, 2 of 8 mosaic domains");
        QTest::newRow("everything")
            << counts(1, 1, 1, 1, 1)
            << QStringLiteral("oversample 1 of 2, 1 of 8 mosaic domains, 1 of 3 phi steps, "
                              "1 of 4 sources, 1 of 2 sensor layers");
    }
    void describesWhatIsLeftOut() {
        QFETCH(SamplingCounts, preview);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(bv::plan::describePreview(counts(2, 8, 3, 4, 2), preview)),
                 text);
    }

    // How the next image runs (chooseRun): a 100 x 100 image of 2^2 x 8 x 3 x 4 x 2 = 768
    // steps per pixel is 7 680 000 pixel-steps; at 10 000 steps/ms that is 768 ms.
    void choosesTheExactImageUnlessAMovingValueWouldOverrunTheBudget_data() {
        QTest::addColumn<bool>("moving");
        QTest::addColumn<double>("rate");   // steps per ms; 0: none measured yet
        QTest::addColumn<double>("budget"); // ms
        QTest::addColumn<bool>("preview");
        QTest::newRow("at rest") << false << 1e4 << 100.0 << false;
        // moving, 768 ms > 100 ms: a preview
        QTest::newRow("moving, over budget") << true << 1e4 << 100.0 << true;
        // moving, 7.68 ms at 1e6 steps/ms fits: exact
        QTest::newRow("moving, fits") << true << 1e6 << 100.0 << false;
        QTest::newRow("no rate yet") << true << 0.0 << 100.0 << false;
        QTest::newRow("previews off") << true << 1e4 << 0.0 << false;
    }
    void choosesTheExactImageUnlessAMovingValueWouldOverrunTheBudget() {
        QFETCH(bool, moving);
        QFETCH(double, rate);
        QFETCH(double, budget);
        QFETCH(bool, preview);
        bv::plan::RunSituation s;
        s.exact = counts(2, 8, 3, 4, 2);
        s.pixels = 10000;
        if (rate > 0.0)
            s.stepsPerMillisecond = rate;
        s.moving = moving;
        s.budgetMilliseconds = budget;
        const SamplingCounts c = bv::plan::chooseRun(s);
        QCOMPARE(c != s.exact, preview);
        if (preview) // 1e6 steps in 100 ms over 1e4 pixels: 100 steps per pixel of 768
            QVERIFY(c.stepsPerPixel() <= 100);
    }
    // A GPU previews within a 60 Hz frame; a CPU device within half the 150 ms a change may
    // take (a value waits for the preview in flight, then its own).
    void theBudgetFollowsTheDevice() {
        QVERIFY(bv::plan::previewBudgetMilliseconds(false) < 1000.0 / 60.0);
        QVERIFY(bv::plan::previewBudgetMilliseconds(true) <= 150.0 / 2.0);
    }
};

QTEST_APPLESS_MAIN(TestPreview)
#include "tst_preview.moc"
