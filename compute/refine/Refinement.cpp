#include "compute/refine/Refinement.h"

#include "compute/core/Error.h"
#include "compute/refine/SpotCentroids.h"

#include <ceres/ceres.h>
#include <glm/matrix.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <memory>
#include <sstream>

namespace bv::refine {

namespace {

// The residuals of the chosen pixels and their derivatives; the rendering at the last x is
// kept, since Ceres asks for the Jacobian at a point it has just evaluated.
class PixelResiduals : public ceres::CostFunction {
  public:
    PixelResiduals(const ParameterSet& set, const io::MeasuredImage& measured,
                   const ForwardModel& render, std::vector<std::size_t> pixels,
                   std::vector<double> weights, std::vector<std::uint16_t> mask, int& renders)
        : m_set(set), m_measured(measured), m_render(render), m_pixels(std::move(pixels)),
          m_weights(std::move(weights)), m_mask(std::move(mask)), m_renders(renders) {
        set_num_residuals(static_cast<int>(m_pixels.size()));
        mutable_parameter_block_sizes()->push_back(static_cast<int>(set.parameters().size()));
        mutable_parameter_block_sizes()->push_back(2); // scale, background
    }

    bool Evaluate(double const* const* parameters, double* residuals,
                  double** jacobians) const override {
        const std::size_t p = m_set.parameters().size();
        const std::vector<double> x(parameters[0], parameters[0] + p);
        const double k = parameters[1][0], b = parameters[1][1];
        const std::vector<float>& s = imageAt(x);
        for (std::size_t r = 0; r < m_pixels.size(); ++r) {
            const std::size_t i = m_pixels[r];
            residuals[r] = m_weights[r] * (m_measured.pixels[i] - k * s[i] - b);
        }
        if (!jacobians)
            return true;
        if (jacobians[1])
            for (std::size_t r = 0; r < m_pixels.size(); ++r) {
                jacobians[1][2 * r] = -m_weights[r] * s[m_pixels[r]];
                jacobians[1][2 * r + 1] = -m_weights[r];
            }
        if (jacobians[0]) {
            const std::vector<float>& here = s; // render() below keeps it
            for (std::size_t j = 0; j < p; ++j) {
                std::vector<double> moved = x;
                const double h = m_set.parameters()[j].step;
                moved[j] += h;
                const std::vector<float> there = render(moved);
                for (std::size_t r = 0; r < m_pixels.size(); ++r) {
                    const std::size_t i = m_pixels[r];
                    jacobians[0][r * p + j] =
                        -m_weights[r] * k * (double(there[i]) - double(here[i])) / h;
                }
            }
        }
        return true;
    }

    std::vector<float> render(const std::vector<double>& x) const {
        ++m_renders;
        Experiment e = m_set.experimentAt(x);
        if (!m_mask.empty())
            e.mask = m_mask; // only the fitted pixels are rendered
        std::vector<float> image = m_render(e);
        if (image.size() != m_measured.pixels.size())
            throw Error("refinement: the forward model's image has " + std::to_string(image.size()) +
                        " pixels, the measured one " + std::to_string(m_measured.pixels.size()));
        return image;
    }

    const std::vector<float>& imageAt(const std::vector<double>& x) const {
        if (x != m_lastX || m_lastImage.empty()) {
            m_lastImage = render(x);
            m_lastX = x;
        }
        return m_lastImage;
    }

  private:
    const ParameterSet& m_set;
    const io::MeasuredImage& m_measured;
    const ForwardModel& m_render;
    std::vector<std::size_t> m_pixels;
    std::vector<double> m_weights;
    std::vector<std::uint16_t> m_mask;
    int& m_renders;
    mutable std::vector<double> m_lastX;
    mutable std::vector<float> m_lastImage;
};

// Ceres's iteration hook -> the caller's FitProgress, after accepted steps only.
class ProgressReporter : public ceres::IterationCallback {
  public:
    ProgressReporter(const ProgressCallback& progress, const ParameterSet& set,
                     const std::vector<double>& x, const double* kb, std::size_t residuals,
                     int stage, bool& stopped)
        : m_progress(progress), m_set(set), m_x(x), m_kb(kb), m_residuals(residuals),
          m_stage(stage), m_stopped(stopped) {}

    ceres::CallbackReturnType operator()(const ceres::IterationSummary& summary) override {
        if (summary.iteration > 0 && !summary.step_is_successful)
            return ceres::SOLVER_CONTINUE; // the state is that of the step before
        FitProgress p;
        p.stage = m_stage;
        p.iteration = summary.iteration;
        p.values = m_x; // Solver::Options::update_state_every_iteration
        p.values.push_back(m_kb[0]);
        p.values.push_back(m_kb[1]);
        p.residual = std::sqrt(2.0 * summary.cost / static_cast<double>(std::max<std::size_t>(m_residuals, 1)));
        p.experiment = m_set.experimentAt(m_x);
        if (m_progress(p))
            return ceres::SOLVER_CONTINUE;
        m_stopped = true;
        return ceres::SOLVER_TERMINATE_SUCCESSFULLY;
    }

  private:
    const ProgressCallback& m_progress;
    const ParameterSet& m_set;
    const std::vector<double>& m_x;
    const double* m_kb;
    std::size_t m_residuals;
    int m_stage;
    bool& m_stopped;
};

// The linear fit m = k s + b over the chosen pixels (the start of k and b).
std::pair<double, double> linearFit(const std::vector<float>& s, const io::MeasuredImage& m,
                                    const std::vector<std::size_t>& pixels) {
    double n = 0, ss = 0, sm = 0, s1 = 0, m1 = 0;
    for (std::size_t i : pixels) {
        n += 1;
        s1 += s[i];
        m1 += m.pixels[i];
        ss += double(s[i]) * s[i];
        sm += double(s[i]) * m.pixels[i];
    }
    const double var = ss - s1 * s1 / n;
    const double k = var > 0 ? (sm - s1 * m1 / n) / var : 1.0;
    return {k, (m1 - k * s1) / n};
}

double rms(const std::vector<double>& r) {
    double sum = 0;
    for (double v : r)
        sum += v * v;
    return r.empty() ? 0.0 : std::sqrt(sum / static_cast<double>(r.size()));
}

} // namespace

Refinement::Refinement(ParameterSet set, const io::MeasuredImage& measured, ForwardModel render,
                       PixelChoice pixels)
    : m_set(std::move(set)), m_measured(measured), m_render(std::move(render)), m_choice(pixels) {}

FitReport Refinement::run(int maxIterations) {
    FitReport report;
    const std::vector<double> start = m_set.startValues();
    const std::vector<float> first = m_render(m_set.experimentAt(start));
    ++report.renders;
    if (first.size() != m_measured.pixels.size())
        throw Error("refinement: the simulated image has " + std::to_string(first.size()) +
                    " pixels, the measured one " + std::to_string(m_measured.pixels.size()));
    const SpotRegions regions = spotRegions(first, m_measured.width, m_measured.height, m_measured.hasData);
    std::vector<std::size_t> pixels;
    for (std::size_t i = 0; i < first.size(); ++i)
        if (m_measured.hasData[i] && (m_choice == PixelChoice::All || regions.grown[i]))
            pixels.push_back(i);
    if (pixels.size() < 10 * (start.size() + 2))
        throw Error("refinement: " + std::to_string(pixels.size()) +
                    " pixels with data in the spot regions, too few for " +
                    std::to_string(start.size() + 2) + " parameters (the start image shows no "
                    "spots on the measured frame's pixels with data?)");
    const auto [k0, b0] = linearFit(first, m_measured, pixels);
    std::vector<double> weights;
    for (std::size_t i : pixels)
        weights.push_back(1.0 / std::sqrt(std::max(m_measured.pixels[i] - b0, 1.0)));

    std::vector<double> x = start;
    double kb[2] = {k0, b0};
    std::vector<std::uint16_t> mask;
    if (m_choice == PixelChoice::Spots) {
        mask.assign(first.size(), 0);
        for (std::size_t i : pixels)
            mask[i] = 1;
    }
    ceres::Solver::Options options;
    options.max_num_iterations = maxIterations;
    options.linear_solver_type = ceres::DENSE_QR;
    options.logging_type = ceres::SILENT;
    // a fit to the noise of counted photons: a millionth of the cost or of the values is far
    // below what the counts determine
    options.function_tolerance = 1e-6;
    options.parameter_tolerance = 1e-6;

    // Two stages: weights from the measured counts (quick to get near), then from the fitted
    // model, Poisson's variance being the mean: the measured count as the variance pulls the
    // scale low by about one count per pixel (docs/refinement.md).
    std::unique_ptr<ceres::Problem> problem;
    PixelResiduals* cost = nullptr;
    ceres::Solver::Summary summary;
    bool stopped = false; // the caller's progress said so
    std::unique_ptr<ProgressReporter> reporter;
    if (m_progress)
        options.update_state_every_iteration = true; // the reporter reads x and kb
    for (int stage = 0; stage < 2 && !stopped; ++stage) {
        if (stage == 1) {
            const std::vector<float> fitted = cost->render(x);
            for (std::size_t r = 0; r < pixels.size(); ++r)
                weights[r] = 1.0 / std::sqrt(std::max(kb[0] * fitted[pixels[r]] + kb[1], 1.0));
        }
        problem = std::make_unique<ceres::Problem>();
        cost = new PixelResiduals(m_set, m_measured, m_render, pixels, weights, mask, report.renders);
        problem->AddResidualBlock(cost, nullptr, x.data(), kb);
        for (std::size_t j = 0; j < x.size(); ++j) {
            const Parameter& p = m_set.parameters()[j];
            if (p.lower > -1e300)
                problem->SetParameterLowerBound(x.data(), static_cast<int>(j), p.lower);
            if (p.upper < 1e300)
                problem->SetParameterUpperBound(x.data(), static_cast<int>(j), p.upper);
        }
        if (m_progress) {
            reporter = std::make_unique<ProgressReporter>(m_progress, m_set, x, kb, pixels.size(),
                                                          stage, stopped);
            options.callbacks = {reporter.get()};
        }
        ceres::Solve(options, problem.get(), &summary);
        report.iterations += static_cast<int>(summary.iterations.size());
    }
    report.termination = summary.message;

    // the residuals of the start and of the fit, with the final weights
    std::vector<double> residuals(pixels.size());
    {
        const double startKb[2] = {k0, b0};
        const double* blocks[] = {start.data(), startKb};
        cost->Evaluate(blocks, residuals.data(), nullptr);
        report.startResidual = rms(residuals);
    }
    {
        const double* blocks[] = {x.data(), kb};
        cost->Evaluate(blocks, residuals.data(), nullptr);
        report.endResidual = rms(residuals);
    }
    report.startSpotRmsd = spotRmsd(regions, first, m_measured, b0, m_measured.width, &report.spots);
    const std::vector<float> last = cost->render(x);
    report.endSpotRmsd = spotRmsd(regions, last, m_measured, kb[1], m_measured.width, nullptr);
    report.pixels = pixels.size();

    // uncertainties: the covariance at the minimum, times the reduced chi-square
    std::vector<double> sigma(x.size() + 2, 0.0);
    ceres::Covariance::Options covOptions;
    covOptions.algorithm_type = ceres::DENSE_SVD;
    covOptions.null_space_rank = -1;
    ceres::Covariance covariance(covOptions);
    std::vector<std::pair<const double*, const double*>> blocks = {{x.data(), x.data()}, {kb, kb}};
    const double dof = std::max<double>(1.0, double(pixels.size()) - double(x.size() + 2));
    const double chi2 = 2.0 * summary.final_cost / dof;
    if (covariance.Compute(blocks, problem.get())) {
        std::vector<double> cxx(x.size() * x.size()), ckb(4);
        covariance.GetCovarianceBlock(x.data(), x.data(), cxx.data());
        covariance.GetCovarianceBlock(kb, kb, ckb.data());
        for (std::size_t j = 0; j < x.size(); ++j)
            sigma[j] = std::sqrt(std::max(0.0, cxx[j * x.size() + j] * chi2));
        sigma[x.size()] = std::sqrt(std::max(0.0, ckb[0] * chi2));
        sigma[x.size() + 1] = std::sqrt(std::max(0.0, ckb[3] * chi2));
    }
    for (std::size_t j = 0; j < x.size(); ++j) {
        const Parameter& p = m_set.parameters()[j];
        report.values.push_back({p.name, p.unit, p.start, x[j], sigma[j]});
    }
    report.values.push_back({"scale", "", k0, kb[0], sigma[x.size()]});
    report.values.push_back({"background", "counts", b0, kb[1], sigma[x.size() + 1]});
    report.refined = m_set.experimentAt(x);
    const auto cellOf = [](const Experiment& e) {
        const glm::dmat3 reciprocal = *e.crystal.mosflmMatrix / (e.beam.wavelength * 1e10);
        return glm::transpose(glm::inverse(reciprocal));
    };
    report.startCell = cellOf(m_set.start());
    report.refinedCell = cellOf(report.refined);
    return report;
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
    out << std::setprecision(6) << "  weighted residual (rms): " << r.startResidual << " -> "
        << r.endResidual << "\n  spot centroid RMSD (" << r.spots << " spots): " << r.startSpotRmsd
        << " -> " << r.endSpotRmsd << " pixels\n";
}

std::string fitReportJson(const FitReport& r) {
    nlohmann::ordered_json j;
    nlohmann::ordered_json parameters = nlohmann::ordered_json::array();
    for (const FittedValue& v : r.values)
        parameters.push_back({{"name", v.name}, {"unit", v.unit}, {"start", v.start},
                              {"value", v.value}, {"change", v.value - v.start}, {"sigma", v.sigma}});
    j["parameters"] = parameters;
    const auto cell = [](const glm::dmat3& m) {
        nlohmann::ordered_json c;
        const char* names[] = {"a", "b", "c"};
        for (int i = 0; i < 3; ++i)
            c[names[i]] = {m[i].x, m[i].y, m[i].z};
        return c;
    };
    j["crystal_angstrom_lab_frame"] = {{"start", cell(r.startCell)}, {"refined", cell(r.refinedCell)}};
    j["residual"] = {{"start", r.startResidual}, {"end", r.endResidual}};
    j["spot_rmsd_pixels"] = {{"start", r.startSpotRmsd}, {"end", r.endSpotRmsd}, {"spots", r.spots}};
    j["pixels"] = r.pixels;
    j["iterations"] = r.iterations;
    j["renderings"] = r.renders;
    j["termination"] = r.termination;
    return j.dump(2) + "\n";
}

} // namespace bv::refine
