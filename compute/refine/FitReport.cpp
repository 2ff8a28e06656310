#include "compute/refine/Refinement.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>

// A fit's report in words (the headless program's lines) and as JSON (-fit_report).
namespace bv::refine {

std::vector<Correlated> correlatedPairs(const FitReport& report, double least) {
    const std::size_t n = report.values.size();
    std::vector<Correlated> pairs;
    if (report.correlation.size() != n * n)
        return pairs;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
            if (const double r = report.correlation[i * n + j]; std::abs(r) >= least)
                pairs.push_back({report.values[i].name, report.values[j].name, r});
    std::stable_sort(pairs.begin(), pairs.end(), [](const Correlated& a, const Correlated& b) {
        return std::abs(a.r) > std::abs(b.r);
    });
    return pairs;
}

void printFitReport(std::ostream& out, const FitReport& r) {
    out << "refinement: " << r.pixels << " pixels, " << r.iterations << " iterations, "
        << r.renders << " renderings (" << r.termination << ")\n";
    out << "  " << std::left << std::setw(16) << "parameter" << std::right << std::setw(14)
        << "start" << std::setw(14) << "refined" << std::setw(12) << "change" << std::setw(12)
        << "sigma" << "\n";
    for (const FittedValue& v : r.values) {
        out << "  " << std::left << std::setw(16) << (v.name + (v.unit.empty() ? "" : " (" + v.unit + ")"))
            << std::right << std::setw(14) << std::setprecision(7) << v.start << std::setw(14)
            << v.value << std::setw(12) << std::setprecision(4) << v.value - v.start
            << std::setw(12) << v.sigma << "\n";
    }
    if (const std::vector<Correlated> pairs = correlatedPairs(r); !pairs.empty()) {
        out << "  correlated (|r| >= 0.9: the frame measures each pair's combination, less each "
               "alone):";
        for (std::size_t i = 0; i < pairs.size(); ++i)
            out << (i ? ", " : " ") << pairs[i].first << " and " << pairs[i].second << " "
                << std::setprecision(3) << std::fixed << pairs[i].r << std::defaultfloat;
        out << "\n";
    }
    out << std::setprecision(6) << "  weighted residual (rms): " << r.startResidual << " -> "
        << r.endResidual << "\n  spot centroid RMSD (" << r.spots << " spots): " << r.startSpotRmsd
        << " -> " << r.endSpotRmsd << " pixels\n";
    if (r.backgroundTile > 0)
        out << "  background: the frame's own around the spots (" << r.backgroundTile
            << "-pixel tiles, " << r.backgroundTiles << ", " << r.backgroundTilesFromNeighbours
            << " from their neighbours), mean " << r.backgroundMean
            << " counts in the fitted pixels, plus the fitted constant\n";
    else
        out << "  background: the fitted constant\n";
    if (r.pedestal > 0.0)
        out << "  offset: " << r.pedestal
            << " counts of every pixel vary less than counted photons would (an ADC's offset);"
               " the weights leave them out\n";
    if (r.regionPixelsAdded > 0)
        out << "  spot regions: " << r.regionPixelsAdded
            << " pixels added where the first stage moved the spots\n";
    if (r.observed)
        printSpotMatch(out, r.observed->spots, r.observed->start, &r.observed->end);
}

std::string fitReportJson(const FitReport& r) {
    nlohmann::ordered_json j;
    nlohmann::ordered_json parameters = nlohmann::ordered_json::array();
    for (const FittedValue& v : r.values)
        parameters.push_back({{"name", v.name}, {"unit", v.unit}, {"start", v.start},
                              {"value", v.value}, {"change", v.value - v.start}, {"sigma", v.sigma}});
    j["parameters"] = parameters;
    // their correlations at the minimum, rows and columns in the parameters' order
    if (r.correlation.size() == r.values.size() * r.values.size()) {
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (std::size_t i = 0; i < r.values.size(); ++i)
            rows.push_back(std::vector<double>(
                r.correlation.begin() + static_cast<std::ptrdiff_t>(i * r.values.size()),
                r.correlation.begin() + static_cast<std::ptrdiff_t>((i + 1) * r.values.size())));
        j["correlation"] = rows;
        nlohmann::ordered_json pairs = nlohmann::ordered_json::array();
        for (const Correlated& c : correlatedPairs(r))
            pairs.push_back({{"first", c.first}, {"second", c.second}, {"r", c.r}});
        j["correlated_pairs"] = pairs;
    }
    if (!r.cellConstraint.empty())
        j["cell_constraint"] = r.cellConstraint;
    const auto cell = [](const glm::dmat3& m) {
        nlohmann::ordered_json c;
        const char* names[] = {"a", "b", "c"};
        for (int i = 0; i < 3; ++i)
            c[names[i]] = {m[i].x, m[i].y, m[i].z};
        return c;
    };
    j["crystal_angstrom_lab_frame"] = {{"start", cell(r.startCell)}, {"refined", cell(r.refinedCell)}};
    // what the fit sampled (its choice, the frame's as found, or the user's options)
    {
        using Json = nlohmann::ordered_json;
        const Crystal& c = r.refined.crystal;
        j["sampling"] = {
            {"phi_steps", c.phi.steps ? Json(*c.phi.steps) : Json()},
            {"phi_sampling", c.phiSampling == PhiSampling::StepCentre ? "centre" : "start"},
            {"mosaic_domains", c.mosaicDomains ? Json(*c.mosaicDomains) : Json()},
            {"oversample", r.refined.sampling.oversample ? Json(*r.refined.sampling.oversample) : Json()}};
    }
    j["residual"] = {{"start", r.startResidual}, {"end", r.endResidual}};
    j["spot_rmsd_pixels"] = {{"start", r.startSpotRmsd}, {"end", r.endSpotRmsd}, {"spots", r.spots}};
    if (r.observed)
        j["observed_spots"] = spotMatchJson(r.observed->spots, r.observed->start, &r.observed->end);
    if (r.backgroundTile > 0)
        j["background_model"] = {{"kind", "local"}, {"tile_pixels", r.backgroundTile},
                                 {"tiles", r.backgroundTiles},
                                 {"tiles_from_neighbours", r.backgroundTilesFromNeighbours},
                                 {"mean_counts", r.backgroundMean}};
    else
        j["background_model"] = {{"kind", "constant"}};
    j["offset_counts"] = r.pedestal; // without counting noise, out of the weights
    j["pixels"] = r.pixels;
    j["spot_region_pixels_added"] = r.regionPixelsAdded; // by the first stage's image
    j["iterations"] = r.iterations;
    j["renderings"] = r.renders;
    j["termination"] = r.termination;
    return j.dump(2) + "\n";
}

} // namespace bv::refine
