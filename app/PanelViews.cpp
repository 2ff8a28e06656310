#include "app/PanelViews.h"

#include "compute/core/Error.h"
#include "compute/model/DetectorProjection.h"

#include <optional>

namespace bv::app {

render::ImageWindow::ImageSource imageSourceOf(VkBuffer buffer, int fast, int slow,
                                               const ResolvedExperiment* resolved) {
    render::ImageWindow::ImageSource source;
    source.buffer = buffer;
    source.fast = fast;
    source.slow = slow;
    source.viewWidth = fast; // the image's pixels, unless the panels are shown as seen
    source.viewHeight = slow;
    if (!resolved || !resolved->panelsFromSource) // nanoBragg's detector: its pixel grid
        return source;
    std::optional<DetectorProjection> made;
    try {
        made.emplace(resolved->panels, resolved->axes.beam);
    } catch (const Error&) {
        return source; // panels resolve() let through but no view can show: the stacked rows
    }
    const DetectorProjection& projection = *made;
    int firstRow = 0;
    for (std::size_t i = 0; i < resolved->panels.size(); ++i) {
        const PanelGeometry& panel = resolved->panels[i];
        render::ImageWindow::PanelView view;
        const auto h = projection.homography(static_cast<int>(i));
        for (std::size_t k = 0; k < h.size(); ++k)
            view.homography[k] = static_cast<float>(h[k]);
        view.firstRow = firstRow;
        view.fastPixels = panel.fastPixels;
        view.slowPixels = panel.slowPixels;
        source.panels.push_back(view);
        firstRow += panel.slowPixels;
    }
    source.viewWidth = projection.size().x;
    source.viewHeight = projection.size().y;
    return source;
}

} // namespace bv::app
