// The reference's output files, reproduced from its own float image: given
// golden/noise_int_pgm/float.bin, the statistics lines, int.img and image.pgm must equal what
// nanoBragg wrote byte for byte, and noise.img must match in its header and almost every pixel
// (the Poisson deviates go through exp/log/tan of the C library, which may round differently).

#include "compute/io/FloatImageFile.h"
#include "compute/io/ImageStatistics.h"
#include "compute/io/IntImage.h"
#include "compute/io/NoiseImage.h"
#include "compute/io/PgmFile.h"
#include "compute/io/PrintfFormat.h"
#include "compute/io/Smv.h"

#include "GoldenNoiseIntPgm.h"

#include <QTemporaryDir>
#include <QTest>

namespace {

// nanoBragg's default ROI: "roi: 0 < x < 128 && 0 < y < 128" (xmax = fpixels, harmless)
const bv::io::Roi kRoi{0, golden::kPixels, 0, golden::kPixels};
const std::vector<std::uint16_t> kNoMask;

std::vector<float> floatImage() {
    return bv::io::readFloatImage((golden::kDir + "float.bin").toStdString(),
                                  std::size_t(golden::kPixels) * golden::kPixels);
}

bv::io::ImageStatistics goldenStatistics(const std::vector<float>& image) {
    return bv::io::statistics(image, golden::kPixels, golden::kPixels, kRoi, kNoMask,
                              golden::kPixelSize, /*oversample: "1x1 pixel oversample steps"*/ 1);
}

} // namespace

class TestReferenceImages : public QObject {
    Q_OBJECT
  private slots:
    void statisticsPrintLikeTheReference() {
        const auto stats = goldenStatistics(floatImage());
        const QString printed = QString::fromStdString(bv::io::formatStatistics(stats));
        QCOMPARE(printed,
                 golden::stdoutLine("max_I = ") + "\n" + golden::stdoutLine("mean= ") + "\n");
    }

    void intImageIsByteIdentical() {
        const auto image = floatImage();
        const auto stats = goldenStatistics(image);
        const double scale = bv::io::intImageScale(0.0, stats.maxI);
        QCOMPARE("intfile_scale = " + QString::fromStdString(bv::io::formatG(scale)),
                 golden::stdoutLine("intfile_scale = "));

        const auto data = bv::io::intImage(image, golden::kPixels, golden::kPixels, scale,
                                           golden::kAdcOffset, kRoi);
        QTemporaryDir dir;
        const QString path = dir.filePath("int.img");
        bv::io::writeSmv(path.toStdString(), golden::header(), data);
        const QByteArray written = golden::contents(path);
        const QByteArray expected = golden::contents(golden::kDir + "int.img");
        QCOMPARE(written.size(), expected.size());
        QCOMPARE(written.left(512), expected.left(512)); // header first: a readable diff
        QVERIFY(written == expected);
    }

    void pgmIsByteIdentical() {
        const auto image = floatImage();
        const auto stats = goldenStatistics(image);
        const double scale =
            bv::io::pgmScale(0.0, bv::io::intImageScale(0.0, stats.maxI), stats.rmsd);
        QCOMPARE("pgm_scale = " + QString::fromStdString(bv::io::formatG(scale)),
                 golden::stdoutLine("pgm_scale = "));

        QTemporaryDir dir;
        const QString path = dir.filePath("image.pgm");
        bv::io::writePgm(path.toStdString(), golden::kPixels, golden::kPixels, image, scale, kRoi);
        const QByteArray written = golden::contents(path);
        const QByteArray expected = golden::contents(golden::kDir + "image.pgm");
        QCOMPARE(written.size(), expected.size());
        QCOMPARE(written.left(40), expected.left(40));
        QVERIFY(written == expected);
    }

    void noiseImageMatches() {
        const auto image = floatImage();
        bv::random::ReferenceRandom rng;
        long seed = golden::kSeed;
        const auto noise = bv::io::noiseImage(rng, seed, image, golden::kPixels, golden::kPixels,
                                              golden::kAdcOffset, kRoi);
        const QString summary = QString::fromStdString(bv::io::formatFixed(noise.photons, 0)) +
                                " photons on noise image (" + QString::number(noise.overloads) +
                                " overloads)";
        QCOMPARE(summary, golden::stdoutLineContaining(" photons on noise image ("));

        QTemporaryDir dir;
        const QString path = dir.filePath("noise.img");
        bv::io::writeSmv(path.toStdString(), golden::header(), noise.data);
        const QByteArray written = golden::contents(path);
        const QByteArray expected = golden::contents(golden::kDir + "noise.img");
        QCOMPARE(written.size(), expected.size());
        QCOMPARE(written.left(512), expected.left(512));

        const int pixels = golden::kPixels * golden::kPixels;
        int same = 0;
        for (int i = 0; i < pixels; ++i)
            same += written.mid(512 + 2 * i, 2) == expected.mid(512 + 2 * i, 2) ? 1 : 0;
        qInfo("noise.img: %d of %d pixels identical", same, pixels);
        QVERIFY2(same >= int(0.999 * pixels), qPrintable(QString::number(same)));
    }
};

QTEST_APPLESS_MAIN(TestReferenceImages)
#include "tst_referenceimages.moc"
