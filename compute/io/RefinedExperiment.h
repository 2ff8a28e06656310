#pragma once
// -refined_experiment: the DIALS experiment list a refinement started from, written again with
// the refined values, for dials.* to read. Only what was refined changes; everything else of
// the file (other experiments, imagesets, profile and scaling models) is kept as it was.
//   - the detector moved as one body: the hierarchy's root (or, without a hierarchy, every
//     panel) turned by the refined rotation about `pivot`, where one was fitted, and its
//     origin shifted by the refined displacement;
//   - the crystal: real_space_a, _b, _c from the refined cell vectors, the goniometer's setting
//     and fixed rotations taken back out ((S F)^-1, DialsExperiment.h);
//   - the mosaicity as Sauter's model keeps it: ML_half_mosaicity_deg (half the mosaic spread)
//     and ML_domain_size_ang (the crystal's size: the geometric mean of Na |a|, Nb |b|, Nc |c|).
// Written atomically. Vectors are in the simulator's frame, as DialsExperiment reads them.

#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace bv::io {

struct RefinedModels {
    glm::dvec3 detectorShift{0.0};         // m
    // the detector's turn (-refine detector_rotation) about `pivot` (m), before the shift
    glm::dmat3 detectorRotation{1.0};
    glm::dvec3 pivot{0.0};
    // m, each panel's move beyond detectorShift (-refine panels; zero or empty: none)
    std::vector<glm::dvec3> panelShifts;
    glm::dvec3 a{0.0}, b{0.0}, c{0.0};     // Angstrom, at the goniometer's zero
    std::optional<double> mosaicSpread;    // rad
    std::optional<glm::dvec3> cells;       // Na, Nb, Nc
};

void writeRefinedExperiment(const std::string& input, std::size_t id, const std::string& output,
                            const RefinedModels& refined);

} // namespace bv::io
