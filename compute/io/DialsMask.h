#pragma once
// A DIALS mask file (dials.generate_mask's pixels.mask, which dials.apply_mask names in an
// experiment list's imageset as "mask"): a Python pickle of a tuple of cctbx flex.bool arrays,
// one per panel, True where the pixel is trusted (docs/dials-experiment.md, "Masks").
//
//     std::vector<bv::io::PanelMask> masks = bv::io::readDialsMask("pixels.mask");
//     masks[k].valid[slow * masks[k].fastPixels + fast]; // 1: trusted
//
// Only what such a file holds is read: pickle protocols 2 to 5 with the opcodes Python writes
// for a tuple of flex.bool (globals, tuples, small integers, strings and bytes, memo, REDUCE
// and BUILD), each array's grid and its values ('0' or '1' after a size in cctbx's
// single-buffered encoding). Throws bv::Error "<path>: ..." for anything else, a truncated
// file, or sizes that disagree.

#include <cstdint>
#include <string>
#include <vector>

namespace bv::io {

struct PanelMask {
    int fastPixels = 0, slowPixels = 0;
    std::vector<std::uint8_t> valid; // fast-major, 1 where trusted
};

std::vector<PanelMask> readDialsMask(const std::string& path);
// The same from the file's bytes (`name` for messages): the fuzz target's entry.
std::vector<PanelMask> parseDialsMask(const std::string& bytes, const std::string& name);

} // namespace bv::io
