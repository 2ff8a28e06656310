#pragma once
// CrystFEL geometry files (.geom; the crystfel_geometry(5) man page), read into panels in
// the simulator's frame (docs/numerics/detector-frames.md):
//
//     ; global values: defaults for every panel named after them
//     res = 13333.3            ; pixels per metre (75 um)
//     clen = 0.120             ; m, camera length
//     p0/min_fs = 0            ; the panel's block of the data array, inclusive
//     p0/max_fs = 1023
//     p0/min_ss = 0
//     p0/max_ss = 511
//     p0/fs = +1.0x +0.0y      ; lab direction of increasing fast-scan index
//     p0/ss = +0.0x -1.0y
//     p0/corner_x = -520.0     ; lab x, y of the corner of pixel (min_fs, min_ss), pixels
//     p0/corner_y = 530.0
//     p0/coffset = 0.001       ; m, added to clen
//
//     bv::io::CrystfelGeometry g = bv::io::readCrystfelGeometry("jf4m.geom");
//     g.detector.panels;   // p0, ... in the order the file first names them
//     g.notes;             // what was read but not used ("bad regions ignored")
//
// CrystFEL's frame: +z along the beam, +y up, +x completing a right-handed frame; here
// (x, y, z) becomes (z, y, -x). A panel's position is (corner_x, corner_y) / res and
// clen + coffset along the beam; fs and ss may have a z part and need not be unit vectors
// (their length scales the pixel: pixelSize = |fs| / res). clen must be a number: CrystFEL
// can read it from each image (clen = /LCLS/detector_1/EncoderValue), which a simulation
// has no image for. Bad regions (bad_*), rigid groups and the data layout keys are not
// geometry and are ignored; unknown keys are ignored with a note.
//
// Throws bv::Error "<path>:<line>: ..." for a malformed line, a bad number or vector, a
// missing key (at the line that first names the panel), a panel whose axes are zero or not
// orthogonal, or two panels that overlap.

#include "compute/model/PanelDetector.h"

#include <string>
#include <vector>

namespace bv::io {

struct CrystfelGeometry {
    PanelDetector detector;
    std::vector<std::string> notes; // "<path>:<line>: ... ignored"
};

CrystfelGeometry readCrystfelGeometry(const std::string& path);

} // namespace bv::io
