#pragma once
// Least squares of simulated pixels against measured ones (Ceres Solver's Levenberg-Marquardt),
// with any forward model (the GPU's in braggview; a function in the tests):
//
//     minimise  sum_i w_i^2 (m_i - B_i - k s_i(x) - b)^2,   w_i = 1 / sqrt(max(m_i - b0, 1))
//
// over the ParameterSet's values x, the scale k and the background b (docs/refinement.md).
// B is the local background estimated from the measured frame (LocalBackground.h; zero with
// BackgroundChoice::Constant).
// The pixels: those with data in the spot regions (where the start's image exceeds 1% of
// its 99.9th percentile, grown by 3 pixels), or every pixel with data. Derivatives of the
// image by forward differences of one rendering per parameter, the parameter's own step;
// those of k and b exactly. Uncertainties from the covariance at the minimum, scaled by the
// reduced chi-square where it exceeds 1.
//
//     bv::refine::Refinement fit(set, measured, render);
//     const bv::refine::FitReport report = fit.run();

#include "compute/io/MeasuredImage.h"
#include "compute/refine/ObservedSpots.h"
#include "compute/refine/RefinedParameters.h"

#include <glm/mat3x3.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace bv::refine {

// The image of an experiment, fast-major, the measured image's size.
using ForwardModel = std::function<std::vector<float>(const Experiment&)>;

// A forward model that renders only the fitted pixels (the GPU's: run::ModelRenderer), which
// is most of a fit's speed: image() makes the whole image of the start (its spot regions);
// setPixels() is then called once with the fitted pixels (fast-major indices, ascending), and
// pixels() returns an experiment's image at those pixels, in that order. A ForwardModel is
// used as one (its image masked to the fitted pixels, which are then picked on the host).
struct PixelModel {
    ForwardModel image;
    std::function<void(const std::vector<std::size_t>&)> setPixels;
    ForwardModel pixels;
};

// The mask that has a rendering compute `pixels` (fast-major indices of an image of
// `imagePixels`) and nothing else: at each of them 1, or `within`'s value where `within` (an
// experiment's own mask) is not empty; 0 everywhere else.
std::vector<std::uint16_t> maskOfPixels(const std::vector<std::size_t>& pixels,
                                        std::size_t imagePixels,
                                        const std::vector<std::uint16_t>& within = {});

enum class PixelChoice { Spots, All };
// The background under the spots: the measured frame's own, estimated around them, plus
// the fitted constant (Local); or the fitted constant alone (Constant).
enum class BackgroundChoice { Local, Constant };

struct FittedValue {
    std::string name, unit;
    double start = 0.0, value = 0.0, sigma = 0.0;
};

struct FitReport {
    std::vector<FittedValue> values; // the parameters, then "scale" and "background"
    // the values' correlations at the minimum (values.size() squared, row-major)
    std::vector<double> correlation;
    double startResidual = 0.0, endResidual = 0.0; // rms of the weighted residuals
    double startSpotRmsd = 0.0, endSpotRmsd = 0.0; // pixels, spot centroids
    std::size_t spots = 0;
    std::size_t pixels = 0;
    // the local background (BackgroundChoice::Local): its tiles' side (0: none), how many
    // tiles, how many took their level from their neighbours, and its mean over the pixels
    int backgroundTile = 0, backgroundTiles = 0, backgroundTilesFromNeighbours = 0;
    double backgroundMean = 0.0;
    // the frame's counts without counting noise (an ADC's offset), left out of the weights
    double pedestal = 0.0;
    // pixels the spot regions of the first stage's image added to the start's (0: none)
    std::size_t regionPixelsAdded = 0;
    int iterations = 0;
    int renders = 0;
    std::string termination; // Ceres's words
    bool stopped = false;    // the caller's progress ended it (ProgressCallback)
    // Where the fit's host time went (wall ms, the renderings left out): the spot regions,
    // background and start values; the normal equations (the Jacobian's differences taken
    // there); the costs of trial steps; what follows the fit (residuals, spot RMSD,
    // uncertainties).
    struct HostTimes {
        double setup = 0.0, normalEquations = 0.0, costs = 0.0, after = 0.0;
    } hostMs;
    Experiment start, refined; // the canonical start (ParameterSet::start) and the fit's
    // the crystal's cell vectors (Angstrom, laboratory frame, at phi 0) at the start and after
    glm::dmat3 startCell{0.0}, refinedCell{0.0}; // columns a, b, c
    // -spots: DIALS's observed spot centres against the simulated spots of the whole image at
    // the start and after the fit (the caller renders them: ObservedSpots.h)
    struct Observed {
        ObservedSpots spots;
        SpotMatch start, end;
    };
    std::optional<Observed> observed;
    // the lattice that tied the cell (ParameterSet::cellConstraint; the caller sets it)
    std::string cellConstraint;
};

// The pairs of a fit's values correlated at least `least` (by size), the strongest first:
// where one frame tells the two apart only along their difference (distance and cell on a
// still, the scale and the crystal's size), the pair's sum is what the frame measures.
struct Correlated {
    std::string first, second;
    double r = 0.0;
};
std::vector<Correlated> correlatedPairs(const FitReport& report, double least = 0.9);

// Where a fit is after a step Ceres accepted (and at each stage's start): for a caller that
// shows the fit as it runs (the viewer's Refine panel). Called on the thread of run().
struct FitProgress {
    int stage = 0;              // 0: weights from the measured counts; 1: from the model
    int iteration = 0;          // Ceres's, within the stage
    std::vector<double> values; // the ParameterSet's, then scale and background
    double residual = 0.0;      // rms of the weighted residuals (the stage's weights)
    Experiment experiment;      // the values' experiment
};
// Answers whether to go on; false ends the fit at this step, and run() reports it.
using ProgressCallback = std::function<bool(const FitProgress&)>;

class Refinement {
  public:
    Refinement(ParameterSet set, const io::MeasuredImage& measured, ForwardModel render,
               PixelChoice pixels = PixelChoice::Spots,
               BackgroundChoice background = BackgroundChoice::Local);
    Refinement(ParameterSet set, const io::MeasuredImage& measured, PixelModel model,
               PixelChoice pixels = PixelChoice::Spots,
               BackgroundChoice background = BackgroundChoice::Local);
    void setProgress(ProgressCallback progress) { m_progress = std::move(progress); }
    FitReport run(int maxIterations = 30);

  private:
    ParameterSet m_set;
    const io::MeasuredImage& m_measured;
    PixelModel m_model;
    PixelChoice m_choice;
    BackgroundChoice m_background;
    ProgressCallback m_progress;
};

void printFitReport(std::ostream& out, const FitReport& report);
// -fit_report: the same as JSON, one entry per parameter by name
std::string fitReportJson(const FitReport& report);

} // namespace bv::refine
