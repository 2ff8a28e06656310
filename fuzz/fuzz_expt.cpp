// libFuzzer target: bv::io::readDialsExperiment (compute/io/DialsExperiment.h), the DIALS
// experiment list reader. Input: the bytes of a .expt (JSON) file. Only bv::Error may
// escape; the panels it returns must pass validatePanels, a beam direction, polarization
// normal and rotation axis must be unit vectors, a wavelength positive, a crystal's vectors
// must form a cell and a scan's range must run forwards. Every model is read (what
// -experiment reads), the first byte choosing the experiment id (0 to 3).

#include "FuzzInput.h"

#include "compute/core/Error.h"
#include "compute/io/DialsExperiment.h"
#include "compute/model/Crystal.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = bv::fuzz::writeInput("models.expt", data, size);
    try {
        const std::size_t id = size > 0 ? data[0] % 4 : 0;
        const bv::io::DialsExperiment x =
            bv::io::readDialsExperiment(path, id, bv::io::DialsModels::All);
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
        const auto unit = [](const glm::dvec3& v) { return std::fabs(glm::length(v) - 1.0) < 1e-9; };
        if (x.polarizationNormal)
            bv::fuzz::require(unit(*x.polarizationNormal),
                              "readDialsExperiment: polarization normal not a unit vector");
        if (x.polarizationFraction)
            bv::fuzz::require(*x.polarizationFraction >= 0.0 && *x.polarizationFraction <= 1.0,
                              "readDialsExperiment: polarization fraction outside 0..1");
        if (x.goniometer)
            bv::fuzz::require(unit(x.goniometer->axis),
                              "readDialsExperiment: rotation axis not a unit vector");
        if (x.crystal)
            bv::fuzz::require(bv::vectorsFormCell(x.crystal->a, x.crystal->b, x.crystal->c),
                              "readDialsExperiment: crystal vectors that form no cell");
        if (x.scan)
            bv::fuzz::require(x.scan->lastImage >= x.scan->firstImage &&
                                  std::isfinite(x.scan->start) && std::isfinite(x.scan->width),
                              "readDialsExperiment: a scan that runs backwards");
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
    }
    return 0;
}
