// The fit's pixels handed to Ceres as their normal equations (compute/refine/NormalEquations.h),
// on a made-up Jacobian and residuals: the sums against Eigen's own products over the whole
// matrix, the q + 1 residuals that stand for them (the Levenberg-Marquardt model's cost
// |J delta + r|^2 for any step), a parameter that moves nothing, and the same bits from
// every run whatever the threads did; the uncertainties and correlations at a minimum.

#include "compute/refine/NormalEquations.h"

#include <Eigen/Dense>
#include <QTest>

#include <cmath>
#include <random>

namespace {

using Rows = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// n pixels, q values: a Jacobian of pixels that respond alike plus their own part, residuals
// of counted-noise size; column `dead` all zero (a value no pixel depends on) when >= 0
struct Problem {
    Rows j;
    Eigen::VectorXd r;
};

Problem madeUp(Eigen::Index n, Eigen::Index q, int dead) {
    std::mt19937 random(11);
    std::normal_distribution<double> normal(0.0, 1.0);
    Problem p{Rows(n, q), Eigen::VectorXd(n)};
    for (Eigen::Index i = 0; i < n; ++i) {
        const double shared = normal(random);
        for (Eigen::Index c = 0; c < q; ++c)
            p.j(i, c) = c == dead ? 0.0 : 0.5 * shared + normal(random) * (1.0 + c);
        p.r(i) = 3.0 * normal(random);
    }
    return p;
}

bv::refine::NormalEquations sums(const Problem& p) {
    return bv::refine::normalEquations(
        static_cast<std::size_t>(p.j.rows()), static_cast<std::size_t>(p.j.cols()),
        [&](std::size_t first, std::size_t count, double* rows, double* r) {
            const Eigen::Index q = p.j.cols();
            for (std::size_t k = 0; k < count; ++k) {
                const auto i = static_cast<Eigen::Index>(first + k);
                for (Eigen::Index c = 0; c < q; ++c)
                    rows[static_cast<Eigen::Index>(k) * q + c] = p.j(i, c);
                r[k] = p.r(i);
            }
        });
}

double relative(double a, double b) { return std::fabs(a - b) / std::max(1.0, std::fabs(b)); }

} // namespace

class TestNormalEquations : public QObject {
    Q_OBJECT

  private slots:
    // 100,000 pixels: several chunks, summed on the host's threads
    void sumsAreThePixelsProducts() {
        const Problem p = madeUp(100000, 6, -1);
        const bv::refine::NormalEquations s = sums(p);
        const Eigen::MatrixXd jtj = p.j.transpose() * p.j;
        const Eigen::VectorXd jtr = p.j.transpose() * p.r;
        for (Eigen::Index a = 0; a < 6; ++a) {
            QVERIFY(relative(s.jtr[std::size_t(a)], jtr(a)) < 1e-10);
            for (Eigen::Index c = 0; c < 6; ++c)
                QVERIFY(relative(s.jtj[std::size_t(a * 6 + c)], jtj(a, c)) < 1e-10);
        }
        QVERIFY(relative(s.rtr, p.r.squaredNorm()) < 1e-12);
    }

    void sumOfSquaresAgreesWithTheNormalEquations() { // (QCOMPARE of doubles: to 1e-12)
        const Problem p = madeUp(50000, 3, -1);
        const double alone = bv::refine::sumOfSquares(
            static_cast<std::size_t>(p.r.size()), [&](std::size_t i) { return p.r(Eigen::Index(i)); });
        QCOMPARE(alone, sums(p).rtr);
        QVERIFY(relative(alone, p.r.squaredNorm()) < 1e-12);
    }

    void sameBitsEveryRun() {
        const Problem p = madeUp(100000, 4, -1);
        const bv::refine::NormalEquations first = sums(p);
        for (int run = 0; run < 5; ++run) {
            const bv::refine::NormalEquations again = sums(p);
            QCOMPARE(again.rtr, first.rtr);
            QCOMPARE(again.jtr, first.jtr);
            QCOMPARE(again.jtj, first.jtj);
        }
    }

    // |R delta + c|^2 + d^2 = |J delta + r|^2 for steps in every direction, the cost at
    // delta = 0 included; with a dead column, R's rows keep it out and the identity holds
    void compressedResidualsStandForThePixels_data() {
        QTest::addColumn<int>("dead");
        QTest::newRow("every value moves pixels") << -1;
        QTest::newRow("the third value moves none") << 2;
    }
    void compressedResidualsStandForThePixels() {
        QFETCH(int, dead);
        const Eigen::Index q = 5;
        const Problem p = madeUp(20000, q, dead);
        const bv::refine::Compressed c = bv::refine::compress(sums(p));
        QCOMPARE(c.residuals.size(), std::size_t(q + 1));
        QCOMPARE(c.jacobian.size(), std::size_t((q + 1) * q));
        const Eigen::Map<const Rows> big(c.jacobian.data(), q + 1, q);
        const Eigen::Map<const Eigen::VectorXd> rho(c.residuals.data(), q + 1);
        QCOMPARE(big.row(q).norm(), 0.0);
        std::mt19937 random(5);
        std::normal_distribution<double> normal(0.0, 1.0);
        for (int trial = 0; trial < 8; ++trial) {
            Eigen::VectorXd delta = Eigen::VectorXd::Zero(q);
            if (trial > 0)
                for (Eigen::Index a = 0; a < q; ++a)
                    delta(a) = normal(random) * std::pow(10.0, trial % 4 - 2);
            const double pixels = (p.j * delta + p.r).squaredNorm();
            const double compressed = (big * delta + rho).squaredNorm();
            QVERIFY2(relative(compressed, pixels) < 1e-9,
                     qPrintable(QString("trial %1: %2 against %3").arg(trial).arg(compressed).arg(pixels)));
        }
        if (dead >= 0) // R does not depend on the dead value
            QVERIFY(big.col(dead).norm() < 1e-6 * big.norm());
    }

    // Two values with J^T J = [[4, 2], [2, 3]] (determinant 8, inverse [[3, -2], [-2, 4]] / 8)
    // and a reduced chi-square of 2: covariance [[0.75, -0.5], [-0.5, 1]], so the standard
    // errors are sqrt(0.75) and 1, and the correlation -0.5 / sqrt(0.75) = -1 / sqrt(3).
    void uncertaintiesOfTwoValues() {
        const bv::refine::Uncertainties u = bv::refine::uncertainties({4.0, 2.0, 2.0, 3.0}, 2.0);
        QCOMPARE(u.sigma.size(), std::size_t(2));
        QVERIFY(std::abs(u.sigma[0] - std::sqrt(0.75)) < 1e-12);
        QVERIFY(std::abs(u.sigma[1] - 1.0) < 1e-12);
        QCOMPARE(u.correlation.size(), std::size_t(4));
        QCOMPARE(u.correlation[0], 1.0);
        QCOMPARE(u.correlation[3], 1.0);
        QVERIFY(std::abs(u.correlation[1] + 1.0 / std::sqrt(3.0)) < 1e-12);
        QCOMPARE(u.correlation[2], u.correlation[1]);
    }
    // Two values that move the pixels only together (J's columns equal, J^T J = [[1, 1],
    // [1, 1]]): the pseudo-inverse keeps the one direction the pixels tell, [[1, 1], [1, 1]]/4,
    // so each is known to 1/2 (chi-square 1) and they are wholly correlated; a third value that
    // moves no pixel has no uncertainty and no correlation.
    void valuesThePixelsTellOnlyTogether() {
        const bv::refine::Uncertainties u =
            bv::refine::uncertainties({1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0}, 1.0);
        QVERIFY(std::abs(u.sigma[0] - 0.5) < 1e-12);
        QVERIFY(std::abs(u.sigma[1] - 0.5) < 1e-12);
        QCOMPARE(u.sigma[2], 0.0);
        QVERIFY(std::abs(u.correlation[1] - 1.0) < 1e-12);
        QCOMPARE(u.correlation[2], 0.0);
        QCOMPARE(u.correlation[5], 0.0);
        QCOMPARE(u.correlation[8], 1.0);
    }
};

QTEST_GUILESS_MAIN(TestNormalEquations)
#include "tst_normalequations.moc"
