#include "compute/io/MeasuredImage.h"

#include "compute/core/Error.h"
#include "compute/io/CbfImage.h"
#include "compute/io/DialsMask.h"
#include "compute/io/Smv.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>

namespace bv::io {

namespace {

std::string firstBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error(path + ": cannot open the measured image");
    std::string bytes(8, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    bytes.resize(static_cast<std::size_t>(in.gcount()));
    return bytes;
}

void requireOneFrame(const std::string& path, const char* format, std::size_t frame) {
    if (frame != 0)
        throw Error(path + ": a " + std::string(format) + " file holds one frame, not frame " +
                    std::to_string(frame + 1));
}

MeasuredImage fromCbf(const std::string& path) {
    const CbfImage cbf = readCbf(path);
    MeasuredImage m;
    m.format = "CBF";
    m.width = cbf.width;
    m.height = cbf.height;
    double cutoff = kPilatusCountCutoff;
    if (const auto item = cbf.item("Count_cutoff")) {
        const double value = std::strtod(item->c_str(), nullptr);
        if (value > 0.0)
            cutoff = value;
    }
    m.pixels.resize(cbf.data.size());
    m.hasData.resize(cbf.data.size());
    for (std::size_t i = 0; i < cbf.data.size(); ++i) {
        m.pixels[i] = static_cast<float>(cbf.data[i]);
        m.hasData[i] = cbf.data[i] >= 0 && cbf.data[i] < cutoff;
    }
    return m;
}

MeasuredImage fromSmv(const std::string& path) {
    const SmvImage smv = readSmv(path);
    MeasuredImage m;
    m.format = "SMV";
    m.width = smv.width;
    m.height = smv.height;
    m.pixels.resize(smv.data.size());
    m.hasData.resize(smv.data.size());
    for (std::size_t i = 0; i < smv.data.size(); ++i) {
        m.pixels[i] = static_cast<float>(smv.data[i]);
        m.hasData[i] = smv.data[i] != 65535;
    }
    return m;
}

} // namespace

std::size_t MeasuredImage::pixelsWithData() const {
    return static_cast<std::size_t>(std::count(hasData.begin(), hasData.end(), std::uint8_t(1)));
}

MeasuredImage readMeasuredImage(const std::string& path, std::size_t frame) {
    const std::string head = firstBytes(path);
    if (head.rfind("###CBF", 0) == 0) {
        requireOneFrame(path, "CBF", frame);
        return fromCbf(path);
    }
    if (head.rfind("\x89HDF\r\n\x1a\n", 0) == 0)
        return readMeasuredNexus(path, frame);
    if (head.rfind("{", 0) == 0) {
        requireOneFrame(path, "SMV", frame);
        return fromSmv(path);
    }
    throw Error(path + ": not a measured image braggview reads (miniCBF, SMV, NeXus/NXmx HDF5)");
}

std::vector<int> stackedPanelRows(const MeasuredImage& image, const std::vector<Panel>& panels) {
    std::vector<int> rows;
    long long total = 0;
    for (const Panel& p : panels) {
        if (p.fastPixels != image.width)
            return {};
        rows.push_back(p.slowPixels);
        total += p.slowPixels;
    }
    if (total != image.height)
        return {};
    return rows;
}

std::size_t stackModules(MeasuredImage& image, const std::vector<Panel>& panels) {
    if (!stackedPanelRows(image, panels).empty())
        return 0; // stacked already (one panel the image's size among them)
    struct Place {
        long long fast, slow;
    };
    std::vector<Place> places;
    long long minFast = 0, minSlow = 0, maxFast = 0, maxSlow = 0;
    for (const Panel& p : panels) {
        const Panel& first = panels.front(); // the grid every module must share
        const bool sameGrid = p.fastPixels == first.fastPixels &&
                              p.pixelSizeFast == first.pixelSizeFast &&
                              p.pixelSizeSlow == first.pixelSizeSlow &&
                              glm::dot(p.fast, first.fast) > 0.999 && glm::dot(p.slow, first.slow) > 0.999;
        if (!sameGrid || p.slowPixels <= 0)
            return 0;
        const glm::dvec3 d = p.origin - first.origin;
        const Place at{std::llround(glm::dot(d, first.fast) / first.pixelSizeFast),
                       std::llround(glm::dot(d, first.slow) / first.pixelSizeSlow)};
        places.push_back(at);
        minFast = std::min(minFast, at.fast);
        minSlow = std::min(minSlow, at.slow);
        maxFast = std::max(maxFast, at.fast + p.fastPixels);
        maxSlow = std::max(maxSlow, at.slow + p.slowPixels);
    }
    if (maxFast - minFast != image.width || maxSlow - minSlow != image.height)
        return 0; // (no panels: an extent of 0)
    const Panel& first = panels.front();
    // every pixel of the image in at most one panel
    std::vector<std::uint8_t> taken(image.pixels.size(), 0);
    MeasuredImage stacked = image;
    stacked.width = first.fastPixels;
    stacked.height = 0;
    stacked.pixels.clear();
    stacked.hasData.clear();
    for (std::size_t k = 0; k < panels.size(); ++k) {
        const long long f0 = places[k].fast - minFast, s0 = places[k].slow - minSlow;
        for (long long s = s0; s < s0 + panels[k].slowPixels; ++s) {
            const std::size_t row = static_cast<std::size_t>(s * image.width + f0);
            for (std::size_t i = row; i < row + static_cast<std::size_t>(stacked.width); ++i) {
                if (taken[i])
                    return 0;
                taken[i] = 1;
            }
            stacked.pixels.insert(stacked.pixels.end(), image.pixels.begin() + long(row),
                                  image.pixels.begin() + long(row) + stacked.width);
            stacked.hasData.insert(stacked.hasData.end(), image.hasData.begin() + long(row),
                                   image.hasData.begin() + long(row) + stacked.width);
        }
        stacked.height += panels[k].slowPixels;
    }
    image = std::move(stacked);
    return panels.size();
}

std::size_t applyTrustedRanges(MeasuredImage& image, const std::vector<Panel>& panels) {
    if (stackedPanelRows(image, panels).empty()) // (also where no panel has a range)
        return 0;
    std::size_t taken = 0, first = 0;
    for (const Panel& p : panels) {
        const std::size_t count = static_cast<std::size_t>(p.pixelCount());
        if (p.trustedRange)
            for (std::size_t i = first; i < first + count; ++i) {
                const float v = image.pixels[i];
                if (image.hasData[i] && !(v >= p.trustedRange->first && v <= p.trustedRange->second)) {
                    image.hasData[i] = 0;
                    ++taken;
                }
            }
        first += count;
    }
    return taken;
}

ComparisonStats compareRegion(const MeasuredImage& measured, const std::vector<float>& simulated,
                              std::size_t firstRow, std::size_t rows, std::size_t columns) {
    const std::size_t width = static_cast<std::size_t>(measured.width);
    // sums about a shift (the first pixel's values) keep the variances' digits
    double n = 0, sumS = 0, sumM = 0, sumSS = 0, sumMM = 0, sumSM = 0;
    bool shifted = false;
    double s0 = 0, m0 = 0;
    for (std::size_t row = firstRow; row < firstRow + rows; ++row)
        for (std::size_t col = 0; col < columns; ++col) {
            const std::size_t i = row * width + col;
            if (!measured.hasData[i])
                continue;
            if (!shifted) {
                s0 = simulated[i];
                m0 = measured.pixels[i];
                shifted = true;
            }
            const double s = simulated[i] - s0, m = measured.pixels[i] - m0;
            n += 1;
            sumS += s;
            sumM += m;
            sumSS += s * s;
            sumMM += m * m;
            sumSM += s * m;
        }
    ComparisonStats st;
    st.pixels = static_cast<std::size_t>(n);
    if (n == 0) {
        st.correlation = std::numeric_limits<double>::quiet_NaN();
        return st;
    }
    const double varS = sumSS - sumS * sumS / n;
    const double varM = sumMM - sumM * sumM / n;
    const double cov = sumSM - sumS * sumM / n;
    st.correlation = varS > 0 && varM > 0 ? cov / std::sqrt(varS * varM)
                                          : std::numeric_limits<double>::quiet_NaN();
    // m - m0 = k (s - s0) + b': the slope of the shifted data is the scale
    st.scale = varS > 0 ? cov / varS : 0.0;
    const double shiftedBackground = (sumM - st.scale * sumS) / n;
    st.background = shiftedBackground + m0 - st.scale * s0;
    st.residual = std::sqrt(std::max(0.0, varM - st.scale * cov) / n);
    st.measuredRms = std::sqrt(std::max(0.0, varM) / n);
    return st;
}

std::size_t clearSkipped(MeasuredImage& image, const std::vector<std::uint8_t>& skipped) {
    if (skipped.size() != image.hasData.size())
        return 0;
    std::size_t taken = 0;
    for (std::size_t i = 0; i < skipped.size(); ++i)
        if (skipped[i] && image.hasData[i]) {
            image.hasData[i] = 0;
            ++taken;
        }
    return taken;
}

MeasuredImage readMeasuredImageFor(const std::string& path, std::size_t frame,
                                   const std::vector<Panel>& panels, const std::string& mask,
                                   const RenderedArea& rendered, std::ostream& log) {
    MeasuredImage measured = readMeasuredImage(path, frame);
    const int wholeWidth = measured.width, wholeHeight = measured.height;
    if (const std::size_t modules = stackModules(measured, panels))
        log << path << ": " << modules << " modules taken from their places in the " << wholeWidth
            << " x " << wholeHeight << " image\n";
    if (const std::size_t taken = applyTrustedRanges(measured, panels))
        log << path << ": " << taken << " pixels outside the panels' trusted range carry no data\n";
    if (!mask.empty()) {
        const std::vector<PanelMask> masks = readDialsMask(mask);
        const std::vector<int> rows = stackedPanelRows(measured, panels);
        bool fits = !rows.empty() && masks.size() == panels.size();
        for (std::size_t k = 0; fits && k < masks.size(); ++k)
            fits = masks[k].fastPixels == panels[k].fastPixels && masks[k].slowPixels == panels[k].slowPixels;
        if (!fits)
            throw Error(mask + ": the mask's " + std::to_string(masks.size()) + " panel(s) (the first " +
                        std::to_string(masks[0].fastPixels) + " x " + std::to_string(masks[0].slowPixels) +
                        ") are not the detector's panels as " + path + " is read");
        std::size_t taken = 0, at = 0;
        for (const PanelMask& m : masks)
            for (const std::uint8_t valid : m.valid) {
                if (!valid && measured.hasData[at]) {
                    measured.hasData[at] = 0;
                    ++taken;
                }
                ++at;
            }
        log << path << ": " << taken << " pixels masked by " << mask << "\n";
    }
    if (const std::size_t taken =
            clearSkipped(measured, skippedPixels(rendered, measured.width, measured.height)))
        log << path << ": " << taken
            << " pixels the simulation does not render (-mask, -roi) carry no data\n";
    return measured;
}

} // namespace bv::io
