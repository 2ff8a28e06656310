#pragma once
// A simulated image against a measured one: over the pixels that carry data, the measured
// counts m fitted by a scale k and a constant background b, m ~ k s + b (linear least
// squares), and how well that explains them: the correlation of m and s, and the residual,
// the root mean square of m - k s - b beside that of m about its mean. Per panel as well,
// over the panel's own pixels (the image stacks the panels' rows, plan::stackPanels).
//
//     const bv::io::MeasuredImage m = bv::io::readMeasuredImage("frame_00003.cbf");
//     const bv::products::Comparison c = bv::products::compareImages(m, image, resolved);
//     bv::products::printComparison(std::cout, "frame_00003.cbf", m, c);
//
// The difference image of the viewer's compare views is m - k s - b with these k and b.

#include "compute/io/MeasuredImage.h"
#include "compute/model/Resolve.h"

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace bv::products {

// the statistics over a region (io/MeasuredImage.h, which the refinement's start uses too)
using io::ComparisonStats;
using io::compareRegion;

struct Comparison {
    ComparisonStats all;
    std::vector<std::pair<std::string, ComparisonStats>> panels; // one per panel, by name
};

// Throws bv::Error when the sizes differ (the measured image must have the simulated image's
// width and height: one panel, or the panels' rows stacked as the float image holds them).
Comparison compareImages(const io::MeasuredImage& measured, const std::vector<float>& simulated,
                         const ResolvedExperiment& resolved);

void printComparison(std::ostream& out, const std::string& name, const io::MeasuredImage& measured,
                     std::size_t frame, const Comparison& c);

} // namespace bv::products
