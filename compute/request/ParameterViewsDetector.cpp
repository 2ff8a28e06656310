// The parameter table's views of the detector and the sampling (ParameterViews.cpp has the
// crystal and the beam, and says what the views are).

#include "compute/request/ParameterViewRows.h"

namespace bv::request::views {

namespace {

FieldView rotationField(int i) {
    const char* axes[] = {"x", "y", "z"};
    const char* keys[] = {"rotX", "rotY", "rotZ"};
    const char* order[] = {"first", "second", "third"};
    const std::string a = axes[i];
    return field(G::Detector, "Rotations", keys[i], "Rotation " + a, "°",
                 "Detector rotation about the laboratory " + a + " axis, applied " + order[i] +
                     " (nanoBragg -detector_rot" + a + "), about the pivot.",
                 -180.0, 180.0, 3, 0.1, 5.0,
                 [i](const Experiment& e) -> Optional {
                     const double r[] = {e.detector.rotX, e.detector.rotY, e.detector.rotZ};
                     return degreesFromRadians(r[i]);
                 },
                 [i](Experiment& e, double v) {
                     double* r[] = {&e.detector.rotX, &e.detector.rotY, &e.detector.rotZ};
                     *r[i] = radiansFromDegrees(v);
                 });
}

FieldView beamCentreField(bool x) {
    const char* key = x ? "beamX" : "beamY";
    return flatOrPresetOnly(
        automatic(field(G::Detector, "Placement", key, x ? "Beam centre X" : "Beam centre Y", "mm",
                        x ? "Direct-beam position as the image header states it (nanoBragg "
                            "-Xbeam; its meaning depends on the convention). Auto: the detector "
                            "centre. A preset's modules move in their plane to put the beam "
                            "there, as on nanoBragg's flat detector of the same size."
                          : "Direct-beam position, header Y (nanoBragg -Ybeam). Auto: the "
                            "detector centre.",
                        -500.0, 500.0, 3, 0.1, 1.0,
                        [x](const Experiment& e) -> Optional {
                            const Optional& v = x ? e.detector.beamX : e.detector.beamY;
                            return v ? Optional(*v * 1000.0) : std::nullopt;
                        },
                        [x](Experiment& e, double v) {
                            (x ? e.detector.beamX : e.detector.beamY) = v / 1000.0;
                        }),
                  [x](const ResolvedExperiment& r) -> Optional {
                      return (x ? r.detector.Xbeam : r.detector.Ybeam) * 1000.0;
                  },
                  [x](Experiment& e) { (x ? e.detector.beamX : e.detector.beamY).reset(); }),
        kPanelsHaveNoBeamCentre);
}

} // namespace

std::vector<Views> detectorViews() {
    std::vector<Views> v;
    constexpr Quantity length = Quantity::DetectorLength;
    v.push_back(
        {"-distance",
         numberRow("detector", "distance", length, Bound::Positive,
                   [](Experiment& e) -> double& { return e.detector.distance; }),
         {logarithmic(field(
             G::Detector, "Placement", "distance", "Distance", "mm",
             "Sample to the direct-beam spot along the beam (nanoBragg -distance). Spots move "
             "radially: r = D tan 2θ. Setting it drops a close distance given before. A detector "
             "of several panels moves along the beam until its centre is this far.",
             10.0, 2000.0, 2, 1.0, 10.0,
             [](const Experiment& e) -> Optional { return e.detector.distance * 1000.0; },
             [](Experiment& e, double x) {
                 e.detector.distance = x / 1000.0;
                 e.detector.closeDistance.reset();
                 e.detector.distanceStated = true; // it moves a file's panels too
             }))}});
    v.push_back({"-detsize_f",
                 numberRow("detector", "sizeFast", length, Bound::Positive,
                           [](Experiment& e) -> double& { return e.detector.sizeFast; }),
                 {}});
    v.push_back({"-detsize_s",
                 numberRow("detector", "sizeSlow", length, Bound::Positive,
                           [](Experiment& e) -> double& { return e.detector.sizeSlow; }),
                 {}});
    v.push_back({"-close_distance",
                 optionalNumberRow("detector", "closeDistance", length, Bound::Positive,
                                   [](Experiment& e) -> Optional& {
                                       return e.detector.closeDistance;
                                   }),
                 {}});
    v.push_back({"-Xclose",
                 optionalNumberRow("detector", "closeX", length, Bound::Any,
                                   [](Experiment& e) -> Optional& { return e.detector.closeX; }),
                 {}});
    v.push_back({"-Yclose",
                 optionalNumberRow("detector", "closeY", length, Bound::Any,
                                   [](Experiment& e) -> Optional& { return e.detector.closeY; }),
                 {}});
    v.push_back({"-ORGX",
                 optionalNumberRow("detector", "orgX", Quantity::PixelPosition, Bound::Any,
                                   [](Experiment& e) -> Optional& { return e.detector.orgX; }),
                 {}});
    v.push_back({"-ORGY",
                 optionalNumberRow("detector", "orgY", Quantity::PixelPosition, Bound::Any,
                                   [](Experiment& e) -> Optional& { return e.detector.orgY; }),
                 {}});
    v.push_back({"-pivot",
                 choiceRow("detector", "pivot", session::kPivots,
                           [](Experiment& e) -> Pivot& { return e.detector.pivot; }),
                 {}});
    // the custom convention's vectors
    const Quantity direction = Quantity::Direction;
    v.push_back({"-beam_vector",
                 vectorRow("customAxes", "beam", direction, Bound::Any,
                           [](Experiment& e) -> glm::dvec3& { return e.customAxes.beam; }),
                 {}});
    v.push_back({"-polar_vector",
                 vectorRow("customAxes", "polarization", direction, Bound::Any,
                           [](Experiment& e) -> glm::dvec3& { return e.customAxes.polarization; }),
                 {}});
    v.push_back({"-spindle_axis",
                 vectorRow("customAxes", "spindle", direction, Bound::Any,
                           [](Experiment& e) -> glm::dvec3& { return e.customAxes.spindle; }),
                 {}});
    v.push_back({"-twotheta_axis",
                 vectorRow("customAxes", "twothetaAxis", direction, Bound::Any,
                           [](Experiment& e) -> glm::dvec3& { return e.customAxes.twothetaAxis; }),
                 {}});
    v.push_back({"-fdet_vector",
                 vectorRow("customAxes", "fdet", direction, Bound::Any,
                           [](Experiment& e) -> glm::dvec3& { return e.customAxes.fdet; }),
                 {}});
    v.push_back({"-sdet_vector",
                 vectorRow("customAxes", "sdet", direction, Bound::Any,
                           [](Experiment& e) -> glm::dvec3& { return e.customAxes.sdet; }),
                 {}});
    v.push_back({"-odet_vector",
                 vectorRow("customAxes", "odet", direction, Bound::Any,
                           [](Experiment& e) -> glm::dvec3& { return e.customAxes.odet; }),
                 {}});
    v.push_back({"-Xbeam",
                 optionalNumberRow("detector", "beamX", length, Bound::Any,
                                   [](Experiment& e) -> Optional& { return e.detector.beamX; }),
                 {beamCentreField(true)}});
    v.push_back({"-Ybeam",
                 optionalNumberRow("detector", "beamY", length, Bound::Any,
                                   [](Experiment& e) -> Optional& { return e.detector.beamY; }),
                 {beamCentreField(false)}});
    v.push_back(
        {"-pixel",
         numberRow("detector", "pixelSize", Quantity::PixelSize, Bound::Positive,
                   [](Experiment& e) -> double& { return e.detector.pixelSize; }),
         {flatOnly(logarithmic(field(
                       G::Detector, "Pixels", "pixelSize", "Pixel size", "mm",
                       "Edge of a square pixel (nanoBragg -pixel). The pixel counts are kept, so "
                       "the detector grows with it.",
                       0.01, 2.0, 4, 0.001, 0.01,
                       [](const Experiment& e) -> Optional { return e.detector.pixelSize * 1000.0; },
                       [](Experiment& e, double x) {
                           const int fast = e.detector.fastPixels(), slow = e.detector.slowPixels();
                           e.detector.pixelSize = x / 1000.0;
                           e.detector.setPixels(fast, slow);
                       })),
                   kFlatPixels)}});
    v.push_back(
        {"-detpixels_f", std::nullopt,
         {flatOnly(logarithmic(field(
                       G::Detector, "Pixels", "fastPixels", "Pixels (fast)", "",
                       "Pixels along the fast axis (nanoBragg -detpixels_f). A new size "
                       "reallocates the GPU image and records new commands.",
                       8, 8192, 0, 1, 64,
                       [](const Experiment& e) -> Optional { return e.detector.fastPixels(); },
                       [](Experiment& e, double x) {
                           e.detector.setPixels(toCount(x), e.detector.slowPixels());
                       })),
                   kFlatPixels)}});
    v.push_back(
        {"-detpixels_s", std::nullopt,
         {flatOnly(logarithmic(field(
                       G::Detector, "Pixels", "slowPixels", "Pixels (slow)", "",
                       "Pixels along the slow axis (nanoBragg -detpixels_s).", 8, 8192, 0, 1, 64,
                       [](const Experiment& e) -> Optional { return e.detector.slowPixels(); },
                       [](Experiment& e, double x) {
                           e.detector.setPixels(e.detector.fastPixels(), toCount(x));
                       })),
                   kFlatPixels)}});
    const char* rotations[] = {"-detector_rotx", "-detector_roty", "-detector_rotz"};
    const char* rotationKeys[] = {"rotX", "rotY", "rotZ"};
    double Detector::*rotationOf[] = {&Detector::rotX, &Detector::rotY, &Detector::rotZ};
    for (int i = 0; i < 3; ++i) {
        const std::string key = rotationKeys[i];
        const auto member = rotationOf[i];
        SessionField s{"detector", key,
                       [key, member](JsonWriter& w, const Experiment& e) {
                           w.key(key).number(e.detector.*member);
                       },
                       [key, member](const JsonFields& r, Experiment& e, const std::string&) {
                           e.detector.*member = r.limited(key.c_str(), Quantity::Angle, Bound::Any);
                       }};
        v.push_back({rotations[i], std::move(s), {rotationField(i)}});
    }
    v.push_back(
        {"-twotheta",
         numberRow("detector", "twotheta", Quantity::Angle, Bound::Any,
                   [](Experiment& e) -> double& { return e.detector.twotheta; }),
         {field(G::Detector, "Rotations", "twotheta", "Two-theta", "°",
                "Detector swing about the two-theta axis, after the rotations (nanoBragg "
                "-twotheta). Resolution rings become ellipses and hyperbolas.",
                -180.0, 180.0, 3, 0.1, 5.0,
                [](const Experiment& e) -> Optional {
                    return degreesFromRadians(e.detector.twotheta);
                },
                [](Experiment& e, double x) { e.detector.twotheta = radiansFromDegrees(x); })}});
    v.push_back({"-curved_det",
                 booleanRow("detector", "curved",
                            [](Experiment& e) -> bool& { return e.detector.curved; }),
                 {}});
    v.push_back({"-point_pixel",
                 booleanRow("detector", "pointPixel",
                            [](Experiment& e) -> bool& { return e.detector.pointPixel; }),
                 {}});
    v.push_back(
        {"-detector_thick",
         sweepRow("detector", "thickness", Quantity::Thickness,
                  [](Experiment& e) -> SweepRequest& { return e.detector.thickness; }),
         {field(G::Sampling, "Sensor", "thickness", "Thickness", "µm",
                "Sensor thickness (nanoBragg -detector_thick); with it the capture fraction and "
                "parallax are modelled.",
                0.0, 2000.0, 1, 1.0, 50.0,
                [](const Experiment& e) -> Optional {
                    return e.detector.thickness.range.value_or(0.0) * 1e6;
                },
                [](Experiment& e, double x) { e.detector.thickness.range = x * 1e-6; })}});
    v.push_back(
        {"-detector_thicksteps", std::nullopt,
         {automatic(field(G::Sampling, "Sensor", "thickSteps", "Layers", "",
                          "Sensor layers sampled (nanoBragg -thicksteps). Work grows in "
                          "proportion.",
                          1, 50, 0, 1, 5,
                          [](const Experiment& e) {
                              return countOrAuto(e.detector.thickness.steps);
                          },
                          [](Experiment& e, double x) { e.detector.thickness.steps = toCount(x); }),
                    [](const ResolvedExperiment& r) -> Optional { return r.thickness.steps; },
                    [](Experiment& e) { e.detector.thickness.steps.reset(); })}});
    v.push_back(
        {"-detector_abs",
         optionalNumberRow("detector", "attenuationDepth", Quantity::Thickness, Bound::NonNegative,
                           [](Experiment& e) -> Optional& { return e.detector.attenuationDepth; }),
         {automatic(logarithmic(field(
                        G::Sampling, "Sensor", "attenuation", "Attenuation depth", "µm",
                        "1/μ of the sensor (nanoBragg -detector_abs). Auto: the thickness itself.",
                        1.0, 10000.0, 1, 1.0, 50.0,
                        [](const Experiment& e) -> Optional {
                            const Optional& d = e.detector.attenuationDepth;
                            return d ? Optional(*d * 1e6) : std::nullopt;
                        },
                        [](Experiment& e, double x) { e.detector.attenuationDepth = x * 1e-6; })),
                    [](const ResolvedExperiment& r) -> Optional {
                        return r.mu > 0.0 ? 1e6 / r.mu : 0.0;
                    },
                    [](Experiment& e) { e.detector.attenuationDepth.reset(); })}});
    return v;
}

std::vector<Views> samplingViews() {
    std::vector<Views> v;
    v.push_back(
        {"-oversample",
         optionalCountRow("sampling", "oversample",
                          [](Experiment& e) -> std::optional<int>& {
                              return e.sampling.oversample;
                          }),
         {automatic(field(G::Sampling, "Sub-pixels", "oversample", "Oversample", "per edge",
                          "Sub-pixels per pixel edge (nanoBragg -oversample). Auto: from the "
                          "crystal size and pixel. Work grows with the square.",
                          1, 32, 0, 1, 4,
                          [](const Experiment& e) { return countOrAuto(e.sampling.oversample); },
                          [](Experiment& e, double x) { e.sampling.oversample = toCount(x); }),
                    [](const ResolvedExperiment& r) -> Optional { return r.oversample; },
                    [](Experiment& e) { e.sampling.oversample.reset(); })}});
    v.push_back({"-oversample_thick",
                 booleanRow("sampling", "oversampleThick",
                            [](Experiment& e) -> bool& { return e.sampling.oversampleThick; }),
                 {}});
    v.push_back({"-oversample_polar",
                 booleanRow("sampling", "oversamplePolar",
                            [](Experiment& e) -> bool& { return e.sampling.oversamplePolar; }),
                 {}});
    v.push_back({"-oversample_omega",
                 booleanRow("sampling", "oversampleOmega",
                            [](Experiment& e) -> bool& { return e.sampling.oversampleOmega; }),
                 {}});
    v.push_back(
        {"-dmin",
         numberRow("sampling", "dmin", Quantity::Resolution, Bound::NonNegative,
                   [](Experiment& e) -> double& { return e.sampling.dmin; }),
         {field(G::Sampling, "Limits and background", "dmin", "d min", "Å",
                "Skip scattering to resolution finer than this (nanoBragg -dmin; 0: off).", 0.0,
                50.0, 3, 0.1, 1.0,
                [](const Experiment& e) -> Optional { return e.sampling.dmin * 1e10; },
                [](Experiment& e, double x) { e.sampling.dmin = x * 1e-10; })}});
    v.push_back({"-interpolate",
                 choiceRow("sampling", "interpolation", session::kInterpolations,
                           [](Experiment& e) -> Interpolation& {
                               return e.sampling.interpolation;
                           }),
                 {}});
    v.push_back(
        {"-water",
         numberRow("", "waterThickness", Quantity::Thickness, Bound::NonNegative,
                   [](Experiment& e) -> double& { return e.waterThickness; }),
         {field(G::Sampling, "Limits and background", "water", "Water", "µm",
                "Thickness of water around the crystal: a flat background (nanoBragg -water).",
                0.0, 1000.0, 1, 1.0, 10.0,
                [](const Experiment& e) -> Optional { return e.waterThickness * 1e6; },
                [](Experiment& e, double x) { e.waterThickness = x / 1e6; })}});
    v.push_back({"-default_F",
                 numberRow("", "defaultF", Quantity::StructureFactor, Bound::NonNegative,
                           [](Experiment& e) -> double& { return e.structureFactors.defaultF; }),
                 {}});
    return v;
}

} // namespace bv::request::views
