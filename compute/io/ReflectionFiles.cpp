// readMtz and readReflectionCif (StructureFactorFiles.h): gemmi parses, this file chooses the
// column, checks the values and hands the list to the P1 expansion.

#include "compute/io/StructureFactorFiles.h"

#include "compute/io/InputFile.h"
#include "compute/io/PrintfFormat.h"
#include "compute/io/SymmetryExpansion.h"
#include "compute/core/Error.h"

#include <gemmi/cif.hpp>
#include <gemmi/mtz.hpp>
#include <gemmi/refln.hpp>

#include <cmath>
#include <exception>
#include <ostream>
#include <sstream>

namespace bv::io {

namespace {

// Indices this large are not Miller indices (and would overflow the grid's arithmetic).
constexpr double kMaxReflectionIndex = 1.0e6;

int millerIndex(double value, const std::string& where) {
    if (!std::isfinite(value) || value != std::round(value) ||
        std::fabs(value) > kMaxReflectionIndex)
        throw Error(where + ": Miller index " + formatG(value) + " is not a plausible integer");
    return static_cast<int>(value);
}

std::string hklText(double h, double k, double l) {
    return formatG(h) + " " + formatG(k) + " " + formatG(l);
}

const char* mtzTypeName(char type) {
    switch (type) {
    case 'F': return "amplitudes";
    case 'J': return "intensities";
    case 'G': return "anomalous amplitudes F(+) or F(-)";
    case 'K': return "anomalous intensities I(+) or I(-)";
    case 'Q': return "standard deviations";
    case 'P': return "phases";
    case 'H': return "Miller indices";
    case 'W': return "weights";
    case 'I': return "integers";
    case 'R': return "real numbers";
    default: return "another kind";
    }
}

std::string mtzColumnList(const gemmi::Mtz& mtz) {
    std::string list;
    for (const gemmi::Mtz::Column& c : mtz.columns)
        list += (list.empty() ? "" : ", ") + c.label + " (" + std::string(1, c.type) + ")";
    return list.empty() ? "none" : list;
}

const gemmi::Mtz::Column& mtzColumn(const gemmi::Mtz& mtz, const std::string& path,
                                    const std::string& label) {
    if (!label.empty()) {
        const gemmi::Mtz::Column* c = mtz.column_with_label(label);
        if (!c)
            throw Error(path + ": no column " + label + "; its columns are " + mtzColumnList(mtz));
        if (c->type != 'F' && c->type != 'J' && c->type != 'G' && c->type != 'K')
            throw Error(path + ": column " + label + " is of type " + std::string(1, c->type) +
                        " (" + mtzTypeName(c->type) +
                        "), expected amplitudes (F, G) or intensities (J, K)");
        return *c;
    }
    for (char type : {'F', 'J'})
        for (const gemmi::Mtz::Column& c : mtz.columns)
            if (c.type == type)
                return c;
    throw Error(path + ": no column of amplitudes (type F) or intensities (type J); its columns "
                       "are " + mtzColumnList(mtz));
}

// The first of these items a block has, in this order: amplitudes, then intensities.
constexpr const char* kCifColumns[] = {"F_meas_au",      "F_meas",         "F_calc_au",
                                       "F_calc",         "intensity_meas", "F_squared_meas",
                                       "intensity_calc", "F_squared_calc"};

bool isCifIntensity(const std::string& tag) {
    return tag.rfind("intensity", 0) == 0 || tag.rfind("F_squared", 0) == 0 ||
           tag.rfind("pdbx_I_", 0) == 0 || tag == "I" || tag.rfind("I_", 0) == 0;
}

// gemmi sizes the data and the batch headers from the NCOL record before it reads them, so a
// damaged count would be an allocation of gigabytes: the counts must fit the file.
void checkMtzCounts(const std::string& path, const std::string& bytes) {
    gemmi::Mtz probe;
    gemmi::MemoryStream stream(bytes.data(), bytes.size());
    probe.read_first_bytes(stream);
    const long long start = 4 * (static_cast<long long>(probe.header_offset) - 1);
    if (probe.header_offset < 1 || start >= static_cast<long long>(bytes.size()))
        throw Error(path + ": not a readable MTZ file (its header offset points outside it)");
    bool counted = false;
    for (std::size_t at = static_cast<std::size_t>(start); at + 80 <= bytes.size(); at += 80) {
        const std::string record = bytes.substr(at, 80);
        if (record.rfind("END", 0) == 0)
            break;
        if (record.rfind("SYMI", 0) == 0) {
            // gemmi reserves room for this many symmetry operators before reading them; a
            // space group has at most 192 (Fm-3m's 48 times its 4 centring translations)
            std::istringstream symi(record); // "SYMINF <operators> ...": after the keyword
            std::string keyword;
            long long operators = 0;
            symi >> keyword >> operators;
            if (operators < 0 || operators > 192)
                throw Error(path + ": not a readable MTZ file (its SYMI record announces " +
                            std::to_string(operators) +
                            " symmetry operators; a space group has at most 192)");
            continue;
        }
        if (record.rfind("NCOL", 0) != 0)
            continue;
        std::istringstream counts(record.substr(4));
        long long columns = 0, reflections = 0, batches = 0;
        counts >> columns >> reflections >> batches;
        const auto size = static_cast<long long>(bytes.size());
        if (columns < 0 || reflections < 0 || batches < 0 || columns > size ||
            reflections > size || 4 * columns * reflections > size || 80 * batches > size)
            throw Error(path + ": not a readable MTZ file (its NCOL record announces " +
                        std::to_string(columns) + " columns, " + std::to_string(reflections) +
                        " reflections and " + std::to_string(batches) + " batches, more than its " +
                        std::to_string(size) + " bytes hold)");
        if (columns * reflections == 0)
            throw Error(path + ": the MTZ file holds no reflections (NCOL " +
                        std::to_string(columns) + " " + std::to_string(reflections) + ")");
        counted = true;
    }
    if (!counted)
        throw Error(path + ": not a readable MTZ file (no NCOL record in its header)");
}

// gemmi throws std::exception subclasses, some from places that take a damaged file for a
// programming error (std::out_of_range from a CIF tag shorter than its category): every one
// becomes the file's bv::Error.
template <typename Read> StructureFactors asFileError(const std::string& path, Read&& read) {
    try {
        return read();
    } catch (const Error&) {
        throw;
    } catch (const std::exception& e) {
        throw Error(path + ": not a readable file (" + e.what() + ")");
    }
}

StructureFactors readMtzFile(const std::string& path, const std::string& column, double defaultF,
                             std::ostream& log) {
    const std::string bytes = readWholeFile(path, "MTZ file");
    gemmi::Mtz mtz;
    try {
        checkMtzCounts(path, bytes);
        mtz.read_stream(gemmi::MemoryStream(bytes.data(), bytes.size()), true);
    } catch (const Error&) {
        throw;
    } catch (const std::exception& e) {
        throw Error(path + ": not a readable MTZ file (" + e.what() + ")");
    }
    if (mtz.columns.size() < 3 || mtz.columns[0].type != 'H' || mtz.columns[1].type != 'H' ||
        mtz.columns[2].type != 'H')
        throw Error(path + ": the first three columns are not the Miller indices H K L; its "
                           "columns are " + mtzColumnList(mtz));
    if (!mtz.spacegroup)
        throw Error(path + ": no space group in the MTZ header (SYMINF " +
                    std::to_string(mtz.spacegroup_number) + ")");
    const gemmi::Mtz::Column& F = mtzColumn(mtz, path, column);
    const std::size_t stride = mtz.columns.size();
    if (mtz.nreflections < 0 ||
        mtz.data.size() != static_cast<std::size_t>(mtz.nreflections) * stride)
        throw Error(path + ": the header announces " + std::to_string(mtz.nreflections) +
                    " reflections of " + std::to_string(stride) + " columns, the file holds " +
                    std::to_string(mtz.data.size()) + " values");

    const bool intensity = F.type == 'J' || F.type == 'K';
    long negatives = 0;
    std::vector<Reflection> listed;
    for (std::size_t n = 0; n < static_cast<std::size_t>(mtz.nreflections); ++n) {
        const float* row = &mtz.data[n * stride];
        const double value = row[F.idx];
        if (std::isnan(value))
            continue; // a missing value
        const std::string where = path + ": reflection " + hklText(row[0], row[1], row[2]) +
                                  ", column " + F.label;
        listed.push_back({millerIndex(row[0], where), millerIndex(row[1], where),
                          millerIndex(row[2], where),
                          amplitudeOf(value, intensity, where, negatives)});
    }
    if (listed.empty())
        throw Error(path + ": column " + F.label + " holds no values");
    const std::vector<Reflection> p1 = expandToP1(*mtz.spacegroup, listed);
    log << readingSummary(path, "column " + F.label + " (" + mtzTypeName(F.type) + ")",
                          *mtz.spacegroup, listed.size(), p1.size(), negatives)
        << "\n";
    return reflectionGrid(path, p1, defaultF);
}

StructureFactors readCifFile(const std::string& path, const std::string& column,
                             double defaultF, std::ostream& log) {
    const std::string bytes = readWholeFile(path, "mmCIF structure-factor file");
    std::vector<gemmi::ReflnBlock> blocks;
    try {
        gemmi::cif::Document doc = gemmi::cif::read_memory(bytes.data(), bytes.size(), path.c_str());
        blocks = gemmi::as_refln_blocks(std::move(doc.blocks));
    } catch (const std::exception& e) {
        throw Error(path + ": not a readable mmCIF file (" + e.what() + ")");
    }
    const gemmi::ReflnBlock* block = nullptr;
    for (const gemmi::ReflnBlock& b : blocks)
        if (b.ok()) {
            block = &b;
            break;
        }
    if (!block)
        throw Error(path + ": no _refln or _diffrn_refln loop of reflections");
    // gemmi reads _symmetry.space_group_name_H-M; newer files may state only the
    // _space_group items
    const gemmi::SpaceGroup* group = block->spacegroup;
    if (!group)
        if (const std::string* hm = block->block.find_value("_space_group.name_H-M_alt"))
            group = gemmi::find_spacegroup_by_name(gemmi::cif::as_string(*hm), block->cell.alpha,
                                                   block->cell.gamma);
    if (!group)
        if (const std::string* number = block->block.find_value("_space_group.IT_number"))
            if (gemmi::cif::is_null(*number) == false)
                group = gemmi::find_spacegroup_by_number(
                    static_cast<int>(std::lround(gemmi::cif::as_number(*number))));
    if (!group)
        throw Error(path + ": no space group (_symmetry.space_group_name_H-M, "
                           "_space_group.name_H-M_alt or _space_group.IT_number) in block " +
                    block->block.name);

    auto columnList = [&] {
        std::string list;
        for (const std::string& label : block->column_labels())
            list += (list.empty() ? "" : ", ") + label;
        return list;
    };
    std::string tag = column;
    if (const auto dot = tag.find('.'); dot != std::string::npos)
        tag = tag.substr(dot + 1);
    if (tag.empty()) {
        for (const char* name : kCifColumns)
            if (tag.empty() && block->find_column_index(name) >= 0)
                tag = name;
        if (tag.empty())
            throw Error(path + ": no column of amplitudes (F_meas_au, F_meas, F_calc_au, F_calc) "
                               "or intensities (intensity_meas, F_squared_meas, intensity_calc, "
                               "F_squared_calc); its columns are " + columnList());
    } else if (block->find_column_index(tag) < 0) {
        throw Error(path + ": no column " + tag + "; its columns are " + columnList());
    }
    for (const char* index : {"index_h", "index_k", "index_l"})
        if (block->find_column_index(index) < 0)
            throw Error(path + ": no column " + index + "; its columns are " + columnList());

    const bool intensity = isCifIntensity(tag);
    std::vector<double> values, h, k, l;
    try {
        values = block->make_vector<double>(tag, NAN);
        h = block->make_vector<double>("index_h", NAN);
        k = block->make_vector<double>("index_k", NAN);
        l = block->make_vector<double>("index_l", NAN);
    } catch (const std::exception& e) {
        throw Error(path + ": " + e.what());
    }
    long negatives = 0;
    std::vector<Reflection> listed;
    for (std::size_t n = 0; n < values.size() && n < h.size() && n < k.size() && n < l.size(); ++n) {
        if (std::isnan(values[n]))
            continue; // '?' or '.'
        const std::string where = path + ": reflection " + hklText(h[n], k[n], l[n]) +
                                  ", column " + tag;
        listed.push_back({millerIndex(h[n], where), millerIndex(k[n], where),
                          millerIndex(l[n], where),
                          amplitudeOf(values[n], intensity, where, negatives)});
    }
    if (listed.empty())
        throw Error(path + ": column " + tag + " holds no values");
    const std::vector<Reflection> p1 = expandToP1(*group, listed);
    log << readingSummary(path, "column " + tag + (intensity ? " (intensities)" : " (amplitudes)"),
                          *group, listed.size(), p1.size(), negatives)
        << "\n";
    return reflectionGrid(path, p1, defaultF);
}

} // namespace

StructureFactors readMtz(const std::string& path, const std::string& column, double defaultF,
                         std::ostream& log) {
    return asFileError(path, [&] { return readMtzFile(path, column, defaultF, log); });
}

StructureFactors readReflectionCif(const std::string& path, const std::string& column,
                                   double defaultF, std::ostream& log) {
    return asFileError(path, [&] { return readCifFile(path, column, defaultF, log); });
}

} // namespace bv::io
