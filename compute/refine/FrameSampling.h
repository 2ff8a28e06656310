#pragma once
// The phi sampling and the mosaic domains of the frame a fit is given, where the user did not
// say them (docs/numerics/fit-sampling.md, "The frame's own sampling").
//
// A fit takes its oscillation at the centres of its steps (-phi_sampling centre): the midpoint
// rule of an even rotation, what a detector integrates. A frame that nanoBragg (or a simulator
// of its family) made took each of its n steps at the step's start: each reflection is seen at
// n angles, and the spots are those of a crystal turned back by osc/2n. An even model fitted to
// such a frame turns the crystal by that much about the spindle and moves what shares a
// valley with it. So a first fit, which turns the crystal, is followed by a search: each
// candidate sampling (nanoBragg's for the user's options, the fit's own, the start of
// n = 1, 2, 3, ... steps, and finer centres) is tried with the crystal turned about the
// spindle to where the candidate puts the same spots (osc/2n; nanoBragg's carry-over at phi 0
// counted) and, for the best few, a little either side of it. The candidate whose image
// leaves the least weighted residual over the fitted image's spot regions (the frame less its
// local background, the scale and a constant fitted; each candidate is rendered there alone,
// the rest of the frame masked out) is the frame's where it is clearly
// better than nanoBragg's, which is presumed: a frame that states no sampling is taken as
// braggview renders those options unless it shows otherwise (the turn that tells them apart
// can hide in the noise of a weak frame, and the orientation about the spindle then follows
// the choice). The mosaic domains likewise: nanoBragg draws a frame's domains at random, and
// their mean rotation turns the crystal the frame shows; counts drawn as it draws them are
// tried, each with the crystal turned by the difference of the mean rotations. A round tries
// the phi samplings, then the domains; a changed finding is fitted (the orientation then
// answers it exactly) and searched again, until a round keeps both; the user's groups are
// then fitted from the user's start with what was found. Last, where the crystal's size is
// fitted and no -oversample given, nanoBragg's oversampling rule for the fitted crystal.
//
//     const bv::refine::SampledFit f = bv::refine::fitFindingSampling(
//         stated, start, groups, measured, fitFrom, render);
//     f.report; // the last fit's; f.sampling: the search, where there was one

#include "compute/io/MeasuredImage.h"
#include "compute/model/Experiment.h"
#include "compute/refine/Refinement.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bv::refine {

struct SamplingCandidate {
    int steps = 0;
    PhiSampling sampling = PhiSampling::StepCentre;
    double turn = 0.0;       // rad about the spindle from the fitted crystal, at the best found
    double chiSquare = 0.0;  // reduced, over the spot regions' pixels
    std::string words() const; // "the start of 2 steps", "the centres of 8 steps"
};

// A count of mosaic domains drawn as nanoBragg draws them (its generator, the experiment's
// -mosaic_seed), tried where the frame's own are to be found.
struct DomainCandidate {
    int domains = 0;
    double chiSquare = 0.0;
};

struct FrameSampling {
    // A round: the phi samplings tried (nanoBragg's for the stated options first, then the
    // one the round started from) and the domain counts after them (likewise; empty where
    // the domains were not searched).
    struct Round {
        std::vector<SamplingCandidate> phi;
        std::size_t bestPhi = 0;
        std::vector<DomainCandidate> domains;
        std::size_t bestDomains = 0;
    };
    std::vector<Round> rounds; // one a search; fitFindingSampling's: until one keeps both
    std::size_t pixels = 0;    // the pixels compared
    // the fitted experiment sampled as found, the crystal turned to match (the final fit's
    // start is the user's, not this), and whether that sampling is another than the fit's
    Experiment found;
    bool changed = false;
};

// Whether a fit of `stated` (the experiment as the user gave it) leaves the frame's sampling
// to be found: an oscillation, and none of -phisteps, -phistep, -phi_sampling.
bool findsFrameSampling(const Experiment& stated);
// Whether it leaves the frame's mosaic domains to be found: a mosaic spread stated or fitted
// (`groups` has mosaic), and no -mosaic_domains. nanoBragg draws a frame's domains at random
// (10 unless told): their mean rotation turns the frame's crystal by about
// 0.45 x spread / sqrt(domains) about each axis, 0.04 deg at 0.3 deg and 10 domains; the same
// count drawn the same way makes the same frame.
bool findsFrameDomains(const Experiment& stated, const std::vector<std::string>& groups);

// One round of the search, from `fitted` (the result of a fit that moved the orientation) of
// `stated` (the experiment as the user gave it, whose nanoBragg sampling is presumed);
// `render` makes an experiment's whole image, fast-major, the measured
// frame's size. Throws bv::Error where the fitted image has too few spot pixels with data.
// The phi samplings are tried with `phi` (findsFrameSampling; otherwise the fit's own is kept);
// with `domains` (findsFrameDomains), the domain counts after them, each with the crystal
// turned by the difference of the two sets' mean rotations.
FrameSampling searchFrameSampling(const Experiment& stated, const Experiment& fitted,
                                  const io::MeasuredImage& measured, const ForwardModel& render,
                                  bool phi = true, bool domains = false);

// `start` sampled as `candidate` (its steps, at their starts or centres; no turn: the
// fit finds the orientation itself).
Experiment withSampling(Experiment start, const SamplingCandidate& candidate);
// `start` sampled as the search found: the phi steps and, where searched, the domains.
Experiment withSampling(Experiment start, const FrameSampling& search);

struct SampledFit {
    FitReport report;                    // the last fit's (its renderings: all of them)
    std::optional<FrameSampling> search; // where the sampling or the domains were to be found
    // where the oversampling followed the fitted crystal: the start's and the fitted one's
    std::optional<std::pair<int, int>> oversampling;
};

// Whether a fit of `stated` lets its oversampling follow the fitted crystal: no -oversample
// (nanoBragg's automatic rule, which grows with the crystal's size) and the size fitted
// (`groups` has ncells).
bool followsCrystalOversampling(const Experiment& stated, const std::vector<std::string>& groups);
// nanoBragg's automatic oversampling of `e` (its -oversample, if any, set aside).
int automaticOversampling(Experiment e);
// A fit of `groups` (-refine's names) from a start; `shown`: the fit is the user's (its
// progress is the one to show), not the search's first fit with the orientation added.
using FitFrom = std::function<FitReport(const Experiment& start,
                                        const std::vector<std::string>& groups, bool shown)>;
// The flow of -refine and the viewer's Refine dock: where findsFrameSampling(stated) or
// findsFrameDomains(stated, groups), a first
// fit from `start` (canonicalStart of `stated`) with the orientation fitted too, the search
// from its result, and the fit of `groups` again from `start` sampled as the search found
// (where it found the fit's own sampling and the orientation was fitted anyway, the first fit
// is the result); otherwise the fit of `groups` alone. Then, where followsCrystalOversampling
// and nanoBragg's rule gives the fitted crystal another oversampling than the start's, the
// fit of `groups` again from `start` (sampled as found) with that one.
SampledFit fitFindingSampling(const Experiment& stated, const Experiment& start,
                              const std::vector<std::string>& groups,
                              const io::MeasuredImage& measured, const FitFrom& fit,
                              const ForwardModel& render);

} // namespace bv::refine
