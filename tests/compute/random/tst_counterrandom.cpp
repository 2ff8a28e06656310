// The counter-based noise generator (compute/random/CounterRandom.h): Philox4x32-10 against
// the known-answer vectors published with Random123, its uniforms, the arithmetic built from
// correctly rounded operations against the C library, and Poisson deviates checked against the
// Poisson distribution itself (means, variances and probabilities within stated sigmas), keyed
// as documented (seed and frame change the noise; threads do not).

#include "compute/random/CounterRandom.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <vector>

using namespace bv::random;

Q_DECLARE_METATYPE(PhiloxCounter)
Q_DECLARE_METATYPE(PhiloxKey)

namespace {

// The Poisson probability of k at mean mu, in double from the C library's lgamma.
double poissonProbability(int k, double mu) {
    return std::exp(static_cast<double>(k) * std::log(mu) - mu - std::lgamma(k + 1.0));
}

std::vector<float> deviatesOf(float mean, int count, CounterKey key) {
    return counterPoissonImage(std::vector<float>(static_cast<std::size_t>(count), mean), key, 2);
}

} // namespace

class TestCounterRandom : public QObject {
    Q_OBJECT

  private slots:
    void philoxKnownAnswers_data() {
        QTest::addColumn<PhiloxCounter>("counter");
        QTest::addColumn<PhiloxKey>("key");
        QTest::addColumn<PhiloxCounter>("expected");
        // Random123 1.14 (D. E. Shaw Research), tests/kat_vectors, the three "philox4x32 10"
        // lines: counter words, key words, output words
        QTest::newRow("zeros") << PhiloxCounter{0u, 0u, 0u, 0u} << PhiloxKey{0u, 0u}
                               << PhiloxCounter{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u};
        QTest::newRow("ones") << PhiloxCounter{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}
                              << PhiloxKey{0xffffffffu, 0xffffffffu}
                              << PhiloxCounter{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu};
        QTest::newRow("pi") << PhiloxCounter{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}
                            << PhiloxKey{0xa4093822u, 0x299f31d0u}
                            << PhiloxCounter{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u};
    }
    void philoxKnownAnswers() {
        QFETCH(PhiloxCounter, counter);
        QFETCH(PhiloxKey, key);
        QFETCH(PhiloxCounter, expected);
        QCOMPARE(philox4x32(counter, key), expected);
    }

    void uniformsAreOddMultiplesOfTwoToMinus24() {
        QCOMPARE(counterUniform(0u), std::ldexp(1.0f, -24));
        QCOMPARE(counterUniform(0xffffffffu), 1.0f - std::ldexp(1.0f, -24));
        QCOMPARE(counterUniform(0x80000000u), 0.5f + std::ldexp(1.0f, -24));
        QCOMPARE(counterUniform(0x000001ffu), counterUniform(0x00000100u)); // low 8 bits unused
    }

    void arithmeticFromRoundedOperations_data() {
        QTest::addColumn<double>("from");
        QTest::addColumn<double>("to");
        QTest::addRow("small") << 6e-8 << 1e-3;
        QTest::addRow("unit") << 1e-3 << 10.0;
        QTest::addRow("large") << 10.0 << 3e8;
    }
    void arithmeticFromRoundedOperations() {
        // within a few float ulp of the C library over six decades (the page's accuracy)
        QFETCH(double, from);
        QFETCH(double, to);
        double worstReciprocal = 0, worstSqrt = 0, worstLog = 0, worstExp = 0;
        for (int i = 0; i <= 20000; ++i) {
            const auto x = static_cast<float>(from * std::pow(to / from, i / 20000.0));
            const double xd = x;
            worstReciprocal =
                std::max(worstReciprocal, std::abs(deterministicReciprocal(x) * xd - 1.0));
            worstSqrt = std::max(worstSqrt, std::abs(deterministicSqrt(x) / std::sqrt(xd) - 1.0));
            // log's absolute error (its value crosses 0 at 1)
            worstLog = std::max(worstLog, std::abs(deterministicLog(x) - std::log(xd)) /
                                              std::max(1.0, std::abs(std::log(xd))));
            if (xd <= 80.0) // exp is used on (-10, 0]; checked on (-80, 0)
                worstExp = std::max(worstExp, std::abs(deterministicExp(-x) / std::exp(-xd) - 1.0));
        }
        QVERIFY2(worstReciprocal < 2.5e-7, qPrintable(QString::number(worstReciprocal)));
        QVERIFY2(worstSqrt < 2.5e-7, qPrintable(QString::number(worstSqrt)));
        QVERIFY2(worstLog < 3e-7, qPrintable(QString::number(worstLog)));
        QVERIFY2(worstExp < 5e-7, qPrintable(QString::number(worstExp)));
    }

    void meanAndVarianceArePoissons_data() {
        QTest::addColumn<float>("mean");
        // each method and both sides of each switch: multiplication < 10 <= PTRS < 2^24 <=
        // normal
        for (const float mean : {0.01f, 0.5f, 3.7f, 9.99f, 10.0f, 17.5f, 100.0f, 3000.0f, 1e5f,
                                 1e6f, 1e7f, 1.6777e7f, 1.6778e7f, 1e9f})
            QTest::addRow("%g", double(mean)) << mean;
    }
    void meanAndVarianceArePoissons() {
        // N deviates: the sample mean has sigma sqrt(mu/N) and the sample variance sigma
        // sqrt((mu + 2 mu^2)/N); both must lie within 5 sigma of mu
        QFETCH(float, mean);
        const int n = 200000;
        const std::vector<float> x = deviatesOf(mean, n, counterKey(-12345, 7));
        double sum = 0;
        for (const float v : x) {
            QCOMPARE(std::floor(v), v); // whole numbers
            sum += v;
        }
        const double mu = mean, m = sum / n;
        double squares = 0;
        for (const float v : x)
            squares += (v - m) * (v - m);
        const double variance = squares / (n - 1);
        const double meanSigma = std::sqrt(mu / n);
        const double varianceSigma = std::sqrt((mu + 2 * mu * mu) / n);
        QVERIFY2(std::abs(m - mu) < 5 * meanSigma,
                 qPrintable(QString("mean %1 for %2").arg(m, 0, 'g', 10).arg(mu)));
        QVERIFY2(std::abs(variance - mu) < 5 * varianceSigma,
                 qPrintable(QString("variance %1 for %2").arg(variance, 0, 'g', 10).arg(mu)));
    }

    void probabilitiesArePoissons_data() {
        QTest::addColumn<float>("mean");
        for (const float mean : {0.3f, 3.7f, 9.5f, 10.5f, 30.0f, 250.0f, 5000.0f})
            QTest::addRow("%g", double(mean)) << mean;
    }
    void probabilitiesArePoissons() {
        // every k with an expected count of at least 100 in N draws: its frequency within 5
        // sigma (binomial) of the Poisson probability; a method off by a per cent at the
        // mode, or a shifted or widened distribution, fails
        QFETCH(float, mean);
        const int n = 400000;
        const std::vector<float> x = deviatesOf(mean, n, counterKey(-99, 3));
        std::vector<int> counts;
        for (const float v : x) {
            const auto k = static_cast<std::size_t>(v);
            if (k >= counts.size())
                counts.resize(k + 1, 0);
            ++counts[k];
        }
        int checked = 0;
        for (std::size_t k = 0; k < counts.size() + 10; ++k) {
            const double p = poissonProbability(static_cast<int>(k), mean);
            if (p * n < 100)
                continue;
            const int seen = k < counts.size() ? counts[k] : 0;
            const double sigma = std::sqrt(n * p * (1 - p));
            QVERIFY2(
                std::abs(seen - n * p) < 5 * sigma,
                qPrintable(QString("k = %1: %2 seen, %3 expected").arg(k).arg(seen).arg(n * p)));
            ++checked;
        }
        QVERIFY(checked >= 2);
    }

    void keyAndPixelChooseTheDeviate() {
        const float mean = 100.0f;
        const int n = 20000;
        const std::vector<float> a = deviatesOf(mean, n, counterKey(-5, 0));
        QCOMPARE(deviatesOf(mean, n, counterKey(-5, 0)), a); // same key, same noise
        // another frame, another seed, or the pixels shifted: as independent as two Poisson
        // draws, which agree with probability sum p_k^2 = 0.028 at mean 100
        const std::vector<float> frame = deviatesOf(mean, n, counterKey(-5, 1));
        const std::vector<float> seed = deviatesOf(mean, n, counterKey(-6, 0));
        for (const std::vector<float>* other : {&frame, &seed}) {
            int same = 0;
            for (int i = 0; i < n; ++i)
                same += (*other)[static_cast<std::size_t>(i)] == a[static_cast<std::size_t>(i)];
            QVERIFY2(same < 0.04 * n, qPrintable(QString::number(same)));
        }
        int sameAsNeighbour = 0;
        for (int i = 1; i < n; ++i)
            sameAsNeighbour += a[static_cast<std::size_t>(i)] == a[static_cast<std::size_t>(i - 1)];
        QVERIFY2(sameAsNeighbour < 0.04 * n, qPrintable(QString::number(sameAsNeighbour)));
        // a pixel's deviate is the same whatever the image around it
        QCOMPARE(counterPoisson(mean, counterKey(-5, 0), 777u), a[777]);
    }

    void threadsDoNotChangeTheBytes() {
        std::vector<float> image(100003);
        for (std::size_t i = 0; i < image.size(); ++i)
            image[i] = static_cast<float>(std::pow(10.0, -2.0 + 9.0 * double(i % 997) / 996.0));
        const CounterKey key = counterKey(-2026, 4);
        const std::vector<float> one = counterPoissonImage(image, key, 1);
        for (const int threads : {2, 3, 7, 16}) {
            const std::vector<float> many = counterPoissonImage(image, key, threads);
            QVERIFY(std::memcmp(one.data(), many.data(), one.size() * sizeof(float)) == 0);
        }
    }

    void edgeMeans() {
        const CounterKey key = counterKey(-1, 0);
        QCOMPARE(counterPoisson(0.0f, key, 0), 0.0f);
        QCOMPARE(counterPoisson(-3.0f, key, 0), 0.0f);
        QCOMPARE(counterPoisson(std::nanf(""), key, 0), 0.0f);
        QCOMPARE(counterPoisson(INFINITY, key, 0), INFINITY);
        QVERIFY(counterPoisson(1e30f, key, 0) > 9.9e29f);
    }

    void keyTakesTheSeedsLowWordAndTheFrame() {
        QCOMPARE(counterKey(-1, 5).seed, 0xffffffffu);
        QCOMPARE(counterKey(-1, 5).frame, 5u);
        QCOMPARE(counterKey(123, 0).seed, 123u);
    }
};

QTEST_APPLESS_MAIN(TestCounterRandom)
#include "tst_counterrandom.moc"
