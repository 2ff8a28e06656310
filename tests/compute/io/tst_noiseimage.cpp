// noiseImage: Poisson photons + pedestal per ROI pixel, drawn in the reference's order.

#include "compute/io/NoiseImage.h"
#include "compute/core/Error.h"

#include <QTest>

class TestNoiseImage : public QObject {
    Q_OBJECT
  private slots:
    void sameSeedSameImage() {
        const std::vector<float> image = {0.5f, 3.0f, 20.0f, 150.0f, 0.0f, 7.5f};
        bv::random::ReferenceRandom rngA, rngB;
        long seedA = -42, seedB = -42;
        const auto a = bv::io::noiseImage(rngA, seedA, image, 3, 2, 40.0, bv::io::Roi::whole(3, 2));
        const auto b = bv::io::noiseImage(rngB, seedB, image, 3, 2, 40.0, bv::io::Roi::whole(3, 2));
        QCOMPARE(a.data, b.data);
        QCOMPARE(seedA, seedB);
        QVERIFY(seedA > 0); // ran1 made the seed positive when it reloaded its table
    }

    void photonsAreTheDeviatesWithoutPedestal() {
        std::vector<float> image(64, 30.0f);
        bv::random::ReferenceRandom rng;
        long seed = -7;
        const auto noise =
            bv::io::noiseImage(rng, seed, image, 8, 8, 40.0, bv::io::Roi::whole(8, 8));
        double sum = 0.0;
        for (std::uint16_t pixel : noise.data) {
            QVERIFY(pixel >= 40);
            sum += pixel - 40.0;
        }
        QCOMPARE(noise.photons, sum);
        QCOMPARE(noise.overloads, 0);
    }

    void darkPixelsHoldThePedestal() {
        bv::random::ReferenceRandom rng;
        long seed = -1;
        const auto noise = bv::io::noiseImage(rng, seed, std::vector<float>(4, 0.0f), 2, 2, 40.0,
                                              bv::io::Roi::whole(2, 2));
        QCOMPARE(noise.data, std::vector<std::uint16_t>(4, 40));
        QCOMPARE(noise.photons, 0.0);
    }

    void overloadsAreClippedAndCounted() {
        bv::random::ReferenceRandom rng;
        long seed = -3;
        // 1e7 photons: far above 65535 whatever the deviate
        const auto noise =
            bv::io::noiseImage(rng, seed, {1e7f, 1.0f}, 2, 1, 40.0, bv::io::Roi::whole(2, 1));
        QCOMPARE(noise.data[0], std::uint16_t(65535));
        QCOMPARE(noise.overloads, 1);
        QVERIFY(noise.photons > 9e6);
    }

    void onlyRoiPixelsDrawNumbers() {
        // outside the ROI: 0, and no deviate is drawn (the next draws match a smaller image)
        const std::vector<float> image = {5, 6, 7, 8};
        bv::random::ReferenceRandom rngA, rngB;
        long seedA = -11, seedB = -11;
        const auto roi =
            bv::io::noiseImage(rngA, seedA, image, 2, 2, 40.0, bv::io::Roi{1, 1, 0, 1});
        const auto column =
            bv::io::noiseImage(rngB, seedB, {6, 8}, 1, 2, 40.0, bv::io::Roi::whole(1, 2));
        QCOMPARE(roi.data[0], std::uint16_t(0));
        QCOMPARE(roi.data[2], std::uint16_t(0));
        QCOMPARE(roi.data[1], column.data[0]);
        QCOMPARE(roi.data[3], column.data[1]);
    }

    void sizeMismatchIsAnError() {
        bv::random::ReferenceRandom rng;
        long seed = -1;
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::io::noiseImage(rng, seed, {1, 2, 3}, 2, 2, 40.0,
                                                               bv::io::Roi::whole(2, 2)));
    }
};

QTEST_APPLESS_MAIN(TestNoiseImage)
#include "tst_noiseimage.moc"
