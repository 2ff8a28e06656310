#pragma once
// What the image window needs to draw an image: the simulator's buffer and size, and for a
// multi-panel detector each panel's map from view points to its pixels (the panels projected
// as the sample sees them, compute/model/DetectorProjection.h).

#include "compute/model/Resolve.h"
#include "render/ImageWindow.h"

namespace bv::app {

// `resolved` may be null (nothing resolved yet) or have no panels: the image's own pixels.
render::ImageWindow::ImageSource imageSourceOf(VkBuffer buffer, int fast, int slow,
                                               const ResolvedExperiment* resolved);

} // namespace bv::app
