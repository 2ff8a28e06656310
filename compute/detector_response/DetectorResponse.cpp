#include "compute/detector_response/DetectorResponse.h"

#include "compute/io/PrintfFormat.h"

namespace bv::detector {

NoisyImage respond(const std::vector<float>& input, int width, int height,
                   const ResponseSettings& settings, random::ReferenceRandom& rng, long& seed,
                   long& calibSeed, std::ostream& log) {
    const std::size_t n = input.size();
    std::vector<float> photons(n);
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        double photons0 = input[i];
        if (settings.flicker > 0.0)
            photons0 *= (1.0 + settings.flicker * rng.gaussian(seed));
        if (settings.calibration > 0.0)
            photons0 *= (1.0 + settings.calibration * rng.gaussian(calibSeed));
        photons[i] = rng.poisson(static_cast<float>(photons0), seed);
        sum += photons[i];
    }
    if (settings.psf) {
        log << io::formatFixed(sum, 0) << " photons on noise image before PSF\n";
        photons = applyPsf(photons, width, height, *settings.psf, log);
    }
    NoisyImage out;
    out.counts16.resize(n);
    out.counts32.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        out.photons += photons[i];
        double adu = photons[i] * settings.gain + settings.adcOffset;
        if (settings.readout > 0.0)
            adu += settings.readout * rng.gaussian(seed);
        if (adu > 2147483647.0) {
            adu = 2147483647.0;
            ++out.overloads32;
        }
        out.counts32[i] = narrowAdu<std::uint32_t>(adu);
        if (adu > 65535.0) {
            adu = 65535.0;
            ++out.overloads16;
        }
        out.counts16[i] = narrowAdu<std::uint16_t>(adu);
    }
    return out;
}

} // namespace bv::detector
