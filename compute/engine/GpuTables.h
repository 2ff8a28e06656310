#pragma once
// The plan as the diffraction shader reads it (GpuLayout.h's entries): the parameter block,
// the panel, source, orientation and structure-factor tables and the mask, each built from
// the plan on the host; and the plan's shape (VariantKey), which picks a specialised pipeline
// and which the generic pipeline reads from the parameter block. Pure functions: no device.

#include "compute/engine/GpuLayout.h"
#include "compute/plan/Plan.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace bv::engine {

// What decides a specialised pipeline's code: the shape and flags, and the loop counts.
struct VariantKey {
    std::uint32_t bits = 0; // the shape and flags (GpuLayout.h: shapeBit)
    std::int32_t oversample = 1, sources = 1, orientations = 1;
    std::int32_t cells[3] = {1, 1, 1}; // the square crystal's if whole, else 0; 1 for other shapes
    bool operator==(const VariantKey& o) const {
        return bits == o.bits && oversample == o.oversample && sources == o.sources &&
               orientations == o.orientations && cells[0] == o.cells[0] &&
               cells[1] == o.cells[1] && cells[2] == o.cells[2];
    }
    bool operator!=(const VariantKey& o) const { return !(*this == o); }
    bool searchesGridExit() const { return ((bits >> shapeBit(SpecSerialGridExit)) & 1u) != 0; }
};

VariantKey variantKey(const plan::Plan& plan);
// whether the plan follows the reference's rule at the HKL grid's edge: search slices first
bool serialGridExit(const plan::Plan& plan);

// freshRows: the rows of the phi carry-over's first unit (SerialOrder.h)
template <typename Real> GpuParams<Real> gpuParams(const plan::Plan& plan, int freshRows);
// Image rows one invocation of the diffraction shader shades, kRowsPerShortInvocation where
// a pixel's loop is short (at most kShortLoopSteps steps), else 1. A GPU starts workgroups at
// a bounded rate (an H200: about 1.6 thousand million a second, whatever their size), so a
// 4096^2 image of one-step pixels in 8x8 groups was bound by starting them (0.164 ms with
// nothing computed); four rows each take that part to a quarter (docs/performance.md,
// "session 9").
constexpr std::uint32_t kShortLoopSteps = 16;
constexpr std::uint32_t kRowsPerShortInvocation = 4;
constexpr std::uint32_t rowsPerInvocation(std::uint64_t stepsPerPixel) {
    return stepsPerPixel <= kShortLoopSteps ? kRowsPerShortInvocation : 1u;
}

// the panels and the panel of each image row (one entry and one row at least: every
// binding needs a buffer; the shader reads them only with kPanels)
template <typename Real>
std::pair<std::vector<GpuPanel<Real>>, std::vector<std::uint32_t>> gpuPanels(const plan::Plan& plan);
template <typename Real> std::vector<GpuSource<Real>> gpuSources(const plan::Plan& plan);
template <typename Real>
std::vector<GpuOrientation<Real>> gpuOrientations(const std::vector<plan::Orientation>& rows);
// one value at least (the binding needs a buffer; without a table the shader never reads it)
template <typename Real> std::vector<Real> gpuAmplitudes(const plan::Plan& plan);
// 16-bit values, two to a 32-bit word, pixel 2i in the low half; one word at least
std::vector<std::uint32_t> gpuMask(const std::vector<std::uint16_t>& mask);

} // namespace bv::engine
