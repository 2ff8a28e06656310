#pragma once
// The incident X-ray beam: wavelength and its spread, divergence, polarization and how many
// photons cross the sample. The beam and polarization directions belong to the laboratory
// frame (Experiment::axes()).

#include "compute/model/Sweep.h"

#include <vector>

namespace bv {

// One line of a source file: position of the source point (m, relative to the sample),
// weight, wavelength (m). NaN marks a column the file left out.
struct SourceRecord {
    double X, Y, Z;
    double weight;
    double lambda;
};

struct Beam {
    double wavelength = 1.0e-10; // lambda0, m
    // spectral dispersion, fraction of lambda0 (full width); the reference's default 0 counts
    // as "given", so dispersion steps alone do nothing without -dispersion
    SweepRequest dispersion{0.0, std::nullopt, std::nullopt};
    SweepRequest horizontalDivergence; // rad
    SweepRequest verticalDivergence;   // rad
    bool roundDivergence = true;       // trim the divergence grid to an ellipse
    std::vector<SourceRecord> sourceFile; // when non-empty, replaces the generated sources
    double sourceDistance = 10.0;         // m, for source-file lines without a position

    double kahnFactor = 0.0;   // polarization: 0 unpolarized, 1 fully along the E-vector
    bool polarization = true;  // false: -nopolar, the factor is 1

    double fluence = 125932015286227086360700780544.0; // photons/m^2 (the reference default)
    double flux = 0.0;      // photons/s; with exposure and beamsize replaces the fluence
    double exposure = 1.0;  // s
    double beamSize = 1e-4; // m, edge of the square beam

    // photons/m^2 seen by the sample: flux*exposure/beamsize^2 when a flux is given
    double effectiveFluence() const {
        if (flux != 0.0 && exposure > 0.0 && beamSize >= 0.0)
            return flux * exposure / beamSize / beamSize;
        return fluence;
    }
};

} // namespace bv
