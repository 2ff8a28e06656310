// ReferenceRandom::uniform, the reference's ran1: Park-Miller "minimal standard" generator
// behind a 32-slot Bays-Durham shuffle table (Numerical Recipes in C, 2nd ed., sec. 7.1).
//
// Expected values are derived by hand below from two textbook facts, not from the code:
//  * the minimal standard sequence x[n+1] = 16807 x[n] mod (2^31 - 1) started at x[0] = 1 is
//    16807, 282475249, 1622650073, 984943658, ... and reaches x[10000] = 1043618065
//    (Park & Miller 1988, the check value they publish);
//  * ran1's shuffle: a seed <= 0 becomes -seed (0 becomes 1); 8 + 32 steps fill the table,
//    the first 8 discarded, so iv[31] = x[9], iv[30] = x[10], ..., iv[0] = x[40], and
//    iy = iv[0]. Each call then steps the seed once (x[41], x[42], ...), uses
//    slot = iy / 2^26 (NDIV = 1 + (2^31 - 2)/32 = 2^26), outputs iv[slot] / (2^31 - 1) as a
//    float, and stores the new x in that slot.
//
// For seed -1 this gives, by hand (x[40] = 784558821):
//   call 1: slot = 784558821 / 67108864 = 11, iv[11] = x[29] = 893351816 -> 0.41599935
//   call 2: slot = 893351816 / 67108864 = 13, iv[13] = x[27] = 197493099 -> 0.09196489
//   call 3: slot = 197493099 / 67108864 = 2,  iv[2]  = x[38] = 1624379149 -> 0.75641048
//   call 4: slot = 24, iv[24] = x[16] = 1137522503 -> 0.52970022
//   call 5: slot = 16, iv[16] = x[24] = 1998097157 -> 0.93043649
//   call 6: slot = 29, iv[29] = x[11] = 823564440  -> 0.38350207

#include "compute/core/Error.h"
#include "compute/random/ReferenceRandom.h"

#include <QTest>

#include <climits>
#include <cstdint>
#include <vector>

using bv::random::ReferenceRandom;

namespace {

constexpr std::int64_t kModulus = 2147483647; // 2^31 - 1

// The minimal standard sequence by plain 64-bit modular arithmetic (no Schrage trick):
// x[n] for x[0] = 1.
std::int64_t minimalStandard(int n)
{
    std::int64_t x = 1;
    for (int i = 0; i < n; ++i)
        x = (x * 16807) % kModulus;
    return x;
}

float asUniform(std::int64_t value)
{
    return static_cast<float>(static_cast<double>(value) / static_cast<double>(kModulus));
}

std::vector<float> draws(ReferenceRandom& rng, long& seed, int count)
{
    std::vector<float> values;
    for (int i = 0; i < count; ++i)
        values.push_back(rng.uniform(seed));
    return values;
}

} // namespace

class TestUniform : public QObject {
    Q_OBJECT

private slots:
    void textbookSequenceStartsAsPublished()
    {
        // Sanity of the helper the other rows rely on.
        QCOMPARE(minimalStandard(1), std::int64_t(16807));
        QCOMPARE(minimalStandard(2), std::int64_t(282475249));
        QCOMPARE(minimalStandard(3), std::int64_t(1622650073));
        QCOMPARE(minimalStandard(10000), std::int64_t(1043618065));
    }

    void firstDrawsForSeedMinusOne_data()
    {
        QTest::addColumn<int>("call");
        QTest::addColumn<qint64>("shuffledValue"); // iv[slot], derived in the header comment
        QTest::addColumn<float>("printed");        // the same, as 8 significant digits

        QTest::newRow("call 1") << 1 << qint64(893351816) << 0.41599935f;
        QTest::newRow("call 2") << 2 << qint64(197493099) << 0.09196489f;
        QTest::newRow("call 3") << 3 << qint64(1624379149) << 0.75641048f;
        QTest::newRow("call 4") << 4 << qint64(1137522503) << 0.52970022f;
        QTest::newRow("call 5") << 5 << qint64(1998097157) << 0.93043649f;
        QTest::newRow("call 6") << 6 << qint64(823564440) << 0.38350207f;
    }

    void firstDrawsForSeedMinusOne()
    {
        QFETCH(int, call);
        QFETCH(qint64, shuffledValue);
        QFETCH(float, printed);

        ReferenceRandom rng;
        long seed = -1;
        float value = 0.0f;
        for (int i = 0; i < call; ++i)
            value = rng.uniform(seed);

        QCOMPARE(value, asUniform(shuffledValue)); // bit for bit
        QVERIFY(qAbs(value - printed) < 1e-7f);
        // The seed itself walks the minimal standard sequence: 40 steps to fill the table,
        // then one per call.
        QCOMPARE(std::int64_t(seed), minimalStandard(40 + call));
    }

    void seedReachesParkMillerCheckValue()
    {
        // 40 table-filling steps + 9960 calls = x[10000] from x[0] = 1.
        ReferenceRandom rng;
        long seed = -1;
        for (int i = 0; i < 9960; ++i)
            rng.uniform(seed);
        QCOMPARE(seed, 1043618065L);
    }

    void valuesLieInOpenUnitInterval_data()
    {
        QTest::addColumn<long>("seed");
        QTest::newRow("-1") << -1L;
        QTest::newRow("-123") << -123L;
        QTest::newRow("-12345678 (reference's default mosaic seed)") << -12345678L;
        QTest::newRow("-2147483646") << -2147483646L;
    }

    void valuesLieInOpenUnitInterval()
    {
        QFETCH(long, seed);
        ReferenceRandom rng;
        double sum = 0.0;
        const int count = 200000;
        for (int i = 0; i < count; ++i) {
            const float u = rng.uniform(seed);
            QVERIFY2(u > 0.0f && u < 1.0f, qPrintable(QString::number(double(u), 'g', 9)));
            // ran1's cap RNMX = 1 - 1.2e-7 is returned as a float: the nearest float is
            // 1 - 2^-23 (floats below 1 are 2^-24 apart), a hair above RNMX itself.
            QVERIFY(u <= 1.0f - 0x1p-23f);
            sum += double(u);
        }
        QVERIFY(qAbs(sum / count - 0.5) < 0.005);
    }

    void sameNegativeSeedReproducesSequence()
    {
        ReferenceRandom rng;
        long seed = -42;
        const std::vector<float> first = draws(rng, seed, 1000);
        QVERIFY(seed > 0); // the reference makes the seed positive after loading the table

        // Reseeding the same object reloads the whole table: the history does not matter.
        seed = -42;
        QCOMPARE(draws(rng, seed, 1000), first);

        ReferenceRandom fresh;
        long freshSeed = -42;
        QCOMPARE(draws(fresh, freshSeed, 1000), first);

        long otherSeed = -43;
        QVERIFY(draws(fresh, otherSeed, 1000) != first);
    }

    void zeroAndFirstPositiveSeedActAsOne_data()
    {
        QTest::addColumn<long>("seed");
        QTest::newRow("0") << 0L;
        QTest::newRow("+1") << 1L;
        QTest::newRow("+777 on a fresh generator") << 777L;
    }

    void zeroAndFirstPositiveSeedActAsOne()
    {
        // The reference tests "-seed < 1": zero and, on the very first call, any positive seed
        // start the table from 1, exactly like seed -1.
        QFETCH(long, seed);
        ReferenceRandom rng;
        long reference = -1;
        ReferenceRandom expected;
        QCOMPARE(draws(rng, seed, 50), draws(expected, reference, 50));
    }

    void positiveSeedContinuesSharedTable()
    {
        // The shuffle table is shared by every seed variable (C statics in the reference). A
        // positive seed does not reload it: continuing with a copy of a stream's seed gives
        // exactly what that stream would have drawn next.
        ReferenceRandom rng;
        long seed = -5;
        draws(rng, seed, 3);
        long copy = seed;
        const float viaCopy = rng.uniform(copy);

        ReferenceRandom straight;
        long straightSeed = -5;
        const std::vector<float> four = draws(straight, straightSeed, 4);
        QCOMPARE(viaCopy, four[3]);
    }

    void seedBeyondModulusIsRejected_data()
    {
        QTest::addColumn<long>("seed");
        QTest::newRow("-(2^31 - 1): would lock the sequence at 0") << -2147483647L;
        QTest::newRow("+(2^31 - 1)") << 2147483647L;
        QTest::newRow("-2^31") << -2147483648L;
        QTest::newRow("+2^31") << 2147483648L;
        QTest::newRow("LONG_MIN") << LONG_MIN;
        QTest::newRow("LONG_MAX") << LONG_MAX;
    }

    void seedBeyondModulusIsRejected()
    {
        // Seeds must lie strictly inside the modulus m = 2^31 - 1: 16807 m = 0 (mod m), so a
        // seed of magnitude m would make every later value 0.
        QFETCH(long, seed);
        ReferenceRandom rng;
        QVERIFY_THROWS_EXCEPTION(bv::Error, rng.uniform(seed));
        long edge = -2147483646L; // the largest accepted magnitude
        for (int i = 0; i < 1000; ++i) {
            const float u = rng.uniform(edge);
            QVERIFY(u > 0.0f && u < 1.0f);
        }
    }
};

QTEST_APPLESS_MAIN(TestUniform)
#include "tst_uniform.moc"
