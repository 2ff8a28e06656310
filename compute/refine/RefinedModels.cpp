// The start a fit's parameters act on (canonicalStart), and what -refined_experiment writes
// back from where a fit ended (refinedModels, refinedModelsForFile): RefinedParameters.h.
#include "compute/refine/RefinedParameters.h"

#include "compute/core/Error.h"
#include "compute/random/ReferenceRandom.h"
#include "compute/refine/FitSampling.h"

#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

#include <sstream>

namespace bv::refine {

Experiment canonicalStart(const Experiment& experiment, const ResolvedExperiment& resolved) {
    Experiment e = experiment;
    // the panels where the simulation draws them (a flat detector's one panel where
    // nanoBragg's options put it; a file's or preset's after -distance and the rotations)
    std::vector<Panel> panels;
    for (std::size_t i = 0; i < resolved.panels.size(); ++i) {
        const PanelGeometry& g = resolved.panels[i];
        Panel p = i < experiment.detector.panels.size() ? experiment.detector.panels[i] : Panel{};
        if (p.name.empty())
            p.name = g.name.empty() ? "detector" : g.name;
        p.origin = g.pix0;
        p.fast = g.fdet;
        p.slow = g.sdet;
        p.pixelSizeFast = p.pixelSizeSlow = g.pixelSize;
        p.fastPixels = g.fastPixels;
        p.slowPixels = g.slowPixels;
        panels.push_back(p);
    }
    Detector& d = e.detector;
    d.panels = panels;
    // placed already: no option moves them again
    if (d.curved)
        throw Error("refinement: a curved detector is not refined (its pixels are no plane)");
    d.panelsSource = "refinement"; // placed: no preset is laid out, no file read again
    d.distanceStated = false;
    d.rotX = d.rotY = d.rotZ = 0.0;
    d.twotheta = 0.0;
    d.clearBeamPlacement();
    // the crystal after misset as reciprocal vectors times the wavelength (Angstrom)
    const double angstrom = e.beam.wavelength * 1e10;
    e.crystal.mosflmMatrix =
        glm::dmat3(resolved.cell.aStar, resolved.cell.bStar, resolved.cell.cStar) * angstrom;
    e.crystal.cell.reset();
    e.crystal.misset = MissetKind::None;
    e.crystal.missetAngles = glm::dvec3(0.0);
    e.crystal.sampleSize = glm::dvec3(0.0);
    e.crystal.cells = resolved.cells;
    // what the frame integrates, sampled finely enough to fit where the user did not say
    // (docs/numerics/fit-sampling.md): the oscillation (nanoBragg's two steps left a nanoBragg
    // frame of five steps 0.4 mm and 0.5 % off along the distance-cell valley) and the mosaic
    // domains (its ten left one 0.14 mm and 0.18 % off), the steps taken at their centres (an
    // even rotation's midpoint rule, as a detector integrates; FrameSampling.h finds a frame
    // that nanoBragg sampled at the steps' starts)
    if (!e.crystal.phi.steps && !e.crystal.phi.step && resolved.phi.range > 0.0) {
        e.crystal.phi.steps = rotationSamplingForFit(resolved, e.beam.wavelength).steps;
        if (!e.crystal.phiSampling)
            e.crystal.phiSampling = PhiSampling::StepCentre;
    }
    if (!e.crystal.mosaicDomains && e.crystal.mosaicSpread.value_or(0.0) > 0.0)
        e.crystal.mosaicDomains = kFitMosaicDomains;
    // nanoBragg's automatic oversampling follows the crystal's size, which -refine ncells
    // moves: kept at the start's, so that the cost does not jump where the size crosses a step
    if (!e.sampling.oversample || *e.sampling.oversample <= 0)
        e.sampling.oversample = resolved.oversample;
    return e;
}

io::RefinedModels refinedModels(const Experiment& start, const Experiment& r) {
    io::RefinedModels models;
    // the whole detector's turn, from the first panel's axes (the identity unless turned),
    // about the first panel's origin; then its shift
    const Panel& before = start.detector.panels.at(0);
    const Panel& after = r.detector.panels.at(0);
    const bool isTurned = after.fast != before.fast || after.slow != before.slow;
    if (isTurned) {
        const glm::dmat3 from(before.fast, before.slow, before.normal());
        const glm::dmat3 to(after.fast, after.slow, after.normal());
        models.detectorRotation = to * glm::transpose(from);
    }
    models.pivot = before.origin;
    const auto turned = [&](const glm::dvec3& point) {
        return isTurned ? models.pivot + models.detectorRotation * (point - models.pivot) : point;
    };
    models.detectorShift = after.origin - before.origin;
    // each panel's own move beyond the whole detector's (-refine panels)
    for (std::size_t k = 0; k < r.detector.panels.size() && k < start.detector.panels.size(); ++k) {
        const glm::dvec3 own = r.detector.panels[k].origin -
                               turned(start.detector.panels[k].origin) - models.detectorShift;
        models.panelShifts.push_back(own);
    }
    // the direct cell vectors (columns a, b, c) of the reciprocal ones
    const glm::dmat3 direct =
        glm::transpose(glm::inverse(*r.crystal.mosflmMatrix / (r.beam.wavelength * 1e10)));
    models.a = direct[0];
    models.b = direct[1];
    models.c = direct[2];
    models.mosaicSpread = r.crystal.mosaicSpread;
    models.cells = r.crystal.cells;
    return models;
}

io::RefinedModels refinedModelsForFile(const Experiment& experiment, const Detector& filed,
                                       const Experiment& refined) {
    Experiment asFiled = experiment;
    asFiled.detector = filed;
    random::ReferenceRandom rng;
    std::ostringstream quiet;
    return refinedModels(canonicalStart(asFiled, resolve(asFiled, rng, quiet)), refined);
}

} // namespace bv::refine
