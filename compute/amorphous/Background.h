#pragma once
// The amorphous background of braggview's own runs (-background, docs/amorphous.md): the
// scattering of a layer of amorphous material (water, air, ice, a .stol file) in the beam,
// seen by the run's own detector panels, beam, sources, polarization and fluence, computed by
// nonBragg's rules (the same loop as --nonbragg) and added to the Bragg image before noise.
//
//     BackgroundSample water{"water", 0.1e-3};              // 0.1 mm of water
//     std::vector<float> extra = backgroundImage(resolved, water, width, height, &device, false);
//     for (i...) image[i] += extra[i];
#include "compute/model/Resolve.h"

#include <string>
#include <vector>

namespace bv::vk {
class Device;
}

namespace bv::amorphous {

struct BackgroundSample {
    std::string material;          // a built-in material or a .stol file (Materials.h)
    double thickness = 0.1e-3;     // m, along the beam; the cross-section is the beam's
    double density = 1.0e6;        // g/m^3
    double molecularWeight = 18.0; // g/mol
};

// Photons per pixel of the stacked image (width x height, the panels' rows one panel after
// the other, as the Bragg image), zero outside the run's region of interest. Sources count
// with weight 1, as in nanoBragg's Bragg image. On `device` (precise: float64, else float), or
// on the host's threads when device is null. Throws bv::Error for a bad table or sample.
std::vector<float> backgroundImage(const ResolvedExperiment& run, const BackgroundSample& sample,
                                   int width, int height, const vk::Device* device, bool fast);

// backgroundImage() added to `image` (the run's stacked image, width x height).
void addBackground(std::vector<float>& image, const ResolvedExperiment& run,
                   const BackgroundSample& sample, int width, int height, const vk::Device* device,
                   bool fast);

} // namespace bv::amorphous
