#pragma once
// Laboratory frame conventions of the programs whose images nanoBragg imitates. A convention
// fixes the beam, polarization, spindle and two-theta axes, the detector's fast/slow/normal
// axes, how a user's beam centre maps onto the detector, and which point the detector
// pivots about. CUSTOM takes every vector from the user.

#include <glm/vec3.hpp>
#include <optional>
#include <string>

namespace bv {

enum class Convention { Custom, Adxv, Mosflm, Denzo, Xds, Dials };
enum class Pivot { Beam, Sample };

// Unit vectors of the laboratory frame (the reference's *_vector variables).
struct LabAxes {
    glm::dvec3 beam{1, 0, 0};          // direction of travel of the incident X-rays
    glm::dvec3 polarization{0, 0, 1};  // E-vector of the incident beam
    glm::dvec3 spindle{0, 0, 1};       // right-handed phi rotation axis
    glm::dvec3 twothetaAxis{0, 0, -1}; // detector two-theta swing axis
    glm::dvec3 fdet{0, 0, 1};          // increasing fast pixel index
    glm::dvec3 sdet{0, -1, 0};         // increasing slow pixel index
    glm::dvec3 odet{1, 0, 0};          // detector normal, away from the sample
};

// The axes a named convention prescribes. Custom answers the reference's starting values
// (MOSFLM's, except the two-theta axis, declared along y), which the user's -*_vector flags
// then replace one by one.
LabAxes conventionAxes(Convention convention);

// The pivot a named convention imposes; Custom imposes none (the user's flags decide).
std::optional<Pivot> conventionPivot(Convention convention);

const char* conventionName(Convention convention); // "mosflm", "xds", ...
std::optional<Convention> conventionFromName(const std::string& name);
const char* pivotName(Pivot pivot); // "beam" or "sample"

} // namespace bv
