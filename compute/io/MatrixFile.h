#pragma once
// MOSFLM orientation matrices (.mat files), as nanoBragg's -mat reads them: only the first
// nine numbers count, three rows of three,
//
//   a*x b*x c*x
//   a*y b*y c*y
//   a*z b*z c*z
//
// i.e. the columns are the reciprocal cell vectors a*, b*, c*. MOSFLM multiplies them by the
// wavelength, so each number is (1/Angstrom) * Angstrom: unitless. Dividing by the
// wavelength in Angstrom gives the vectors in 1/Angstrom (nanoBragg.c:1892). Whatever follows
// the nine numbers (MOSFLM's U matrix, cell, missets) is ignored, as the reference's three
// fscanf calls ignore it.

#include <glm/vec3.hpp>
#include <string>

namespace bv::io {

struct MosflmMatrix {
    // reciprocal cell vectors times the wavelength (unitless), in MOSFLM's laboratory frame
    glm::dvec3 aStar{0.0};
    glm::dvec3 bStar{0.0};
    glm::dvec3 cStar{0.0};
};

// Throws bv::Error "<path>:<line>: ..." for a token that is not a finite number or fewer
// than nine numbers, and for a missing/unreadable file or a directory.
MosflmMatrix readMosflmMatrix(const std::string& path);

} // namespace bv::io
