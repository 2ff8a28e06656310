#include "compute/refine/FrameSampling.h"

#include "compute/core/Error.h"
#include "compute/model/Resolve.h"
#include "compute/model/Rotation.h"
#include "compute/random/ReferenceRandom.h"
#include "compute/refine/FitSampling.h"
#include "compute/refine/LocalBackground.h"
#include "compute/refine/SpotCentroids.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <utility>

namespace bv::refine {

namespace {

// the start-of-step counts tried beside the fit's own sampling, in the order that wins where
// two explain the frame equally: nanoBragg's default for an oscillation first (at -phi 0 its
// carry-over makes two steps look like one step turned by half the oscillation)
constexpr int kStartSteps[] = {2, 1, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64};
// the domain counts tried beside the fit's own, nanoBragg's default first
constexpr int kDomainCounts[] = {10, 20, 5, 15, 25, 30, 40, 50, 100};
// the finest tried: 4 times the fit's own steps, at least 16, at most kMaxRotationSteps
constexpr int kFinerThanOwn = 4, kFinestAtLeast = 16;
// the candidates searched along the spindle: those best at their predicted turn
constexpr std::size_t kSearched = 3;
// How much better than the fit's own sampling another must be, in the best's reduced
// chi-square times the pixels: a chi-square difference, in units that stay fair where the
// model is not perfect (reduced chi-square above 1). Candidates closer than kTie to the best
// (the same image: two steps at -phi 0 and one turned) go to the first in order.
constexpr double kSignificance = 25.0, kTie = 2.0;
// rounds of the phi sampling and the domains in turn, at most
constexpr int kRounds = 3;

// The weighted residual of the frame (less its background) against k s + b, k and b the
// least-squares ones, over the compared pixels. The weights are the fit's second stage's
// (Refinement.cpp): Poisson's variance from the fitted image, the same for every candidate;
// the measured counts as the variance would favour a candidate dim where few photons fell.
class Residual {
  public:
    Residual(const io::MeasuredImage& measured, const std::vector<float>& fittedImage,
             const std::vector<Panel>& panels) {
        const SpotRegions regions =
            spotRegions(fittedImage, measured.width, measured.height, measured.hasData);
        const LocalBackground background =
            localBackground(measured, regions.grown, io::stackedPanelRows(measured, panels));
        std::vector<double> under;
        for (std::size_t i = 0; i < measured.pixels.size(); ++i) {
            if (!measured.hasData[i] || !regions.grown[i])
                continue;
            m_pixels.push_back(i);
            m_less.push_back(static_cast<double>(measured.pixels[i]) - background.level[i]);
            under.push_back(background.level[i] - background.pedestal);
        }
        if (m_pixels.size() < 10)
            throw Error("refinement: the fitted image has too few spot pixels with data (" +
                        std::to_string(m_pixels.size()) + ") to tell the frame's phi sampling");
        m_weight.assign(m_pixels.size(), 1.0);
        const auto [k, b] = scaleAndConstant(fittedImage);
        for (std::size_t j = 0; j < m_pixels.size(); ++j)
            m_weight[j] = 1.0 / std::max(k * fittedImage[m_pixels[j]] + b + under[j], 1.0);
        m_imagePixels = measured.pixels.size();
    }
    std::size_t pixels() const { return m_pixels.size(); }

    // `e` rendered at the compared pixels alone (its mask kept where it has one): the
    // candidates' images differ nowhere else that matters, and the spot regions are a third
    // of a frame or less
    Experiment comparedOnly(Experiment e) const {
        e.mask = maskOfPixels(m_pixels, m_imagePixels, e.mask);
        return e;
    }

    double reducedChiSquare(const std::vector<float>& image) const {
        if (image.size() <= m_pixels.back())
            throw Error("refinement: a rendering is not the frame's size");
        const auto [k, b] = scaleAndConstant(image);
        double chi = 0.0;
        for (std::size_t j = 0; j < m_pixels.size(); ++j) {
            const double r = m_less[j] - k * image[m_pixels[j]] - b;
            chi += m_weight[j] * r * r;
        }
        return chi / static_cast<double>(std::max<std::size_t>(m_pixels.size() - 2, 1));
    }

  private:
    // the weighted least-squares k and b of m_less against k image + b
    std::pair<double, double> scaleAndConstant(const std::vector<float>& image) const {
        double s = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (std::size_t j = 0; j < m_pixels.size(); ++j) {
            const double w = m_weight[j], x = image[m_pixels[j]], y = m_less[j];
            s += w;
            sx += w * x;
            sy += w * y;
            sxx += w * x * x;
            sxy += w * x * y;
        }
        const double det = s * sxx - sx * sx;
        const double k = det > 0.0 ? (s * sxy - sx * sy) / det : 0.0;
        return {k, (sy - k * sx) / s};
    }

    std::vector<std::size_t> m_pixels;
    std::vector<double> m_less, m_weight;
    std::size_t m_imagePixels = 0;
};

// the experiment resolved as a rendering resolves it, its log dropped
ResolvedExperiment resolvedQuietly(const Experiment& e) {
    random::ReferenceRandom rng;
    std::ostringstream quiet;
    return resolve(e, rng, quiet);
}

// The mean spindle angle at which `e` takes the crystal (rad), as the engine runs it: a step
// whose angle is exactly 0 keeps the step before's, the last step's at step 0 (nanoBragg's
// carry-over, compute/engine/SerialOrder.h; the pixels after the loop's first).
double meanAngle(const Experiment& e) {
    const ResolvedExperiment r = resolvedQuietly(e);
    const int n = r.phi.steps;
    double sum = 0.0;
    for (int t = 0; t < n; ++t) {
        double angle = r.phiAt(t);
        if (angle == 0.0)
            angle = t > 0 ? r.phiAt(t - 1) : r.phiAt(n - 1);
        sum += angle;
    }
    return sum / n;
}

// the crystal of `e` turned by `angle` about the unit `axis` (laboratory frame, at phi 0)
// The presumed (the first) unless another is clearly better; of those that explain the
// frame as well as the best does, the first in order.
std::size_t choose(const std::vector<double>& chi, std::size_t pixels) {
    const double least = *std::min_element(chi.begin(), chi.end());
    const auto behind = [&](double c) { return (c - least) / least * static_cast<double>(pixels); };
    if (behind(chi[0]) <= kSignificance)
        return 0;
    for (std::size_t i = 1; i < chi.size(); ++i)
        if (behind(chi[i]) <= kTie)
            return i;
    return 0;
}

Experiment turnedAbout(Experiment e, const glm::dvec3& axis, double angle) {
    glm::dmat3 m = *e.crystal.mosflmMatrix; // columns: the reciprocal axes in the laboratory
    for (int k = 0; k < 3; ++k)
        m[k] = rotateAbout(m[k], axis, angle);
    e.crystal.mosflmMatrix = m;
    return e;
}

Experiment turned(Experiment e, const SamplingCandidate& c, const glm::dvec3& spindle, double turn) {
    return turnedAbout(withSampling(std::move(e), c), spindle, turn);
}

// The mean rotation of `e`'s mosaic domains as a rotation vector (rad, laboratory frame):
// the antisymmetric part of the mean matrix, which is what a small spread turns the spots by.
glm::dvec3 meanDomainRotation(const ResolvedExperiment& r) {
    if (r.mosaicSpread <= 0.0 || r.mosaicDomains.empty())
        return glm::dvec3(0.0);
    glm::dvec3 w(0.0);
    for (const random::RotationRows& u : r.mosaicDomains)
        w += glm::dvec3(u[7] - u[5], u[2] - u[6], u[3] - u[1]);
    return 0.5 * w / static_cast<double>(r.mosaicDomains.size());
}

} // namespace

std::string SamplingCandidate::words() const {
    std::ostringstream s;
    s << (sampling == PhiSampling::StepStart ? "the start of " : "the centres of ") << steps
      << (steps == 1 ? " step" : " steps");
    return s.str();
}

bool findsFrameSampling(const Experiment& stated) {
    const Crystal& c = stated.crystal;
    return c.phi.range.value_or(0.0) > 0.0 && !c.phi.steps && !c.phi.step && !c.phiSampling;
}

bool findsFrameDomains(const Experiment& stated, const std::vector<std::string>& groups) {
    const Crystal& c = stated.crystal;
    const bool spread = c.mosaicSpread.value_or(0.0) > 0.0 ||
                        std::find(groups.begin(), groups.end(), "mosaic") != groups.end();
    return spread && !c.mosaicDomains;
}

Experiment withSampling(Experiment start, const FrameSampling& search) {
    start.crystal.phi = search.found.crystal.phi;
    start.crystal.phiSampling = search.found.crystal.phiSampling;
    start.crystal.mosaicDomains = search.found.crystal.mosaicDomains;
    return start;
}

Experiment withSampling(Experiment start, const SamplingCandidate& candidate) {
    start.crystal.phi.steps = candidate.steps;
    start.crystal.phi.step.reset();
    start.crystal.phiSampling = candidate.sampling;
    return start;
}

namespace {

// What a frame that states no sampling is presumed to be: nanoBragg's sampling of the user's
// options (the start of its steps, two for an oscillation; ten domains for a spread), as
// braggview renders them. Another is chosen only where it explains the frame clearly better.
struct Presumed {
    SamplingCandidate phi;
    int domains = 10;
};

Presumed presumedSampling(const Experiment& stated) {
    const ResolvedExperiment r = resolvedQuietly(stated);
    Presumed p;
    p.phi = {r.phi.steps, stated.crystal.phiSampling.value_or(PhiSampling::StepStart), 0.0, 0.0};
    if (r.mosaicSpread > 0.0)
        p.domains = static_cast<int>(r.mosaicDomains.size());
    return p;
}

// One search of the phi sampling from `e` (the presumed first, then `e`'s own); `e` becomes
// the chosen one's.
void searchPhi(Experiment& e, const SamplingCandidate& presumed, const Residual& residual,
               const ForwardModel& render, FrameSampling::Round& round) {
    const ResolvedExperiment r = resolvedQuietly(e);
    const int steps = r.phi.steps;
    const PhiSampling own = e.crystal.phiSampling.value_or(PhiSampling::StepStart);
    const int finest = std::min(kMaxRotationSteps, std::max(kFinestAtLeast, kFinerThanOwn * steps));
    std::vector<SamplingCandidate>& candidates = round.phi;
    const auto add = [&](int n, PhiSampling sampling) {
        for (const SamplingCandidate& c : candidates)
            if (c.steps == n && c.sampling == sampling)
                return;
        candidates.push_back({n, sampling, 0.0, 0.0});
    };
    add(presumed.steps, presumed.sampling);
    add(steps, own);
    for (int n : kStartSteps)
        if (n <= finest)
            add(n, PhiSampling::StepStart);
    // an even rotation sampled more finely than the fit's own (a measured frame's)
    for (int n = 2 * steps; n <= finest; n *= 2)
        add(n, PhiSampling::StepCentre);

    const auto chiAt = [&](const SamplingCandidate& c, double turn) {
        return residual.reducedChiSquare(
            render(residual.comparedOnly(turned(e, c, r.axes.spindle, turn))));
    };
    // each at the turn that puts its spots where the fit's are
    const double ownMean = meanAngle(e);
    for (SamplingCandidate& c : candidates) {
        c.turn = ownMean - meanAngle(withSampling(e, c));
        c.chiSquare = chiAt(c, c.turn);
    }
    // the best few searched along the spindle: three points and their parabola
    std::vector<std::size_t> order(candidates.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return candidates[a].chiSquare < candidates[b].chiSquare;
    });
    const double h = r.phi.range / (4.0 * steps); // a quarter of the fit's own step
    for (std::size_t k = 0; k < std::min(kSearched, order.size()); ++k) {
        SamplingCandidate& c = candidates[order[k]];
        const double centre = c.turn, mid = c.chiSquare;
        const double below = chiAt(c, centre - h), above = chiAt(c, centre + h);
        const double curvature = below - 2.0 * mid + above;
        double vertex = centre;
        if (curvature > 0.0)
            vertex = std::clamp(centre + 0.5 * h * (below - above) / curvature,
                                centre - 2.0 * h, centre + 2.0 * h);
        const double atVertex = vertex != centre ? chiAt(c, vertex) : mid;
        const std::pair<double, double> tried[] = {
            {mid, centre}, {below, centre - h}, {above, centre + h}, {atVertex, vertex}};
        for (const auto& [chi, turn] : tried)
            if (chi < c.chiSquare) {
                c.chiSquare = chi;
                c.turn = turn;
            }
    }
    std::vector<double> chi;
    for (const SamplingCandidate& c : candidates)
        chi.push_back(c.chiSquare);
    round.bestPhi = choose(chi, residual.pixels());
    const SamplingCandidate& chosen = candidates[round.bestPhi];
    e = turned(e, chosen, r.axes.spindle, chosen.turn);
}

// One search of the mosaic domains from `e` (the presumed count first, then `e`'s own): each
// count's set drawn as nanoBragg draws it, the crystal turned by the difference of the sets'
// mean rotations (taken back to phi 0 from the mean phi angle); `e` becomes the chosen one's.
void searchDomains(Experiment& e, int presumed, const Residual& residual,
                   const ForwardModel& render, FrameSampling::Round& round) {
    const ResolvedExperiment base = resolvedQuietly(e);
    const glm::dvec3 ownRotation = meanDomainRotation(base);
    const double phiMean = meanAngle(e);
    std::vector<Experiment> tried;
    std::vector<double> chi;
    const auto add = [&](int n) {
        for (const DomainCandidate& d : round.domains)
            if (d.domains == n)
                return;
        round.domains.push_back({n, 0.0});
    };
    add(presumed);
    add(static_cast<int>(base.mosaicDomains.size()));
    for (int n : kDomainCounts)
        add(n);
    for (DomainCandidate& d : round.domains) {
        Experiment c = e;
        c.crystal.mosaicDomains = d.domains;
        const glm::dvec3 w = ownRotation - meanDomainRotation(resolvedQuietly(c));
        const glm::dvec3 atZero = rotateAbout(w, base.axes.spindle, -phiMean);
        const double angle = glm::length(atZero);
        if (angle > 0.0)
            c = turnedAbout(c, atZero / angle, angle);
        d.chiSquare = residual.reducedChiSquare(render(residual.comparedOnly(c)));
        chi.push_back(d.chiSquare);
        tried.push_back(std::move(c));
    }
    round.bestDomains = choose(chi, residual.pixels());
    e = tried[round.bestDomains];
}

} // namespace

FrameSampling searchFrameSampling(const Experiment& stated, const Experiment& fitted,
                                  const io::MeasuredImage& measured, const ForwardModel& render,
                                  bool phi, bool domains) {
    if (!fitted.crystal.mosflmMatrix)
        throw Error("refinement: the fitted crystal has no orientation matrix");
    FrameSampling result;
    const Residual residual(measured, render(fitted), fitted.detector.panels);
    result.pixels = residual.pixels();
    result.found = fitted;
    FrameSampling::Round round;
    const Presumed presumed = presumedSampling(stated);
    if (phi)
        searchPhi(result.found, presumed.phi, residual, render, round);
    if (domains)
        searchDomains(result.found, presumed.domains, residual, render, round);
    result.rounds.push_back(std::move(round));
    const Crystal &a = fitted.crystal, &b = result.found.crystal;
    result.changed = a.phi.steps != b.phi.steps || a.phiSampling != b.phiSampling ||
                     (domains && resolvedQuietly(fitted).mosaicDomains.size() !=
                                     static_cast<std::size_t>(b.mosaicDomains.value_or(-1)));
    return result;
}

bool followsCrystalOversampling(const Experiment& stated, const std::vector<std::string>& groups) {
    return (!stated.sampling.oversample || *stated.sampling.oversample <= 0) &&
           std::find(groups.begin(), groups.end(), "ncells") != groups.end();
}

int automaticOversampling(Experiment e) {
    e.sampling.oversample.reset();
    return resolvedQuietly(e).recommendedOversample;
}

SampledFit fitFindingSampling(const Experiment& stated, const Experiment& start,
                              const std::vector<std::string>& groups,
                              const io::MeasuredImage& measured, const FitFrom& fit,
                              const ForwardModel& render) {
    const bool phi = findsFrameSampling(stated), domains = findsFrameDomains(stated, groups);
    SampledFit out;
    Experiment sampled = start; // the user's start, sampled as the frame was found to be
    int renders = 0;
    if (!phi && !domains) {
        out.report = fit(start, groups, true);
        renders = out.report.renders;
    } else {
        // The first fit turns the crystal where the user holds it: a sampling other than the
        // frame's then shows as a turn about the spindle, not as a distance and a cell along
        // their valley, and the search predicts each candidate's turn from it.
        std::vector<std::string> turning = groups;
        const bool held = std::find(groups.begin(), groups.end(), "orientation") == groups.end();
        if (held)
            turning.push_back("orientation");
        out.report = fit(start, turning, !held);
        renders = out.report.renders;
        const ForwardModel counted = [&](const Experiment& e) {
            ++renders;
            return render(e);
        };
        // Rounds of the search, each from a fit of the sampling the round before found (its
        // orientation, which the search only predicted, then answers that sampling exactly):
        // the phi sampling and the domains each blur the other's view (ten domains' mean
        // rotation hides two steps' turn), until a round keeps both.
        FrameSampling all;
        Experiment current = out.report.refined;
        for (int k = 0; k < kRounds && !out.report.stopped; ++k) {
            FrameSampling round = searchFrameSampling(stated, current, measured, counted, phi, domains);
            all.pixels = round.pixels;
            all.rounds.push_back(round.rounds.front());
            if (!round.changed)
                break;
            all.changed = true;
            if (k + 1 == kRounds) { // the last: its finding is the result
                current = round.found;
                break;
            }
            out.report = fit(round.found, turning, false);
            renders += out.report.renders;
            current = out.report.refined;
        }
        all.found = current;
        out.search = all;
        sampled = withSampling(start, all);
        if (!out.report.stopped && (all.changed || held)) {
            out.report = fit(sampled, groups, true);
            renders += out.report.renders;
        }
    }
    // nanoBragg's automatic oversampling follows the crystal's size: where the fit moved the
    // size across one of the rule's steps, the frame (made by that rule) was sampled as the
    // fitted crystal says, not as the start's (canonicalStart keeps the start's)
    if (!out.report.stopped && followsCrystalOversampling(stated, groups)) {
        const int own = automaticOversampling(out.report.refined);
        const int used = sampled.sampling.oversample.value_or(0);
        if (own != used) {
            sampled.sampling.oversample = own;
            out.oversampling = {{used, own}};
            out.report = fit(sampled, groups, true);
            renders += out.report.renders;
        }
    }
    out.report.renders = renders;
    return out;
}

} // namespace bv::refine
