#pragma once
// The fit's least squares as Ceres sees them, a few numbers instead of a row per pixel.
//
// A fit of q values to n pixels needs, at each point, only J^T J (q x q), J^T r (q) and r^T r
// of the n weighted residuals r and their Jacobian J. Handed to Ceres as they are (n = 720,000
// at 2048^2), its copies of J, checks and scalings took 2.8 s of a 3.1 s fit on the H100's
// host. So the pixels are summed once into those numbers (NormalEquations, on the host's
// threads in fixed chunks: the same sums, bit for bit, on any number of threads) and Ceres
// gets q + 1 residuals rho = (c, d) with the q x q Jacobian R below them:
//
//   R^T R = J^T J,   R^T c = J^T r,   |c|^2 + d^2 = r^T r,
//
// so that |R delta + c|^2 + d^2 = |J delta + r|^2 for every step delta: the Levenberg-Marquardt
// step, its model's cost change, the column scaling and the cost are those of the pixels.
// R = Lambda^(1/2) V^T from J^T J = V Lambda V^T (any R with R^T R = J^T J serves; this one
// exists when J^T J is singular, a parameter that moves no pixel), c = Lambda^(-1/2) V^T J^T r
// on the eigenvalues above 1e-15 of the largest and 0 on the others (where J^T r is 0 but
// for rounding), d = sqrt(r^T r - |c|^2). docs/numerics/compressed-least-squares.md.
//
//   NormalEquations s = normalEquations(n, q, [&](std::size_t first, std::size_t count,
//                                                 double* rows, double* r) {
//       for (std::size_t k = 0; k < count; ++k) {   // pixel i = first + k
//           ... rows[k * q + j] = d r_i / d value_j ...; r[k] = r_i; } });
//   const Compressed c = compress(s);   // c.residuals (q + 1), c.jacobian ((q + 1) x q)

#include <cstddef>
#include <functional>
#include <vector>

namespace bv::refine {

struct NormalEquations {
    std::size_t q = 0;
    std::vector<double> jtj; // q x q, row-major, symmetric
    std::vector<double> jtr; // q
    double rtr = 0.0;        // the sum of the squared residuals
};

// Pixels first .. first + count: their residuals into r[0..count) and their Jacobian rows into
// rows (count x q, row-major). Called for blocks of a few hundred pixels, from several threads
// at once (each with its own block).
using ResidualRows =
    std::function<void(std::size_t first, std::size_t count, double* rows, double* r)>;

// The sums over pixels 0..n, in chunks of a fixed size whose partial sums are added in order;
// within a chunk, blocks of a fixed size, each added as a matrix product (the same bits on any
// number of threads).
NormalEquations normalEquations(std::size_t n, std::size_t q, const ResidualRows& rowsOf);

// r^T r alone (a trial step's cost), in the same chunks: pixel i's residual from residualOf(i).
double sumOfSquares(std::size_t n, const std::function<double(std::size_t i)>& residualOf);

struct Compressed {
    std::vector<double> residuals; // q + 1: c, then d
    std::vector<double> jacobian;  // (q + 1) x q, row-major: R, then a row of zeros
};

Compressed compress(const NormalEquations& s);

// What the fit's values are known to at the minimum: the covariance (J^T J)^+ times the
// reduced chi-square, the pseudo-inverse from J^T J's eigenvectors with the directions whose
// eigenvalue is below 1e-15 of the largest left out (a parameter that moves no pixel has no
// uncertainty rather than an infinite one), as a singular value decomposition of J with a
// null space would. From the q x q matrix, not from J itself: an SVD of J (Ceres's
// Covariance) costs a second per million fitted pixels.
struct Uncertainties {
    std::vector<double> sigma;       // q standard errors
    std::vector<double> correlation; // q x q, row-major: 1 on the diagonal, 0 beside a sigma of 0
};
Uncertainties uncertainties(const std::vector<double>& jtj, double reducedChiSquare);

} // namespace bv::refine
