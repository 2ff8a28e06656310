// statistics: the max/mean/rms/rmsd summary nanoBragg prints, on small hand-made images.

#include "compute/io/ImageStatistics.h"
#include "compute/core/Error.h"

#include <QTest>

#include <cmath>

namespace {

const std::vector<std::uint16_t> kNoMask;

} // namespace

class TestImageStatistics : public QObject {
    Q_OBJECT
  private slots:
    void twoByTwo() {
        // 1 2 / 3 4 (fast across): max 4 at pixel (1,1), 0.1 mm pixels
        const auto s =
            bv::io::statistics({1, 2, 3, 4}, 2, 2, bv::io::Roi::whole(2, 2), kNoMask, 0.0001, 1);
        QCOMPARE(s.maxI, 4.0);
        QCOMPARE(s.maxFast, 0.0001 * 1 + 0.00005); // pixel centre
        QCOMPARE(s.maxSlow, 0.0001 * 1 + 0.00005);
        QCOMPARE(s.count, 4L);
        QCOMPARE(s.mean, 2.5);
        QCOMPARE(s.rms, std::sqrt(30.0 / 3.0));                         // n-1
        QCOMPARE(s.rmsd, std::sqrt((2.25 + 0.25 + 0.25 + 2.25) / 3.0)); // n-1
    }

    void maxIsReportedAtTheLastSubpixel_data() {
        QTest::addColumn<int>("oversample");
        QTest::addColumn<double>("fast");
        QTest::addColumn<double>("slow");
        // image max at fast 2, slow 1; pixel 0.1 mm; sub-pixel = 0.1/oversample mm
        QTest::newRow("1") << 1 << 0.00025 << 0.00015;
        // 0.05 mm * (2*2+1) + 0.025 mm
        QTest::newRow("2") << 2 << 0.000275 << 0.000175;
        // 0.025 mm * (2*4+3) + 0.0125 mm
        QTest::newRow("4") << 4 << 0.0002875 << 0.0001875;
    }
    void maxIsReportedAtTheLastSubpixel() {
        QFETCH(int, oversample);
        QFETCH(double, fast);
        QFETCH(double, slow);
        const std::vector<float> image = {0, 1, 2, 3, 4, 5, 9, 6};
        const auto s =
            bv::io::statistics(image, 4, 2, bv::io::Roi::whole(4, 2), kNoMask, 0.0001, oversample);
        QCOMPARE(s.maxI, 9.0);
        QVERIFY(std::abs(s.maxFast - fast) < 1e-15);
        QVERIFY(std::abs(s.maxSlow - slow) < 1e-15);
    }

    void firstOfEqualMaximaWins() {
        const auto s =
            bv::io::statistics({1, 7, 7, 7}, 2, 2, bv::io::Roi::whole(2, 2), kNoMask, 1.0, 1);
        QCOMPARE(s.maxFast, 1.5);
        QCOMPARE(s.maxSlow, 0.5);
    }

    void maskedPixelsCountOnlyInRmsd() {
        // pixel 3 masked (0): mean and rms over 1, 2, 4; rmsd over all four about that mean
        const std::vector<float> image = {1, 2, 30, 4};
        const std::vector<std::uint16_t> mask = {1, 1, 0, 1};
        const auto s = bv::io::statistics(image, 2, 2, bv::io::Roi::whole(2, 2), mask, 1.0, 1);
        const double mean = 7.0 / 3.0;
        QCOMPARE(s.count, 3L);
        QCOMPARE(s.maxI, 4.0);
        QCOMPARE(s.mean, mean);
        QCOMPARE(s.rms, std::sqrt(21.0 / 2.0));
        const double squares = (1 - mean) * (1 - mean) + (2 - mean) * (2 - mean) +
                               (30 - mean) * (30 - mean) + (4 - mean) * (4 - mean);
        QCOMPARE(s.rmsd, std::sqrt(squares / 3.0));
    }

    void roiLimitsEverything() {
        // ROI = second row only (inclusive bounds)
        const auto s =
            bv::io::statistics({100, 100, 1, 3}, 2, 2, bv::io::Roi{0, 1, 1, 1}, kNoMask, 1.0, 1);
        QCOMPARE(s.maxI, 3.0);
        QCOMPARE(s.count, 2L);
        QCOMPARE(s.mean, 2.0);
        QCOMPARE(s.rmsd, std::sqrt(2.0 / 1.0));
    }

    void guardsForTinySamples() {
        // one pixel: n-1 would be 0, the reference divides by 1 instead
        const auto one = bv::io::statistics({5}, 1, 1, bv::io::Roi::whole(1, 1), kNoMask, 1, 1);
        QCOMPARE(one.mean, 5.0);
        QCOMPARE(one.rms, 5.0);
        QCOMPARE(one.rmsd, 0.0);
        // nothing in the ROI: zeros, and max_I at 0 0
        const auto none = bv::io::statistics({5, 6}, 2, 1, bv::io::Roi{5, 6, 0, 0}, kNoMask, 1, 1);
        QCOMPARE(none.count, 0L);
        QCOMPARE(none.maxI, 0.0);
        QCOMPARE(none.maxFast, 0.0);
        QCOMPARE(none.mean, 0.0);
        QCOMPARE(none.rms, 0.0);
        // a blank image: max_I stays 0 (only values above 0 count)
        const auto blank =
            bv::io::statistics({0, 0}, 2, 1, bv::io::Roi::whole(2, 1), kNoMask, 1, 1);
        QCOMPARE(blank.maxI, 0.0);
        QCOMPARE(blank.maxFast, 0.0);
    }

    void formatsLikeTheReference() {
        bv::io::ImageStatistics s;
        s.maxI = 154.6521;
        s.maxFast = 0.00645;
        s.maxSlow = 0.0065;
        s.mean = 6.852094;
        s.rms = 21.84412;
        s.rmsd = 20.74153;
        QCOMPARE(bv::io::formatStatistics(s),
                 std::string("max_I = 154.652  at 0.00645 0.0065\n"
                             "mean= 6.85209 rms= 21.8441 rmsd= 20.7415\n"));
    }

    void badArguments() {
        const bv::io::Roi roi = bv::io::Roi::whole(2, 2);
        QVERIFY_THROWS_EXCEPTION(bv::Error,
                                 bv::io::statistics({1, 2, 3}, 2, 2, roi, kNoMask, 1, 1));
        QVERIFY_THROWS_EXCEPTION(bv::Error,
                                 bv::io::statistics({1, 2, 3, 4}, 2, 2, roi, {1, 1}, 1, 1));
        QVERIFY_THROWS_EXCEPTION(bv::Error,
                                 bv::io::statistics({1, 2, 3, 4}, 2, 2, roi, kNoMask, 1, 0));
    }
};

QTEST_APPLESS_MAIN(TestImageStatistics)
#include "tst_imagestatistics.moc"
