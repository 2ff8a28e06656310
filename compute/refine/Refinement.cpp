#include "compute/refine/Refinement.h"

#include "compute/core/Error.h"
#include "compute/refine/LocalBackground.h"
#include "compute/refine/NormalEquations.h"
#include "compute/refine/SpotCentroids.h"

#include <ceres/ceres.h>
#include <glm/matrix.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <sstream>

namespace bv::refine {

namespace {

// Adds the wall time of its scope to a figure of FitReport::hostMs (or of the renderings).
class Stopwatch {
  public:
    explicit Stopwatch(double& into) : m_into(into), m_start(Clock::now()) {}
    ~Stopwatch() { stop(); }
    void stop() {
        if (m_running)
            m_into += std::chrono::duration<double, std::milli>(Clock::now() - m_start).count();
        m_running = false;
    }
    Stopwatch(const Stopwatch&) = delete;
    Stopwatch& operator=(const Stopwatch&) = delete;
  private:
    using Clock = std::chrono::steady_clock;
    double& m_into;
    Clock::time_point m_start;
    bool m_running = true;
};

// The residuals of the chosen pixels and their derivatives, handed to Ceres as their normal
// equations (NormalEquations.h: q + 1 residuals for q values, whatever the pixels); the
// rendering at the last x is kept, since Ceres asks for the Jacobian at a point it has just
// evaluated. Renderings hold the chosen pixels only, in their order (PixelModel::pixels).
class PixelResiduals : public ceres::CostFunction {
  public:
    PixelResiduals(const ParameterSet& set, const io::MeasuredImage& measured,
                   const PixelModel& model, std::vector<std::size_t> pixels,
                   std::vector<double> weights, int& renders, FitReport::HostTimes& times)
        : m_set(set), m_measured(measured), m_model(model), m_pixels(std::move(pixels)),
          m_weights(std::move(weights)), m_renders(renders), m_times(times) {
        set_num_residuals(static_cast<int>(set.parameters().size() + 3));
        mutable_parameter_block_sizes()->push_back(static_cast<int>(set.parameters().size()));
        mutable_parameter_block_sizes()->push_back(2); // scale, background
    }

    // Ceres's residuals: (c, d) with the Jacobian (R; 0) where it asks for derivatives, and
    // (0, ..., 0, |r|) where it asks for the cost alone (a trial step)
    bool Evaluate(double const* const* parameters, double* residuals,
                  double** jacobians) const override {
        const std::size_t p = m_set.parameters().size(), q = p + 2;
        const std::vector<double> x(parameters[0], parameters[0] + p);
        const double k = parameters[1][0], b = parameters[1][1];
        if (!jacobians) {
            const std::vector<float>& s = imageAt(x);
            const Stopwatch watch(m_times.costs);
            const double rtr = sumOfSquares(m_pixels.size(),
                                            [&](std::size_t i) { return residual(i, s, k, b); });
            std::fill(residuals, residuals + q, 0.0);
            residuals[q] = std::sqrt(rtr);
            return true;
        }
        const Compressed c = compress(normalEquations(x, k, b));
        std::copy(c.residuals.begin(), c.residuals.end(), residuals);
        for (std::size_t row = 0; row <= q; ++row) {
            if (jacobians[0])
                for (std::size_t j = 0; j < p; ++j)
                    jacobians[0][row * p + j] = c.jacobian[row * q + j];
            if (jacobians[1])
                for (std::size_t j = 0; j < 2; ++j)
                    jacobians[1][row * 2 + j] = c.jacobian[row * q + p + j];
        }
        return true;
    }

    // chosen pixel i's weighted residual, s being the rendering of its x
    double residual(std::size_t i, const std::vector<float>& s, double k, double b) const {
        return m_weights[i] * (m_measured.pixels[m_pixels[i]] - k * s[i] - b);
    }

    // the weighted residual of each chosen pixel at (x, k, b)
    std::vector<double> pixelResiduals(const std::vector<double>& x, double k, double b) const {
        const std::vector<float>& s = imageAt(x);
        std::vector<double> r(m_pixels.size());
        for (std::size_t i = 0; i < m_pixels.size(); ++i)
            r[i] = residual(i, s, k, b);
        return r;
    }

    // J^T J, J^T r and r^T r of the pixels' residuals at (x, k, b), the parameters then scale
    // and background (J^T J is the inverse of the covariance before the reduced chi-square)
    NormalEquations normalEquations(const std::vector<double>& x, double k, double b) const {
        const std::size_t p = x.size(), n = m_pixels.size();
        const Slopes& slopes = slopesAt(x);
        const std::vector<float>& s = imageAt(x);
        const std::size_t q = p + 2;
        const Stopwatch watch(m_times.normalEquations);
        return refine::normalEquations(n, q, [&](std::size_t first, std::size_t count,
                                                 double* rows, double* r) {
            for (std::size_t m = 0; m < count; ++m) {
                const std::size_t i = first + m;
                const double w = m_weights[i];
                double* row = rows + m * q;
                for (std::size_t j = 0; j < p; ++j)
                    row[j] = -w * k * slopes.at(j, i);
                row[p] = -w * s[i];
                row[p + 1] = -w;
                r[m] = residual(i, s, k, b);
            }
        });
    }

    // The renderings the image's derivatives by the parameters at x are made of (forward
    // differences, one rendering per parameter moved by its step): the image at x and each
    // moved one, kept for the covariance at the minimum, where Ceres has just asked for them.
    // The differences are taken where the normal equations read them (Slopes::at).
    struct Slopes {
        std::vector<float> here;
        std::vector<std::vector<float>> moved;
        std::vector<double> perStep; // 1 / each parameter's step
        double at(std::size_t j, std::size_t i) const {
            return (double(moved[j][i]) - double(here[i])) * perStep[j];
        }
    };
    const Slopes& slopesAt(const std::vector<double>& x) const {
        if (x == m_slopesX && !m_slopes.moved.empty())
            return m_slopes;
        const std::size_t p = x.size();
        m_slopes.here = imageAt(x);
        m_slopes.moved.resize(p);
        m_slopes.perStep.resize(p);
        for (std::size_t j = 0; j < p; ++j) {
            std::vector<double> moved = x;
            const double h = m_set.parameters()[j].step;
            m_slopes.perStep[j] = 1.0 / h;
            moved[j] += h;
            m_slopes.moved[j] = render(moved); // render() leaves the kept image alone
        }
        m_slopesX = x;
        return m_slopes;
    }

    std::vector<float> render(const std::vector<double>& x) const {
        ++m_renders;
        const Stopwatch watch(m_renderMs);
        std::vector<float> values = m_model.pixels(m_set.experimentAt(x));
        if (values.size() != m_pixels.size())
            throw Error("refinement: the forward model gave " + std::to_string(values.size()) +
                        " pixels' values, the fit asked for " + std::to_string(m_pixels.size()));
        return values;
    }

    // Takes over another cost's last rendering (the next stage starts where this one ended).
    void keepRendering(const PixelResiduals& other) {
        m_lastX = other.m_lastX;
        m_lastImage = other.m_lastImage;
    }

    double renderMs() const { return m_renderMs; }

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
    const PixelModel& m_model;
    std::vector<std::size_t> m_pixels;
    std::vector<double> m_weights;
    int& m_renders;
    FitReport::HostTimes& m_times;
    mutable double m_renderMs = 0.0; // the renderings' wall time, which `after` leaves out
    mutable std::vector<double> m_lastX;
    mutable std::vector<double> m_slopesX; // slopesAt's last x
    mutable Slopes m_slopes;
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

// A whole-image model as a PixelModel: its image masked to the chosen pixels (only those are
// rendered), the chosen ones picked from it.
PixelModel pixelModelOf(ForwardModel render, std::size_t imagePixels) {
    auto chosen = std::make_shared<std::vector<std::size_t>>();
    auto mask = std::make_shared<std::vector<std::uint16_t>>();
    PixelModel model;
    model.image = render;
    model.setPixels = [chosen, mask, imagePixels](const std::vector<std::size_t>& pixels) {
        *chosen = pixels;
        *mask = maskOfPixels(pixels, imagePixels);
    };
    model.pixels = [render, chosen, mask](const Experiment& e) {
        Experiment masked = e;
        masked.mask = *mask;
        const std::vector<float> image = render(masked);
        if (image.size() != mask->size())
            throw Error("refinement: the forward model's image has " +
                        std::to_string(image.size()) + " pixels, the measured one " +
                        std::to_string(mask->size()));
        std::vector<float> values;
        values.reserve(chosen->size());
        for (std::size_t i : *chosen)
            values.push_back(image[i]);
        return values;
    };
    return model;
}

double rms(const std::vector<double>& r) {
    double sum = 0;
    for (double v : r)
        sum += v * v;
    return r.empty() ? 0.0 : std::sqrt(sum / static_cast<double>(r.size()));
}

} // namespace

std::vector<std::uint16_t> maskOfPixels(const std::vector<std::size_t>& pixels,
                                        std::size_t imagePixels,
                                        const std::vector<std::uint16_t>& within) {
    std::vector<std::uint16_t> mask(imagePixels, 0);
    for (std::size_t i : pixels)
        mask[i] = within.empty() ? 1 : within[i];
    return mask;
}

Refinement::Refinement(ParameterSet set, const io::MeasuredImage& measured, ForwardModel render,
                       PixelChoice pixels, BackgroundChoice background)
    : m_set(std::move(set)), m_measured(measured),
      m_model(pixelModelOf(std::move(render), measured.pixels.size())), m_choice(pixels),
      m_background(background) {}

Refinement::Refinement(ParameterSet set, const io::MeasuredImage& measured, PixelModel model,
                       PixelChoice pixels, BackgroundChoice background)
    : m_set(std::move(set)), m_measured(measured), m_model(std::move(model)), m_choice(pixels),
      m_background(background) {}

FitReport Refinement::run(int maxIterations) {
    FitReport report;
    const std::vector<double> start = m_set.startValues();
    const std::vector<float> first = m_model.image(m_set.experimentAt(start));
    ++report.renders;
    if (first.size() != m_measured.pixels.size())
        throw Error("refinement: the simulated image has " + std::to_string(first.size()) +
                    " pixels, the measured one " + std::to_string(m_measured.pixels.size()));
    Stopwatch setup(report.hostMs.setup);
    const SpotRegions regions = spotRegions(first, m_measured.width, m_measured.height, m_measured.hasData);
    // The fitted pixels and the measured frame less its local background (the spots and the
    // fitted constant), from spot regions: the start's, and again after the first stage.
    std::vector<std::uint8_t> grown = regions.grown;
    std::vector<std::size_t> pixels;
    io::MeasuredImage less;
    std::vector<float> under;
    const auto choosePixels = [&] {
        pixels.clear();
        for (std::size_t i = 0; i < first.size(); ++i)
            if (m_measured.hasData[i] && (m_choice == PixelChoice::All || grown[i]))
                pixels.push_back(i);
        if (pixels.size() < 10 * (start.size() + 2))
            throw Error("refinement: " + std::to_string(pixels.size()) +
                        " pixels with data in the spot regions, too few for " +
                        std::to_string(start.size() + 2) + " parameters (the start image shows "
                        "no spots on the measured frame's pixels with data?)");
        less = m_measured;
        under.assign(m_measured.pixels.size(), 0.0f);
        // panels not stacked as the simulation stacks them: one band
        LocalBackground local = localBackground(
            m_measured, grown, io::stackedPanelRows(m_measured, m_set.start().detector.panels));
        report.pedestal = local.pedestal; // the weights want it whichever background is fitted
        if (m_background == BackgroundChoice::Local) {
            under = std::move(local.level);
            report.backgroundTile = local.tile;
            report.backgroundTiles = local.tiles;
            report.backgroundTilesFromNeighbours = local.tilesFromNeighbours;
            double sum = 0.0;
            for (std::size_t i : pixels) {
                less.pixels[i] -= under[i];
                sum += under[i];
            }
            report.backgroundMean = sum / double(pixels.size());
        }
    };
    choosePixels();
    const auto [k0, b0] = linearFit(first, less, pixels);
    // Poisson's variance in the first stage: the counts less the fitted constant. Only the
    // second stage's weights (below) take the frame's offset out: with the counts less the
    // offset here, the geometry case's first stage crept along the distance-cell valley and
    // the second ended 0.023 mm off instead of 0.0015 (docs/refinement.md, "Weights").
    std::vector<double> weights;
    for (std::size_t i : pixels)
        weights.push_back(1.0 / std::sqrt(std::max(m_measured.pixels[i] - b0, 1.0)));

    setup.stop();
    std::vector<double> x = start;
    double kb[2] = {k0, b0};
    m_model.setPixels(pixels); // only these are rendered from now on
    ceres::Solver::Options options;
    options.max_num_iterations = maxIterations;
    options.linear_solver_type = ceres::DENSE_NORMAL_CHOLESKY;
    options.logging_type = ceres::SILENT;
    // a fit to the noise of counted photons: a millionth of the cost or of the values is far
    // below what the counts determine
    options.function_tolerance = 1e-6;
    options.parameter_tolerance = 1e-6;
    // With bounds, Ceres follows each trust-region step with a projected Armijo line search
    // that evaluates the Jacobian (a rendering per parameter) at its trial points: in a fit
    // whose bounds are far from the answer, more than half the renderings went there
    // (docs/refinement.md, "Speed"). Without it the step is still kept inside the bounds.
    options.max_num_line_search_step_size_iterations = 0;

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
        bool samePixels = true;
        if (stage == 1) {
            std::vector<float> fitted; // the first stage's model at the fitted pixels
            // Where the first stage moved the spots, the start's regions may hold only their
            // edges, and its background map their peaks: the regions of the first stage's
            // whole image join the start's (a union: a stage that went astray loses nothing),
            // and the pixels and the background are chosen again from them.
            if (m_choice == PixelChoice::Spots || m_background == BackgroundChoice::Local) {
                const std::vector<float> moved = m_model.image(m_set.experimentAt(x));
                ++report.renders;
                const Stopwatch again(report.hostMs.setup);
                const SpotRegions there =
                    spotRegions(moved, m_measured.width, m_measured.height, m_measured.hasData);
                std::size_t added = 0;
                for (std::size_t i = 0; i < grown.size(); ++i)
                    if (there.grown[i] && !grown[i]) {
                        grown[i] = 1;
                        ++added;
                    }
                if (added > 0) {
                    choosePixels();
                    m_model.setPixels(pixels);
                    report.regionPixelsAdded = added;
                }
                samePixels = added == 0;
                for (std::size_t i : pixels)
                    fitted.push_back(moved[i]);
            } else {
                fitted = cost->imageAt(x);
            }
            weights.resize(pixels.size());
            for (std::size_t r = 0; r < pixels.size(); ++r)
                weights[r] = 1.0 / std::sqrt(std::max(
                    kb[0] * fitted[r] + kb[1] + under[pixels[r]] - report.pedestal, 1.0));
        }
        auto next = std::make_unique<PixelResiduals>(m_set, less, m_model, pixels, weights,
                                                     report.renders, report.hostMs);
        if (cost && samePixels)
            next->keepRendering(*cost);
        problem = std::make_unique<ceres::Problem>(); // owns the last stage's cost: it goes here
        cost = next.release();
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
    report.stopped = stopped;
    Stopwatch after(report.hostMs.after);
    const double renderedBefore = cost->renderMs(), normalBefore = report.hostMs.normalEquations;

    // the residuals of the fit and (last: it renders the start again) of the start, with the
    // final weights
    report.endResidual = rms(cost->pixelResiduals(x, kb[0], kb[1]));
    report.startSpotRmsd = spotRmsd(regions, first, less, b0, m_measured.width, &report.spots);
    // the fit's image: the fitted pixels (the rendering at x is usually the last one made)
    std::vector<float> last(first.size(), 0.0f);
    {
        const std::vector<float>& values = cost->imageAt(x);
        for (std::size_t r = 0; r < pixels.size(); ++r)
            last[pixels[r]] = values[r];
    }
    report.endSpotRmsd = spotRmsd(regions, last, less, kb[1], m_measured.width, nullptr);
    report.pixels = pixels.size();

    // uncertainties: the covariance at the minimum, times the reduced chi-square where it
    // exceeds 1 (the model misses more than the counting noise); below 1 the weights took the
    // pixels of under a photon as a count's variance (1/sqrt(max(mu, 1))), and shrinking by it
    // made a weak frame's sigmas half the scatter of its fits on other noise images
    // (docs/numerics/fit-sampling.md, "What is left on the weak frame")
    const double dof = std::max<double>(1.0, double(pixels.size()) - double(x.size() + 2));
    const double chi2 = std::max(1.0, 2.0 * summary.final_cost / dof);
    const Uncertainties known = uncertainties(cost->normalEquations(x, kb[0], kb[1]).jtj, chi2);
    const std::vector<double>& sigma = known.sigma;
    report.correlation = known.correlation;
    report.startResidual = rms(cost->pixelResiduals(start, k0, b0));
    for (std::size_t j = 0; j < x.size(); ++j) {
        const Parameter& p = m_set.parameters()[j];
        report.values.push_back({p.name, p.unit, p.start, x[j], sigma[j]});
    }
    after.stop(); // less its renderings and normal equations, counted on their own
    report.hostMs.after -= (cost->renderMs() - renderedBefore) +
                           (report.hostMs.normalEquations - normalBefore);
    report.values.push_back({"scale", "", k0, kb[0], sigma[x.size()]});
    report.values.push_back({"background", "counts", b0, kb[1], sigma[x.size() + 1]});
    report.start = m_set.start();
    report.refined = m_set.experimentAt(x);
    const auto cellOf = [](const Experiment& e) {
        const glm::dmat3 reciprocal = *e.crystal.mosflmMatrix / (e.beam.wavelength * 1e10);
        return glm::transpose(glm::inverse(reciprocal));
    };
    report.startCell = cellOf(m_set.start());
    report.refinedCell = cellOf(report.refined);
    return report;
}

} // namespace bv::refine
