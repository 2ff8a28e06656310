// libFuzzer target: bv::io::readDialsExperiment (compute/io/DialsExperiment.h), the DIALS
// experiment list reader. Input: the bytes of a .expt (JSON) file. Only bv::Error may
// escape; the panels it returns must pass validatePanels, a beam direction must be a unit
// vector and a wavelength positive.

#include "FuzzInput.h"

#include "compute/core/Error.h"
#include "compute/io/DialsExperiment.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = bv::fuzz::writeInput("models.expt", data, size);
    try {
        const bv::io::DialsExperiment x = bv::io::readDialsExperiment(path);
        try {
            bv::validatePanels(x.detector, path);
        } catch (const bv::Error&) {
            bv::fuzz::require(false, "readDialsExperiment: returned panels validatePanels refuses");
        }
        if (x.beamDirection)
            bv::fuzz::require(std::fabs(glm::length(*x.beamDirection) - 1.0) < 1e-9,
                              "readDialsExperiment: beam direction not a unit vector");
        if (x.wavelength)
            bv::fuzz::require(*x.wavelength > 0.0 && std::isfinite(*x.wavelength),
                              "readDialsExperiment: wavelength not positive");
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
    }
    return 0;
}
