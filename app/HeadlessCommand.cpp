#include "app/HeadlessCommand.h"

#include "compute/io/JsonWriter.h"
#include "compute/model/Units.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace bv::app {

std::string shortestText(double value) {
    return io::shortestNumberText(value);
}

namespace {

class Arguments {
  public:
    void flag(const char* name) { m_words.emplace_back(name); }
    void word(const std::string& text) { m_words.push_back(text); }
    void number(const char* name, double value) {
        flag(name);
        m_words.push_back(shortestText(value));
    }
    void integer(const char* name, long value) {
        flag(name);
        m_words.push_back(std::to_string(value));
    }
    void vector(const char* name, const glm::dvec3& v) {
        flag(name);
        for (int i = 0; i < 3; ++i)
            m_words.push_back(shortestText(v[i]));
    }
    std::vector<std::string> take() { return std::move(m_words); }

  private:
    std::vector<std::string> m_words;
};

double mm(double metres) { return metres * 1000.0; }
double deg(double radians) { return units::degreesFromRadians(radians); }

} // namespace

std::vector<std::string> headlessArguments(const cli::CommandLine& cl, engine::Precision precision) {
    const Experiment& e = cl.experiment;
    Arguments a;
    if (!cl.mask.empty()) { // its header first: every option below overrides it
        a.flag("-mask");
        a.word(cl.mask);
    }

    // the laboratory frame
    switch (e.convention) {
    case Convention::Mosflm: a.flag("-mosflm"); break;
    case Convention::Xds: a.flag("-xds"); break;
    case Convention::Adxv: a.flag("-adxv"); break;
    case Convention::Denzo: a.flag("-denzo"); break;
    case Convention::Dials: a.flag("-dials"); break;
    case Convention::Custom: {
        const LabAxes& x = e.customAxes;
        a.vector("-beam_vector", x.beam);
        a.vector("-polar_vector", x.polarization);
        a.vector("-spindle_axis", x.spindle);
        a.vector("-twotheta_axis", x.twothetaAxis); // also sets -twotheta: given again below
        a.vector("-fdet_vector", x.fdet);
        a.vector("-sdet_vector", x.sdet);
        a.vector("-odet_vector", x.odet);
        break;
    }
    }

    // crystal
    const Crystal& c = e.crystal;
    if (!cl.mat.empty()) {
        a.flag("-mat");
        a.word(cl.mat);
    } else if (c.cell) {
        a.flag("-cell");
        for (double v : {c.cell->a, c.cell->b, c.cell->c})
            a.word(shortestText(v));
        for (double v : {c.cell->alpha, c.cell->beta, c.cell->gamma})
            a.word(shortestText(v == 0.0 ? 90.0 : deg(v)));
    }
    if (c.misset == MissetKind::Angles)
        a.vector("-misset", {deg(c.missetAngles.x), deg(c.missetAngles.y), deg(c.missetAngles.z)});
    else if (c.misset == MissetKind::Random) {
        a.flag("-misset");
        a.word("random");
    }
    a.integer("-Na", std::lround(c.cells.x));
    a.integer("-Nb", std::lround(c.cells.y));
    a.integer("-Nc", std::lround(c.cells.z));
    if (c.sampleSize.x > 0.0)
        a.number("-xtal_thick", mm(c.sampleSize.x));
    if (c.sampleSize.y > 0.0)
        a.number("-xtal_width", mm(c.sampleSize.y));
    if (c.sampleSize.z > 0.0)
        a.number("-xtal_height", mm(c.sampleSize.z));
    switch (c.shape) {
    case LatticeShape::Square: a.flag("-square_xtal"); break;
    case LatticeShape::Round: a.flag("-round_xtal"); break;
    case LatticeShape::Gauss: a.flag("-gauss_xtal"); break;
    case LatticeShape::Tophat: a.flag("-tophat_spots"); break;
    }
    a.number("-fudge", c.fudge);
    if (c.mosaicSpread)
        a.number("-mosaic", deg(*c.mosaicSpread));
    if (c.mosaicDomains)
        a.integer("-mosaic_dom", *c.mosaicDomains);
    a.integer("-mosaic_seed", -c.mosaicSeed);
    a.number("-phi", deg(c.phi0));
    if (c.phi.range)
        a.number("-osc", deg(*c.phi.range));
    if (c.phi.step)
        a.number("-phistep", deg(*c.phi.step));
    if (c.phi.steps)
        a.integer("-phisteps", *c.phi.steps);

    // beam
    const Beam& b = e.beam;
    a.number("-lambda", b.wavelength * 1e10);
    if (b.dispersion.range)
        a.number("-dispersion", *b.dispersion.range * 100.0);
    if (b.dispersion.steps)
        a.integer("-dispsteps", *b.dispersion.steps);
    const std::pair<const SweepRequest*, const char*> divergences[] = {
        {&b.horizontalDivergence, "h"}, {&b.verticalDivergence, "v"}};
    for (const auto& [sweep, axis] : divergences) {
        const std::string prefix = std::string("-") + axis;
        if (sweep->range)
            a.number((prefix + "divrange").c_str(), *sweep->range * 1000.0);
        if (sweep->step)
            a.number((prefix + "divstep").c_str(), *sweep->step * 1000.0);
        if (sweep->steps)
            a.integer((prefix + "divsteps").c_str(), *sweep->steps);
    }
    a.flag(b.roundDivergence ? "-round_div" : "-square_div");
    a.number("-polar", b.kahnFactor);
    if (!b.polarization)
        a.flag("-nopolar");
    a.number("-fluence", b.fluence);
    if (b.flux != 0.0) {
        a.number("-flux", b.flux);
        a.number("-exposure", b.exposure);
        a.number("-beamsize", mm(b.beamSize));
    }
    if (!cl.sourceFile.empty()) {
        a.flag("-sourcefile");
        a.word(cl.sourceFile);
    }

    // detector
    const Detector& d = e.detector;
    a.number("-pixel", mm(d.pixelSize));
    a.number("-detsize_f", mm(d.sizeFast));
    a.number("-detsize_s", mm(d.sizeSlow));
    // a file's panels not moved: where the file puts them (-distance would move them)
    if (!d.panelsFromSource() || d.distanceStated)
        a.number("-distance", mm(d.distance));
    if (d.closeDistance)
        a.number("-close_distance", mm(*d.closeDistance));
    if (d.beamX)
        a.number("-Xbeam", mm(*d.beamX));
    if (d.beamY)
        a.number("-Ybeam", mm(*d.beamY));
    if (d.closeX)
        a.number("-Xclose", mm(*d.closeX));
    if (d.closeY)
        a.number("-Yclose", mm(*d.closeY));
    if (d.orgX)
        a.number("-ORGX", *d.orgX);
    if (d.orgY)
        a.number("-ORGY", *d.orgY);
    a.number("-detector_rotx", deg(d.rotX));
    a.number("-detector_roty", deg(d.rotY));
    a.number("-detector_rotz", deg(d.rotZ));
    a.number("-twotheta", deg(d.twotheta));
    if (d.curved)
        a.flag("-curved_det");
    if (d.pointPixel)
        a.flag("-point_pixel");
    if (d.attenuationDepth) // before the thickness: "-detector_abs 0" also zeroes it
        a.number("-detector_abs", *d.attenuationDepth * 1e6);
    if (d.thickness.range)
        a.number("-detector_thick", *d.thickness.range * 1e6);
    if (d.thickness.steps)
        a.integer("-detector_thicksteps", *d.thickness.steps);
    a.flag("-pivot"); // last of the options that set the pivot
    a.word(pivotName(d.pivot));
    if (d.panelsFromSource()) { // a detector of several panels, read again from its source
        a.flag("-detector");
        a.word(d.panelsSource);
    }

    // sampling
    const Sampling& s = e.sampling;
    if (s.oversample)
        a.integer("-oversample", *s.oversample);
    if (s.oversampleThick)
        a.flag("-oversample_thick");
    if (s.oversamplePolar)
        a.flag("-oversample_polar");
    if (s.oversampleOmega)
        a.flag("-oversample_omega");
    if (s.roi) {
        a.flag("-roi");
        for (int v : {s.roi->xmin, s.roi->xmax, s.roi->ymin, s.roi->ymax})
            a.word(std::to_string(v));
    }
    if (s.dmin > 0.0)
        a.number("-dmin", s.dmin * 1e10);
    if (s.interpolation == Interpolation::Tricubic)
        a.flag("-interpolate");
    else if (s.interpolation == Interpolation::Nearest)
        a.flag("-nointerpolate");
    if (s.interpolationEdge == InterpolationEdge::Local)
        a.flag("-interpolate_local");
    if (e.waterThickness > 0.0)
        a.number("-water", e.waterThickness * 1e6);

    // structure factors, outputs, braggview's own
    if (!cl.hkl.empty()) {
        a.flag("-hkl");
        a.word(cl.hkl);
    }
    a.number("-default_F", e.structureFactors.defaultF);
    const cli::OutputOptions& o = cl.outputs;
    if (o.intScale > 0.0)
        a.number("-scale", o.intScale);
    if (o.pgmScale > 0.0)
        a.number("-pgmscale", o.pgmScale);
    if (o.adcOffset != 40.0)
        a.number("-adc", o.adcOffset);
    a.integer("-seed", -e.seed);
    a.flag("-precision");
    a.word(engine::precisionName(precision));
    if (c.missetSeed) // last: followed by three more words it would also be read as -misset
        a.integer("-misset_seed", -*c.missetSeed);
    return a.take();
}

QString headlessCommand(const cli::CommandLine& commandLine, engine::Precision precision) {
    QStringList words{QStringLiteral("braggview"), QStringLiteral("--headless")};
    for (const std::string& word : headlessArguments(commandLine, precision)) {
        QString w = QString::fromStdString(word);
        const bool plain = !w.isEmpty() && std::all_of(w.begin(), w.end(), [](QChar ch) {
            return ch.isLetterOrNumber() || QStringLiteral("-_.,/+=:@%").contains(ch);
        });
        if (!plain)
            w = QStringLiteral("'") + w.replace(QStringLiteral("'"), QStringLiteral("'\\''")) +
                QStringLiteral("'");
        words << w;
    }
    return words.join(QLatin1Char(' '));
}

} // namespace bv::app
