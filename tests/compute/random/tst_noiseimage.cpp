// The reference's noise image, reproduced from its own float image (golden case
// noise_int_pgm: 128x128 pixels, -seed 123, no ROI). The reference walks the pixels in memory
// order (slow index outer, fast inner) and draws poisson(pixel) from one seed; it prints the
// sum of the deviates ("N photons on noise image (M overloads)") and writes each deviate plus
// the ADC offset (default 40), clipped at 65535, as a 16-bit pixel of noise.img after a
// 512-byte header. Both must come out exactly: one float or one draw off shifts everything after.

#include "compute/random/ReferenceRandom.h"

#include <QtTest>

#include <cstdint>
#include <cstring>
#include <vector>

using bv::random::ReferenceRandom;

namespace {

const QString kCase = QStringLiteral(BV_TEST_DATA "/golden/noise_int_pgm/");
constexpr int kPixels = 128 * 128;
constexpr int kHeaderBytes = 512;
constexpr double kAdcOffset = 40.0;

QByteArray readAll(const QString& name)
{
    QFile file(kCase + name);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

std::uint32_t littleEndianWord(const QByteArray& bytes, int offset, int size)
{
    std::uint32_t value = 0;
    for (int i = size - 1; i >= 0; --i)
        value = (value << 8) | static_cast<std::uint8_t>(bytes[offset + i]);
    return value;
}

std::vector<float> floatImage(const QByteArray& bytes)
{
    std::vector<float> pixels;
    for (int offset = 0; offset + 4 <= bytes.size(); offset += 4) {
        const std::uint32_t bits = littleEndianWord(bytes, offset, 4);
        float value = 0.0f;
        std::memcpy(&value, &bits, sizeof value);
        pixels.push_back(value);
    }
    return pixels;
}

// The first line of stdout.txt that contains `marker`, or an empty string.
QString stdoutLine(const QString& marker)
{
    const QStringList lines = QString::fromUtf8(readAll("stdout.txt")).split('\n');
    for (const QString& line : lines)
        if (line.contains(marker))
            return line.trimmed();
    return {};
}

} // namespace

class TestNoiseImage : public QObject {
    Q_OBJECT

private slots:
    void reproducesReferenceNoise()
    {
        // What the reference printed.
        const QString seedLine = stdoutLine("seed:"); // "seed: -123"
        const QString photonLine = stdoutLine("photons on noise image");
        QVERIFY2(!seedLine.isEmpty() && !photonLine.isEmpty(), "golden stdout.txt missing");
        bool ok = false;
        long seed = seedLine.section(' ', 1, 1).toLong(&ok);
        QVERIFY(ok);
        QCOMPARE(seed, -123L);
        const double printedPhotons = photonLine.section(' ', 0, 0).toDouble(&ok);
        QVERIFY(ok);
        const int printedOverloads = photonLine.section('(', 1, 1).section(' ', 0, 0).toInt(&ok);
        QVERIFY(ok);

        const std::vector<float> pixels = floatImage(readAll("float.bin"));
        QCOMPARE(int(pixels.size()), kPixels);
        const QByteArray noise = readAll("noise.img");
        QCOMPARE(int(noise.size()), kHeaderBytes + 2 * kPixels);
        QVERIFY(noise.startsWith("{\nHEADER_BYTES=512;"));
        QVERIFY(noise.contains("BYTE_ORDER=little_endian;"));

        ReferenceRandom rng;
        double photons = 0.0; // a double sum, as in the reference
        int overloads = 0;
        int mismatches = 0;
        int firstMismatch = -1;
        for (int i = 0; i < kPixels; ++i) {
            const float deviate = rng.poisson(pixels[static_cast<std::size_t>(i)], seed);
            photons += double(deviate);
            double value = double(deviate) + kAdcOffset;
            if (value > 65535.0) {
                value = 65535.0;
                ++overloads;
            }
            const auto expected = static_cast<std::uint16_t>(value);
            const auto written = littleEndianWord(noise, kHeaderBytes + 2 * i, 2);
            if (written != expected) {
                if (firstMismatch < 0)
                    firstMismatch = i;
                ++mismatches;
            }
        }
        QVERIFY2(mismatches == 0,
                 qPrintable(QString("%1 pixels differ from noise.img, first at %2")
                                .arg(mismatches)
                                .arg(firstMismatch)));
        QCOMPARE(QString::number(photons, 'f', 0), photonLine.section(' ', 0, 0));
        QCOMPARE(photons, printedPhotons); // whole numbers: exact
        QCOMPARE(overloads, printedOverloads);
    }
};

QTEST_APPLESS_MAIN(TestNoiseImage)
#include "tst_noiseimage.moc"
