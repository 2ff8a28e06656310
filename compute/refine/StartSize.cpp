#include "compute/refine/StartSize.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace bv::refine {

namespace {

// Pearson's correlation of the measured pixels with data and the simulated ones
double correlation(const io::MeasuredImage& measured, const std::vector<float>& simulated) {
    double n = 0, sm = 0, ss = 0, smm = 0, sss = 0, sms = 0;
    for (std::size_t i = 0; i < simulated.size() && i < measured.pixels.size(); ++i) {
        if (!measured.hasData[i])
            continue;
        const double m = measured.pixels[i], s = simulated[i];
        n += 1;
        sm += m;
        ss += s;
        smm += m * m;
        sss += s * s;
        sms += m * s;
    }
    const double cm = smm - sm * sm / n, cs = sss - ss * ss / n, c = sms - sm * ss / n;
    return n > 1 && cm > 0 && cs > 0 ? c / std::sqrt(cm * cs) : -1.0;
}

} // namespace

const std::vector<double>& startSizeCandidates() {
    static const std::vector<double> sizes{2, 4, 8, 16, 32, 64};
    return sizes;
}

bool statesNoSize(const Experiment& experiment) {
    const Crystal& c = experiment.crystal;
    return c.cells == glm::dvec3(1.0) && c.sampleSize == glm::dvec3(0.0);
}

StartSize searchStartSize(const Experiment& experiment, const io::MeasuredImage& measured,
                          const std::function<std::vector<float>(const Experiment&)>& render) {
    StartSize best;
    double bestCorrelation = -2.0;
    for (double n : startSizeCandidates()) {
        Experiment e = experiment;
        e.crystal.cells = glm::dvec3(n);
        e.crystal.sampleSize = glm::dvec3(0.0);
        if (!e.sampling.oversample)
            e.sampling.oversample = 1;
        const double r = correlation(measured, render(e));
        best.correlations.push_back(r);
        if (r > bestCorrelation) {
            bestCorrelation = r;
            best.cells = n;
        }
    }
    return best;
}

std::vector<std::string> fittedGroups(const Experiment& experiment, std::vector<std::string> groups) {
    if (statesNoSize(experiment) && std::find(groups.begin(), groups.end(), "ncells") == groups.end())
        groups.push_back("ncells");
    return groups;
}

std::optional<StartSize> chooseStartSize(Experiment& experiment, std::vector<std::string>& groups,
                                         const io::MeasuredImage& measured,
                                         const std::function<std::vector<float>(const Experiment&)>& render) {
    if (!statesNoSize(experiment))
        return std::nullopt;
    const StartSize size = searchStartSize(experiment, measured, render);
    groups = fittedGroups(experiment, groups);
    experiment.crystal.cells = glm::dvec3(size.cells);
    return size;
}

} // namespace bv::refine
