#pragma once
// Temporaries that a killed run left beside a batch's files (io::AtomicFile names them
// ".<name>.tmp-<pid>-..."): removed when their process is gone, so that a resumed job leaves
// a clean directory. They never count as complete frames either way.

#include "compute/headless/BatchFrames.h"

#include <vector>

namespace bv::headless {

// Removes those of `frames`' files (and of `others`, the batch's own files such as its
// manifest) whose writer is gone; returns how many.
int removeStaleTemporaries(const std::vector<BatchFrame>& frames,
                           const std::vector<std::string>& others = {});

} // namespace bv::headless
