#pragma once
// A measured frame, to put beside a simulation: its pixels as numbers and which of them carry
// data, whatever the file. The format is told by the file's first bytes, not its name:
//   - miniCBF (byte offset; "###CBF"): -1 and below mark pixels without data (PILATUS' gaps
//     and dead pixels), Count_cutoff and above an overload;
//   - SMV ("{"): 16-bit counts; 65535 (the format's ceiling) is an overload;
//   - NeXus/NXmx (HDF5): /entry/data/data, or an EIGER master's data_000001, data_000002, ...
//     (external links to its data files), one 2-D frame of a frames x slow x fast dataset,
//     integers or floats, bitshuffle/LZ4 through HDF5's filter plugin; the detector's
//     pixel_mask (non-zero: no data), saturation_value and underload_value apply, and the
//     largest value of an unsigned type (EIGER's mark of a masked pixel) has no data.
// A pixel has data when none of these marks it.
//
//     bv::io::MeasuredImage m = bv::io::readMeasuredImage("sim_00003.cbf");
//     m.width; m.height; m.pixels[slow * m.width + fast]; m.hasData[...];
//
// Throws bv::Error "<path>: ..." for a missing or unreadable file, a format it does not know,
// a frame the file does not have, a NeXus file without image data or whose filter HDF5 lacks.

#include "compute/model/Panel.h"
#include "compute/model/RenderedArea.h"

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace bv::io {

struct MeasuredImage {
    std::string format;               // "CBF", "SMV", "NXmx"
    int width = 0, height = 0;        // fast, slow pixels
    std::vector<float> pixels;        // fast-major, counts as the file holds them
    std::vector<std::uint8_t> hasData; // 1 where the pixel carries data
    std::size_t frames = 1;           // frames the file holds
    std::size_t pixelsWithData() const;
};

// `frame`: which frame of a file of several (NeXus), from 0; a CBF or SMV file has one
MeasuredImage readMeasuredImage(const std::string& path, std::size_t frame = 0);

// Each panel's rows where the image stacks `panels` as a simulation does (every panel
// `width` wide, their rows adding up to `height`); empty where it does not.
std::vector<int> stackedPanelRows(const MeasuredImage& image, const std::vector<Panel>& panels);

// A frame of a detector of modules written as one image of the whole detector, gaps
// included (a PILATUS CBF of 2463 x 2527 pixels, an EIGER's frame), where the experiment
// describes each module as a panel (dxtbx's multi-panel models): each panel's rectangle of
// the image is where its origin lies from the first panel's, in pixels along the first
// panel's fast and slow axes (rounded), and the panels are taken out in order and stacked as
// a simulation stacks them. Only where that layout is exact: panels of one width and one pixel
// size with the first's axes, their rectangles inside the image without overlap, their
// bounding box the whole image. Returns the panels taken (0: the image is left as it was).
std::size_t stackModules(MeasuredImage& image, const std::vector<Panel>& panels);

// The detector's trusted ranges (a DIALS experiment's panels): a pixel whose count lies
// outside its panel's range, min to max inclusive (dxtbx's definition since 2023; 3.12's
// excluded both ends, which would take every pixel of 0 counts under a range from 0), has no
// data. The panels as the image stacks them (each `width` wide, their rows adding up to
// `height`); otherwise, or without ranges, nothing changes. Returns the pixels it took.
std::size_t applyTrustedRanges(MeasuredImage& image, const std::vector<Panel>& panels);

// The pixels a simulation skips (`skipped`: one byte per pixel of the image, non-zero where
// skipped, as model's skippedPixels makes it) taken out of `image.hasData`: the simulated
// image is 0 there, so neither a comparison nor a fit may count them. `skipped` of another
// size than the image (empty: none skipped) changes nothing. Returns the pixels it took.
std::size_t clearSkipped(MeasuredImage& image, const std::vector<std::uint8_t>& skipped);

// The frame as a simulation of `panels` lays it out, for a comparison or a fit: read,
// its modules stacked (stackModules), the trusted ranges applied, where `mask` names a
// DIALS mask file (the experiment's imageset's), its untrusted pixels taken out, and the
// pixels the simulation does not render (`rendered`: the experiment's -mask and -roi); a line
// to `log` for each that changed something. The headless run and the viewer read
// measured frames through it. Throws bv::Error where the mask's panels are not `panels`.
MeasuredImage readMeasuredImageFor(const std::string& path, std::size_t frame,
                                   const std::vector<Panel>& panels, const std::string& mask,
                                   const RenderedArea& rendered, std::ostream& log);

// A simulated image against the frame over rows [firstRow, firstRow + rows) and columns
// [0, columns), the pixels with data only: the measured counts m fitted by a scale k and a
// constant background b, m ~ k s + b (linear least squares), the correlation of m and s, and
// the rms of m - k s - b beside that of m about its mean. `simulated` has the frame's size.
struct ComparisonStats {
    std::size_t pixels = 0;   // with data
    double correlation = 0.0; // Pearson's, of measured and simulated (NaN: a constant image)
    double scale = 0.0;       // k
    double background = 0.0;  // b, in the measured image's counts
    double residual = 0.0;    // rms of m - k s - b
    double measuredRms = 0.0; // rms of m - mean(m)
};
ComparisonStats compareRegion(const MeasuredImage& measured, const std::vector<float>& simulated,
                              std::size_t firstRow, std::size_t rows, std::size_t columns);

// The NeXus part (MeasuredNexus.cpp).
MeasuredImage readMeasuredNexus(const std::string& path, std::size_t frame);

} // namespace bv::io
