#pragma once
// The three rotations the reference uses, with its conventions, so that derived geometry
// agrees with nanoBragg's to rounding: about x then y then z (detector rotations, misset);
// about an arbitrary unit axis (two-theta, spindle, divergence); by a row-major matrix
// (mosaic domains).

#include <array>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

namespace bv {

// right-handed rotation of v by angles.x about x, then angles.y about y, then angles.z about z
inline glm::dvec3 rotateXYZ(const glm::dvec3& v, const glm::dvec3& angles) {
    glm::dvec3 r = v;
    if (angles.x != 0.0) {
        const double c = std::cos(angles.x), s = std::sin(angles.x);
        r = {r.x, r.y * c - r.z * s, r.y * s + r.z * c};
    }
    if (angles.y != 0.0) {
        const double c = std::cos(angles.y), s = std::sin(angles.y);
        r = {r.x * c + r.z * s, r.y, -r.x * s + r.z * c};
    }
    if (angles.z != 0.0) {
        const double c = std::cos(angles.z), s = std::sin(angles.z);
        r = {r.x * c - r.y * s, r.x * s + r.y * c, r.z};
    }
    return r;
}

// right-handed rotation of v by phi about the unit vector axis (Rodrigues' formula)
inline glm::dvec3 rotateAbout(const glm::dvec3& v, const glm::dvec3& axis, double phi) {
    const double s = std::sin(phi), c = std::cos(phi);
    const double along = glm::dot(axis, v) * (1.0 - c);
    return axis * along + v * c + glm::cross(axis, v) * s;
}

// v multiplied by the row-major matrix u (the reference's umat layout)
inline glm::dvec3 rotateRows(const glm::dvec3& v, const std::array<double, 9>& u) {
    return {u[0] * v.x + u[1] * v.y + u[2] * v.z, u[3] * v.x + u[4] * v.y + u[5] * v.z,
            u[6] * v.x + u[7] * v.y + u[8] * v.z};
}

// unit vector along v; the zero vector stays zero (the reference's unitize)
inline glm::dvec3 unitOrZero(const glm::dvec3& v) {
    const double m = glm::length(v);
    return m != 0.0 ? v / m : glm::dvec3(0.0);
}

} // namespace bv
