#include "compute/refine/RefinedParameters.h"

#include "compute/core/Error.h"
#include "compute/io/SpaceGroupLattice.h"
#include "compute/model/Rotation.h"
#include "compute/model/Units.h"
#include "compute/refine/FitSampling.h"

#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace bv::refine {

namespace {

constexpr double kMm = 1e-3;

glm::dmat3 rotationXYZ(const glm::dvec3& radians) {
    const auto about = [](int axis, double angle) {
        glm::dmat3 r(1.0);
        const double c = std::cos(angle), s = std::sin(angle);
        const int i = (axis + 1) % 3, j = (axis + 2) % 3;
        r[i][i] = c;
        r[j][j] = c;
        r[i][j] = s;  // column i, row j
        r[j][i] = -s; // column j, row i
        return r;
    };
    // x first, then y, then z (as nanoBragg's misset)
    return about(2, radians.z) * about(1, radians.y) * about(0, radians.x);
}

// where the beam meets the plane of `p`, in pixels along its fast and slow axes
glm::dvec2 beamOnPanel(const Panel& p, const glm::dvec3& beam) {
    const glm::dvec3 n = p.normal();
    const double along = glm::dot(beam, n);
    if (std::fabs(along) < 1e-12)
        throw Error("refinement: the beam does not meet the first panel's plane");
    const glm::dvec3 hit = beam * (glm::dot(p.origin, n) / along);
    return {glm::dot(hit - p.origin, p.fast) / p.pixelSizeFast,
            glm::dot(hit - p.origin, p.slow) / p.pixelSizeSlow};
}

glm::dmat3 directFromReciprocal(const glm::dmat3& reciprocalColumns) {
    return glm::transpose(glm::inverse(reciprocalColumns)); // columns a, b, c
}

// a, b, c (A), alpha, beta, gamma (deg) of direct cell vectors (columns)
void cellParameters(const glm::dmat3& direct, double cell[6]) {
    const auto angle = [](const glm::dvec3& u, const glm::dvec3& v) {
        return units::degreesFromRadians(
            std::acos(std::clamp(glm::dot(u, v) / (glm::length(u) * glm::length(v)), -1.0, 1.0)));
    };
    for (int k = 0; k < 3; ++k)
        cell[k] = glm::length(direct[k]);
    cell[3] = angle(direct[1], direct[2]);
    cell[4] = angle(direct[0], direct[2]);
    cell[5] = angle(direct[0], direct[1]);
}

// The orthogonal matrix nearest m (its polar factor, by Newton's iteration X <- (X + X^-T)/2,
// which converges quadratically from a matrix orthogonal to rounding, as here)
glm::dmat3 nearestOrthogonal(glm::dmat3 m) {
    for (int i = 0; i < 30; ++i) {
        const glm::dmat3 next = 0.5 * (m + glm::transpose(glm::inverse(m)));
        double change = 0;
        for (int c = 0; c < 3; ++c)
            change = std::max(change, glm::length(next[c] - m[c]));
        m = next;
        if (change < 1e-15)
            break;
    }
    return m;
}

// The free parameters of a lattice, each the cell values (0 to 5: a, b, c, alpha, beta,
// gamma) it sets, and the angles it fixes (0: not fixed)
struct LatticeTies {
    std::vector<std::vector<int>> free;
    double fixedAngle[3] = {0, 0, 0}; // alpha, beta, gamma in degrees
};

LatticeTies tiesOf(const io::SpaceGroupLattice& lattice) {
    LatticeTies t;
    const auto rightAngles = [&t] { t.fixedAngle[0] = t.fixedAngle[1] = t.fixedAngle[2] = 90.0; };
    switch (lattice.system) {
    case io::LatticeSystem::Triclinic:
        t.free = {{0}, {1}, {2}, {3}, {4}, {5}};
        break;
    case io::LatticeSystem::Monoclinic:
        rightAngles();
        t.fixedAngle[lattice.uniqueAxis] = 0.0;
        t.free = {{0}, {1}, {2}, {3 + lattice.uniqueAxis}};
        break;
    case io::LatticeSystem::Orthorhombic:
        rightAngles();
        t.free = {{0}, {1}, {2}};
        break;
    case io::LatticeSystem::Tetragonal:
        rightAngles();
        t.free = {{0, 1}, {2}};
        break;
    case io::LatticeSystem::Hexagonal:
        rightAngles();
        t.fixedAngle[2] = 120.0;
        t.free = {{0, 1}, {2}};
        break;
    case io::LatticeSystem::Rhombohedral:
        t.free = {{0, 1, 2}, {3, 4, 5}};
        break;
    case io::LatticeSystem::Cubic:
        rightAngles();
        t.free = {{0, 1, 2}};
        break;
    }
    return t;
}

const char* const kCellNames[6] = {"a", "b", "c", "alpha", "beta", "gamma"};
// an angle this close to 90 or 120 degrees at the start is the lattice's, where no space
// group says (nanoBragg's -cell and -mat give the angles to many digits)
constexpr double kSpecialAngleTolerance = 1e-3;

std::string cellText(const double cell[6]) {
    char text[128];
    std::snprintf(text, sizeof text, "%.6g %.6g %.6g %.6g %.6g %.6g", cell[0], cell[1], cell[2],
                  cell[3], cell[4], cell[5]);
    return text;
}

} // namespace

glm::dmat3 cellInStandardFrame(const double cell[6]) {
    const double ca = std::cos(units::radiansFromDegrees(cell[3]));
    const double cb = std::cos(units::radiansFromDegrees(cell[4]));
    const double cg = std::cos(units::radiansFromDegrees(cell[5]));
    const double sg = std::sin(units::radiansFromDegrees(cell[5]));
    const double cy = (ca - cb * cg) / sg;
    const double cz = std::sqrt(std::max(0.0, 1.0 - cb * cb - cy * cy));
    return glm::dmat3(glm::dvec3(cell[0], 0.0, 0.0), glm::dvec3(cell[1] * cg, cell[1] * sg, 0.0),
                      glm::dvec3(cell[2] * cb, cell[2] * cy, cell[2] * cz));
}

glm::dmat3 cellInReciprocalStandardFrame(const double cell[6]) {
    // the reciprocal cell's six numbers, its vectors in the standard frame, and back
    const glm::dmat3 reciprocal = glm::transpose(glm::inverse(cellInStandardFrame(cell)));
    double star[6];
    cellParameters(reciprocal, star);
    return glm::transpose(glm::inverse(cellInStandardFrame(star)));
}

glm::dmat3 ParameterSet::standardCell(const double cell[6]) const {
    // a crystal with a space group is an experiment file's (DIALS's frame); one without,
    // nanoBragg's options'
    return m_start.crystal.spaceGroupHall.empty() ? cellInReciprocalStandardFrame(cell)
                                                  : cellInStandardFrame(cell);
}

void ParameterSet::addCellParameters() {
    const glm::dmat3 direct =
        directFromReciprocal(*m_start.crystal.mosflmMatrix / (m_start.beam.wavelength * 1e10));
    double actual[6];
    cellParameters(direct, actual);
    const std::string& hall = m_start.crystal.spaceGroupHall;
    std::optional<io::SpaceGroupLattice> lattice;
    if (!hall.empty())
        lattice = io::spaceGroupLattice(hall);
    LatticeTies ties;
    if (lattice) {
        ties = tiesOf(*lattice);
    } else {
        // no lattice known: the lattice the start's cell has. The edges are fitted, those equal
        // at the start as one; an angle of 90 or 120 degrees at the start is kept, the others
        // fitted, equal ones as one (a monoclinic cell's beta, a rhombohedral cell's alpha)
        const auto kept = [&ties](int k) { return k >= 3 && ties.fixedAngle[k - 3] > 0; };
        const auto tieEqual = [&](int first, int last, double tolerance) {
            std::vector<bool> taken(6, false);
            for (int i = first; i < last; ++i) {
                if (taken[static_cast<std::size_t>(i)] || kept(i))
                    continue;
                std::vector<int> tied{i};
                for (int j = i + 1; j < last; ++j)
                    if (!kept(j) && std::fabs(actual[j] - actual[i]) <= tolerance * actual[i]) {
                        tied.push_back(j);
                        taken[static_cast<std::size_t>(j)] = true;
                    }
                ties.free.push_back(tied);
            }
        };
        for (int k = 0; k < 3; ++k)
            for (const double special : {90.0, 120.0})
                if (std::fabs(actual[3 + k] - special) <= kSpecialAngleTolerance)
                    ties.fixedAngle[k] = special;
        tieEqual(0, 3, 1e-4);
        tieEqual(3, 6, 1e-6);
    }
    // the start with the lattice's ties exact: each free parameter the mean of what it ties,
    // the fixed angles as the lattice has them
    std::copy(actual, actual + 6, m_cell);
    for (const std::vector<int>& tied : ties.free) {
        double sum = 0;
        for (int k : tied)
            sum += actual[k];
        for (int k : tied)
            m_cell[k] = sum / static_cast<double>(tied.size());
    }
    for (int k = 0; k < 3; ++k)
        if (ties.fixedAngle[k] > 0)
            m_cell[3 + k] = ties.fixedAngle[k];
    std::string words;
    for (const std::vector<int>& tied : ties.free) {
        words += words.empty() ? "" : ", ";
        words += kCellNames[tied[0]];
        for (std::size_t i = 1; i < tied.size(); ++i)
            words += std::string(" = ") + kCellNames[tied[i]];
    }
    for (int k = 0; k < 3; ++k)
        if (ties.fixedAngle[k] > 0)
            words += std::string(", ") + kCellNames[3 + k] + " " +
                     (ties.fixedAngle[k] == 120.0 ? "120" : "90");
    m_cellConstraint =
        lattice        ? std::string(lattice->systemName()) + " (" + lattice->name + "): " + words
        : hall.empty() ? "no space group: " + words + " (the lattice of the start's cell)"
                       : "space group \"" + hall + "\" in a setting not listed: " + words +
                             " (the lattice of the start's cell)";
    if (lattice)
        for (int k = 0; k < 6; ++k)
            if (std::fabs(m_cell[k] - actual[k]) > (k < 3 ? 1e-3 * actual[k] : 0.1))
                throw Error("-refine cell: the start's cell (" + cellText(actual) + ") is not " +
                            lattice->systemName() + " as its space group " + lattice->name +
                            " (Hall \"" + hall + "\") requires (" + words + ")");
    // the crystal's orientation: what turns the standard frame's cell into the start's
    m_orientation = nearestOrthogonal(direct * glm::inverse(standardCell(m_cell)));

    const char* names[6] = {"cell_a", "cell_b", "cell_c", "cell_alpha", "cell_beta", "cell_gamma"};
    for (const std::vector<int>& tied : ties.free) {
        const int k = tied[0];
        const double v = m_cell[k];
        if (k < 3)
            m_parameters.push_back({names[k], "A", Group::Cell, k, tied, v, v * 1e-4, v * 0.5, v * 2});
        else
            m_parameters.push_back({names[k], "deg", Group::Cell, k, tied, v, 0.002, 20.0, 160.0});
    }
}

const std::vector<ParameterSet::GroupWords>& ParameterSet::groupWords() {
    static const std::vector<GroupWords> groups = {
        {"distance", "the whole detector along the beam (mm)"},
        {"beam", "the beam centre: the detector in its plane (pixels)"},
        {"detector_rotation", "the whole detector turned in its own plane about the beam centre "
                              "(degrees; DIALS's Tau1)"},
        {"panels", "every panel on its own: along the beam (mm) and in its plane (pixels); not "
                   "with distance or beam"},
        {"orientation", "three small rotations of the crystal (degrees)"},
        {"cell", "the cell edges; equal edges move as one (Å)"},
        {"mosaic", "the mosaic spread (degrees)"},
        {"ncells", "the crystal's size in unit cells, Na Nb Nc"},
    };
    return groups;
}

std::string groupsWarning(const std::vector<std::string>& groups) {
    const auto has = [&](const char* g) {
        return std::find(groups.begin(), groups.end(), g) != groups.end();
    };
    if (has("detector_rotation") && has("orientation"))
        return "-refine detector_rotation with orientation: on one frame the detector turned in "
               "its own plane and the crystal turned about the beam move the spots alike, and "
               "the fit may trade one for the other (see the correlated pairs); fit the turn "
               "with the crystal held";
    return "";
}

const char* ParameterSet::knownGroups() {
    static const std::string words = [] {
        std::string w;
        for (const GroupWords& g : groupWords())
            w += (w.empty() ? "" : ", ") + std::string(g.name);
        return w + " (and scale, always fitted)";
    }();
    return words.c_str();
}

ParameterSet::ParameterSet(Experiment start, const ResolvedExperiment& resolved,
                           const std::vector<std::string>& groups)
    : m_start(std::move(start)) {
    const Panel& first = m_start.detector.panels.at(0);
    m_beam = glm::normalize(resolved.axes.beam);
    m_fast = first.fast;
    m_slow = first.slow;
    m_pixelFast = first.pixelSizeFast;
    m_pixelSlow = first.pixelSizeSlow;
    for (const std::string& g : groups) {
        if (g == "distance") {
            const double d = glm::dot(first.origin, first.normal()) /
                             glm::dot(m_beam, first.normal()) / kMm;
            m_parameters.push_back({"distance", "mm", Group::Distance, 0, {}, d, 0.01, d * 0.2, d * 5});
        } else if (g == "beam") {
            const glm::dvec2 b = beamOnPanel(first, m_beam);
            m_parameters.push_back({"beam_x", "pixels", Group::Beam, 0, {}, b.x, 0.02});
            m_parameters.push_back({"beam_y", "pixels", Group::Beam, 1, {}, b.y, 0.02});
        } else if (g == "detector_rotation") {
            const glm::dvec2 b = beamOnPanel(first, m_beam); // the turn's pivot
            m_beamPoint =
                first.origin + first.fast * (m_pixelFast * b.x) + first.slow * (m_pixelSlow * b.y);
            m_parameters.push_back(
                {"detector_rotation", "deg", Group::DetectorRotation, 0, {}, 0.0, 0.002, -5, 5});
        } else if (g == "panels") {
            if (std::find(groups.begin(), groups.end(), "distance") != groups.end() ||
                std::find(groups.begin(), groups.end(), "beam") != groups.end())
                throw Error("-refine panels moves every panel on its own; distance and beam move "
                            "the whole detector: name panels, or distance and beam");
            for (std::size_t k = 0; k < m_start.detector.panels.size(); ++k) {
                const Panel& panel = m_start.detector.panels[k];
                const std::string name = "panel" + std::to_string(k) + "_";
                const double d = glm::dot(panel.origin, panel.normal()) /
                                 glm::dot(m_beam, panel.normal()) / kMm;
                Parameter distance{name + "distance", "mm", Group::Panel, 0, {}, d, 0.01, d * 0.2, d * 5};
                Parameter fast{name + "shift_fast", "pixels", Group::Panel, 1, {}, 0.0, 0.02};
                Parameter slow{name + "shift_slow", "pixels", Group::Panel, 2, {}, 0.0, 0.02};
                for (Parameter* q : {&distance, &fast, &slow}) {
                    q->panel = static_cast<int>(k);
                    m_parameters.push_back(*q);
                }
            }
        } else if (g == "orientation") {
            const char* names[] = {"orientation_x", "orientation_y", "orientation_z"};
            for (int i = 0; i < 3; ++i)
                m_parameters.push_back({names[i], "deg", Group::Orientation, i, {}, 0.0, 0.002, -5, 5});
        } else if (g == "cell") {
            addCellParameters();
        } else if (g == "mosaic") {
            // from no spread a fit has no slope: start at 0.05 degrees
            const double spread =
                std::max(units::degreesFromRadians(m_start.crystal.mosaicSpread.value_or(0.0)), 0.05);
            if (!m_start.crystal.mosaicDomains)
                m_start.crystal.mosaicDomains = kFitMosaicDomains;
            m_parameters.push_back({"mosaic", "deg", Group::Mosaic, 0, {}, spread,
                                    std::max(0.002, spread * 0.02), 0.0, 20.0});
        } else if (g == "ncells") {
            const char* names[] = {"Na", "Nb", "Nc"};
            for (int i = 0; i < 3; ++i) {
                const double n = m_start.crystal.cells[i];
                m_parameters.push_back({names[i], "cells", Group::Ncells, i, {}, n,
                                        std::max(0.01, n * 0.01), 1.0, 10000.0});
            }
        } else if (g == "scale") {
            continue; // the fit's own
        } else {
            throw Error("-refine: no parameter group \"" + g + "\" (the groups: " + knownGroups() + ")");
        }
    }
    if (m_parameters.empty())
        throw Error(std::string("-refine: nothing to refine but the scale; name groups of: ") +
                    knownGroups());
}

std::vector<double> ParameterSet::startValues() const {
    std::vector<double> v;
    for (const Parameter& p : m_parameters)
        v.push_back(p.start);
    return v;
}

Experiment ParameterSet::experimentAt(const std::vector<double>& values) const {
    Experiment e = m_start;
    // the turn first, about where the beam met the start's detector; the shifts after it,
    // along the turned axes
    glm::dvec3 fast = m_fast, slow = m_slow;
    for (std::size_t i = 0; i < m_parameters.size(); ++i) {
        if (m_parameters[i].group != Group::DetectorRotation)
            continue;
        const glm::dvec3 normal = glm::normalize(glm::cross(m_fast, m_slow));
        const double angle = units::radiansFromDegrees(values[i]);
        for (Panel& panel : e.detector.panels) {
            panel.origin = m_beamPoint + rotateAbout(panel.origin - m_beamPoint, normal, angle);
            panel.fast = rotateAbout(panel.fast, normal, angle);
            panel.slow = rotateAbout(panel.slow, normal, angle);
        }
        fast = rotateAbout(m_fast, normal, angle);
        slow = rotateAbout(m_slow, normal, angle);
    }
    glm::dvec3 shift(0.0);
    glm::dvec3 rotation(0.0);
    glm::dmat3 direct =
        directFromReciprocal(*e.crystal.mosflmMatrix / (e.beam.wavelength * 1e10));
    double cell[6];
    std::copy(m_cell, m_cell + 6, cell);
    bool cellMoves = false;
    for (std::size_t i = 0; i < m_parameters.size(); ++i) {
        const Parameter& p = m_parameters[i];
        const double delta = values[i] - p.start;
        switch (p.group) {
        case Group::Distance:
            if (e.detector.distanceStated)
                e.detector.distance += delta * kMm;
            else
                shift += m_beam * (delta * kMm);
            break;
        case Group::Beam:
            // the beam further along fast: the detector moved the other way
            shift -= (p.component == 0 ? fast * m_pixelFast : slow * m_pixelSlow) * delta;
            break;
        case Group::DetectorRotation:
            break; // above
        case Group::Panel: {
            Panel& panel = e.detector.panels.at(static_cast<std::size_t>(p.panel));
            if (p.component == 0)
                panel.origin += m_beam * (delta * kMm);
            else if (p.component == 1)
                panel.origin += panel.fast * (panel.pixelSizeFast * delta);
            else
                panel.origin += panel.slow * (panel.pixelSizeSlow * delta);
            break;
        }
        case Group::Orientation:
            rotation[p.component] = units::radiansFromDegrees(values[i]);
            break;
        case Group::Cell:
            for (int k : p.tied)
                cell[k] = values[i];
            cellMoves = true;
            break;
        case Group::Mosaic:
            e.crystal.mosaicSpread = units::radiansFromDegrees(std::max(0.0, values[i]));
            break;
        case Group::Ncells:
            e.crystal.cells[p.component] = std::max(1.0, values[i]);
            break;
        }
    }
    for (Panel& panel : e.detector.panels)
        panel.origin += shift;
    if (cellMoves)
        direct = m_orientation * standardCell(cell);
    const glm::dmat3 reciprocal = glm::transpose(glm::inverse(direct)); // columns a*, b*, c*
    e.crystal.mosflmMatrix = rotationXYZ(rotation) * reciprocal * (e.beam.wavelength * 1e10);
    return e;
}

} // namespace bv::refine
