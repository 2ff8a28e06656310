// readModelFactors (StructureFactorFiles.h): |F| computed by gemmi from a model's atoms.

#include "compute/io/StructureFactorFiles.h"

#include "compute/io/InputFile.h"
#include "compute/io/PrintfFormat.h"
#include "compute/io/SymmetryExpansion.h"
#include "compute/core/Error.h"

#include <gemmi/it92.hpp>
#include <gemmi/mmread.hpp>
#include <gemmi/sfcalc.hpp>

#include <cmath>
#include <exception>
#include <ostream>
#include <string>

namespace bv::io {

namespace {

// A PDB file's records are 80 columns wide, but a file may end its lines early; gemmi (0.5,
// Debian 12) reads some fields at fixed columns without looking at the line's length (a LINK
// record's distance at columns 74-78), beyond the end of a short line (fuzz_model found it).
// Spaces to 80 columns are what the format means by a short line; an mmCIF file (its first
// word data_) is left as it is.
std::string paddedPdbLines(std::string bytes) {
    const std::size_t first = bytes.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && bytes.compare(first, 5, "data_") == 0)
        return bytes;
    std::string padded;
    padded.reserve(bytes.size() + bytes.size() / 8);
    std::size_t start = 0;
    while (start < bytes.size()) {
        std::size_t end = bytes.find('\n', start);
        const bool last = end == std::string::npos;
        if (last)
            end = bytes.size();
        std::size_t stop = end;
        if (stop > start && bytes[stop - 1] == '\r')
            --stop;
        padded.append(bytes, start, stop - start);
        if (stop - start < 80)
            padded.append(80 - (stop - start), ' ');
        padded.append(bytes, stop, end - stop); // a \r kept
        if (!last)
            padded += '\n';
        start = end + 1;
    }
    return padded;
}

std::size_t atomCount(const gemmi::Model& model) {
    std::size_t n = 0;
    for (const gemmi::Chain& chain : model.chains)
        for (const gemmi::Residue& residue : chain.residues)
            n += residue.atoms.size();
    return n;
}

StructureFactors readModel(const std::string& path, double dminAngstrom, double defaultF,
                           std::ostream& log, double maxReflections) {
    if (!(dminAngstrom > 0.0) || !std::isfinite(dminAngstrom))
        throw Error(path + ": the resolution limit " + formatG(dminAngstrom) +
                    " A is not a positive number");
    std::string whole = readWholeFile(path, "model file");
    // a NUL ends a line early where gemmi keeps its records as C strings (a LINK record cut
    // short by one was read past its end: fuzz_model), and no text model holds one
    if (const std::size_t nul = whole.find('\0'); nul != std::string::npos)
        throw Error(path + ": a NUL byte at offset " + std::to_string(nul) +
                    ": not a text PDB or mmCIF model");
    std::string bytes = paddedPdbLines(std::move(whole));
    gemmi::Structure st;
    try {
        st = gemmi::read_structure_from_char_array(bytes.data(), bytes.size(), path);
    } catch (const std::exception& e) {
        throw Error(path + ": not a readable PDB or mmCIF model (" + e.what() + ")");
    }
    if (st.models.empty() || atomCount(st.models.front()) == 0)
        throw Error(path + ": the file has no atoms");
    if (!st.cell.is_crystal())
        throw Error(path + ": no unit cell (CRYST1 or _cell)");
    const gemmi::SpaceGroup* group = st.find_spacegroup();
    if (!group)
        throw Error(path + ": no space group" +
                    (st.spacegroup_hm.empty() ? std::string(" (CRYST1 or _symmetry)")
                                              : " that gemmi knows: '" + st.spacegroup_hm + "'"));
    const gemmi::Model& model = st.models.front();
    for (const gemmi::Chain& chain : model.chains)
        for (const gemmi::Residue& residue : chain.residues)
            for (const gemmi::Atom& atom : residue.atoms) {
                if (!gemmi::IT92<double>::has(atom.element.elem))
                    throw Error(path + ": atom " + atom.name + " of " + residue.name + " " +
                                residue.seqid.str() + ": no form factor for element '" +
                                atom.element.name() + "'");
                if (!std::isfinite(atom.pos.x + atom.pos.y + atom.pos.z + atom.occ + atom.b_iso))
                    throw Error(path + ": atom " + atom.name + " of " + residue.name + " " +
                                residue.seqid.str() + " has a coordinate, occupancy or B that "
                                                      "is not a number");
            }
    st.setup_cell_images();

    // a cell of numbers (gemmi takes NaN and any size from the file's text)
    const gemmi::UnitCell& c = st.cell;
    const bool edges = std::isfinite(c.a) && std::isfinite(c.b) && std::isfinite(c.c) &&
                       c.a > 0 && c.b > 0 && c.c > 0;
    const bool angles = c.alpha > 0 && c.alpha < 180 && c.beta > 0 && c.beta < 180 &&
                        c.gamma > 0 && c.gamma < 180;
    if (!edges || !angles || !(std::isfinite(c.volume) && c.volume > 0))
        throw Error(path + ": the unit cell " + formatG(c.a) + " " + formatG(c.b) + " " +
                    formatG(c.c) + " " + formatG(c.alpha) + " " + formatG(c.beta) + " " +
                    formatG(c.gamma) + " is not a cell");

    // |h| = |s . a| <= |a| / d: the box that holds every reflection to dmin
    const double hBox = c.a / dminAngstrom, kBox = c.b / dminAngstrom, lBox = c.c / dminAngstrom;
    const double sphere = 4.0 / 3.0 * M_PI * c.volume / std::pow(dminAngstrom, 3.0);
    if (sphere / group->operations().order() > maxReflections || hBox > 100000 ||
        kBox > 100000 || lBox > 100000)
        throw Error(path + ": about " + formatG(sphere) + " reflections to " +
                    formatG(dminAngstrom) + " A: choose a larger -model_dmin");
    const int hMax = static_cast<int>(hBox), kMax = static_cast<int>(kBox),
              lMax = static_cast<int>(lBox);

    const gemmi::ReciprocalAsu asu(group);
    const double limit = 1.0 / (dminAngstrom * dminAngstrom);
    gemmi::StructureFactorCalculator<gemmi::IT92<double>> calculator(st.cell);
    std::vector<Reflection> listed;
    try {
        for (int h = -hMax; h <= hMax; ++h)
            for (int k = -kMax; k <= kMax; ++k)
                for (int l = -lMax; l <= lMax; ++l) {
                    const gemmi::Miller hkl{{h, k, l}};
                    if (st.cell.calculate_1_d2(hkl) > limit || !asu.is_in(hkl))
                        continue;
                    const double F = std::abs(calculator.calculate_sf_from_model(model, hkl));
                    if (!std::isfinite(F)) // a huge negative B, a cell that closes no volume
                        throw Error(path + ": |F| of " + std::to_string(h) + " " +
                                    std::to_string(k) + " " + std::to_string(l) +
                                    " is not a finite number: are the cell and the B factors "
                                    "right?");
                    listed.push_back({h, k, l, F});
                }
    } catch (const std::exception& e) {
        throw Error(path + ": " + e.what());
    }
    const std::vector<Reflection> p1 = expandToP1(*group, listed);
    log << readingSummary(path,
                          std::to_string(atomCount(model)) + " atoms, |F| to " +
                              formatG(dminAngstrom) + " A",
                          *group, listed.size(), p1.size(), 0)
        << "\n";
    return reflectionGrid(path, p1, defaultF);
}

} // namespace

StructureFactors readModelFactors(const std::string& path, double dminAngstrom, double defaultF,
                                  std::ostream& log, double maxReflections) {
    try { // gemmi's std::exceptions from anywhere (ReflectionFiles.cpp says why)
        return readModel(path, dminAngstrom, defaultF, log, maxReflections);
    } catch (const Error&) {
        throw;
    } catch (const std::exception& e) {
        throw Error(path + ": not a readable model (" + e.what() + ")");
    }
}

} // namespace bv::io
