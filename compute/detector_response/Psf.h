#pragma once
// noisify's point spread function (bl831/nanoBragg noisify.c, apply_psf): each pixel's
// photons spread over a disc of pixels with the kernel integrated over each pixel (a
// Gaussian of the given full width at half maximum, or the fibre-optic taper's
// g / (2 pi (g^2 + r^2)^(3/2)) with g = 0.652383 fwhm), the disc's radius chosen per pixel so
// that what falls outside is below a tenth of the pixel's own Poisson noise (or fixed by the
// user), and what falls outside the disc added back evenly over the whole image.
//
// This is the reference's scatter, step for step and in its order (so the same photons give
// the same float sums, and the noise image after it the same integers), including its edge
// rule: a photon that lands one pixel beyond the right edge appears at the start of the next
// row (docs/reference-quirks.md). It runs on the CPU in O(pixels x radius^2).
#include <ostream>
#include <vector>

namespace bv::detector {

enum class PsfShape { Gauss, Fiber };

struct PsfSettings {
    PsfShape shape = PsfShape::Gauss;
    double fwhmPixels = 0.0; // full width at half maximum, in pixels (> 0)
    int radius = 0;          // 0: chosen per pixel; otherwise the disc's radius in pixels
};

// Throws bv::Error for a width that is not a positive finite number, a negative radius, a
// radius or width larger than the image, or an empty image. `log` gets the reference's lines
// ("auto-selected psf_radius = ...", "adding back ... lost photons").
std::vector<float> applyPsf(const std::vector<float>& image, int width, int height,
                            const PsfSettings& psf, std::ostream& log);

// The kernel's value for the pixel at offset (dx, dy) (what the reference caches)
double psfKernel(PsfShape shape, double fwhmPixels, int dx, int dy);

} // namespace bv::detector
