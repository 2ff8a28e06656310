// The parameter table's views beyond words (Parameters.h): each option's session row (its key
// in the session file, the kind of its value, its quantity and limits) and its viewer fields
// (label, unit shown, slider range, decimals, how the field reads and edits the experiment),
// kept by option name as the writers are, and set on the option's row by flagTable(). A new
// parameter with a row here is in sessions (at the end of its section) and in its panel (at
// the end, under its heading) without a line elsewhere. The crystal and the beam here, the
// detector and the sampling in ParameterViewsDetector.cpp.

#include "compute/request/ParameterViews.h"

#include "compute/request/ParameterViewRows.h"

#include <algorithm>
#include <stdexcept>

namespace bv::request {

namespace views {

namespace {

std::vector<FieldView> cellFields() {
    std::vector<FieldView> out;
    const char* lengths[] = {"a", "b", "c"};
    for (int i = 0; i < 3; ++i) {
        const std::string n = lengths[i];
        out.push_back(usedWhenCellGiven(logarithmic(field(
            G::Crystal, "Unit cell", "cell" + n, n, "Å",
            "Unit-cell edge " + n + " (nanoBragg -cell). Reciprocal-lattice spacing, and so spot "
                "spacing, goes as 1/" + n + ". Not used while a MOSFLM matrix gives the cell.",
            2.0, 1000.0, 3, 0.1, 5.0,
            [i](const Experiment& e) -> Optional {
                if (!e.crystal.cell)
                    return 0.0;
                const double v[] = {e.crystal.cell->a, e.crystal.cell->b, e.crystal.cell->c};
                return v[i];
            },
            [i](Experiment& e, double v) {
                if (!e.crystal.cell)
                    return;
                double* t[] = {&e.crystal.cell->a, &e.crystal.cell->b, &e.crystal.cell->c};
                *t[i] = v;
            }))));
    }
    const char* angles[] = {"α", "β", "γ"};
    const char* angleKeys[] = {"alpha", "beta", "gamma"};
    for (int i = 0; i < 3; ++i) {
        const std::string n = angles[i];
        out.push_back(usedWhenCellGiven(field(
            G::Crystal, "Unit cell", std::string("cell") + angleKeys[i], n, "°",
            "Unit-cell angle " + n + " (nanoBragg -cell).", 20.0, 160.0, 3, 0.1, 5.0,
            [i](const Experiment& e) -> Optional {
                if (!e.crystal.cell)
                    return 90.0;
                const double v[] = {e.crystal.cell->alpha, e.crystal.cell->beta,
                                    e.crystal.cell->gamma};
                return v[i] == 0.0 ? 90.0 : degreesFromRadians(v[i]);
            },
            [i](Experiment& e, double v) {
                if (!e.crystal.cell)
                    return;
                double* t[] = {&e.crystal.cell->alpha, &e.crystal.cell->beta,
                               &e.crystal.cell->gamma};
                *t[i] = radiansFromDegrees(v);
            })));
    }
    return out;
}

std::vector<FieldView> missetFields() {
    std::vector<FieldView> out;
    const char* axes[] = {"x", "y", "z"};
    const char* keys[] = {"missetX", "missetY", "missetZ"};
    for (int i = 0; i < 3; ++i) {
        const std::string a = axes[i];
        out.push_back(field(
            G::Crystal, "Orientation", keys[i], "Misset " + a, "°",
            "Crystal rotation about " + a + " (nanoBragg -misset; applied x, then y, then z). "
                "Turns the whole pattern of spots.",
            -180.0, 180.0, 3, 0.1, 5.0,
            [i](const Experiment& e) -> Optional {
                return e.crystal.misset == MissetKind::Angles
                           ? degreesFromRadians(e.crystal.missetAngles[i])
                           : 0.0;
            },
            [i](Experiment& e, double v) {
                if (e.crystal.misset != MissetKind::Angles)
                    e.crystal.missetAngles = glm::dvec3(0.0);
                e.crystal.misset = MissetKind::Angles;
                e.crystal.missetAngles[i] = radiansFromDegrees(v);
            }));
    }
    return out;
}

FieldView cellCountField(int i) {
    const std::string name = std::string("N") + static_cast<char>('a' + i);
    return logarithmic(field(
        G::Crystal, "Size and shape", name, name, "cells",
        std::string("Unit cells along ") + static_cast<char>('a' + i) + " (nanoBragg -" + name +
            "). Spots get sharper as 1/N; replaces a crystal size given in mm.",
        1.0, 1000.0, 0, 1.0, 10.0,
        [i](const Experiment& e) -> Optional { return e.crystal.cells[i]; },
        [i](Experiment& e, double v) {
            e.crystal.cells[i] = toCount(v);
            e.crystal.sampleSize[i] = 0.0;
        }));
}

} // namespace

std::vector<Views> crystalViews() {
    std::vector<Views> v;
    v.push_back({"-cell", std::nullopt, cellFields()});
    v.push_back({"-misset",
                 choiceRow("crystal", "misset", session::kMissets,
                           [](Experiment& e) -> MissetKind& { return e.crystal.misset; }),
                 missetFields()});
    for (int i = 0; i < 3; ++i)
        v.push_back({i == 0 ? "-Na" : i == 1 ? "-Nb" : "-Nc", std::nullopt, {cellCountField(i)}});
    v.push_back({"-xtalsize",
                 vectorRow("crystal", "sampleSize", Quantity::SampleLength, Bound::NonNegative,
                           [](Experiment& e) -> glm::dvec3& { return e.crystal.sampleSize; }),
                 {}});
    v.push_back({"-fudge",
                 numberRow("crystal", "fudge", Quantity::ShapeFactor, Bound::Positive,
                           [](Experiment& e) -> double& { return e.crystal.fudge; }),
                 {}});
    v.push_back(
        {"-mosaic",
         optionalNumberRow("crystal", "mosaicSpread", Quantity::Angle, Bound::NonNegative,
                           [](Experiment& e) -> Optional& { return e.crystal.mosaicSpread; }),
         {field(G::Crystal, "Mosaicity", "mosaic", "Mosaic spread", "°",
                "Isotropic spread of the mosaic domains' orientations (nanoBragg -mosaic); "
                "spots stretch into arcs.",
                0.0, 10.0, 3, 0.01, 0.1,
                [](const Experiment& e) -> Optional {
                    return degreesFromRadians(e.crystal.mosaicSpread.value_or(0.0));
                },
                [](Experiment& e, double x) {
                    e.crystal.mosaicSpread = radiansFromDegrees(x);
                })}});
    v.push_back(
        {"-mosaic_domains",
         optionalCountRow("crystal", "mosaicDomains",
                          [](Experiment& e) -> std::optional<int>& {
                              return e.crystal.mosaicDomains;
                          }),
         {automatic(logarithmic(field(G::Crystal, "Mosaicity", "mosaicDomains", "Domains", "",
                                      "Number of mosaic domains sampled (nanoBragg "
                                      "-mosaic_dom). Work grows in proportion.",
                                      1, 5000, 0, 1, 10,
                                      [](const Experiment& e) {
                                          return countOrAuto(e.crystal.mosaicDomains);
                                      },
                                      [](Experiment& e, double x) {
                                          e.crystal.mosaicDomains = toCount(x);
                                      })),
                    [](const ResolvedExperiment& r) -> Optional {
                        return static_cast<double>(r.mosaicDomains.size());
                    },
                    [](Experiment& e) { e.crystal.mosaicDomains.reset(); })}});
    v.push_back({"-phi",
                 numberRow("crystal", "phi0", Quantity::Angle, Bound::Any,
                           [](Experiment& e) -> double& { return e.crystal.phi0; }),
                 {field(G::Crystal, "Rotation (phi)", "phi", "Phi", "°",
                        "Spindle angle at the start of the exposure (nanoBragg -phi).", -360.0,
                        360.0, 3, 0.1, 5.0,
                        [](const Experiment& e) -> Optional {
                            return degreesFromRadians(e.crystal.phi0);
                        },
                        [](Experiment& e, double x) { e.crystal.phi0 = radiansFromDegrees(x); })}});
    v.push_back({"-osc",
                 sweepRow("crystal", "phi", Quantity::Angle,
                          [](Experiment& e) -> SweepRequest& { return e.crystal.phi; }),
                 {field(G::Crystal, "Rotation (phi)", "oscillation", "Oscillation", "°",
                        "Spindle rotation during the exposure (nanoBragg -osc); 0: a still. "
                        "More spots cross the Ewald sphere.",
                        0.0, 30.0, 3, 0.01, 0.5,
                        [](const Experiment& e) -> Optional {
                            return degreesFromRadians(e.crystal.phi.range.value_or(0.0));
                        },
                        [](Experiment& e, double x) {
                            e.crystal.phi.range = radiansFromDegrees(x);
                        })}});
    v.push_back({"-phisteps", std::nullopt,
                 {automatic(field(G::Crystal, "Rotation (phi)", "phiSteps", "Phi steps", "",
                                  "Samples across the oscillation (nanoBragg -phisteps). Work "
                                  "grows in proportion.",
                                  1, 500, 0, 1, 10,
                                  [](const Experiment& e) {
                                      return countOrAuto(e.crystal.phi.steps);
                                  },
                                  [](Experiment& e, double x) {
                                      e.crystal.phi.steps = toCount(x);
                                  }),
                            [](const ResolvedExperiment& r) -> Optional { return r.phi.steps; },
                            [](Experiment& e) { e.crystal.phi.steps.reset(); })}});
    v.push_back({"-phi_sampling",
                 SessionField{"crystal", "phiSampling",
                              [](JsonWriter& w, const Experiment& e) {
                                  const auto& s = e.crystal.phiSampling;
                                  w.key("phiSampling");
                                  if (s)
                                      w.string(session::nameOf(session::kPhiSamplings, *s));
                                  else
                                      w.null();
                              },
                              [](const JsonFields& r, Experiment& e, const std::string&) {
                                  e.crystal.phiSampling.reset();
                                  if (!r.absentOrNull("phiSampling"))
                                      e.crystal.phiSampling =
                                          choose(r, "phiSampling", session::kPhiSamplings);
                              }},
                 {}});
    return v;
}

std::vector<Views> beamViews() {
    std::vector<Views> v;
    v.push_back(
        {"-lambda",
         numberRow("beam", "wavelength", Quantity::Wavelength, Bound::Positive,
                   [](Experiment& e) -> double& { return e.beam.wavelength; }),
         {logarithmic(field(G::Beam, "Wavelength", "wavelength", "Wavelength", "Å",
                            "Incident X-ray wavelength λ (nanoBragg -lambda). Bragg's law, λ = 2 d "
                            "sin θ: a longer wavelength moves every ring and spot outwards.",
                            0.1, 20.0, 4, 0.01, 0.1,
                            [](const Experiment& e) -> Optional { return e.beam.wavelength * 1e10; },
                            [](Experiment& e, double x) { e.beam.wavelength = x / 1.0e10; }))}});
    v.push_back(
        {"-energy", std::nullopt,
         {logarithmic(field(G::Beam, "Wavelength", "energy", "Energy", "keV",
                            "Photon energy, the same setting as the wavelength (nanoBragg "
                            "-energy): E = 12.39842 keV·Å / λ.",
                            0.62, 124.0, 4, 0.01, 0.5,
                            [](const Experiment& e) -> Optional {
                                return units::kElectronvoltAngstrom / (e.beam.wavelength * 1e10) /
                                       1000.0;
                            },
                            [](Experiment& e, double x) {
                                e.beam.wavelength =
                                    units::kElectronvoltAngstrom / (x * 1000.0) / 1.0e10;
                            }))}});
    v.push_back(
        {"-dispersion",
         sweepRow("beam", "dispersion", Quantity::Dispersion,
                  [](Experiment& e) -> SweepRequest& { return e.beam.dispersion; }),
         {field(G::Beam, "Wavelength", "dispersion", "Dispersion", "%",
                "Spectral width Δλ/λ, full width (nanoBragg -dispersion). Spreads the spots "
                "radially.",
                0.0, 10.0, 3, 0.01, 0.1,
                [](const Experiment& e) -> Optional {
                    return e.beam.dispersion.range.value_or(0.0) * 100.0;
                },
                [](Experiment& e, double x) { e.beam.dispersion.range = x / 100.0; })}});
    v.push_back(
        {"-dispsteps", std::nullopt,
         {automatic(field(G::Beam, "Wavelength", "dispersionSteps", "Wavelengths", "",
                          "Number of wavelengths across the dispersion (nanoBragg -dispsteps). "
                          "Work grows in proportion.",
                          1, 100, 0, 1, 5,
                          [](const Experiment& e) { return countOrAuto(e.beam.dispersion.steps); },
                          [](Experiment& e, double x) { e.beam.dispersion.steps = toCount(x); }),
                    [](const ResolvedExperiment& r) -> Optional { return r.dispersion.steps; },
                    [](Experiment& e) { e.beam.dispersion.steps.reset(); })}});
    v.push_back(
        {"-hdivrange",
         sweepRow("beam", "horizontalDivergence", Quantity::Divergence,
                  [](Experiment& e) -> SweepRequest& { return e.beam.horizontalDivergence; }),
         {field(G::Beam, "Divergence", "hdivergence", "Horizontal", "mrad",
                "Angular spread of the source points in the horizontal (nanoBragg -hdivrange). "
                "Blurs spots tangentially.",
                0.0, 20.0, 3, 0.01, 0.5,
                [](const Experiment& e) -> Optional {
                    return e.beam.horizontalDivergence.range.value_or(0.0) * 1000.0;
                },
                [](Experiment& e, double x) {
                    e.beam.horizontalDivergence.range = x / 1000.0;
                })}});
    v.push_back(
        {"-vdivrange",
         sweepRow("beam", "verticalDivergence", Quantity::Divergence,
                  [](Experiment& e) -> SweepRequest& { return e.beam.verticalDivergence; }),
         {field(G::Beam, "Divergence", "vdivergence", "Vertical", "mrad",
                "Angular spread of the source points in the vertical (nanoBragg -vdivrange).",
                0.0, 20.0, 3, 0.01, 0.5,
                [](const Experiment& e) -> Optional {
                    return e.beam.verticalDivergence.range.value_or(0.0) * 1000.0;
                },
                [](Experiment& e, double x) { e.beam.verticalDivergence.range = x / 1000.0; })}});
    v.push_back(
        {"-divsteps", std::nullopt,
         {automatic(field(G::Beam, "Divergence", "divergenceSteps", "Source points", "",
                          "Source points along each divergence direction (nanoBragg -divsteps); "
                          "the grid is trimmed to an ellipse. Work grows with the square.",
                          1, 50, 0, 1, 5,
                          [](const Experiment& e) {
                              return countOrAuto(e.beam.horizontalDivergence.steps);
                          },
                          [](Experiment& e, double x) {
                              e.beam.horizontalDivergence.steps = toCount(x);
                              e.beam.verticalDivergence.steps = toCount(x);
                          }),
                    [](const ResolvedExperiment& r) -> Optional {
                        return r.horizontalDivergence.steps;
                    },
                    [](Experiment& e) {
                        e.beam.horizontalDivergence.steps.reset();
                        e.beam.verticalDivergence.steps.reset();
                    })}});
    v.push_back({"-round_div",
                 booleanRow("beam", "roundDivergence",
                            [](Experiment& e) -> bool& { return e.beam.roundDivergence; }),
                 {}});
    v.push_back(
        {"-polar",
         numberRow("beam", "kahnFactor", Quantity::KahnFactor, Bound::Any,
                   [](Experiment& e) -> double& { return e.beam.kahnFactor; }),
         {field(G::Beam, "Polarization and intensity", "kahn", "Kahn factor", "",
                "Polarization of the beam (nanoBragg -polar): 0 unpolarized, 1 fully along the "
                "E-vector (a synchrotron is about 0.9).",
                -1.0, 1.0, 3, 0.01, 0.1,
                [](const Experiment& e) -> Optional { return e.beam.kahnFactor; },
                [](Experiment& e, double x) { e.beam.kahnFactor = x; })}});
    v.push_back({"-nopolar",
                 booleanRow("beam", "polarization",
                            [](Experiment& e) -> bool& { return e.beam.polarization; }),
                 {}});
    v.push_back(
        {"-fluence",
         numberRow("beam", "fluence", Quantity::Fluence, Bound::NonNegative,
                   [](Experiment& e) -> double& { return e.beam.fluence; }),
         {field(G::Beam, "Polarization and intensity", "fluence", "log₁₀ fluence", "photons/m²",
                "Integrated beam intensity, as a power of ten (nanoBragg -fluence; its default "
                "is 1.26e29). Scales every pixel.",
                15.0, 40.0, 3, 0.1, 1.0,
                [](const Experiment& e) -> Optional {
                    return std::log10(std::max(e.beam.effectiveFluence(), 1.0));
                },
                [](Experiment& e, double x) {
                    e.beam.fluence = std::pow(10.0, x);
                    e.beam.flux = 0.0;
                })}});
    v.push_back({"-flux",
                 numberRow("beam", "flux", Quantity::Flux, Bound::NonNegative,
                           [](Experiment& e) -> double& { return e.beam.flux; }),
                 {}});
    v.push_back({"-exposure",
                 numberRow("beam", "exposure", Quantity::ExposureTime, Bound::NonNegative,
                           [](Experiment& e) -> double& { return e.beam.exposure; }),
                 {}});
    v.push_back({"-beamsize",
                 numberRow("beam", "beamSize", Quantity::SampleLength, Bound::NonNegative,
                           [](Experiment& e) -> double& { return e.beam.beamSize; }),
                 {}});
    return v;
}

} // namespace views

void addParameterViews(std::vector<Flag>& table) {
    std::vector<views::Views> all;
    for (auto part : {views::crystalViews, views::beamViews, views::detectorViews,
                      views::samplingViews, views::signalViews})
        for (views::Views& v : part())
            all.push_back(std::move(v));
    for (views::Views& v : all) {
        auto row = std::find_if(table.begin(), table.end(), [&](const Flag& f) {
            return std::find(f.names.begin(), f.names.end(), v.flag) != f.names.end();
        });
        if (row == table.end()) // the table and its views disagree: a programming error
            throw std::logic_error(std::string("parameter views: no option ") + v.flag);
        row->session = std::move(v.session);
        row->fields = std::move(v.fields);
    }
}

} // namespace bv::request
