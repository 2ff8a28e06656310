#include "compute/engine/SerialOrder.h"

#include "compute/model/Rotation.h"

#include <glm/geometric.hpp>

#include <cstdlib>

namespace bv::engine {
namespace {

// Whether the reference runs the phi loop for this unit: not when -dmin skips the source.
bool unitRuns(const plan::Plan& p, int fpixel, int spixel, long long unit) {
    if (!(p.dmin > 0.0))
        return true;
    const long long sources = static_cast<long long>(p.sources.size());
    const int source = static_cast<int>(unit % sources);
    const long long subpixel = unit / sources;
    const int n = p.oversample;
    const int subF = static_cast<int>(subpixel % n);
    const int subS = static_cast<int>((subpixel / n) % n);
    const int layer = static_cast<int>(subpixel / (static_cast<long long>(n) * n));
    const double Fdet = p.subpixelSize * (fpixel * n + subF) + p.subpixelSize / 2.0;
    const double Sdet = p.subpixelSize * (spixel * n + subS) + p.subpixelSize / 2.0;
    glm::dvec3 position = Fdet * p.fdet + Sdet * p.sdet + layer * p.thickStep * p.odet + p.pix0;
    if (p.curved) {
        const glm::dvec3 turned = rotateAbout(p.distance * p.beam, p.sdet, position.y / p.distance);
        position = rotateAbout(turned, p.fdet, position.z / p.distance);
    }
    const plan::SourceEntry& s = p.sources[static_cast<std::size_t>(source)];
    const glm::dvec3 scattering = (unitOrZero(position) - s.incident) / s.wavelength;
    const double stol = 0.5 * glm::length(scattering);
    return !(stol > 0.0 && p.dmin > 0.5 / stol);
}

} // namespace

std::vector<double> phiAngles(const ResolvedExperiment& r) {
    std::vector<double> angles;
    for (int t = 0; t < r.phi.steps; ++t)
        angles.push_back(r.phiAt(t));
    return angles;
}

OrderedOrientations orderOrientations(const plan::Plan& p, const std::vector<double>& phi,
                                      int threads) {
    OrderedOrientations out;
    out.rows = p.orientations;
    const std::size_t domains = static_cast<std::size_t>(p.mosaicDomains);
    const std::size_t steps = phi.size();
    if (steps == 0 || domains == 0 || steps * domains != p.orientations.size())
        return out;

    // the step whose axes each step sees; -1: the unrotated axes
    std::vector<long> source(steps, -1);
    long lastRotated = -1;
    for (std::size_t t = 0; t < steps; ++t)
        if (phi[t] != 0.0)
            lastRotated = static_cast<long>(t);
    long carried = lastRotated; // what the previous unit leaves behind
    for (std::size_t t = 0; t < steps; ++t) {
        if (phi[t] != 0.0)
            carried = static_cast<long>(t);
        source[t] = carried;
    }
    // the first unit starts from the unrotated axes: it differs in the leading zero steps
    int fresh = 0;
    if (lastRotated >= 0)
        while (static_cast<std::size_t>(fresh) < steps &&
               phi[static_cast<std::size_t>(fresh)] == 0.0)
            ++fresh;

    for (std::size_t t = 0; t < steps; ++t) {
        if (source[t] < 0 || static_cast<std::size_t>(source[t]) == t)
            continue; // the Plan's own rows (unrotated where phi is 0)
        for (std::size_t m = 0; m < domains; ++m)
            out.rows[t * domains + m] =
                p.orientations[static_cast<std::size_t>(source[t]) * domains + m];
    }
    if (fresh == 0)
        return out;
    out.freshSteps = fresh;
    out.freshRows.assign(p.orientations.begin(),
                         p.orientations.begin() + static_cast<std::ptrdiff_t>(
                                                      static_cast<std::size_t>(fresh) * domains));

    // each thread's first unit in the reference's order: along its rows, pixels along a row,
    // inside the ROI, unmasked, whose source -dmin does not skip
    const long long units = static_cast<long long>(p.thickSteps) * p.oversample * p.oversample *
                            static_cast<long long>(p.sources.size());
    const std::vector<std::uint16_t>* mask = p.mask && !p.mask->empty() ? p.mask : nullptr;
    for (const auto& [firstRow, endRow] : staticRowBlocks(p.slowPixels, threads)) {
        bool found = false;
        for (int s = firstRow; s < endRow && !found; ++s)
            for (int f = 0; f < p.fastPixels && !found; ++f) {
                if (!p.roi.contains(f, s))
                    continue;
                const long long index = static_cast<long long>(s) * p.fastPixels + f;
                if (mask && (*mask)[static_cast<std::size_t>(index)] == 0)
                    continue;
                for (long long u = 0; u < units && !found; ++u)
                    if (unitRuns(p, f, s, u)) {
                        out.freshUnits.push_back({index, u});
                        found = true;
                    }
            }
    }
    if (out.freshUnits.empty()) { // no unit runs at all
        out.freshSteps = 0;
        out.freshRows.clear();
    }
    return out;
}

std::vector<std::pair<int, int>> staticRowBlocks(int rows, int threads) {
    std::vector<std::pair<int, int>> blocks;
    if (threads < 1)
        threads = 1;
    const int q = rows / threads, r = rows % threads;
    int first = 0;
    for (int t = 0; t < threads; ++t) {
        const int count = q + (t < r ? 1 : 0);
        if (count > 0)
            blocks.emplace_back(first, first + count);
        first += count;
    }
    return blocks;
}

int referenceThreads() {
    const char* value = std::getenv("OMP_NUM_THREADS");
    if (!value)
        return 1;
    char* end = nullptr;
    const long n = std::strtol(value, &end, 10);
    return n > 0 && n < 1 << 20 ? static_cast<int>(n) : 1;
}

} // namespace bv::engine
