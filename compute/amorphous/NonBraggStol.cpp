#include "compute/amorphous/NonBraggStol.h"

#include "compute/amorphous/AmorphousImage.h"
#include "compute/core/Error.h"
#include "compute/core/HostThreads.h"
#include "compute/io/PrintfFormat.h"
#include "compute/model/Units.h"

#include <algorithm>
#include <cmath>

namespace bv::amorphous {

namespace {

// fmean_with_rejection with its cut-off at infinity (the reference's when rejection is off):
// the float mean and rms deviation of the first n values
std::pair<float, float> floatMean(const float* values, int n) {
    float sum = 0.0f;
    for (int i = 0; i < n; ++i)
        sum += values[i];
    const float avg = sum / static_cast<float>(n);
    float sumd = 0.0f;
    for (int i = 0; i < n; ++i) {
        const float deviate = static_cast<float>(std::fabs(values[i] - avg));
        sumd += deviate * deviate;
    }
    return {avg, static_cast<float>(std::sqrt(static_cast<double>(sumd / static_cast<float>(n))))};
}

} // namespace

StolExtraction extractStol(const NonBraggSetup& s) {
    const NonBraggOptions& o = s.options;
    const std::size_t pixels =
        static_cast<std::size_t>(s.fpixels) * static_cast<std::size_t>(s.spixels);
    if (o.imagePixels.size() < pixels) // setUpNonBragg refuses such a run
        throw Error("--nonbragg: -img: fewer pixels than the detector");
    const std::vector<double>& x = s.spline.x(); // the padded table, as the reference's stol_of
    const int stols = static_cast<int>(x.size());
    const double steps = static_cast<double>(s.sources.size()) * s.oversample * s.oversample;

    // each pixel's F and bin (0: outside the region, or -ignore'd)
    std::vector<float> F(pixels, 0.0f);
    std::vector<int> binOf(pixels, 0);
    std::vector<char> counted(pixels, 0); // in the region: counted in its bin
    forEachOnHostThreads(static_cast<std::size_t>(s.spixels), [&](std::size_t row) {
        const int sl = static_cast<int>(row);
        for (int fp = 0; fp < s.fpixels; ++fp) {
            if (fp < s.roiXmin || fp > s.roiXmax || sl < s.roiYmin || sl > s.roiYmax)
                continue;
            const std::size_t j =
                row * static_cast<std::size_t>(s.fpixels) + static_cast<std::size_t>(fp);
            const float measured = o.imagePixels[j];
            const bool ignored = std::any_of(
                o.ignoreValues.begin(), o.ignoreValues.end(),
                [measured](std::uint16_t v) { return measured == static_cast<float>(v); });
            const LastStep last = lastStep(s, fp, sl);
            float deviate = static_cast<float>((measured - o.adcOffset) / o.quantumGain);
            const float sign = deviate < 0.0f ? -1.0f : 1.0f;
            deviate = std::fabs(deviate);
            F[j] = static_cast<float>(sign *
                                      std::sqrt(deviate / last.polar / last.omega / s.fluence /
                                                units::kThomsonCrossSection / s.molecules * steps));
            counted[j] = 1;
            if (!ignored) {
                // the spline's point at or below (the reference's walk), then the next one
                // past the midpoint
                int bin = static_cast<int>(s.spline.below(last.stol));
                if (last.stol > (x[bin] + x[bin + 1]) / 2.0)
                    ++bin;
                binOf[j] = bin;
            }
        }
    });
    std::vector<int> inBin(static_cast<std::size_t>(stols), 0);
    StolExtraction result;
    for (std::size_t j = 0; j < pixels; ++j)
        if (counted[j]) {
            ++inBin[static_cast<std::size_t>(binOf[j])];
            result.validPixels += binOf[j] != 0;
        }

    // the reference's one array: bin b starts 2 n(b-1) + 2 after bin b-1, and every pixel,
    // counted or not, is written at its bin's next place in pixel order
    std::vector<float> store(2 * pixels + 10 * static_cast<std::size_t>(stols) + 1, 0.0f);
    std::vector<std::size_t> start(static_cast<std::size_t>(stols), 1);
    for (int b = 1; b < stols - 1; ++b)
        start[b] = start[b - 1] + 2 * static_cast<std::size_t>(inBin[b - 1]) + 2;
    std::vector<std::size_t> next = start;
    for (std::size_t j = 0; j < pixels; ++j) {
        std::size_t& at = next[static_cast<std::size_t>(binOf[j])];
        if (at >= store.size())
            throw Error("--nonbragg: -img: the bins overran their store"); // cannot happen
        store[at++] = F[j];
    }

    for (int b = 2; b < stols - 2; ++b) {
        const int n = inBin[static_cast<std::size_t>(b)];
        result.anyBin = true;
        result.lastBinPixels = n;
        if (n <= 100) {
            ++result.sparseBins;
            continue;
        }
        const auto [avg, rmsd] = floatMean(store.data() + start[static_cast<std::size_t>(b)], n);
        result.text += io::formatG(x[static_cast<std::size_t>(b)] / o.stolFileMultiplier) + " " +
                       io::formatG(avg) + " " + io::formatG(rmsd) + "   0 0  " + std::to_string(n) +
                       "\n";
        ++result.lines;
    }
    return result;
}

} // namespace bv::amorphous
