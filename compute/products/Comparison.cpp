#include "compute/products/Comparison.h"

#include "compute/core/Error.h"
#include "compute/io/PrintfFormat.h"

#include <cmath>
#include <iomanip>
#include <limits>

namespace bv::products {

Comparison compareImages(const io::MeasuredImage& measured, const std::vector<float>& simulated,
                         const ResolvedExperiment& resolved) {
    const std::size_t n = static_cast<std::size_t>(measured.width) * measured.height;
    if (simulated.size() != n) {
        long long rows = 0;
        int columns = 0;
        for (const PanelGeometry& p : resolved.panels) {
            rows += p.slowPixels;
            columns = std::max(columns, p.fastPixels);
        }
        throw Error("the measured image is " + std::to_string(measured.width) + " x " +
                    std::to_string(measured.height) + " pixels, the simulated one " +
                    std::to_string(columns) + " x " + std::to_string(rows) +
                    (resolved.panels.size() > 1
                         ? " (" + std::to_string(resolved.panels.size()) +
                               " panels' rows stacked; a measured image must hold them so)"
                         : ""));
    }
    Comparison c;
    c.all = compareRegion(measured, simulated, 0, static_cast<std::size_t>(measured.height),
                          static_cast<std::size_t>(measured.width));
    if (resolved.panels.size() > 1) {
        std::size_t row = 0;
        for (const PanelGeometry& p : resolved.panels) {
            c.panels.emplace_back(p.name, compareRegion(measured, simulated, row,
                                                        static_cast<std::size_t>(p.slowPixels),
                                                        static_cast<std::size_t>(p.fastPixels)));
            row += static_cast<std::size_t>(p.slowPixels);
        }
    }
    return c;
}

namespace {

void printStats(std::ostream& out, const std::string& label, const ComparisonStats& s) {
    out << "  " << std::left << std::setw(12) << label << std::right << " pixels " << s.pixels
        << "  correlation " << (std::isnan(s.correlation) ? std::string("n/a") : io::formatG(s.correlation))
        << "  scale " << io::formatG(s.scale) << "  background " << io::formatG(s.background)
        << "  residual " << io::formatG(s.residual) << " rms (measured " << io::formatG(s.measuredRms)
        << ")\n";
}

} // namespace

void printComparison(std::ostream& out, const std::string& name, const io::MeasuredImage& measured,
                     std::size_t frame, const Comparison& c) {
    out << "compare with " << name << " (" << measured.format;
    if (measured.frames > 1)
        out << ", frame " << frame + 1 << " of " << measured.frames;
    out << ", " << measured.width << " x " << measured.height << " pixels, " << c.all.pixels
        << " with data): measured = scale x simulated + background\n";
    printStats(out, "all", c.all);
    for (const auto& [panel, stats] : c.panels)
        printStats(out, "panel " + panel, stats);
}

} // namespace bv::products
