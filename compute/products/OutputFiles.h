#pragma once
// The files an image is written to, by kind; an empty name is a file not written. The single
// run names them as the reference does (OutputFiles::ofSingleRun), a series or job frame
// only those its options name, a viewer export the one file asked for.

#include "compute/request/RunRequest.h"

#include <string>
#include <utility>
#include <vector>

namespace bv::products {

struct OutputFiles {
    std::string floatFile, intFile, pgmFile, noiseFile, cbfFile;
    // one image's NeXus file (a single run, a job frame, an export); a series' NeXus file
    // spans its frames and is the batch's (NexusSeries.h), never a frame's
    std::string nexusFile;

    // The reference's files for one run: float and int always, PGM unless -nopgm, noise
    // unless -nonoise; and braggview's -cbffile and -nexusfile when given.
    static OutputFiles ofSingleRun(const OutputOptions& options);

    // the names in writing order, with the option that names each
    std::vector<std::pair<std::string, std::string>> named() const;
    bool empty() const { return named().empty(); }
    // every file is on disk (a batch's frame is complete: its files are renamed together)
    bool allExist() const;
};

} // namespace bv::products
