#include "compute/detector_response/Psf.h"

#include "compute/core/Error.h"
#include "compute/io/PrintfFormat.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bv::detector {

namespace {

// fibre PSF's g from the full width at half maximum: fwhm = 2 sqrt(2^(2/3) - 1) g
constexpr double kFiberGPerFwhm = 0.652383013252053;
constexpr double kPhotonLossFactor = 10.0;

// the integral of the unit-volume Gaussian (fwhm 1) from the origin to (x, y)
double gaussIntegral(double x, double y) {
    return 0.125 * (std::erf(2 * x * std::sqrt(std::log(2))) *
                    std::erf(y * std::sqrt(std::log(16))) * std::sqrt(std::log(16) / std::log(2)));
}

// the same over a pixel of side `pix` centred on (x, y)
double gaussOverPixel(double x, double y, double pix) {
    return gaussIntegral(x + pix / 2., y + pix / 2.) - gaussIntegral(x + pix / 2., y - pix / 2.) -
           gaussIntegral(x - pix / 2., y + pix / 2.) + gaussIntegral(x - pix / 2., y - pix / 2.);
}

double fiberIntegral(double x, double y, double g) {
    return std::atan((x * y) / (g * std::sqrt(g * g + x * x + y * y))) / 2.0 / M_PI;
}

double fiberOverPixel(double x, double y, double g, double pix) {
    return fiberIntegral(x + pix / 2., y + pix / 2., g) -
           fiberIntegral(x + pix / 2., y - pix / 2., g) -
           fiberIntegral(x - pix / 2., y + pix / 2., g) +
           fiberIntegral(x - pix / 2., y - pix / 2., g);
}

// 1 + ceil(v) as an int, v clamped to [0, limit] first (the reference converts without a
// check: NaN, from a Gaussian disc for fewer than 0.01 photons, is undefined there)
int radiusOf(double v, int limit) {
    if (!(v >= 0.0))
        return 1;
    return static_cast<int>(std::min(1.0 + std::ceil(v), static_cast<double>(limit) + 1.0));
}

} // namespace

double psfKernel(PsfShape shape, double fwhmPixels, int dx, int dy) {
    if (shape == PsfShape::Gauss)
        return gaussOverPixel(dx / fwhmPixels, dy / fwhmPixels, 1.0 / fwhmPixels);
    return fiberOverPixel(dx, dy, fwhmPixels * kFiberGPerFwhm, 1.0);
}

std::vector<float> applyPsf(const std::vector<float>& in, int width, int height,
                            const PsfSettings& psf, std::ostream& log) {
    const double fwhm = psf.fwhmPixels;
    const int pixels = width * height;
    const int maxwidth = std::max(width, height);
    if (width <= 0 || height <= 0 || static_cast<std::size_t>(pixels) != in.size())
        throw Error("point spread function: the image is empty or not " + std::to_string(width) +
                    " x " + std::to_string(height) + " pixels");
    if (!(fwhm > 0.0) || !std::isfinite(fwhm) || fwhm > maxwidth)
        throw Error("point spread function: a full width at half maximum of " + io::formatG(fwhm) +
                    " pixels (it must be positive and at most the image's " +
                    std::to_string(maxwidth) + " pixels)");
    if (psf.radius < 0 || psf.radius > maxwidth)
        throw Error("-psf_radius " + std::to_string(psf.radius) +
                    ": a radius in pixels from 1 to the image's larger side (" +
                    std::to_string(maxwidth) + "), or 0 to choose it per pixel");
    const double g = fwhm * kFiberGPerFwhm;
    std::vector<float> out(in.size(), 0.0f);

    int radius = psf.radius;
    if (radius <= 0) {
        double maxI = 0.0;
        for (float v : in)
            maxI = maxI < v ? v : maxI;
        log << "  maximum input photon/pixel: " << io::formatG(maxI) << "\n";
        if (maxI <= 0.0) {
            log << "WARNING: no photons, PSF skipped\n";
            return out;
        }
        const double lost = std::sqrt(maxI) / kPhotonLossFactor;
        if (psf.shape == PsfShape::Gauss)
            radius = radiusOf(std::sqrt(-std::log(lost / maxI) / std::log(4) / 2) * fwhm, maxwidth);
        else
            radius = radiusOf(g * (maxI / lost), maxwidth);
        log << "  auto-selected psf_radius = " << radius << " pixels\n";
        if (radius == 0)
            radius = 1;
    }
    radius = std::min(radius, maxwidth);
    const int size = 2 * radius + 1;
    std::vector<double> kernel(static_cast<std::size_t>(size) * size, 0.0);
    for (int dy = -radius; dy <= radius; ++dy)
        for (int dx = -radius; dx <= radius; ++dx) {
            if (dx * dx + dy * dy > radius * radius)
                continue;
            kernel[static_cast<std::size_t>(size * (size / 2 + dy) + size / 2 + dx)] =
                psfKernel(psf.shape, fwhm, dx, dy);
        }

    double totalLost = 0.0;
    for (int i = 0; i < pixels; ++i) {
        const float photons = in[static_cast<std::size_t>(i)];
        if (photons <= 0.0f)
            continue;
        const int x0 = i % width, y0 = (i - x0) / width;
        int r = psf.radius;
        if (r == 0) {
            const double lost = std::sqrt(photons) / kPhotonLossFactor;
            if (psf.shape == PsfShape::Gauss)
                r = radiusOf(std::sqrt(-std::log(lost / photons) / std::log(16)) * fwhm, maxwidth);
            else
                r = radiusOf(g * (photons / lost), maxwidth);
        }
        if (r == 0)
            r = 1;
        r = std::min(r, std::min(maxwidth, radius));
        double lost;
        if (psf.shape == PsfShape::Gauss) {
            double rsq = r;
            rsq = rsq / fwhm;
            rsq = rsq * rsq;
            lost = photons * std::exp(-std::log(16) * rsq);
        } else {
            lost = photons * g / std::sqrt(g * g + r * r);
        }
        totalLost += lost;
        for (int dx = -r; dx <= r; ++dx)
            for (int dy = -r; dy <= r; ++dy) {
                const double k =
                    kernel[static_cast<std::size_t>(size * (size / 2 + dy) + size / 2 + dx)];
                if (k == 0.0 || dx * dx + dy * dy > r * r)
                    continue;
                const int x = x0 + dx, y = y0 + dy;
                // the reference's bounds: x == width runs into the next row
                if (x < 0 || x > width || y < 0 || y > height)
                    continue;
                const int j = y * width + x;
                if (j < 0 || j >= pixels)
                    continue;
                float& o = out[static_cast<std::size_t>(j)];
                o = static_cast<float>(o + photons * k);
            }
    }
    const double perPixel = totalLost / pixels;
    log << "adding back " << io::formatG(totalLost) << " lost photons\n";
    for (float& o : out)
        o = static_cast<float>(o + perPixel);
    return out;
}

} // namespace bv::detector
