#pragma once
// What the session writer (SessionWriter.cpp) and reader (SessionFile.cpp) share: the
// format's name and version, and the words a session file uses for the experiment's choices.
// The format itself is described in compute/request/SessionFile.h; the fields are
// SessionFields.h's table.

#include "compute/model/Experiment.h"

#include <cstddef>
#include <utility>

namespace bv::request::session {

// The newest version this braggview reads and writes. 2 added the detector's panels
// (experiment.detector.distanceStated, .panelsSource, .panels); a session without panels is
// still written as 1, which earlier braggview builds read, and one with panels as 2, which
// they refuse ("expected 1") instead of drawing nanoBragg's flat detector in its place.
inline constexpr int kVersion = 2;
inline constexpr int kVersionFlat = 1;
inline constexpr const char* kFormat = "braggview session";

template <typename Enum> using Choice = std::pair<const char*, Enum>;

inline constexpr Choice<LatticeShape> kShapes[] = {{"square", LatticeShape::Square},
                                                   {"round", LatticeShape::Round},
                                                   {"gauss", LatticeShape::Gauss},
                                                   {"tophat", LatticeShape::Tophat}};
inline constexpr Choice<MissetKind> kMissets[] = {
    {"none", MissetKind::None}, {"angles", MissetKind::Angles}, {"random", MissetKind::Random}};
inline constexpr Choice<Interpolation> kInterpolations[] = {{"auto", Interpolation::Auto},
                                                            {"nearest", Interpolation::Nearest},
                                                            {"tricubic", Interpolation::Tricubic}};
// sessions written before braggview had the choice have no "interpolationEdge": reference
inline constexpr Choice<InterpolationEdge> kInterpolationEdges[] = {
    {"reference", InterpolationEdge::Reference}, {"local", InterpolationEdge::Local}};
inline constexpr Choice<Pivot> kPivots[] = {{"beam", Pivot::Beam}, {"sample", Pivot::Sample}};
// "phiSampling" is null (or absent, before braggview had it) for nanoBragg's start of a step
inline constexpr Choice<PhiSampling> kPhiSamplings[] = {{"start", PhiSampling::StepStart},
                                                        {"centre", PhiSampling::StepCentre}};

// the word for `value` (the first of the list where a value has none)
template <typename Enum, std::size_t N>
const char* nameOf(const Choice<Enum> (&choices)[N], Enum value) {
    for (const auto& [name, v] : choices)
        if (v == value)
            return name;
    return choices[0].first;
}

} // namespace bv::request::session
