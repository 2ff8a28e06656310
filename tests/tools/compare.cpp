// braggview-compare: is a simulated image close enough to the reference's?
//
//   braggview-compare CANDIDATE.bin REFERENCE.bin [--bar precise|fast] [--fpixels N]
//       raw float images (-floatfile). Prints the metrics and exits 0 when the bar is met,
//       1 when it is not, 2 when the files cannot be compared. The files hold no size: the
//       image is N pixels wide (--fpixels, the detector's fast pixel count), or square when
//       --fpixels is not given; a pixel count that fits neither cannot be compared.
//   braggview-compare --pixels CANDIDATE REFERENCE [--bar precise|fast] [--min-identical 0.999]
//       SMV (-intfile, -noisefile) or PGM (-pgmfile) images.
//       precise: at least that fraction of the pixels identical and the headers identical
//       (SMV: but for BEAM_CENTER_X/Y, which must be dxtbx's, see smvHeadersAlike).
//       fast: only the float image is held to the bars (shared/golden/README.md). A float
//       rounding there may round an int pixel the other way and change one Poisson draw and,
//       through the generator, every later one, so the pixels are reported, not judged. What
//       is still checked: the file is an SMV/PGM image with as many pixels as the reference,
//       and its header is the reference's (an SMV header holds only geometry; the PGM's
//       "pixels scaled by" value follows the image's rmsd, so it is left out).
//
// Metrics (over all pixels of the float images, docs/numerics/parity-metrics.md):
//   correlation  Pearson's r
//   max_rel      max |cand - ref| / max |ref|
//   sum_ratio    sum cand / sum ref
//   rel_l2       |cand - ref|_2 / |ref|_2
//   peak_shift   for the 25 brightest resolved maxima of the reference (positive pixels above
//                each of their 8 neighbours by more than the margin, 2 x the bar's max_rel x
//                max|ref|: two pixels that tie within the bar's tolerance have no defined
//                peak), the distance in pixels to the nearest local maximum of the candidate
//                (a positive pixel no lower than any neighbour); the worst of them. 0 when the
//                reference has no resolved maximum. The rule of shared/tools/nbcompare.py,
//                except that every candidate maximum counts, not its 200 brightest (see
//                compare() below).
// Bars:
//   precise: correlation >= 0.999999, max_rel <= 1e-5, |sum_ratio - 1| <= 1e-6, peak_shift 0
//   fast:    correlation >= 0.99999,  max_rel <= 1e-3, |sum_ratio - 1| <= 1e-4, peak_shift 0

#include "compute/io/FloatImageFile.h"
#include "compute/io/Smv.h"
#include "compute/core/Error.h"

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

struct Shape {
    int width = 0, height = 0;
};

// The files hold no size. A given width (the detector's fast pixel count) must divide the
// pixel count; without one the image must be square, as every golden image before the
// non-square cases was: guessing a shape would put the peaks in the wrong places.
Shape imageShape(std::size_t pixels, int fpixels) {
    if (fpixels > 0) {
        const auto width = static_cast<std::size_t>(fpixels);
        if (pixels % width != 0)
            throw bv::Error(std::to_string(pixels) + " pixels are not rows of --fpixels " +
                            std::to_string(fpixels));
        return {fpixels, static_cast<int>(pixels / width)};
    }
    const auto side =
        static_cast<std::size_t>(std::llround(std::sqrt(static_cast<double>(pixels))));
    if (side * side != pixels)
        throw bv::Error(std::to_string(pixels) +
                        " pixels are not a square image: give the width with --fpixels");
    return {static_cast<int>(side), static_cast<int>(side)};
}

// The `count` brightest positive pixels that stand out of each existing 8-neighbour: by more
// than `margin` when it is positive (a resolved maximum), else by being no lower (any local
// maximum, ties included). Brightest first; equal values in pixel order.
std::vector<std::size_t> localMaxima(const std::vector<float>& v, Shape shape, std::size_t count,
                                     double margin) {
    const auto at = [&](int x, int y) {
        return static_cast<double>(
            v[static_cast<std::size_t>(y) * static_cast<std::size_t>(shape.width) +
              static_cast<std::size_t>(x)]);
    };
    std::vector<std::size_t> found;
    for (int y = 0; y < shape.height; ++y)
        for (int x = 0; x < shape.width; ++x) {
            const double p = at(x, y);
            bool peak = p > 0;
            for (int dy = -1; dy <= 1 && peak; ++dy)
                for (int dx = -1; dx <= 1 && peak; ++dx) {
                    const int nx = x + dx, ny = y + dy;
                    if ((dx == 0 && dy == 0) || nx < 0 || nx >= shape.width || ny < 0 ||
                        ny >= shape.height)
                        continue;
                    const double q = at(nx, ny);
                    peak = margin > 0 ? p > q + margin : p >= q;
                }
            if (peak)
                found.push_back(static_cast<std::size_t>(y) *
                                    static_cast<std::size_t>(shape.width) +
                                static_cast<std::size_t>(x));
        }
    std::stable_sort(found.begin(), found.end(),
                     [&](std::size_t a, std::size_t b) { return v[a] > v[b]; });
    if (found.size() > count)
        found.resize(count);
    return found;
}

// The worst distance (pixels) from a reference peak to its nearest candidate peak.
double worstPeakDistance(const std::vector<std::size_t>& refPeaks,
                         const std::vector<std::size_t>& candPeaks, int width) {
    const auto w = static_cast<std::size_t>(width);
    double worst = 0.0;
    for (std::size_t p : refPeaks) {
        double best = INFINITY;
        for (std::size_t q : candPeaks) {
            const double dx = static_cast<double>(q % w) - static_cast<double>(p % w);
            const double dy = static_cast<double>(q / w) - static_cast<double>(p / w);
            best = std::min(best, std::sqrt(dx * dx + dy * dy));
        }
        worst = std::max(worst, best);
    }
    return worst;
}

Metrics compare(const std::vector<float>& cand, const std::vector<float>& ref, const Bar& bar,
                Shape shape) {
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

    // Within the bar a candidate may swap two reference pixels that differ by up to twice
    // its max_rel (each off by max_rel, in opposite directions): only a maximum that stands
    // out by more has a place a candidate must keep.
    const double margin = 2.0 * bar.maxRel * maxRef;
    const std::vector<std::size_t> refPeaks = localMaxima(ref, shape, 25, margin);
    // Every candidate maximum, not nbcompare.py's 200 brightest: the margin leaves the brightest
    // reference maxima unresolved where spots come in near-equal pairs, so the 25 resolved
    // ones reach far down, below the candidate's 200th maximum (every tie counts there). In
    // point_pixel that cut the corner peak's own maximum off and measured a shift of 30
    // pixels between identical peaks. shared/golden/README.md says "nearest candidate maximum".
    const std::vector<std::size_t> candPeaks =
        localMaxima(cand, shape, std::numeric_limits<std::size_t>::max(), 0.0);
    m.peaks = static_cast<int>(refPeaks.size());
    if (!candPeaks.empty())
        m.peakShift = worstPeakDistance(refPeaks, candPeaks, shape.width);
    else if (!refPeaks.empty())
        m.peakShift = INFINITY; // a reference peak with nothing near it in the candidate
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

struct IntegerImage {
    std::string header;
    std::vector<double> pixels;
    bool pgm = false;
    bv::io::SmvImage smv; // the SMV image's fields (not its pixels)
};

// An SMV image (starts with "{") or the reference's PGM, whichever the reference file is.
IntegerImage readIntegerImage(const std::string& path, bool pgm) {
    IntegerImage image;
    image.pgm = pgm;
    if (pgm) {
        std::vector<unsigned char> bytes;
        readPgm(path, image.header, bytes);
        image.pixels.assign(bytes.begin(), bytes.end());
    } else {
        const bv::io::SmvImage smv = bv::io::readSmv(path);
        image.header = smv.header;
        image.pixels.assign(smv.data.begin(), smv.data.end());
        image.smv.fields = smv.fields;
    }
    return image;
}

// The header text less its BEAM_CENTER_X/Y lines and the padding after "}".
std::string withoutBeamCentre(const std::string& header) {
    std::string out;
    std::size_t begin = 0;
    while (begin < header.size()) {
        std::size_t end = header.find('\n', begin);
        end = end == std::string::npos ? header.size() : end + 1;
        const std::string line = header.substr(begin, end - begin);
        if (line.rfind("BEAM_CENTER_X=", 0) != 0 && line.rfind("BEAM_CENTER_Y=", 0) != 0)
            out += line;
        begin = end;
    }
    return out.substr(0, out.find_last_not_of(' ') + 1);
}

double fieldNumber(const bv::io::SmvImage& smv, const char* key, std::size_t item = 0) {
    std::string text = smv.field(key).value_or("");
    for (std::size_t i = 0; i < item; ++i)
        text = text.substr(std::min(text.size(), text.find(',') + 1));
    return text.empty() ? std::nan("") : std::atof(text.c_str());
}

// braggview's SMV header is the reference's except BEAM_CENTER_X/Y, which hold what dxtbx's
// FormatSMVJHSim needs to put the first pixel at the header's DIALS_ORIGIN: origin x =
// -(X + pixel), origin y = SIZE2 * pixel - Y + pixel (docs/reference-quirks.md). The values
// are checked against the reference header's own origin, to printf's %g (6 digits).
bool smvHeadersAlike(const IntegerImage& cand, const IntegerImage& ref) {
    if (withoutBeamCentre(cand.header) != withoutBeamCentre(ref.header))
        return false;
    const double pixel = fieldNumber(ref.smv, "PIXEL_SIZE");
    const double height = fieldNumber(ref.smv, "SIZE2") * pixel;
    const double originX = fieldNumber(ref.smv, "DIALS_ORIGIN", 0);
    const double originY = fieldNumber(ref.smv, "DIALS_ORIGIN", 1);
    if (std::isnan(originX + originY + height)) // no origin to place: only identical will do
        return false;
    const double x = fieldNumber(cand.smv, "BEAM_CENTER_X");
    const double y = fieldNumber(cand.smv, "BEAM_CENTER_Y");
    const double tolerance = 1e-5 * (height + std::fabs(originX) + std::fabs(originY) + pixel);
    return std::fabs(x - (-originX - pixel)) <= tolerance &&
           std::fabs(y - (height + pixel - originY)) <= tolerance;
}

// Headers alike for the bar: identical, or SMV headers alike as smvHeadersAlike says, or in
// fast mode a PGM header that differs only in its scale (250 / (5 rmsd) of the float image,
// which the float bars already hold).
bool headersAlike(const IntegerImage& cand, const IntegerImage& ref, bool fast) {
    if (cand.header == ref.header)
        return true;
    if (!ref.pgm)
        return smvHeadersAlike(cand, ref);
    if (!fast)
        return false;
    std::string c = cand.header, r = ref.header;
    const double cs = pgmScaleOf(c), rs = pgmScaleOf(r);
    return c == r && cs > 0 && rs > 0;
}

int comparePixels(const std::string& candPath, const std::string& refPath, const Bar& bar,
                  double minIdentical) {
    const bool fast = std::string(bar.name) == "fast";
    const std::vector<unsigned char> start = readBytes(refPath);
    const bool pgm = start.empty() || start[0] != '{';
    const IntegerImage ref = readIntegerImage(refPath, pgm);
    const IntegerImage cand = readIntegerImage(candPath, pgm);

    const bool sameSize = cand.pixels.size() == ref.pixels.size();
    std::size_t identical = 0;
    if (sameSize)
        for (std::size_t i = 0; i < ref.pixels.size(); ++i)
            identical += cand.pixels[i] == ref.pixels[i] ? 1 : 0;
    const double fraction = ref.pixels.empty() ? 1.0
                                               : static_cast<double>(identical) /
                                                     static_cast<double>(ref.pixels.size());
    const bool headersMatch = headersAlike(cand, ref, fast);
    // fast: the pixels are reported, not judged (see the top of this file)
    const bool pass = headersMatch && sameSize && (fast || fraction >= minIdentical);
    std::printf("identical_pixels=%.6f (%zu of %zu%s) headers=%s bar=%s %s\n", fraction, identical,
                ref.pixels.size(), fast ? ", not judged in fast mode" : "",
                cand.header == ref.header ? "identical"
                                          : (headersMatch ? "equivalent" : "DIFFERENT"),
                bar.name, pass ? "PASS" : "FAIL");
    if (!sameSize)
        std::printf("candidate has %zu pixels, reference %zu\n", cand.pixels.size(),
                    ref.pixels.size());
    if (!headersMatch)
        std::printf("candidate header:\n%s\nreference header:\n%s\n", cand.header.c_str(),
                    ref.header.c_str());
    return pass ? 0 : 1;
}

int usage() {
    std::fprintf(stderr, "usage: braggview-compare CANDIDATE REFERENCE [--bar precise|fast] "
                         "[--fpixels N]\n"
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
    int fpixels = 0;
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
        } else if (args[i] == "--fpixels" && i + 1 < args.size()) {
            fpixels = std::atoi(args[++i].c_str());
            if (fpixels <= 0)
                return usage();
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
        // a NaN would compare false everywhere and slip past the maxima and max_rel
        if (!std::all_of(cand.begin(), cand.end(), [](float v) { return std::isfinite(v); }))
            throw bv::Error(files[0] + ": NaN or infinite pixels");
        const Metrics m = compare(cand, ref, bar, imageShape(ref.size(), fpixels));
        const bool pass = m.correlation >= bar.correlation && m.maxRel <= bar.maxRel &&
                          std::fabs(m.sumRatio - 1.0) <= bar.sumRatio && m.peakShift == 0.0;
        std::printf("correlation=%.9f max_rel=%.3e sum_ratio=%.9f rel_l2=%.3e peak_shift=%g "
                    "(%d resolved peaks) bar=%s %s\n",
                    m.correlation, m.maxRel, m.sumRatio, m.relL2, m.peakShift, m.peaks, bar.name,
                    pass ? "PASS" : "FAIL");
        return pass ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "braggview-compare: %s\n", e.what());
        return 2;
    }
}
