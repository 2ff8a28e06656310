#include "compute/engine/GpuTables.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <glm/geometric.hpp>
#include <type_traits>

namespace bv::engine {

namespace {

template <typename Real> GpuVec4<Real> vec4(const glm::dvec3& v, double w = 0.0) {
    return {static_cast<Real>(v.x), static_cast<Real>(v.y), static_cast<Real>(v.z),
            static_cast<Real>(w)};
}

} // namespace

bool serialGridExit(const plan::Plan& p) {
    return p.interpolate && p.interpolationEdge == InterpolationEdge::Reference &&
           p.structureFactors && p.structureFactors->hasTable();
}

VariantKey variantKey(const plan::Plan& p) {
    const bool table = p.structureFactors && p.structureFactors->hasTable();
    const std::pair<SpecId, bool> flags[] = {{SpecInterpolate, table && p.interpolate},
                                             {SpecOversampleThick, p.oversampleThick},
                                             {SpecOversamplePolar, p.oversamplePolar},
                                             {SpecOversampleOmega, p.oversampleOmega},
                                             {SpecCurved, p.curved},
                                             {SpecPointPixel, p.pointPixel},
                                             {SpecPolarization, p.polarization},
                                             {SpecThickness, p.thickModelled},
                                             {SpecWater, p.waterPresent},
                                             {SpecTable, table},
                                             {SpecMask, p.mask && !p.mask->empty()},
                                             {SpecDmin, p.dmin > 0.0},
                                             {SpecSerialGridExit, serialGridExit(p)},
                                             {SpecPanels, p.stackedPanels}};
    VariantKey key;
    key.bits = static_cast<std::uint32_t>(p.shape) & 3u;
    for (const auto& [id, on] : flags)
        key.bits |= (on ? 1u : 0u) << shapeBit(id);
    key.oversample = p.oversample;
    key.sources = static_cast<std::int32_t>(p.sources.size());
    key.orientations = static_cast<std::int32_t>(p.orientations.size());
    if (p.shape == LatticeShape::Square)
        for (int i = 0; i < 3; ++i)
            key.cells[i] = p.cells[i] == std::floor(p.cells[i]) && p.cells[i] < 1e9
                               ? static_cast<std::int32_t>(p.cells[i])
                               : 0; // not whole (a refined size): the ratio of sines
    return key;
}

template <typename Real> GpuParams<Real> gpuParams(const plan::Plan& p, int freshRows) {
    GpuParams<Real> g;
    g.pix0 = vec4<Real>(p.pix0);
    g.fdet = vec4<Real>(p.fdet);
    g.sdet = vec4<Real>(p.sdet);
    g.odet = vec4<Real>(p.odet);
    g.beam = vec4<Real>(p.beam);
    g.polarAxis = vec4<Real>(p.polarizationAxis);
    g.aStar = vec4<Real>(p.aStar);
    g.bStar = vec4<Real>(p.bStar);
    g.cStar = vec4<Real>(p.cStar);
    g.cells = vec4<Real>(p.cells, p.cells.x * p.cells.y * p.cells.z);
    g.pixelSize = static_cast<Real>(p.pixelSize);
    g.subpixelSize = static_cast<Real>(p.subpixelSize);
    g.distance = static_cast<Real>(p.distance);
    g.closeDistance = static_cast<Real>(p.closeDistance);
    g.thickStep = static_cast<Real>(p.thickStep);
    g.mu = static_cast<Real>(p.mu);
    g.kahn = static_cast<Real>(p.kahnFactor);
    g.dmin = static_cast<Real>(p.dmin);
    g.fudge = static_cast<Real>(p.fudge);
    g.photonScale = static_cast<Real>(p.photonScale);
    g.background = static_cast<Real>(p.background);
    const StructureFactors* f = p.structureFactors;
    g.defaultF = static_cast<Real>(f ? f->defaultF : 0.0);
    g.fastPixels = p.fastPixels;
    g.slowPixels = p.slowPixels;
    g.oversample = p.oversample;
    g.thickSteps = p.thickSteps;
    // the ROI clipped to the detector: the dispatch starts at its corner
    g.roiXmin = std::max(0, p.roi.xmin);
    g.roiXmax = std::min(p.fastPixels - 1, p.roi.xmax);
    g.roiYmin = std::max(0, p.roi.ymin);
    g.roiYmax = std::min(p.slowPixels - 1, p.roi.ymax);
    g.sourceCount = static_cast<std::int32_t>(p.sources.size());
    g.orientationCount = static_cast<std::int32_t>(p.orientations.size());
    g.freshRows = freshRows;
    g.shape = variantKey(p).bits; // what the generic pipeline reads instead of constants
    if (f && f->hasTable()) {
        g.hMin = f->hMin;
        g.hMax = f->hMax;
        g.kMin = f->kMin;
        g.kMax = f->kMax;
        g.lMin = f->lMin;
        g.lMax = f->lMax;
    }
    return g;
}

template <typename Real>
std::pair<std::vector<GpuPanel<Real>>, std::vector<std::uint32_t>> gpuPanels(const plan::Plan& p) {
    std::vector<GpuPanel<Real>> table(std::max<std::size_t>(1, p.panels.size()));
    std::vector<std::uint32_t> rows(static_cast<std::size_t>(p.slowPixels));
    int firstRow = 0;
    for (std::size_t i = 0; i < p.panels.size(); ++i) {
        const plan::PanelEntry& panel = p.panels[i];
        GpuPanel<Real>& g = table[i];
        g.pix0 = vec4<Real>(panel.pix0);
        g.fdet = vec4<Real>(panel.fdet);
        g.sdet = vec4<Real>(panel.sdet);
        g.odet = vec4<Real>(panel.odet);
        g.pixelSize = static_cast<Real>(panel.pixelSize);
        g.subpixelSize = static_cast<Real>(panel.pixelSize / p.oversample);
        g.closeDistance = static_cast<Real>(panel.closeDistance);
        g.fastPixels = panel.fastPixels;
        g.slowPixels = panel.slowPixels;
        g.firstRow = firstRow;
        std::fill_n(rows.begin() + firstRow, panel.slowPixels, static_cast<std::uint32_t>(i));
        firstRow += panel.slowPixels;
    }
    return {std::move(table), std::move(rows)};
}

template <typename Real> std::vector<GpuSource<Real>> gpuSources(const plan::Plan& p) {
    std::vector<GpuSource<Real>> table;
    table.reserve(p.sources.size());
    for (const plan::SourceEntry& s : p.sources) {
        // u: the lab axis least along the beam, made perpendicular to it; v completes the frame
        const glm::dvec3 i = s.incident;
        const glm::dvec3 a =
            std::fabs(i.x) <= std::fabs(i.y) && std::fabs(i.x) <= std::fabs(i.z)
                ? glm::dvec3(1, 0, 0)
                : (std::fabs(i.y) <= std::fabs(i.z) ? glm::dvec3(0, 1, 0) : glm::dvec3(0, 0, 1));
        const glm::dvec3 u = glm::normalize(glm::cross(i, a));
        const glm::dvec3 v = glm::cross(i, u);
        // u.w: the reciprocal wavelength the scattering vector is scaled by, divided here once
        // in double instead of in every pixel (a double division is a software sequence)
        GpuSource<Real> row{};
        row.incident = vec4<Real>(i, s.wavelength);
        row.u = vec4<Real>(u, 1.0 / s.wavelength);
        row.v = vec4<Real>(v);
        if constexpr (std::is_same_v<Real, float>) {
            // a point Fdet fdet + Sdet sdet + Odet odet + pix0 of the flat detector, along e,
            // is Fdet (fdet.e) + Sdet (sdet.e) + Odet (odet.e) + pix0.e
            const auto projected = [&p](const glm::dvec3& e) {
                return vec4<float>(
                    glm::dvec3(glm::dot(p.fdet, e), glm::dot(p.sdet, e), glm::dot(p.odet, e)),
                    glm::dot(p.pix0, e));
            };
            row.detectorAlong = projected(i);
            row.detectorU = projected(u);
            row.detectorV = projected(v);
        }
        table.push_back(row);
    }
    return table;
}

template <typename Real>
std::vector<GpuOrientation<Real>> gpuOrientations(const std::vector<plan::Orientation>& rows) {
    std::vector<GpuOrientation<Real>> table;
    table.reserve(rows.size());
    for (const plan::Orientation& o : rows)
        table.push_back({vec4<Real>(o.a), vec4<Real>(o.b), vec4<Real>(o.c)});
    return table;
}

template <typename Real> std::vector<Real> gpuAmplitudes(const plan::Plan& p) {
    std::vector<Real> table;
    const StructureFactors* f = p.structureFactors;
    if (f && f->hasTable())
        for (double value : f->F)
            table.push_back(static_cast<Real>(value));
    else
        table.push_back(Real(0)); // the binding needs a buffer; the shader never reads it
    return table;
}

std::vector<std::uint32_t> gpuMask(const std::vector<std::uint16_t>& mask) {
    // little-endian hosts; Vulkan devices and their hosts share the byte order
    std::vector<std::uint32_t> words(std::max<std::size_t>(1, (mask.size() + 1) / 2), 0u);
    if (!mask.empty())
        std::memcpy(words.data(), mask.data(), mask.size() * sizeof(std::uint16_t));
    return words;
}

template GpuParams<float> gpuParams<float>(const plan::Plan&, int);
template GpuParams<double> gpuParams<double>(const plan::Plan&, int);
template std::pair<std::vector<GpuPanel<float>>, std::vector<std::uint32_t>>
gpuPanels<float>(const plan::Plan&);
template std::pair<std::vector<GpuPanel<double>>, std::vector<std::uint32_t>>
gpuPanels<double>(const plan::Plan&);
template std::vector<GpuSource<float>> gpuSources<float>(const plan::Plan&);
template std::vector<GpuSource<double>> gpuSources<double>(const plan::Plan&);
template std::vector<GpuOrientation<float>>
gpuOrientations<float>(const std::vector<plan::Orientation>&);
template std::vector<GpuOrientation<double>>
gpuOrientations<double>(const std::vector<plan::Orientation>&);
template std::vector<float> gpuAmplitudes<float>(const plan::Plan&);
template std::vector<double> gpuAmplitudes<double>(const plan::Plan&);

} // namespace bv::engine
