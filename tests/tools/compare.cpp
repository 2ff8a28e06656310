// braggview-compare: is a simulated image close enough to the reference's?
//
//   braggview-compare CANDIDATE.bin REFERENCE.bin [--bar precise|fast]
//       raw float images (-floatfile). Prints the metrics and exits 0 when the bar is met,
//       1 when it is not, 2 when the files cannot be compared.
//   braggview-compare --pixels CANDIDATE REFERENCE [--bar precise|fast] [--min-identical 0.999]
//       SMV (-intfile, -noisefile) or PGM (-pgmfile) images: at least that fraction of the
//       pixels must match and the headers must be identical. precise: a match is an identical
//       pixel. fast: the float image may be off by the fast bar's max_rel (1e-3 of the
//       brightest pixel), and so may these integer images derived from it: a match is a pixel
//       within 1e-3 of the reference's largest pixel (plus one count of rounding), and the
//       PGM header's scale (the only image-dependent header value) may differ by the fast
//       bar's sum tolerance, 1e-4 (docs/numerics/parity-metrics.md).
//
// Metrics (over all pixels of the float images, docs/numerics/parity-metrics.md):
//   correlation  Pearson's r
//   max_rel      max |cand - ref| / max |ref|
//   sum_ratio    sum cand / sum ref
//   rel_l2       |cand - ref|_2 / |ref|_2
//   peak_shift   for the 25 brightest local maxima of the reference (pixels strictly above
//                their 8 neighbours; fewer when there are fewer), the distance in pixels to
//                the nearest local maximum of the candidate (a pixel no lower than any of its
//                neighbours less the bar's max_rel * max|ref|: differences the bar allows do
//                not move a peak); the worst of them. 0 when the reference has no maximum.
// Bars:
//   precise: correlation >= 0.999999, max_rel <= 1e-5, |sum_ratio - 1| <= 1e-6, peak_shift 0
//   fast:    correlation >= 0.99999,  max_rel <= 1e-3, |sum_ratio - 1| <= 1e-4, peak_shift 0

#include "compute/io/FloatImageFile.h"
#include "compute/io/Smv.h"
#include "compute/model/Error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

namespace {

struct Bar {
    const char* name;
    double correlation, maxRel, sumRatio;
};

constexpr Bar kPrecise{"precise", 0.999999, 1e-5, 1e-6};
constexpr Bar kFast{"fast", 0.99999, 1e-3, 1e-4};

struct Metrics {
    double correlation = 0, maxRel = 0, sumRatio = 0, relL2 = 0, peakShift = 0;
    int peaks = 0;
};

// The image's side: the files hold no size, so take the square root (every golden image is
// square); a non-square count compares as one row.
void imageShape(std::size_t pixels, int& width, int& height) {
    const auto side =
        static_cast<std::size_t>(std::llround(std::sqrt(static_cast<double>(pixels))));
    if (side * side == pixels) {
        width = height = static_cast<int>(side);
    } else {
        width = static_cast<int>(pixels);
        height = 1;
    }
}

// Pixels whose value passes `isMax` against each existing 8-neighbour.
template <typename Test>
std::vector<std::size_t> localMaxima(const std::vector<float>& v, int width, int height,
                                     Test isMax) {
    std::vector<std::size_t> found;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const std::size_t i = static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                                  static_cast<std::size_t>(x);
            bool peak = true;
            for (int dy = -1; dy <= 1 && peak; ++dy)
                for (int dx = -1; dx <= 1 && peak; ++dx) {
                    if ((dx == 0 && dy == 0) || x + dx < 0 || x + dx >= width || y + dy < 0 ||
                        y + dy >= height)
                        continue;
                    const std::size_t j =
                        static_cast<std::size_t>(y + dy) * static_cast<std::size_t>(width) +
                        static_cast<std::size_t>(x + dx);
                    peak = isMax(v[i], v[j]);
                }
            if (peak)
                found.push_back(i);
        }
    return found;
}

Metrics compare(const std::vector<float>& cand, const std::vector<float>& ref, const Bar& bar) {
    Metrics m;
    const std::size_t n = ref.size();
    double sc = 0, sr = 0, scc = 0, srr = 0, scr = 0, diff2 = 0, ref2 = 0, maxDiff = 0, maxRef = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double c = cand[i], r = ref[i];
        sc += c;
        sr += r;
        scc += c * c;
        srr += r * r;
        scr += c * r;
        diff2 += (c - r) * (c - r);
        ref2 += r * r;
        maxDiff = std::max(maxDiff, std::fabs(c - r));
        maxRef = std::max(maxRef, std::fabs(r));
    }
    const double count = static_cast<double>(n);
    const double cov = scr - sc * sr / count;
    const double varC = scc - sc * sc / count, varR = srr - sr * sr / count;
    if (varC > 0 && varR > 0)
        m.correlation = cov / std::sqrt(varC * varR);
    else // constant images: identical ones correlate perfectly
        m.correlation = maxDiff == 0.0 ? 1.0 : 0.0;
    m.maxRel = maxRef > 0 ? maxDiff / maxRef : (maxDiff == 0 ? 0.0 : INFINITY);
    m.sumRatio = sr != 0 ? sc / sr : (sc == 0 ? 1.0 : INFINITY);
    m.relL2 = ref2 > 0 ? std::sqrt(diff2 / ref2) : (diff2 == 0 ? 0.0 : INFINITY);

    int width = 0, height = 0;
    imageShape(n, width, height);
    std::vector<std::size_t> refPeaks =
        localMaxima(ref, width, height, [](float p, float q) { return p > q; });
    std::sort(refPeaks.begin(), refPeaks.end(), [&](std::size_t a, std::size_t b) {
        return ref[a] > ref[b] || (ref[a] == ref[b] && a < b);
    });
    if (refPeaks.size() > 25)
        refPeaks.resize(25);
    const double tolerance = bar.maxRel * maxRef;
    const std::vector<std::size_t> candPeaks =
        localMaxima(cand, width, height, [&](float p, float q) { return p >= q - tolerance; });
    m.peaks = static_cast<int>(refPeaks.size());
    for (std::size_t p : refPeaks) {
        const double px = static_cast<double>(p % static_cast<std::size_t>(width));
        const double py = static_cast<double>(p / static_cast<std::size_t>(width));
        double best = INFINITY;
        for (std::size_t q : candPeaks) {
            const double dx = static_cast<double>(q % static_cast<std::size_t>(width)) - px;
            const double dy = static_cast<double>(q / static_cast<std::size_t>(width)) - py;
            best = std::min(best, std::sqrt(dx * dx + dy * dy));
        }
        m.peakShift = std::max(m.peakShift, best);
    }
    return m;
}

std::vector<unsigned char> readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw bv::Error(path + ": cannot open");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// PGM P5 as the reference writes it: header (4 lines) and bytes
void readPgm(const std::string& path, std::string& header, std::vector<unsigned char>& pixels) {
    const std::vector<unsigned char> bytes = readBytes(path);
    std::size_t pos = 0;
    for (int lines = 0; lines < 4; ++pos) {
        if (pos >= bytes.size())
            throw bv::Error(path + ": not a PGM file written by nanoBragg");
        if (bytes[pos] == '\n')
            ++lines;
    }
    header.assign(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(pos));
    pixels.assign(bytes.begin() + static_cast<std::ptrdiff_t>(pos), bytes.end());
}

// "# pixels scaled by <scale>" -> scale; the rest of the header with the number cut out
double pgmScaleOf(std::string& header) {
    const std::string key = "# pixels scaled by ";
    const std::size_t at = header.find(key);
    if (at == std::string::npos)
        return NAN;
    const std::size_t begin = at + key.size();
    const std::size_t end = header.find('\n', begin);
    const double scale = std::atof(header.substr(begin, end - begin).c_str());
    header.erase(begin, end - begin);
    return scale;
}

int comparePixels(const std::string& candPath, const std::string& refPath, const Bar& bar,
                  double minIdentical) {
    const bool fast = std::string(bar.name) == "fast";
    std::string candHeader, refHeader;
    std::vector<double> cand, ref;
    const std::vector<unsigned char> start = readBytes(refPath);
    bool pgm = false;
    if (!start.empty() && start[0] == '{') {
        const bv::io::SmvImage c = bv::io::readSmv(candPath), r = bv::io::readSmv(refPath);
        candHeader = c.header;
        refHeader = r.header;
        cand.assign(c.data.begin(), c.data.end());
        ref.assign(r.data.begin(), r.data.end());
    } else {
        std::vector<unsigned char> c, r;
        readPgm(candPath, candHeader, c);
        readPgm(refPath, refHeader, r);
        cand.assign(c.begin(), c.end());
        ref.assign(r.begin(), r.end());
        pgm = true;
    }
    double tolerance = 0.0;
    if (fast) {
        double largest = 0.0;
        for (double v : ref)
            largest = std::max(largest, v);
        tolerance = std::ceil(bar.maxRel * largest) + 1.0;
    }
    std::size_t same = 0, identical = 0;
    const bool sameSize = cand.size() == ref.size();
    if (sameSize)
        for (std::size_t i = 0; i < ref.size(); ++i) {
            identical += cand[i] == ref[i] ? 1 : 0;
            same += std::fabs(cand[i] - ref[i]) <= tolerance ? 1 : 0;
        }
    const double fraction =
        ref.empty() ? 1.0 : static_cast<double>(same) / static_cast<double>(ref.size());
    const double identicalFraction =
        ref.empty() ? 1.0 : static_cast<double>(identical) / static_cast<double>(ref.size());
    bool headersMatch = candHeader == refHeader;
    if (!headersMatch && fast && pgm) {
        std::string c = candHeader, r = refHeader;
        const double cs = pgmScaleOf(c), rs = pgmScaleOf(r);
        headersMatch = c == r && std::fabs(cs / rs - 1.0) <= bar.sumRatio;
    }
    const bool pass = headersMatch && sameSize && fraction >= minIdentical;
    std::printf(
        "matching_pixels=%.6f (%zu of %zu within %g) identical_pixels=%.6f headers=%s bar=%s %s\n",
        fraction, same, ref.size(), tolerance, identicalFraction,
        candHeader == refHeader ? "identical" : (headersMatch ? "equivalent" : "DIFFERENT"),
        bar.name, pass ? "PASS" : "FAIL");
    if (!headersMatch)
        std::printf("candidate header:\n%s\nreference header:\n%s\n", candHeader.c_str(),
                    refHeader.c_str());
    return pass ? 0 : 1;
}

int usage() {
    std::fprintf(stderr, "usage: braggview-compare CANDIDATE REFERENCE [--bar precise|fast]\n"
                         "       braggview-compare --pixels CANDIDATE REFERENCE [--bar "
                         "precise|fast] [--min-identical F]\n");
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    std::vector<std::string> files;
    Bar bar = kPrecise;
    bool pixels = false;
    double minIdentical = 0.999;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--bar" && i + 1 < args.size()) {
            const std::string name = args[++i];
            if (name == "precise")
                bar = kPrecise;
            else if (name == "fast")
                bar = kFast;
            else
                return usage();
        } else if (args[i] == "--pixels") {
            pixels = true;
        } else if (args[i] == "--min-identical" && i + 1 < args.size()) {
            minIdentical = std::stod(args[++i]);
        } else if (!args[i].empty() && args[i][0] == '-') {
            return usage();
        } else {
            files.push_back(args[i]);
        }
    }
    if (files.size() != 2)
        return usage();
    try {
        if (pixels)
            return comparePixels(files[0], files[1], bar, minIdentical);
        const std::vector<float> ref = bv::io::readFloatImage(files[1]);
        const std::vector<float> cand = bv::io::readFloatImage(files[0], ref.size());
        if (ref.empty())
            throw bv::Error(files[1] + ": no pixels");
        const Metrics m = compare(cand, ref, bar);
        const bool pass = m.correlation >= bar.correlation && m.maxRel <= bar.maxRel &&
                          std::fabs(m.sumRatio - 1.0) <= bar.sumRatio && m.peakShift == 0.0;
        std::printf("correlation=%.9f max_rel=%.3e sum_ratio=%.9f rel_l2=%.3e peak_shift=%g "
                    "(%d peaks) bar=%s %s\n",
                    m.correlation, m.maxRel, m.sumRatio, m.relL2, m.peakShift, m.peaks, bar.name,
                    pass ? "PASS" : "FAIL");
        return pass ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "braggview-compare: %s\n", e.what());
        return 2;
    }
}
