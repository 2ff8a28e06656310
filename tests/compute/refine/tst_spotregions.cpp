// The spots of a simulated image (compute/refine/SpotCentroids.h): the cores above 1 % of the
// 99.9th percentile of the pixels with data, their connected groups, and the cores grown by 3
// pixels into the fit's spot regions. A hand-made image whose answer is counted by hand, and
// made-up images whose answer a plain sort and a plain 7 x 7 box give.

#include "compute/refine/SpotCentroids.h"

#include <QTest>

#include <algorithm>
#include <random>

namespace {

struct Image {
    int width = 0, height = 0;
    std::vector<float> pixels;
    std::vector<std::uint8_t> hasData;
    float& at(int x, int y) { return pixels[static_cast<std::size_t>(y) * width + x]; }
};

Image flat(int width, int height, float level) {
    Image im{width, height, std::vector<float>(static_cast<std::size_t>(width) * height, level),
             std::vector<std::uint8_t>(static_cast<std::size_t>(width) * height, 1)};
    return im;
}

// the regions as the header describes them, written the plain way: the whole sort, the box
std::vector<std::uint8_t> plainRegions(const Image& im) {
    std::vector<float> sorted;
    for (std::size_t i = 0; i < im.pixels.size(); ++i)
        if (im.hasData[i])
            sorted.push_back(im.pixels[i]);
    std::sort(sorted.begin(), sorted.end());
    const std::size_t at = std::min(sorted.size() - 1, static_cast<std::size_t>(0.999 * double(sorted.size())));
    const float threshold = 0.01f * sorted[at];
    std::vector<std::uint8_t> grown(im.pixels.size(), 0);
    for (int y = 0; y < im.height; ++y)
        for (int x = 0; x < im.width; ++x) {
            const std::size_t i = static_cast<std::size_t>(y) * im.width + x;
            if (!(im.hasData[i] && im.pixels[i] > threshold && threshold > 0.0f))
                continue;
            for (int v = std::max(0, y - 3); v <= std::min(im.height - 1, y + 3); ++v)
                for (int u = std::max(0, x - 3); u <= std::min(im.width - 1, x + 3); ++u)
                    grown[static_cast<std::size_t>(v) * im.width + u] = 1;
        }
    return grown;
}

} // namespace

class TestSpotRegions : public QObject {
    Q_OBJECT
  private slots:
    // 60 x 40 pixels of 1 count; a pixel of 1000 at (10, 10), a 2 x 2 block of 500 at (30, 20),
    // a pixel of 800 in the corner (58, 38). Of 2400 pixels the 99.9th percentile (the 2398th
    // value) is one of the 500s, so cores are above 5 counts: the 6 bright pixels, 3 spots.
    // Grown by 3: 7 x 7 + 8 x 8 + 5 x 5 (cut by the image's edges) = 138 pixels.
    void threeSpotsCountedByHand() {
        Image im = flat(60, 40, 1.0f);
        im.at(10, 10) = 1000.0f;
        for (int y = 20; y < 22; ++y)
            for (int x = 30; x < 32; ++x)
                im.at(x, y) = 500.0f;
        im.at(58, 38) = 800.0f;
        const bv::refine::SpotRegions r = bv::refine::spotRegions(im.pixels, 60, 40, im.hasData);
        QCOMPARE(r.spots, 3);
        QCOMPARE(std::count(r.grown.begin(), r.grown.end(), 1), 138L);
        const auto label = [&](int x, int y) { return r.label[static_cast<std::size_t>(y) * 60 + x]; };
        const auto grown = [&](int x, int y) { return r.grown[static_cast<std::size_t>(y) * 60 + x]; };
        QCOMPARE(label(30, 20), label(31, 21)); // one block, one spot
        QVERIFY(label(10, 10) != label(30, 20) && label(58, 38) != label(30, 20));
        QCOMPARE(label(12, 10), -1); // in the region, not a core
        QCOMPARE(grown(13, 13), std::uint8_t(1));
        QCOMPARE(grown(14, 10), std::uint8_t(0));
        QCOMPARE(grown(55, 35), std::uint8_t(1));
        QCOMPARE(grown(54, 38), std::uint8_t(0));
    }

    // A model with a smooth background of its own (water): 2 to 3 counts rising across the
    // image, under three 3 x 3 spots of 100. The 99.9th percentile is a spot's 100, so 1 % of
    // it (1 count) lies under every background pixel: taken as they are, the whole image would
    // be one spot. Above each 32 x 32 tile's median (the background there, to within the
    // 0.5 count it rises across a tile) the three spots are found, and nothing else.
    void spotsAboveTheModelsOwnBackground() {
        Image im = flat(64, 64, 0.0f);
        for (int y = 0; y < 64; ++y)
            for (int x = 0; x < 64; ++x)
                im.at(x, y) = 2.0f + static_cast<float>(x) / 64.0f;
        const int centres[][2] = {{10, 10}, {40, 20}, {50, 50}};
        for (const auto& c : centres)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx)
                    im.at(c[0] + dx, c[1] + dy) += 100.0f;
        const bv::refine::SpotRegions r = bv::refine::spotRegions(im.pixels, 64, 64, im.hasData);
        QCOMPARE(r.spots, 3);
        QCOMPARE(std::count(r.grown.begin(), r.grown.end(), 1), 3L * 9 * 9); // each 3 + 2·3 a side
        for (const auto& c : centres)
            QVERIFY(r.label[static_cast<std::size_t>(c[1]) * 64 + c[0]] >= 0);
        QCOMPARE(r.label[static_cast<std::size_t>(30) * 64 + 30], -1);
    }

    // a pixel without data is neither counted in the percentile nor a core: a 2 x 2 block of
    // 1000 on 1 count is the 99.9th percentile (the 2397th of 2399 values) and the one spot;
    // the 1e6 without data would have been a second
    void pixelsWithoutDataLeftOut() {
        Image im = flat(60, 40, 1.0f);
        for (int y = 10; y < 12; ++y)
            for (int x = 10; x < 12; ++x)
                im.at(x, y) = 1000.0f;
        im.at(40, 30) = 1e6f;
        im.hasData[static_cast<std::size_t>(30) * 60 + 40] = 0;
        const bv::refine::SpotRegions r = bv::refine::spotRegions(im.pixels, 60, 40, im.hasData);
        QCOMPARE(r.spots, 1);
        QCOMPARE(r.grown[static_cast<std::size_t>(30) * 60 + 40], std::uint8_t(0));
    }

    // images of many values over decades (spots of every height on a noisy background, some
    // pixels without data, negative ones too): the same regions as the plain sort and box
    // (whose threshold is the image's own: the background's floor is 0 here)
    void sameAsThePlainWay_data() {
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::newRow("300 x 200") << 1 << 300 << 200;
        QTest::newRow("517 x 333") << 2 << 517 << 333;
        QTest::newRow("1024 x 64") << 3 << 1024 << 64;
    }
    void sameAsThePlainWay() {
        QFETCH(int, seed);
        QFETCH(int, width);
        QFETCH(int, height);
        std::mt19937 random(static_cast<unsigned>(seed));
        std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
        Image im = flat(width, height, 0.0f);
        for (std::size_t i = 0; i < im.pixels.size(); ++i) {
            const float u = uniform(random);
            // a background whose quarter is at most 0 (its floor, which the regions are
            // sought above, is 0 in every tile), so that the plain threshold applies as it is
            const float b = uniform(random);
            im.pixels[i] = u < 0.003f  ? std::pow(10.0f, 1.0f + 5.0f * uniform(random))
                           : b < 0.05f ? -2.0f * uniform(random)
                           : b < 0.35f ? 0.0f
                                       : 18.0f * uniform(random);
            im.hasData[i] = uniform(random) < 0.97f;
        }
        const bv::refine::SpotRegions r =
            bv::refine::spotRegions(im.pixels, width, height, im.hasData);
        QVERIFY(r.spots > 10);
        QVERIFY(r.grown == plainRegions(im));
    }
};

QTEST_GUILESS_MAIN(TestSpotRegions)
#include "tst_spotregions.moc"
