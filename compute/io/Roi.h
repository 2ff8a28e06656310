#pragma once
// The image region of interest is the model's (compute/model/Roi.h); io names it too.

#include "compute/model/Roi.h"

namespace bv::io {
using bv::Roi;
} // namespace bv::io
