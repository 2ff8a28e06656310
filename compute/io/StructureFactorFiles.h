#pragma once
// Structure factors from crystallographers' own files, read with gemmi (Debian gemmi-dev) and
// expanded to P1 for the engine's table (ReflectionGrid.h), beside nanoBragg's -hkl text:
//
//   readMtz            an MTZ file (-mtz), one column of amplitudes or intensities
//   readReflectionCif  mmCIF structure factors, the PDB's *-sf.cif (-sfcif), a _refln column
//   readModelFactors   |F| that gemmi computes from a model, PDB or mmCIF (-model)
//
//     std::ostringstream log;
//     bv::StructureFactors sf = bv::io::readMtz("data.mtz", "FP", /*defaultF=*/0.0, log);
//
// Expansion (docs/structure-factors.md): every listed reflection is given to each of its
// symmetry mates under the space group's point-group rotations and to their Friedel mates
// (-h -k -l), with the same |F|: nanoBragg looks F up for the very indices it meets and has
// no anomalous signal, so the table holds the whole sphere, as mtz_to_P1hkl.com makes it.
// Where two listed reflections land on one index the later one in the file wins, as with
// -hkl. Intensities become amplitudes as sqrt(max(I, 0)): a negative measured intensity is
// an F of 0 (and is counted in the line written to `log`). Missing values (MTZ NaN, mmCIF
// '?' or '.') are skipped.
//
// Each reader writes one line to `log` saying what it read (the column, the space group, how
// many reflections and how many in P1). Everything wrong throws bv::Error "<path>: ...": a
// missing or unreadable file, a file gemmi cannot parse, no space group, a column that is
// not there (the message lists those there are) or not of amplitudes or intensities,
// Miller indices that are not integers, a negative or infinite amplitude, no reflections.

#include "compute/model/StructureFactors.h"

#include <iosfwd>
#include <string>

namespace bv::io {

// `column`: an MTZ label of type F (amplitude), J (intensity), G (F(+)/F(-)) or K
// (I(+)/I(-)); empty: the first column of type F, else the first of type J.
StructureFactors readMtz(const std::string& path, const std::string& column, double defaultF,
                         std::ostream& log);

// `column`: a _refln (or _diffrn_refln) item, with or without its category ("F_meas_au" or
// "_refln.F_meas_au"); empty: the first there of F_meas_au, F_meas, F_calc_au, F_calc,
// then intensity_meas, F_squared_meas, intensity_calc, F_squared_calc. The first data block
// with reflections is read.
StructureFactors readReflectionCif(const std::string& path, const std::string& column,
                                   double defaultF, std::ostream& log);

// |F| of the model's first model (PDB or mmCIF, by content), with its occupancies and B
// factors (isotropic or anisotropic) and the International Tables vol. C (1992) form factors,
// for every reflection with d >= dminAngstrom in the asymmetric unit of the file's space
// group, then expanded. No solvent, no hydrogens added. More than `maxReflections` in the
// asymmetric unit is refused (the resolution limit is surely a mistake: a 100 A cubic cell in
// P1 to 1 A has about 2 million; the fuzz target asks for fewer, to stay quick).
inline constexpr double kMaxModelReflections = 2.0e7;
StructureFactors readModelFactors(const std::string& path, double dminAngstrom, double defaultF,
                                  std::ostream& log,
                                  double maxReflections = kMaxModelReflections);

} // namespace bv::io
