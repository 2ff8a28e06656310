#pragma once
// -series N: a rotation series, as N runs of the reference would render it one by one.
//
// Frame i (from 0) is the reference's single image with
//   -phi  phi0 + i * osc   (degrees, from -phi and -osc as given; its own -phisteps)
//   -seed seed + i         (the number given to -seed; without -seed, the run's time seed)
// so frame 0 is exactly the image of the same command line without -series, and frame i
// that of a run with "-phi <phi0 + i*osc> -seed <seed + i>". The crystal is one crystal for
// the whole series: a -misset random orientation is drawn once, from frame 0's seed (or
// -misset_seed), not again for every frame.
//
// Only the files whose options are named are written, and every such name holds a run of #
// that becomes the 1-based frame number (io::FileTemplate): "-noisefile sim_#####.img";
// except -nexusfile, one file that holds every frame (products::NexusSeries).
// docs/series.md has the whole story.

#include "compute/request/RunRequest.h"
#include "compute/products/OutputFiles.h"

#include <string>
#include <vector>

namespace bv::headless {

// The largest |seed| the reference's generator takes (ReferenceRandom::uniform).
inline constexpr long long kMaxSeed = 2147483646LL;

// The files a series or job frame writes: those whose options the request was given
// (-floatfile, -intfile, -pgmfile, -noisefile, -cbffile, -nexusfile and their other
// spellings), less those a later -nopgm or -nonoise turned off. -pgmscale alone names no
// file. Names as given (templates).
products::OutputFiles namedOutputs(const RunRequest& cl);

// The NeXus file of the whole series (-nexusfile, taken as named: no # needed), or "".
std::string seriesNexusFile(const RunRequest& cl);

struct SeriesFrame {
    int number = 0;      // 1-based: the # of the file names
    double phiDeg = 0.0; // the frame's start angle, degrees
    double phi0 = 0.0;   // the same in radians, as the option parser would convert it
    long noiseSeed = 0;  // the reference's seed variable: -(seed + i)
    products::OutputFiles files; // names with the frame number filled in
};

// The frames of cl.series, from -phi and -osc as given (RunRequest::phiDegrees, oscDegrees).
// Throws bv::Error
// naming the option for an output name without a run of #, a run too short for the last
// frame number, two options naming the same file, no output named at all, or a seed that
// leaves the generator's range.
std::vector<SeriesFrame> seriesFrames(const RunRequest& cl);

} // namespace bv::headless
