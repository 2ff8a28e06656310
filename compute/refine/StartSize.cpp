#include "compute/refine/StartSize.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace bv::refine {

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
        // a flat image, no data, or a rendering not the frame's size (the fit then says why)
        // explains nothing
        const std::vector<float> image = render(e);
        const double c = image.size() != measured.pixels.size()
                             ? -1.0
                             : io::compareRegion(measured, image, 0, static_cast<std::size_t>(measured.height),
                                                 static_cast<std::size_t>(measured.width))
                                   .correlation;
        const double r = std::isnan(c) ? -1.0 : c;
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
