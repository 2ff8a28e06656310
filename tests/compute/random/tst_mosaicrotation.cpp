// mosaicRotation and mosaicDomains: the reference's mosaic_rotation_umat and its domain loop.
// Each rotation takes three uniform draws (axis azimuth, axis z, angle) and turns by
// spread * (1 - r^2)^(1/3) <= spread about an axis uniform on the sphere.

#include "compute/core/Error.h"
#include "compute/random/ReferenceRandom.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using bv::random::mosaicDomains;
using bv::random::mosaicRotation;
using bv::random::ReferenceRandom;
using bv::random::RotationRows;

Q_DECLARE_METATYPE(RotationRows)

namespace {

// The reference's degrees-to-radians: value / RTD with RTD = 180 * M_1_PI.
constexpr double kRtd = 180.0 * 0.318309886183790671538;

double element(const RotationRows& u, int row, int column)
{
    return u[static_cast<std::size_t>(3 * row + column)];
}

double largestOrthonormalityError(const RotationRows& u)
{
    double worst = 0.0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double dot = 0.0;
            for (int k = 0; k < 3; ++k)
                dot += element(u, i, k) * element(u, j, k);
            worst = std::max(worst, std::abs(dot - (i == j ? 1.0 : 0.0)));
        }
    return worst;
}

double determinant(const RotationRows& u)
{
    return u[0] * (u[4] * u[8] - u[5] * u[7]) - u[1] * (u[3] * u[8] - u[5] * u[6]) +
           u[2] * (u[3] * u[7] - u[4] * u[6]);
}

// Rotation angle from the trace: tr R = 1 + 2 cos(angle).
double rotationAngle(const RotationRows& u)
{
    const double c = (u[0] + u[4] + u[8] - 1.0) / 2.0;
    return std::acos(std::clamp(c, -1.0, 1.0));
}

const RotationRows kIdentity{1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0};

} // namespace

class TestMosaicRotation : public QObject {
    Q_OBJECT

private slots:
    void isProperRotationWithinSpread_data()
    {
        QTest::addColumn<double>("spread"); // radians
        QTest::addColumn<long>("seed");
        QTest::newRow("1e-4 rad") << 1e-4 << -1L;
        QTest::newRow("1 deg (golden case mosaic)") << 1.0 / kRtd << -7L;
        QTest::newRow("0.5 deg (golden case comprehensive)") << 0.5 / kRtd << -42L;
        QTest::newRow("0.5 rad") << 0.5 << -3L;
        QTest::newRow("3 rad") << 3.0 << -4L;
    }

    void isProperRotationWithinSpread()
    {
        QFETCH(double, spread);
        QFETCH(long, seed);
        ReferenceRandom rng;
        double largestAngle = 0.0;
        for (int i = 0; i < 500; ++i) {
            const RotationRows u = mosaicRotation(rng, float(spread), seed);
            QVERIFY(largestOrthonormalityError(u) < 1e-12);
            QVERIFY(std::abs(determinant(u) - 1.0) < 1e-12);
            const double angle = rotationAngle(u);
            // The angle is computed in float by the reference: allow float rounding.
            QVERIFY2(angle <= spread * (1.0 + 1e-6) + 1e-7,
                     qPrintable(QString("%1 > %2").arg(angle).arg(spread)));
            largestAngle = std::max(largestAngle, angle);
        }
        // (1 - r^2)^(1/3) > 0.9 needs |r| < 0.52: about half the draws come that close.
        QVERIFY(largestAngle > 0.9 * spread * (1.0 - 1e-6));
    }

    void zeroSpreadIsExactIdentity()
    {
        ReferenceRandom rng;
        long seed = -5;
        QCOMPARE(mosaicRotation(rng, 0.0f, seed), kIdentity);
    }

    void takesThreeDraws()
    {
        ReferenceRandom rng;
        ReferenceRandom shadow;
        long seed = -77;
        long shadowSeed = -77;
        for (int i = 0; i < 10; ++i) {
            mosaicRotation(rng, 0.1f, seed);
            for (int draw = 0; draw < 3; ++draw)
                shadow.uniform(shadowSeed);
            QCOMPARE(seed, shadowSeed);
        }
    }

    void domainsMatchReference_data()
    {
        // Matrices printed with "%a" by the reference's own mosaic_rotation_umat, called in
        // its domain loop with the spreads and seeds of the golden cases
        // (-mosaic 1 -mosaic_dom 20 -mosaic_seed 7 and -mosaic 0.5 -mosaic_dom 5
        // -mosaic_seed 42; the seed variable is -atoi(arg)). Compared bit for bit.
        QTest::addColumn<double>("spreadDegrees");
        QTest::addColumn<long>("seed");
        QTest::addColumn<int>("domains");
        QTest::addColumn<int>("index");
        QTest::addColumn<RotationRows>("expected");
        QTest::newRow("mosaic: domain 1 of 20")
            << 1.0 << -7L << 20 << 1
            << RotationRows{0x1.fff952553fa9bp-1,   -0x1.fccd76c41cc4dp-9, 0x1.315874eff680fp-7,
                            0x1.fa7924d839d63p-9,   0x1.fffec75d0f77fp-1,  0x1.f878faf8e4013p-10,
                            -0x1.319664cc31e07p-7, -0x1.ef02011944f47p-10, 0x1.fffa1105d4a18p-1};
        QTest::newRow("mosaic: domain 19 of 20")
            << 1.0 << -7L << 20 << 19
            << RotationRows{0x1.fff82d6ec7933p-1,   0x1.937e8deb3e2e8p-8,  0x1.27bbe2d6d4b01p-7,
                            -0x1.9159de6a0bc38p-8,  0x1.fffcaba0f64b2p-1,  -0x1.de00a4cfbd121p-9,
                            -0x1.2876505578aedp-7,  0x1.d6bac2b95580dp-9,  0x1.fff9ca4a876f3p-1};
        QTest::newRow("comprehensive: domain 4 of 5")
            << 0.5 << -42L << 5 << 4
            << RotationRows{0x1.fffc405f79af8p-1,   0x1.71b5a711d5109p-8,  0x1.4a1d69281ff8ap-8,
                            -0x1.7215d14912e51p-8,  0x1.fffdd3c5814cdp-1,  0x1.26c2bbeda277dp-10,
                            -0x1.49b196903d446p-8, -0x1.2e357e0890ac5p-10, 0x1.fffe411928bcdp-1};
    }

    void domainsMatchReference()
    {
        QFETCH(double, spreadDegrees);
        QFETCH(long, seed);
        QFETCH(int, domains);
        QFETCH(int, index);
        QFETCH(RotationRows, expected);
        ReferenceRandom rng;
        const auto rotations = mosaicDomains(rng, spreadDegrees / kRtd, domains, seed);
        QCOMPARE(int(rotations.size()), domains);
        const RotationRows& actual = rotations[static_cast<std::size_t>(index)];
        for (std::size_t i = 0; i < 9; ++i)
            QVERIFY2(actual[i] == expected[i],
                     qPrintable(QString("element %1: %2 vs %3")
                                    .arg(i)
                                    .arg(actual[i], 0, 'g', 17)
                                    .arg(expected[i], 0, 'g', 17)));
    }

    void firstDomainIsIdentityButStillDrawn()
    {
        ReferenceRandom rng;
        long seed = -7;
        const auto rotations = mosaicDomains(rng, 1.0 / kRtd, 20, seed);
        QCOMPARE(rotations.front(), kIdentity);

        // 3 draws per domain, the identity's included.
        ReferenceRandom shadow;
        long shadowSeed = -7;
        for (int draw = 0; draw < 3 * 20; ++draw)
            shadow.uniform(shadowSeed);
        QCOMPARE(seed, shadowSeed);

        for (std::size_t i = 1; i < rotations.size(); ++i) {
            QVERIFY(rotations[i] != kIdentity);
            QVERIFY(rotationAngle(rotations[i]) <= (1.0 / kRtd) * (1.0 + 1e-6));
        }
    }

    void domainCountEdges()
    {
        ReferenceRandom rng;
        long seed = -7;
        QVERIFY(mosaicDomains(rng, 0.01, 0, seed).empty());
        QCOMPARE(seed, -7L); // nothing drawn
        QVERIFY_THROWS_EXCEPTION(bv::Error, mosaicDomains(rng, 0.01, -1, seed));
    }
};

QTEST_APPLESS_MAIN(TestMosaicRotation)
#include "tst_mosaicrotation.moc"
