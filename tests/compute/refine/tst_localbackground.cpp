// The background a refinement estimates from the measured frame (compute/refine/
// LocalBackground.h), on made-up frames whose background is known: a plane rising across the
// frame with counted noise and bright spots on it; the spots' own pixels excluded and not;
// a tile wholly excluded, which takes its neighbours' level; two stacked panels whose levels
// differ, which must not bleed into each other.

#include "compute/refine/LocalBackground.h"

#include <QTest>

#include <cmath>
#include <random>

namespace {

constexpr int kWidth = 128, kHeight = 128;

// the background's truth: 20 counts at the left edge rising to 60 at the right
double truth(int x, int /*y*/) { return 20.0 + 40.0 * (x + 0.5) / kWidth; }

// the frame: Poisson counts of the plane, and a 5 x 5 spot of 2000 counts every 16 pixels
bv::io::MeasuredImage frame(std::vector<std::uint8_t>* spots) {
    bv::io::MeasuredImage m;
    m.width = kWidth;
    m.height = kHeight;
    m.pixels.resize(std::size_t(kWidth) * kHeight);
    m.hasData.assign(m.pixels.size(), 1);
    if (spots)
        spots->assign(m.pixels.size(), 0);
    std::mt19937 random(7);
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
            std::poisson_distribution<int> counts(truth(x, y));
            const std::size_t i = std::size_t(y) * kWidth + x;
            m.pixels[i] = static_cast<float>(counts(random));
            const bool spot = (x % 16) >= 6 && (x % 16) < 11 && (y % 16) >= 6 && (y % 16) < 11;
            if (spot) {
                m.pixels[i] += 2000.0f;
                if (spots)
                    (*spots)[i] = 1;
            }
        }
    return m;
}

// the largest difference from the truth over the pixels under the spots, and the mean one
double worstUnderSpots(const bv::refine::LocalBackground& b, const std::vector<std::uint8_t>& spots,
                       double* mean = nullptr) {
    double worst = 0.0, sum = 0.0;
    int n = 0;
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
            const std::size_t i = std::size_t(y) * kWidth + x;
            if (spots[i]) {
                worst = std::max(worst, std::abs(b.level[i] - truth(x, y)));
                sum += b.level[i] - truth(x, y);
                ++n;
            }
        }
    if (mean)
        *mean = sum / n;
    return worst;
}

} // namespace

class TestLocalBackground : public QObject {
    Q_OBJECT
  private slots:
    void planeUnderTheSpotsExcluded() {
        std::vector<std::uint8_t> spots;
        const bv::io::MeasuredImage m = frame(&spots);
        const bv::refine::LocalBackground b = bv::refine::localBackground(m, spots, {});
        QCOMPARE(b.tile, 32);
        QCOMPARE(b.tiles, 16);
        QCOMPARE(b.tilesFromNeighbours, 0);
        // a tile's mean of ~900 pixels of ~40 counts has a noise of a fifth of a count; the
        // interpolation of a plane is exact, and so is its extrapolation to the edges, with
        // the noise of the two outer tiles' difference carried up to half a tile out (in both
        // directions at a corner); no bias (held flat at the edges instead: 3.7 counts off)
        double mean = 0.0;
        const double worst = worstUnderSpots(b, spots, &mean);
        qInfo("under the spots: largest error %.3f counts, mean %.3f", worst, mean);
        QVERIFY(worst < 1.5);
        QVERIFY(std::abs(mean) < 0.2);
        for (int x = 0; x < kWidth; x += 5) {
            const double at = b.level[std::size_t(64) * kWidth + x];
            QVERIFY2(std::abs(at - truth(x, 64)) < 1.0, qPrintable(QString("x %1: %2 against %3")
                                                                       .arg(x).arg(at).arg(truth(x, 64))));
        }
    }

    void spotsClippedWhenNotExcluded() {
        // nothing excluded: the 2000-count spots (10 % of each tile) are clipped away
        std::vector<std::uint8_t> spots;
        const bv::io::MeasuredImage m = frame(&spots);
        const std::vector<std::uint8_t> none(m.pixels.size(), 0);
        const bv::refine::LocalBackground b = bv::refine::localBackground(m, none, {});
        QVERIFY(worstUnderSpots(b, spots) < 1.5);
        QVERIFY(std::abs(b.level[std::size_t(64) * kWidth + 64] - truth(64, 64)) < 1.0);
    }

    void tileWithoutPixelsTakesItsNeighbours() {
        std::vector<std::uint8_t> spots;
        bv::io::MeasuredImage m = frame(&spots);
        // the tile of columns and rows 32..63 has no data
        for (int y = 32; y < 64; ++y)
            for (int x = 32; x < 64; ++x)
                m.hasData[std::size_t(y) * kWidth + x] = 0;
        const bv::refine::LocalBackground b = bv::refine::localBackground(m, spots, {});
        QCOMPARE(b.tilesFromNeighbours, 1);
        // its 8 neighbours' mean: the plane at its centre's column (the neighbours to the
        // left and right balance)
        const double at = b.level[std::size_t(48) * kWidth + 48];
        QVERIFY2(std::abs(at - truth(48, 48)) < 1.0, qPrintable(QString::number(at)));
    }

    void offsetWithoutNoiseIsTheFramesPedestal() {
        // nanoBragg's SMV: a weak water background of half a photon, 40 counts added by its
        // ADC; a photon-counting detector's: 40 photons and no offset; a gain of two counts a
        // photon: 40 counts that vary as 80
        const auto made = [](auto count) {
            bv::io::MeasuredImage m;
            m.width = kWidth;
            m.height = kHeight;
            m.hasData.assign(std::size_t(kWidth) * kHeight, 1);
            std::mt19937 random(11);
            for (std::size_t i = 0; i < m.hasData.size(); ++i)
                m.pixels.push_back(static_cast<float>(count(random)));
            return m;
        };
        std::poisson_distribution<int> half(0.5), forty(40.0), twenty(20.0);
        const std::vector<std::uint8_t> none(std::size_t(kWidth) * kHeight, 0);
        const double adc = bv::refine::localBackground(
            made([&](std::mt19937& r) { return 40 + half(r); }), none, {}).pedestal;
        const double counting = bv::refine::localBackground(
            made([&](std::mt19937& r) { return forty(r); }), none, {}).pedestal;
        const double gain = bv::refine::localBackground(
            made([&](std::mt19937& r) { return 2 * twenty(r); }), none, {}).pedestal;
        qInfo("pedestal: ADC %.3f, counting %.3f, gain two %.3f", adc, counting, gain);
        // a tile's variance of ~1000 values: within a few per cent; the median of 16 tiles
        QVERIFY(std::abs(adc - 40.0) < 0.1);
        QVERIFY(counting < 2.0);
        QCOMPARE(gain, 0.0);
    }

    void stackedPanelsKeepTheirOwnLevels() {
        // two panels of 64 rows: 10 counts on the first, 100 on the second, no noise
        bv::io::MeasuredImage m;
        m.width = kWidth;
        m.height = kHeight;
        m.pixels.resize(std::size_t(kWidth) * kHeight);
        m.hasData.assign(m.pixels.size(), 1);
        for (int y = 0; y < kHeight; ++y)
            for (int x = 0; x < kWidth; ++x)
                m.pixels[std::size_t(y) * kWidth + x] = y < 64 ? 10.0f : 100.0f;
        const std::vector<std::uint8_t> none(m.pixels.size(), 0);
        const bv::refine::LocalBackground panels = bv::refine::localBackground(m, none, {64, 64});
        QCOMPARE(panels.level[std::size_t(63) * kWidth + 5], 10.0f);
        QCOMPARE(panels.level[std::size_t(64) * kWidth + 5], 100.0f);
        // as one panel the two would be interpolated into each other across the seam
        const bv::refine::LocalBackground one = bv::refine::localBackground(m, none, {});
        QVERIFY(one.level[std::size_t(63) * kWidth + 5] > 20.0f);
        // rows that do not add up to the image: one panel
        const bv::refine::LocalBackground wrong = bv::refine::localBackground(m, none, {64, 32});
        QCOMPARE(wrong.level, one.level);
    }
};

QTEST_APPLESS_MAIN(TestLocalBackground)
#include "tst_localbackground.moc"
