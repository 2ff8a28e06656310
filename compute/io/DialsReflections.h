#pragma once
// A DIALS reflection table (.refl: dials.find_spots' strong.refl, dials.index's indexed.refl),
// for its observed spot centres (-spots, docs/refinement.md). The file is one MessagePack
// value (decoded by Msgpack.h):
//
//   ["dials::af::reflection_table", VERSION (1 or 2),
//    {"identifiers": {id: "uuid", ...},            (version 2)
//     "nrows": N,
//     "data": {COLUMN: [TYPE, [N, BINARY]], ...}}]
//
// where BINARY holds the column's N elements as the writing machine laid them out
// (little-endian on every machine DIALS runs on; read so here whatever the host). Of the
// columns, these are read:
//
//   xyzobs.px.value  vec3<double>  the spot's centroid: x, y in pixels along the panel's fast
//                                  and slow axes (a pixel's centre at .5), z in images
//                                  (image n of the scan spans n - 1 to n)
//   panel            std::size_t   which panel of the detector (0 when absent)
//   id               int           which experiment of the list (-1: not indexed; 0 when absent)
//   flags            std::size_t   DIALS's flags (0 when absent; 32: strong)
//
// The rest (intensities, shoeboxes, ...) are skipped. Any problem is a bv::Error naming the
// file and the column.

#include <glm/vec3.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bv::io {

struct DialsSpot {
    glm::dvec3 xyz{0.0};    // pixels, pixels, images
    std::size_t panel = 0;
    int experimentId = 0;
    std::uint64_t flags = 0;
};

struct DialsReflections {
    int version = 0;
    std::vector<DialsSpot> spots; // the table's rows, in order
    std::vector<std::string> columns; // every column's name, in the file's order
};

DialsReflections readDialsReflections(const std::string& path);

// The same from bytes already read (`name` for messages).
DialsReflections parseDialsReflections(const std::string& bytes, const std::string& name);

} // namespace bv::io
