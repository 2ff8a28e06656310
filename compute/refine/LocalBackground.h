#pragma once
// The background under the spots of a measured frame, estimated from the frame itself, so
// that a fit compares the spots with the spots: water, air and a sample holder scatter into
// every pixel, more at some resolutions than at others, and one constant under every spot
// region leaves the difference to the parameters (docs/refinement.md, "The background").
//
// Each panel is cut into square tiles. A tile's level is the mean of its pixels with data
// outside the excluded ones (the spot regions of the start's image), after clipping at 3
// standard deviations from the centre until nothing more is clipped (spots the start puts
// elsewhere, hot pixels); the level belongs to the tile's centre, and a pixel's background
// is interpolated bilinearly between the four nearest centres (and extrapolated along the
// line of the outer two beyond them). A tile with too few such pixels takes the mean of the
// levels of the tiles around it that have them, widening the ring until some do. The image
// is the measured one's stacked panels: `panelRows` gives each panel's rows in order (one
// panel of every row when empty).
//
// Counted photons vary as their mean: where a tile's counts vary less than their level, the
// difference is an offset added without noise (nanoBragg's SMV images carry 40), which the
// fit's weights leave out.
//
//     bv::refine::LocalBackground bg = bv::refine::localBackground(measured, regions.grown, {});
//     float under = bg.level[slow * measured.width + fast];

#include "compute/io/MeasuredImage.h"

#include <cstdint>
#include <vector>

namespace bv::refine {

struct LocalBackground {
    std::vector<float> level; // per pixel of the image, counts
    int tile = 0;             // the tiles' side, pixels
    int tiles = 0;            // how many
    int tilesFromNeighbours = 0; // of them, those with too few pixels of their own
    // The counts that carry no counting noise (an ADC's offset): the median over the tiles of
    // level less variance, at least 0. A pixel's Poisson variance is its counts less this.
    double pedestal = 0.0;
};

LocalBackground localBackground(const io::MeasuredImage& measured,
                                const std::vector<std::uint8_t>& excluded,
                                const std::vector<int>& panelRows, int tile = 32);

} // namespace bv::refine
