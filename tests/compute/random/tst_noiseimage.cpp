// The reference's noise image, reproduced from its own float image, for every golden case
// that has one: noise_int_pgm (dim: means below 12, the direct method), noise_bright (the
// rejection method and the Gaussian branch above 1e6 photons) and noise_1e7 (means from 0.01
// to 2e7 photons, overloads). The reference walks the pixels in memory
// order (slow index outer, fast inner) and draws poisson(pixel) from one seed; it prints the
// sum of the deviates ("N photons on noise image (M overloads)") and writes each deviate plus
// the ADC offset (default 40), clipped at 65535, as a 16-bit pixel of noise.img after a
// 512-byte header. Both must come out exactly: one float or one draw off shifts everything after.

#include "compute/random/ReferenceRandom.h"

#include <QTest>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

using bv::random::ReferenceRandom;

namespace {

constexpr int kPixels = 128 * 128;
constexpr int kHeaderBytes = 512;

QByteArray readAll(const QString& caseName, const QString& name)
{
    QFile file(QStringLiteral(BV_TEST_DATA "/golden/") + caseName + '/' + name);
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

// The first line of the case's stdout.txt that contains `marker`, or an empty string.
QString stdoutLine(const QString& caseName, const QString& marker)
{
    const QStringList lines = QString::fromUtf8(readAll(caseName, "stdout.txt")).split('\n');
    for (const QString& line : lines)
        if (line.contains(marker))
            return line.trimmed();
    return {};
}

} // namespace

class TestNoiseImage : public QObject {
    Q_OBJECT

private slots:
    void reproducesReferenceNoise_data()
    {
        QTest::addColumn<QString>("caseName");
        QTest::addColumn<long>("seed");        // the case's -seed, negated as the reference keeps it
        QTest::addColumn<double>("adcOffset"); // its -adc (40 when not given)
        QTest::addColumn<float>("dimmest");    // the means the case must span (at most, at least)
        QTest::addColumn<float>("brightest");
        QTest::newRow("dim, direct method") << "noise_int_pgm" << -123L << 40.0 << 0.1f << 1.0f;
        QTest::newRow("bright, Gaussian branch") << "noise_bright" << -31L << 10.0 << 0.1f << 1e6f;
        QTest::newRow("0.1 to 1e7 photons") << "noise_1e7" << -31L << 10.0 << 0.1f << 1e7f;
    }

    void reproducesReferenceNoise()
    {
        QFETCH(QString, caseName);
        QFETCH(long, seed);
        QFETCH(double, adcOffset);
        QFETCH(float, dimmest);
        QFETCH(float, brightest);
        // What the reference printed.
        const QString seedLine = stdoutLine(caseName, "seed:"); // "seed: -123"
        const QString photonLine = stdoutLine(caseName, "photons on noise image");
        QVERIFY2(!seedLine.isEmpty() && !photonLine.isEmpty(), "golden stdout.txt missing");
        bool ok = false;
        QCOMPARE(seedLine.section(' ', 1, 1).toLong(&ok), seed);
        QVERIFY(ok);
        const double printedPhotons = photonLine.section(' ', 0, 0).toDouble(&ok);
        QVERIFY(ok);
        const int printedOverloads = photonLine.section('(', 1, 1).section(' ', 0, 0).toInt(&ok);
        QVERIFY(ok);

        const std::vector<float> pixels = floatImage(readAll(caseName, "float.bin"));
        QCOMPARE(int(pixels.size()), kPixels);
        // the case covers the means it is meant to test
        QVERIFY(*std::min_element(pixels.begin(), pixels.end()) <= dimmest);
        QVERIFY(*std::max_element(pixels.begin(), pixels.end()) >= brightest);
        const QByteArray noise = readAll(caseName, "noise.img");
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
            double value = double(deviate) + adcOffset;
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
        // the sum is whole below 1e6 photons a pixel; the Gaussian branch's deviates are not
        // whole, so the printed "%.0f" is what can be compared there
        if (brightest < 1e6f)
            QCOMPARE(photons, printedPhotons);
        QCOMPARE(overloads, printedOverloads);
    }
};

QTEST_APPLESS_MAIN(TestNoiseImage)
#include "tst_noiseimage.moc"
