// The views of braggview's own -background and -response_* (docs/amorphous.md,
// docs/detector-response.md): the viewer's "Background" and "Detector response" sections of
// the Sampling panel, and their session rows. A session holds each as one object of the
// experiment ("background", "response"), written only when it is in use, so that sessions
// without them keep their bytes and a session written before them reads as it did.

#include "compute/request/ParameterViewRows.h"

#include <filesystem>

namespace bv::request::views {

namespace {

const char* const kBackground = "Background";
const char* const kResponse = "Detector response";

std::string noBackground(const Experiment& e) {
    return e.background.material.empty() ? "Not used: no background material is chosen."
                                         : std::string();
}
std::string noResponse(const Experiment& e) {
    return e.response.enabled ? std::string() : "Not used: the detector response is off.";
}
std::string noPsf(const Experiment& e) {
    if (!e.response.enabled)
        return noResponse(e);
    return e.response.psf.empty() ? "Not used: no point spread function is chosen."
                                  : std::string();
}

FieldView when(FieldView f, std::string (*why)(const Experiment&)) {
    f.unavailableWhy = why;
    f.showWhenUnused = true;
    return f;
}

// A material's name as a session keeps it: a file of that name absolute (sessions name
// their files so), a built-in material's name as it is.
std::string materialForSession(const std::string& material) {
    std::error_code ec;
    return std::filesystem::exists(material, ec) ? absoluteName(material) : material;
}
std::string materialFromSession(const std::string& directory, const std::string& material) {
    const std::string beside = nameInDirectory(directory, material);
    std::error_code ec;
    return std::filesystem::exists(beside, ec) ? beside : material;
}

SessionField backgroundRow() {
    return {"", "background",
            [](JsonWriter& w, const Experiment& e) {
                const BackgroundRequest& b = e.background;
                if (b.material.empty())
                    return; // none: the key is left out
                w.key("background").beginObject();
                w.key("material").string(materialForSession(b.material));
                w.key("thickness").number(b.thickness);
                w.key("density").number(b.density / 1e6);
                w.key("molecularWeight").number(b.molecularWeight);
                w.endObject();
            },
            [](const JsonFields& r, Experiment& e, const std::string& directory) {
                e.background = BackgroundRequest{};
                if (!r.has("background"))
                    return;
                const JsonFields b = r.object("background");
                e.background.material = materialFromSession(directory, b.text("material"));
                e.background.thickness =
                    b.limited("thickness", Quantity::SampleLength, Bound::Positive);
                e.background.density = b.limited("density", Quantity::Density, Bound::Positive) * 1e6;
                e.background.molecularWeight =
                    b.limited("molecularWeight", Quantity::MolecularWeight, Bound::Positive);
            }};
}

SessionField responseRow() {
    return {"", "response",
            [](JsonWriter& w, const Experiment& e) {
                const ResponseRequest& q = e.response;
                if (!q.enabled)
                    return; // off: the key is left out
                w.key("response").beginObject();
                w.key("psf").string(q.psf);
                w.key("psfFwhm").number(q.psfFwhm);
                w.key("psfRadius").integer(q.psfRadius);
                w.key("flicker").number(q.flicker);
                w.key("calibration").number(q.calibration);
                w.key("calibSeed").integer(q.calibSeed);
                w.key("readout").number(q.readout);
                w.key("gain").number(q.gain);
                w.endObject();
            },
            [](const JsonFields& r, Experiment& e, const std::string&) {
                e.response = ResponseRequest{};
                if (!r.has("response"))
                    return;
                const JsonFields q = r.object("response");
                ResponseRequest& s = e.response;
                s.enabled = true;
                s.psf = q.text("psf");
                if (!s.psf.empty() && s.psf != "gauss" && s.psf != "fiber")
                    q.fail(q.value("psf"), "psf", "\"\", \"gauss\" or \"fiber\"");
                s.psfFwhm = q.limited("psfFwhm", Quantity::Thickness, Bound::Positive);
                s.psfRadius = static_cast<int>(q.whole("psfRadius", 0, kMaxPixelsPerSide));
                s.flicker = q.limited("flicker", Quantity::IntensityScale, Bound::NonNegative);
                s.calibration =
                    q.limited("calibration", Quantity::IntensityScale, Bound::NonNegative);
                s.calibSeed = static_cast<long>(q.whole("calibSeed", -kMaxSeed, kMaxSeed));
                s.readout = q.limited("readout", Quantity::IntensityScale, Bound::NonNegative);
                s.gain = q.limited("gain", Quantity::IntensityScale, Bound::Positive);
            }};
}

// a number of the response: only read and written while the response is on
FieldView responseField(std::string key, std::string label, std::string unit,
                        std::string tooltip, double minimum, double maximum, int decimals,
                        double step, double largeStep, double ResponseRequest::*member) {
    return when(field(G::Sampling, kResponse, std::move(key), std::move(label), std::move(unit),
                      std::move(tooltip), minimum, maximum, decimals, step, largeStep,
                      [member](const Experiment& e) -> Optional { return e.response.*member; },
                      [member](Experiment& e, double x) { e.response.*member = x; }),
                noResponse);
}

} // namespace

std::vector<Views> signalViews() {
    std::vector<Views> v;
    v.push_back({"-background", backgroundRow(), {}});
    v.push_back(
        {"-background_thickness", std::nullopt,
         {when(logarithmic(field(G::Sampling, kBackground, "backgroundThickness", "Thickness", "µm",
                                 "Thickness of the amorphous layer along the beam (braggview "
                                 "-background_thickness, in mm there); its cross-section is the "
                                 "beam's. Its scattering grows in proportion.",
                                 0.01, 10000.0, 2, 1.0, 10.0,
                                 [](const Experiment& e) -> Optional {
                                     return e.background.thickness * 1e6;
                                 },
                                 [](Experiment& e, double x) { e.background.thickness = x / 1e6; })),
               noBackground)}});
    v.push_back(
        {"-background_density", std::nullopt,
         {when(field(G::Sampling, kBackground, "backgroundDensity", "Density", "g/cm³",
                     "Density of the layer's material (braggview -background_density).", 0.001,
                     25.0, 3, 0.01, 0.1,
                     [](const Experiment& e) -> Optional { return e.background.density / 1e6; },
                     [](Experiment& e, double x) { e.background.density = x * 1e6; }),
               noBackground)}});
    v.push_back(
        {"-background_MW", std::nullopt,
         {when(logarithmic(field(G::Sampling, kBackground, "backgroundMW", "Molecular weight",
                                 "g/mol",
                                 "Molecular weight of one molecule of the material's scattering "
                                 "curve (braggview -background_MW; water 18).",
                                 1.0, 1000.0, 2, 0.1, 1.0,
                                 [](const Experiment& e) -> Optional {
                                     return e.background.molecularWeight;
                                 },
                                 [](Experiment& e, double x) { e.background.molecularWeight = x; })),
               noBackground)}});
    v.push_back({"-response_psf", responseRow(), {}});
    v.push_back(
        {"-response_psf_fwhm", std::nullopt,
         {when(logarithmic(field(G::Sampling, kResponse, "psfFwhm", "PSF width", "µm",
                                 "Full width at half maximum of the point spread function "
                                 "(braggview -response_psf_fwhm, noisify's -psf_fwhm).",
                                 1.0, 2000.0, 1, 1.0, 10.0,
                                 [](const Experiment& e) -> Optional {
                                     return e.response.psfFwhm * 1e6;
                                 },
                                 [](Experiment& e, double x) { e.response.psfFwhm = x / 1e6; })),
               noPsf)}});
    v.push_back(
        {"-response_psf_radius", std::nullopt,
         {when(field(G::Sampling, kResponse, "psfRadius", "PSF radius", "pixels",
                     "Radius of the point spread function's disc (braggview "
                     "-response_psf_radius; 0: chosen per pixel, noisify's rule). The Gaussian "
                     "shown in the viewer always reaches 3 widths.",
                     0.0, 200.0, 0, 1.0, 10.0,
                     [](const Experiment& e) -> Optional { return e.response.psfRadius; },
                     [](Experiment& e, double x) { e.response.psfRadius = toCount(x); }),
               noPsf)}});
    v.push_back({"-response_gain", std::nullopt,
                 {logarithmic(responseField("gain", "Gain", "ADU/photon",
                                "Counts of the noise image per photon (braggview -response_gain, "
                                "noisify's -gain).",
                                0.01, 100.0, 2, 0.1, 1.0, &ResponseRequest::gain))}});
    v.push_back({"-response_readout", std::nullopt,
                 {responseField("readout", "Readout noise", "ADU",
                                "Gaussian readout noise of every pixel of the noise image "
                                "(braggview -response_readout, noisify's -readout).",
                                0.0, 100.0, 2, 0.1, 1.0, &ResponseRequest::readout)}});
    v.push_back({"-response_flicker", std::nullopt,
                 {responseField("flicker", "Flicker", "",
                                "1/f source noise of the noise image: photons × (1 + flicker × "
                                "a Gaussian deviate) (braggview -response_flicker).",
                                0.0, 1.0, 3, 0.001, 0.01, &ResponseRequest::flicker)}});
    v.push_back({"-response_calibration", std::nullopt,
                 {responseField("calibration", "Calibration error", "",
                                "Per-pixel calibration error of the noise image, the same for "
                                "every image of one seed (braggview -response_calibration).",
                                0.0, 1.0, 3, 0.001, 0.01, &ResponseRequest::calibration)}});
    return v;
}

} // namespace bv::request::views
