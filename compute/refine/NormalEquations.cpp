#include "compute/refine/NormalEquations.h"

#include "compute/core/HostThreads.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace bv::refine {

namespace {

constexpr std::size_t kChunk = 16384; // pixels a partial sum covers, whatever the threads
constexpr std::size_t kBlock = 256;   // pixels a matrix product adds (a chunk's multiple)

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The chunk's sums, block by block: J^T J and J^T r of each block as products (vectorised),
// not pixel by pixel. Each block's rows and residuals are filled by the caller's function.
void addChunk(std::size_t first, std::size_t last, const ResidualRows& rowsOf,
              NormalEquations& s) {
    const auto q = static_cast<Eigen::Index>(s.q);
    RowMajor rows(static_cast<Eigen::Index>(kBlock), q);
    Eigen::VectorXd r(static_cast<Eigen::Index>(kBlock));
    Eigen::MatrixXd jtj = Eigen::MatrixXd::Zero(q, q);
    Eigen::VectorXd jtr = Eigen::VectorXd::Zero(q);
    double rtr = 0.0;
    for (std::size_t block = first; block < last; block += kBlock) {
        const std::size_t count = std::min(kBlock, last - block);
        const auto m = static_cast<Eigen::Index>(count);
        rowsOf(block, count, rows.data(), r.data());
        const auto j = rows.topRows(m);
        const auto rb = r.head(m);
        jtj.noalias() += j.transpose() * j;
        jtr.noalias() += j.transpose() * rb;
        rtr += rb.squaredNorm();
    }
    s.rtr = rtr;
    for (Eigen::Index a = 0; a < q; ++a) {
        s.jtr[static_cast<std::size_t>(a)] = jtr(a);
        for (Eigen::Index c = 0; c < q; ++c)
            s.jtj[static_cast<std::size_t>(a * q + c)] = jtj(a, c);
    }
}

NormalEquations zero(std::size_t q) {
    NormalEquations s;
    s.q = q;
    s.jtj.assign(q * q, 0.0);
    s.jtr.assign(q, 0.0);
    return s;
}

} // namespace

NormalEquations normalEquations(std::size_t n, std::size_t q, const ResidualRows& rowsOf) {
    const std::size_t chunks = (n + kChunk - 1) / kChunk;
    std::vector<NormalEquations> parts(chunks, zero(q));
    forEachOnHostThreads(chunks, [&](std::size_t k) {
        addChunk(k * kChunk, std::min(n, (k + 1) * kChunk), rowsOf, parts[k]);
    });

    NormalEquations sum = zero(q);
    for (const NormalEquations& part : parts) { // in chunk order: the same bits every time
        sum.rtr += part.rtr;
        for (std::size_t a = 0; a < q; ++a) {
            sum.jtr[a] += part.jtr[a];
            for (std::size_t c = a; c < q; ++c)
                sum.jtj[a * q + c] += part.jtj[a * q + c];
        }
    }
    for (std::size_t a = 0; a < q; ++a) // symmetric to the bit: the upper triangle's sums
        for (std::size_t c = 0; c < a; ++c)
            sum.jtj[a * q + c] = sum.jtj[c * q + a];
    return sum;
}

double sumOfSquares(std::size_t n, const std::function<double(std::size_t)>& residualOf) {
    const std::size_t chunks = (n + kChunk - 1) / kChunk;
    std::vector<double> parts(chunks, 0.0);
    forEachOnHostThreads(chunks, [&](std::size_t k) {
        double sum = 0.0;
        for (std::size_t i = k * kChunk; i < std::min(n, (k + 1) * kChunk); ++i) {
            const double r = residualOf(i);
            sum += r * r;
        }
        parts[k] = sum;
    });
    double sum = 0.0;
    for (double part : parts) // in chunk order: the same bits every time
        sum += part;
    return sum;
}

Compressed compress(const NormalEquations& s) {
    const auto q = static_cast<Eigen::Index>(s.q);
    const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>
        jtj(s.jtj.data(), q, q);
    const Eigen::Map<const Eigen::VectorXd> jtr(s.jtr.data(), q);
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(jtj);
    Compressed out;
    out.residuals.assign(s.q + 1, 0.0);
    out.jacobian.assign((s.q + 1) * s.q, 0.0);
    double c2 = 0.0;
    if (eigen.info() == Eigen::Success && q > 0) {
        const Eigen::VectorXd& lambda = eigen.eigenvalues(); // ascending
        const Eigen::MatrixXd& v = eigen.eigenvectors();
        const double floor = 1e-15 * std::max(0.0, lambda(q - 1));
        const Eigen::VectorXd projected = v.transpose() * jtr;
        for (Eigen::Index e = 0; e < q; ++e) {
            if (!(lambda(e) > floor))
                continue; // a direction no pixel moves: R's row and c's entry stay 0
            const double root = std::sqrt(lambda(e));
            const double c = projected(e) / root;
            out.residuals[static_cast<std::size_t>(e)] = c;
            c2 += c * c;
            for (Eigen::Index j = 0; j < q; ++j)
                out.jacobian[static_cast<std::size_t>(e * q + j)] = root * v(j, e);
        }
    }
    out.residuals[s.q] = std::sqrt(std::max(0.0, s.rtr - c2));
    return out;
}

Uncertainties uncertainties(const std::vector<double>& jtj, double reducedChiSquare) {
    const auto q = static_cast<Eigen::Index>(std::sqrt(double(jtj.size())) + 0.5);
    const auto n = static_cast<std::size_t>(q);
    Uncertainties out;
    out.sigma.assign(n, 0.0);
    out.correlation.assign(n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        out.correlation[i * n + i] = 1.0;
    const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>
        normal(jtj.data(), q, q);
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(normal);
    if (eigen.info() != Eigen::Success || q == 0)
        return out;
    const Eigen::VectorXd& lambda = eigen.eigenvalues(); // ascending
    const Eigen::MatrixXd& v = eigen.eigenvectors();
    const double floor = 1e-15 * std::max(0.0, lambda(q - 1));
    Eigen::MatrixXd covariance = Eigen::MatrixXd::Zero(q, q);
    for (Eigen::Index e = 0; e < q; ++e)
        if (lambda(e) > floor)
            covariance += v.col(e) * v.col(e).transpose() * (reducedChiSquare / lambda(e));
    for (std::size_t i = 0; i < n; ++i) {
        const auto ii = static_cast<Eigen::Index>(i);
        out.sigma[i] = std::sqrt(std::max(0.0, covariance(ii, ii)));
    }
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            if (i != j && out.sigma[i] > 0.0 && out.sigma[j] > 0.0) {
                const double r =
                    covariance(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) /
                    (out.sigma[i] * out.sigma[j]);
                out.correlation[i * n + j] = std::clamp(r, -1.0, 1.0);
            }
    return out;
}

} // namespace bv::refine
