#pragma once
// noisify's chain from photons to a noisy image, shared by --noisify and braggview's own runs
// (-response_*, docs/detector-response.md): per pixel, in the reference's order and with its
// generator, flicker (x (1 + flicker g), from `seed`), calibration (x (1 + calibration g),
// from `calibSeed`), Poisson counting (`seed`); then the point spread function over the
// counts; then ADU = photons x gain + adc + readout g (`seed`), clipped to 65535 (16 bit) or
// 2^31 - 1 (32 bit) and converted as the reference converts it.
#include "compute/detector_response/Psf.h"
#include "compute/random/ReferenceRandom.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <vector>

namespace bv::detector {

struct ResponseSettings {
    double flicker = 0.0;     // fraction
    double calibration = 0.0; // fraction
    double readout = 0.0;     // ADU
    double gain = 1.0;        // ADU per photon
    double adcOffset = 40.0;  // ADU
    std::optional<PsfSettings> psf;
};

struct NoisyImage {
    std::vector<std::uint16_t> counts16;
    std::vector<std::uint32_t> counts32;
    double photons = 0.0; // after the PSF
    int overloads16 = 0, overloads32 = 0;
};

// `photons`: photons per pixel (width x height). `log` gets the reference's lines about the PSF.
// Throws bv::Error for bad PSF settings.
NoisyImage respond(const std::vector<float>& photons, int width, int height,
                   const ResponseSettings& settings, random::ReferenceRandom& rng, long& seed,
                   long& calibSeed, std::ostream& log);

// x86's conversion of a double to a narrower unsigned integer, which the reference relies on
// for negative values: truncate to a 64-bit integer, keep the low bits (-9 -> 65527)
template <class T> T narrowAdu(double v) {
    return static_cast<T>(static_cast<std::int64_t>(v));
}

} // namespace bv::detector
