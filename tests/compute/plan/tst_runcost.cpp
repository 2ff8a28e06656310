// How long a run will take (compute/plan/RunCost.h): its work counted from the plan, and the
// time from the rate of earlier runs. Numbers worked by hand.

#include "compute/cli/CommandLine.h"
#include "compute/plan/RunCost.h"

#include <QTest>

#include <sstream>
#include <string>
#include <vector>

namespace {

bv::plan::Plan planOf(const std::vector<std::string>& args) {
    const bv::RunRequest cl = bv::cli::parseCommandLine(args);
    bv::random::ReferenceRandom rng;
    std::ostringstream log;
    return bv::plan::makePlan(bv::resolve(cl.experiment, rng, log), cl.experiment.mask);
}

const std::vector<std::string> kCubic = {"-cell", "100",        "100", "100",        "90", "90",
                                         "90",    "-default_F", "100", "-detpixels", "100"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

} // namespace

class TestRunCost : public QObject {
    Q_OBJECT
  private slots:
    // steps per pixel: sensor layers x sub-pixels^2 x sources x (phi steps x mosaic domains)
    void stepsCountEveryLoop_data() {
        QTest::addColumn<QString>("options");
        QTest::addColumn<qulonglong>("steps");
        QTest::newRow("one step") << "-oversample 1" << qulonglong(1);
        QTest::newRow("oversample 3: 9 sub-pixels") << "-oversample 3" << qulonglong(9);
        QTest::newRow("4 phi steps x 5 domains")
            << "-oversample 1 -phi 0 -osc 1 -phisteps 4 -mosaic 0.5 -mosaic_domains 5"
            << qulonglong(20);
        QTest::newRow("2 layers x 4 sub-pixels x 3 phi steps")
            << "-oversample 2 -detector_thick 100 -detector_thicksteps 2 -phi 0 -osc 1 -phisteps 3"
            << qulonglong(24);
    }
    void stepsCountEveryLoop() {
        QFETCH(QString, options);
        QFETCH(qulonglong, steps);
        std::vector<std::string> more;
        for (const QString& w : options.split(' ', Qt::SkipEmptyParts))
            more.push_back(w.toStdString());
        const bv::plan::RunCost c = bv::plan::runCost(planOf(with(kCubic, more)));
        QCOMPARE(qulonglong(c.stepsPerPixel), steps);
        QCOMPARE(qulonglong(c.pixels), qulonglong(100 * 100));
    }

    void theRoiIsThePixelsComputed() {
        // columns 10..29 and rows 0..4: 20 x 5
        const bv::plan::RunCost c = bv::plan::runCost(
            planOf(with(kCubic, {"-oversample", "1", "-roi", "10", "29", "0", "4"})));
        QCOMPARE(qulonglong(c.pixels), qulonglong(100));
    }

    void timeFollowsTheMedianRate() {
        bv::plan::RateEstimate rate;
        QVERIFY(!rate.milliseconds({1000, 1}).has_value()); // nothing measured yet
        // 1e6 steps in 10 ms, then 4e6 in 20 ms, then 3e6 in 10 ms: rates 1e5, 2e5, 3e5 per ms
        rate.add({1000, 1000}, 10.0);
        rate.add({2000, 2000}, 20.0);
        rate.add({3000, 1000}, 10.0);
        QCOMPARE(*rate.stepsPerMillisecond(), 2e5);
        // 1024^2 pixels x 100 steps at 2e5 steps/ms
        QCOMPARE(*rate.milliseconds({1024 * 1024, 100}), 1024.0 * 1024.0 * 100.0 / 2e5);
        // one disturbed run (a tenth of the rate) moves the median to between 1e5 and 2e5
        rate.add({1000, 1000}, 100.0);
        QCOMPARE(*rate.stepsPerMillisecond(), 1.5e5);
    }

    void smallRunsAreNotMeasured() {
        bv::plan::RateEstimate rate;
        rate.add({64 * 64, 1}, 0.05); // 4096 steps: the dispatch's overhead, not a rate
        rate.add({1000000, 1}, 0.0);  // no GPU time (no timestamps)
        QVERIFY(!rate.stepsPerMillisecond().has_value());
    }

    void onlyTheLastRunsCount() {
        bv::plan::RateEstimate rate;
        for (int i = 0; i < 10; ++i)
            rate.add({1000, 1000}, 1.0); // 1e6 steps/ms: an earlier, faster device
        for (std::size_t i = 0; i < bv::plan::RateEstimate::kRuns; ++i)
            rate.add({1000, 1000}, 100.0); // 1e4
        QCOMPARE(*rate.stepsPerMillisecond(), 1e4);
    }
};

QTEST_GUILESS_MAIN(TestRunCost)
#include "tst_runcost.moc"
