#pragma once
// What a run adds to the Bragg image before its files and what the detector makes of it:
// braggview's own -background and -response_* (docs/amorphous.md, docs/detector-response.md).
// Part of the Experiment, as the user states them, so that the viewer's fields, sessions and
// a job's frames carry them as they carry every other value; resolve() and the plan ignore
// them (the Bragg image does not depend on them).

#include <string>

namespace bv {

// -background and its -background_* options: an amorphous layer in the beam whose scattering
// (nonBragg's) is added to the image before noise.
struct BackgroundRequest {
    std::string material;          // a built-in material (water, air, ice, ...) or a .stol file;
                                   // empty: no background
    double thickness = 0.1e-3;     // m along the beam; the cross-section is the beam's
    double density = 1.0e6;        // g/m^3
    double molecularWeight = 18.0; // g/mol
};

// -response_*: the noise image made by noisify's chain (flicker, calibration, Poisson, PSF,
// gain, readout) instead of Poisson alone.
struct ResponseRequest {
    bool enabled = false;        // any -response_* option given
    double flicker = 0.0;        // fraction
    double calibration = 0.0;    // fraction
    long calibSeed = 123456789;  // the reference's variable (-response_calib_seed N gives -N)
    double readout = 0.0;        // ADU
    double gain = 1.0;           // ADU per photon
    std::string psf;             // "", "gauss" or "fiber"
    double psfFwhm = 46e-6;      // m (noisify's default)
    int psfRadius = 0;           // pixels, 0: per pixel
};

} // namespace bv
