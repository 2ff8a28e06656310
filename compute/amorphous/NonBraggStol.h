#pragma once
// nonBragg's -img: a measured image turned back into the structure factor of the amorphous
// scatterer against sin(theta)/lambda, binned on the .stol table's points (nonBragg.c, its
// pixel loop's "extract stol vs F" block and the -stolout writer):
//
// - each pixel of the region of interest whose value is none of -ignore's gives
//   F = sign(d) sqrt(|d| / polar / omega / fluence / r_e^2 / molecules x steps), d = (pixel -
//   adc) / gain, with the polarization factor, solid angle and sin(theta)/lambda of the
//   pixel's LAST sub-pixel and source (the reference's loop variables after its loops);
// - its bin is the table point nearest below, or the next one where sin(theta)/lambda lies
//   past their midpoint;
// - each bin of the table's own points (not the padding) with more than 100 pixels is a line
//   of the output: the point's sin(theta)/lambda (1/A, or the file's own unit for -4stol and
//   -Q), the mean F and its rms deviation (in float, as the reference sums), then two
//   columns the reference never sets (its median and MAD; its outlier rejection cannot be
//   turned on): braggview writes 0 there, as the reference's gcc build prints;
// - the pixels are gathered into the bins through the reference's own layout of one array,
//   in which the pixels outside the region of interest (bin 0, never counted) run on into
//   the bins after it; the layout is kept so the lines are the reference's.
//
//     const StolExtraction x = extractStol(setup);
//     file.write(x.text);   // x.lines lines; x.lastBinPixels: see below
#include "compute/amorphous/NonBraggSetup.h"

#include <string>

namespace bv::amorphous {

struct StolExtraction {
    std::string text;    // the output file's lines
    int lines = 0;       // bins written
    int sparseBins = 0;  // bins of 100 pixels or fewer, left out (the reference warns for each)
    int validPixels = 0; // pixels in the region of interest not -ignore'd
    // the pixel count of the last bin looked at, which the reference's image statistics then
    // take as their pixel count (it reuses the variable: docs/reference-quirks.md)
    int lastBinPixels = 0;
    bool anyBin = false; // whether there was a bin to look at
};

// setup.options.imagePixels must hold at least setup.fpixels x setup.spixels pixels.
StolExtraction extractStol(const NonBraggSetup& setup);

} // namespace bv::amorphous
