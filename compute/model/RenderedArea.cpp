#include "compute/model/RenderedArea.h"

#include <cstddef>

namespace bv {

std::vector<std::uint8_t> skippedPixels(const RenderedArea& area, int fast, int slow) {
    const std::size_t count = static_cast<std::size_t>(fast) * static_cast<std::size_t>(slow);
    std::vector<std::uint8_t> skipped(count, 0);
    bool any = false;
    const bool haveMask = area.mask.size() == count;
    for (int s = 0; s < slow; ++s)
        for (int f = 0; f < fast; ++f) {
            const std::size_t i = static_cast<std::size_t>(s) * static_cast<std::size_t>(fast) +
                                  static_cast<std::size_t>(f);
            if ((haveMask && area.mask[i] == 0) || (area.roi && !area.roi->contains(f, s))) {
                skipped[i] = 1;
                any = true;
            }
        }
    if (!any)
        skipped.clear();
    return skipped;
}

} // namespace bv
