#pragma once
// What a refinement may change, in the field's own names and units, and how a vector of their
// values becomes an Experiment (docs/refinement.md):
//
//   distance         mm     the whole detector moved along the beam
//   beam_x, beam_y   pixels where the beam meets the first panel, along its fast and slow
//                           axes: the whole detector moved in that panel's plane
//   orientation_x/y/z  deg  small rotations of the crystal about the laboratory's x, y, z
//   cell_a/b/c       A      the free parameters of the cell the crystal's space group allows
//   cell_alpha/beta/gamma deg (io/SpaceGroupLattice.h: cubic a; tetragonal, hexagonal a, c;
//                           orthorhombic a, b, c; monoclinic a, b, c and the unique axis's
//                           angle; triclinic all six), the tied ones set with them exactly;
//                           without a space group the edges, those equal at the start (to
//                           1e-4) as one, the angles kept
//   detector_rotation deg   the whole detector turned in its own plane (about the first
//                           panel's normal) around the point where the beam meets it:
//                           DIALS's Tau1
//   panel<k>_distance mm    panel k (from 0, the detector's order) moved along the beam
//   panel<k>_shift_fast, panel<k>_shift_slow  pixels  panel k moved in its own plane
//                           (-refine panels: every panel on its own; not with distance or
//                           beam, which move the whole detector)
//   mosaic           deg    the mosaic spread
//   Na, Nb, Nc       cells  the crystal's size in unit cells (continuous while fitting)
//
// The scale and the background of the fit are linear: Refinement handles them.
//
//     bv::refine::ParameterSet set = bv::refine::parameterSet(start, {"distance", "beam"});
//     bv::Experiment e = set.experimentAt(values); // values[i] for set.parameters[i]
//
// The start is made canonical first (canonicalStart): the detector as its panels (a flat
// detector becomes its one panel, placed where nanoBragg's options put it) and the crystal as
// a matrix of reciprocal vectors, so that every parameter acts on the same few numbers.

#include "compute/io/RefinedExperiment.h"
#include "compute/model/Experiment.h"
#include "compute/model/Resolve.h"

#include <string>
#include <vector>

namespace bv::refine {

enum class Group { Distance, Beam, DetectorRotation, Panel, Orientation, Cell, Mosaic, Ncells };

struct Parameter {
    std::string name;  // "distance", "beam_x", "cell_a", "Na", ...
    std::string unit;  // "mm", "pixels", "deg", "A", "cells"
    Group group = Group::Distance;
    int component = 0;           // x/y/z, a/b/c; a panel's: 0 distance, 1 fast, 2 slow
    std::vector<int> tied;       // cell: what it sets, of a, b, c, alpha, beta, gamma (0 to 5)
    double start = 0.0;          // in `unit`
    double step = 0.0;           // the finite difference, in `unit`
    double lower = -1e300, upper = 1e300; // bounds in `unit`
    int panel = 0;               // Group::Panel: which
};

class ParameterSet {
  public:
    // `start` canonical (canonicalStart); `groups` by the names -refine takes: distance, beam,
    // orientation, cell, mosaic, ncells (scale is the fit's own). Throws bv::Error for an
    // unknown name, naming the known ones.
    ParameterSet(Experiment start, const ResolvedExperiment& resolved,
                 const std::vector<std::string>& groups);

    const std::vector<Parameter>& parameters() const { return m_parameters; }
    const Experiment& start() const { return m_start; }
    Experiment experimentAt(const std::vector<double>& values) const;
    std::vector<double> startValues() const;

    // The groups -refine takes, for messages ("distance, beam, ... (and scale, always fitted)").
    static const char* knownGroups();
    // The same in their order, each with what it moves in words (the viewer's Refine dock).
    struct GroupWords {
        const char* name;
        const char* moves;
    };
    static const std::vector<GroupWords>& groupWords();
    // with the cell group: which lattice ties it, in words ("tetragonal (P 41 21 2): ...")
    const std::string& cellConstraint() const { return m_cellConstraint; }

  private:
    Experiment m_start;
    std::vector<Parameter> m_parameters;
    glm::dvec3 m_beam{1, 0, 0};       // unit, the way the X-rays travel
    glm::dvec3 m_fast{0.0}, m_slow{0.0}; // the first panel's axes
    glm::dvec3 m_beamPoint{0.0}; // m, where the beam meets the first panel (detector_rotation)
    double m_pixelFast = 0.0, m_pixelSlow = 0.0;
    // the cell: a, b, c (A), alpha, beta, gamma (deg) at the start, the space group's ties
    // made exact, and the orientation that turns the cell's standard frame into the crystal's:
    // DIALS's (a along x, b in the xy plane) for a crystal with a space group (an experiment
    // file's), nanoBragg's (a* along x, b* in the xy plane) for one of nanoBragg's options, so
    // that a cell changed in the program that wrote it is a change of the cell alone
    double m_cell[6] = {0, 0, 0, 90, 90, 90};
    glm::dmat3 m_orientation{1.0};
    glm::dmat3 standardCell(const double cell[6]) const; // in the start's frame
    std::string m_cellConstraint;

    void addCellParameters();
};

// What a fit of `groups` cannot tell apart on one frame, in words ("" when nothing): the
// detector turned in its own plane and the crystal turned about the beam move a frame's spots
// alike (on tests/refine's frame, fitted together, they traded 3 degrees, correlation 0.996).
std::string groupsWarning(const std::vector<std::string>& groups);

// The direct cell vectors (columns a, b, c, Angstrom) of a, b, c (A) and alpha, beta, gamma
// (deg) in the standard frame: a along x, b in the xy plane, c with a positive z.
glm::dmat3 cellInStandardFrame(const double cell[6]);

// The same cell with its reciprocal vectors in nanoBragg's standard frame: a* along x, b* in
// the xy plane (nanoBragg.c builds a crystal of -cell so, and then turns it by -misset).
glm::dmat3 cellInReciprocalStandardFrame(const double cell[6]);

// The experiment with its detector as panels and its crystal as a matrix (the start the
// parameters act on), with the same image up to rounding: `resolved` is the experiment's own.
Experiment canonicalStart(const Experiment& experiment, const ResolvedExperiment& resolved);

// What -refined_experiment writes back into the experiment list of the start: the refined
// experiment's detector shift from `start` (both canonical), its cell vectors, mosaic spread
// and size in cells (the headless -refine and the viewer's File > Save refined experiment).
io::RefinedModels refinedModels(const Experiment& start, const Experiment& refined);

// What -refined_experiment and the viewer's File > Save refined experiment write: the models
// of `refined` against the experiment as its file places the detector (`filed`, the file's
// own panels, request::filedDetector), not as the fit started. A -distance or a rotation
// given after -experiment moved the start; it is part of what the fit found.
io::RefinedModels refinedModelsForFile(const Experiment& experiment, const Detector& filed,
                                       const Experiment& refined);

} // namespace bv::refine
