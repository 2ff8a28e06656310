#pragma once
// DIALS's observed spot centres (a .refl's xyzobs.px.value, -spots) against the spots of a
// simulated image: each observed spot is matched to the nearest simulated spot centroid on
// its panel within `radius` pixels, and the root mean square of those distances is given per
// experiment id and panel, and over all (docs/refinement.md, "Observed spots").
//
//     const bv::refine::ObservedSpots spots = bv::refine::observedSpots(table, image, 3);
//     const auto simulated = bv::refine::simulatedSpots(image, width, height, hasData, panels);
//     const bv::refine::SpotMatch m = bv::refine::matchSpots(spots, simulated);
//     bv::refine::printSpotMatch(std::cout, spots, m, nullptr);
//
// The simulated spots are those of SpotCentroids.h (the pixels above 1% of the image's 99.9th
// percentile, connected), each at its intensity-weighted centroid in its panel's pixels, a
// pixel's centre at .5 as DIALS has it.

#include "compute/io/DialsReflections.h"
#include "compute/model/Resolve.h"

#include <glm/vec2.hpp>

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace bv::refine {

struct ObservedSpots {
    std::string file;
    std::vector<io::DialsSpot> spots; // those of the frame
    std::size_t rows = 0;             // the table's, every frame
    std::optional<long long> image;   // the frame's DIALS image number, when the table was cut to it
};

// The table's spots of DIALS image `image` (z from image - 1 to image), or every spot when
// `image` is not given (a still, or no scan to say which image the measured frame is).
ObservedSpots observedSpots(const std::string& file, const io::DialsReflections& table,
                            std::optional<long long> image);

struct SimulatedSpot {
    std::size_t panel = 0;
    glm::dvec2 xy{0.0}; // pixels in its panel, a pixel's centre at .5
};

// The spots of an image whose panels' rows are stacked (the float image's layout: each panel
// `slowPixels` rows of `width`), in the pixels that carry data.
std::vector<SimulatedSpot> simulatedSpots(const std::vector<float>& image, int width, int height,
                                          const std::vector<std::uint8_t>& hasData,
                                          const std::vector<PanelGeometry>& panels);

struct SpotGroupMatch {
    int experimentId = 0;
    std::size_t panel = 0;
    std::size_t observed = 0, matched = 0;
    double rmsd = 0.0; // pixels, over the matched spots
};

struct SpotMatch {
    double radius = 0.0;                // pixels
    std::vector<SpotGroupMatch> groups; // by experiment id, then panel
    SpotGroupMatch all;
    std::size_t simulated = 0;          // the simulated image's spots
    // for each observed spot (ObservedSpots::spots' order), the simulated centroid it was
    // matched to, in its panel's pixels; nullopt: none within the radius
    std::vector<std::optional<glm::dvec2>> nearest;
};

constexpr double kSpotMatchRadius = 5.0; // pixels

// Throws bv::Error when an observed spot names a panel the detector does not have.
SpotMatch matchSpots(const ObservedSpots& observed, const std::vector<SimulatedSpot>& simulated,
                     std::size_t panelCount, double radius = kSpotMatchRadius);

// "observed spots (FILE, ...): id 0 panel 0: 120 of 130 matched within 5 pixels, RMSD 0.31
// pixels" per group and over all; with `after`, the RMSD before -> after (a refinement).
void printSpotMatch(std::ostream& out, const ObservedSpots& observed, const SpotMatch& before,
                    const SpotMatch* after);
// the same as JSON (the fit report's "observed_spots")
nlohmann::ordered_json spotMatchJson(const ObservedSpots& observed, const SpotMatch& before,
                                     const SpotMatch* after);

} // namespace bv::refine
