#pragma once
// The region of interest of an image: pixels with xmin <= fast <= xmax and ymin <= slow <= ymax
// (inclusive bounds, as nanoBragg's -roi). Pixels outside are not simulated, count in no
// statistic and are written as 0.

namespace bv {

struct Roi {
    int xmin = 0, xmax = -1; // fast pixel index
    int ymin = 0, ymax = -1; // slow pixel index

    bool contains(int fast, int slow) const {
        return fast >= xmin && fast <= xmax && slow >= ymin && slow <= ymax;
    }
    // every pixel of a width x height image
    static Roi whole(int width, int height) { return {0, width - 1, 0, height - 1}; }
};

} // namespace bv
