#include "compute/amorphous/StolSpline.h"

#include <algorithm>

namespace bv::amorphous {

StolSpline::StolSpline(const io::StolTable& table, double multiplier) {
    const std::size_t n = table.stol.size();
    m_x.resize(n + 4);
    m_y.resize(n + 4);
    for (std::size_t i = 0; i < n; ++i) {
        m_x[i + 2] = table.stol[i] * multiplier;
        m_y[i + 2] = table.F[i];
    }
    m_x[0] = -1e99;
    m_x[1] = -1e98;
    m_x[n + 2] = 1e98;
    m_x[n + 3] = 1e99;
    m_y[0] = m_y[1] = table.F.front();
    m_y[n + 2] = m_y[n + 3] = table.F.back();
}

std::size_t StolSpline::below(double stol) const {
    const std::size_t k =
        static_cast<std::size_t>(std::upper_bound(m_x.begin(), m_x.end(), stol) - m_x.begin());
    return std::clamp<std::size_t>(k == 0 ? 1 : k - 1, 1, m_x.size() - 3);
}

double StolSpline::operator()(double stol) const {
    const std::size_t k = below(stol); // so that k+2 exists
    const double* x = m_x.data() + k - 1;
    const double* y = m_y.data() + k - 1;
    // Lagrange's four terms, each written the way the reference's polint orders its products
    const double t0 = (stol - x[1]) * (stol - x[2]) * (stol - x[3]) * y[0] /
                      ((x[0] - x[1]) * (x[0] - x[2]) * (x[0] - x[3]));
    const double t1 = (stol - x[0]) * (stol - x[2]) * (stol - x[3]) * y[1] /
                      ((x[1] - x[0]) * (x[1] - x[2]) * (x[1] - x[3]));
    const double t2 = (stol - x[0]) * (stol - x[1]) * (stol - x[3]) * y[2] /
                      ((x[2] - x[0]) * (x[2] - x[1]) * (x[2] - x[3]));
    const double t3 = (stol - x[0]) * (stol - x[1]) * (stol - x[2]) * y[3] /
                      ((x[3] - x[0]) * (x[3] - x[1]) * (x[3] - x[2]));
    return t0 + t1 + t2 + t3;
}

} // namespace bv::amorphous
