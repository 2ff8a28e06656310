#include "app/Session.h"

#include "compute/io/AtomicFile.h"
#include "compute/io/HklFile.h"
#include "compute/io/Smv.h"
#include "compute/model/Error.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <limits>
#include <sstream>

namespace bv::app {

namespace {

constexpr int kVersion = 1;
const char* kFormat = "braggview session";

// ---- writing -------------------------------------------------------------------------------

QJsonValue optional(const std::optional<double>& v) {
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}
QJsonValue optional(const std::optional<int>& v) {
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}
QJsonValue optional(const std::optional<long>& v) {
    return v ? QJsonValue(static_cast<double>(*v)) : QJsonValue(QJsonValue::Null);
}
QJsonArray vec(const glm::dvec3& v) {
    return {v.x, v.y, v.z};
}
QJsonObject sweep(const SweepRequest& s) {
    return {{"range", optional(s.range)}, {"step", optional(s.step)}, {"steps", optional(s.steps)}};
}
QJsonValue number(double v) {
    // NaN marks a missing source-file column: JSON has no NaN
    return std::isnan(v) ? QJsonValue(QJsonValue::Null) : QJsonValue(v);
}

const char* shapeKey(LatticeShape s) {
    switch (s) {
    case LatticeShape::Square: return "square";
    case LatticeShape::Round: return "round";
    case LatticeShape::Gauss: return "gauss";
    case LatticeShape::Tophat: return "tophat";
    }
    return "square";
}
const char* missetKey(MissetKind k) {
    switch (k) {
    case MissetKind::None: return "none";
    case MissetKind::Angles: return "angles";
    case MissetKind::Random: return "random";
    }
    return "none";
}
const char* interpolationKey(Interpolation i) {
    switch (i) {
    case Interpolation::Auto: return "auto";
    case Interpolation::Nearest: return "nearest";
    case Interpolation::Tricubic: return "tricubic";
    }
    return "auto";
}

QJsonObject experimentToJson(const Experiment& e) {
    QJsonObject axes{{"beam", vec(e.customAxes.beam)},
                     {"polarization", vec(e.customAxes.polarization)},
                     {"spindle", vec(e.customAxes.spindle)},
                     {"twothetaAxis", vec(e.customAxes.twothetaAxis)},
                     {"fdet", vec(e.customAxes.fdet)},
                     {"sdet", vec(e.customAxes.sdet)},
                     {"odet", vec(e.customAxes.odet)}};
    const Beam& b = e.beam;
    QJsonArray sources;
    for (const SourceRecord& s : b.sourceFile)
        sources.append(QJsonArray{number(s.X), number(s.Y), number(s.Z), number(s.weight), number(s.lambda)});
    QJsonObject beam{{"wavelength", b.wavelength},
                     {"dispersion", sweep(b.dispersion)},
                     {"horizontalDivergence", sweep(b.horizontalDivergence)},
                     {"verticalDivergence", sweep(b.verticalDivergence)},
                     {"roundDivergence", b.roundDivergence},
                     {"sourceFile", sources},
                     {"sourceDistance", b.sourceDistance},
                     {"kahnFactor", b.kahnFactor},
                     {"polarization", b.polarization},
                     {"fluence", b.fluence},
                     {"flux", b.flux},
                     {"exposure", b.exposure},
                     {"beamSize", b.beamSize}};
    const Detector& d = e.detector;
    QJsonObject detector{{"pixelSize", d.pixelSize},
                         {"sizeFast", d.sizeFast},
                         {"sizeSlow", d.sizeSlow},
                         {"distance", d.distance},
                         {"closeDistance", optional(d.closeDistance)},
                         {"beamX", optional(d.beamX)},
                         {"beamY", optional(d.beamY)},
                         {"closeX", optional(d.closeX)},
                         {"closeY", optional(d.closeY)},
                         {"orgX", optional(d.orgX)},
                         {"orgY", optional(d.orgY)},
                         {"pivot", pivotName(d.pivot)},
                         {"rotX", d.rotX},
                         {"rotY", d.rotY},
                         {"rotZ", d.rotZ},
                         {"twotheta", d.twotheta},
                         {"curved", d.curved},
                         {"pointPixel", d.pointPixel},
                         {"thickness", sweep(d.thickness)},
                         {"attenuationDepth", optional(d.attenuationDepth)}};
    const Crystal& c = e.crystal;
    QJsonValue cell = QJsonValue::Null;
    if (c.cell)
        cell = QJsonObject{{"a", c.cell->a},         {"b", c.cell->b},       {"c", c.cell->c},
                           {"alpha", c.cell->alpha}, {"beta", c.cell->beta}, {"gamma", c.cell->gamma}};
    QJsonValue matrix = QJsonValue::Null;
    if (c.mosflmMatrix) {
        QJsonArray columns;
        for (int i = 0; i < 3; ++i)
            columns.append(vec((*c.mosflmMatrix)[i]));
        matrix = columns;
    }
    QJsonObject crystal{{"cell", cell},
                        {"mosflmMatrix", matrix},
                        {"misset", missetKey(c.misset)},
                        {"missetAngles", vec(c.missetAngles)},
                        {"missetSeed", optional(c.missetSeed)},
                        {"cells", vec(c.cells)},
                        {"sampleSize", vec(c.sampleSize)},
                        {"shape", shapeKey(c.shape)},
                        {"fudge", c.fudge},
                        {"mosaicSpread", optional(c.mosaicSpread)},
                        {"mosaicDomains", optional(c.mosaicDomains)},
                        {"mosaicSeed", static_cast<double>(c.mosaicSeed)},
                        {"phi0", c.phi0},
                        {"phi", sweep(c.phi)}};
    const Sampling& s = e.sampling;
    QJsonValue roi = QJsonValue::Null;
    if (s.roi)
        roi = QJsonArray{s.roi->xmin, s.roi->xmax, s.roi->ymin, s.roi->ymax};
    QJsonObject sampling{{"oversample", optional(s.oversample)},
                         {"oversampleThick", s.oversampleThick},
                         {"oversamplePolar", s.oversamplePolar},
                         {"oversampleOmega", s.oversampleOmega},
                         {"roi", roi},
                         {"dmin", s.dmin},
                         {"interpolation", interpolationKey(s.interpolation)}};
    return {{"convention", conventionName(e.convention)},
            {"customAxes", axes},
            {"beam", beam},
            {"detector", detector},
            {"crystal", crystal},
            {"sampling", sampling},
            {"defaultF", e.structureFactors.defaultF},
            {"waterThickness", e.waterThickness},
            {"seed", static_cast<double>(e.seed)}};
}

// ---- reading -------------------------------------------------------------------------------

// Reads one object's keys, naming the path of a key that is missing or of the wrong type.
class Reader {
  public:
    Reader(QJsonObject object, std::string path) : m_object(std::move(object)), m_path(std::move(path)) {}

    Reader child(const char* key) const {
        const QJsonValue v = value(key);
        if (!v.isObject())
            fail(key, "an object");
        return Reader(v.toObject(), m_path + "." + key);
    }
    bool has(const char* key) const { return m_object.contains(QLatin1String(key)); }
    double number(const char* key) const {
        const QJsonValue v = value(key);
        if (!v.isDouble())
            fail(key, "a number");
        return v.toDouble();
    }
    std::optional<double> optionalNumber(const char* key) const {
        const QJsonValue v = value(key);
        if (v.isNull())
            return std::nullopt;
        if (!v.isDouble())
            fail(key, "a number or null");
        return v.toDouble();
    }
    int integer(const char* key) const { return toInt(key, number(key)); }
    std::optional<int> optionalInteger(const char* key) const {
        const std::optional<double> v = optionalNumber(key);
        if (!v)
            return std::nullopt;
        return toInt(key, *v);
    }
    long whole(const char* key) const {
        const double v = number(key);
        if (v != std::floor(v) || std::fabs(v) > 9.0e15)
            fail(key, "a whole number");
        return static_cast<long>(v);
    }
    bool boolean(const char* key) const {
        const QJsonValue v = value(key);
        if (!v.isBool())
            fail(key, "true or false");
        return v.toBool();
    }
    QString text(const char* key) const {
        const QJsonValue v = value(key);
        if (!v.isString())
            fail(key, "a string");
        return v.toString();
    }
    glm::dvec3 vector(const char* key) const {
        const QJsonValue v = value(key);
        if (!v.isArray() || v.toArray().size() != 3)
            fail(key, "an array of three numbers");
        const QJsonArray a = v.toArray();
        glm::dvec3 out;
        for (int i = 0; i < 3; ++i) {
            if (!a[i].isDouble())
                fail(key, "an array of three numbers");
            out[i] = a[i].toDouble();
        }
        return out;
    }
    SweepRequest sweep(const char* key) const {
        const Reader r = child(key);
        return {r.optionalNumber("range"), r.optionalNumber("step"), r.optionalInteger("steps")};
    }
    QJsonValue value(const char* key) const {
        const auto it = m_object.find(QLatin1String(key));
        if (it == m_object.end())
            throw Error(m_path + "." + key + ": missing");
        return *it;
    }
    [[noreturn]] void fail(const char* key, const char* expected) const {
        throw Error(m_path + "." + key + ": expected " + expected);
    }

  private:
    int toInt(const char* key, double v) const {
        if (v != std::floor(v) || std::fabs(v) > std::numeric_limits<int>::max())
            fail(key, "a whole number");
        return static_cast<int>(v);
    }

    QJsonObject m_object;
    std::string m_path;
};

template <typename Enum, std::size_t N>
Enum choose(const Reader& r, const char* key, const std::pair<const char*, Enum> (&choices)[N]) {
    const QString text = r.text(key);
    for (const auto& [name, value] : choices)
        if (text == QLatin1String(name))
            return value;
    std::string expected;
    for (std::size_t i = 0; i < N; ++i)
        expected += std::string(i ? ", " : "one of ") + choices[i].first;
    r.fail(key, expected.c_str());
}

Experiment experimentFromJson(const Reader& r) {
    Experiment e;
    const std::optional<Convention> convention = conventionFromName(r.text("convention").toStdString());
    if (!convention)
        r.fail("convention", "mosflm, xds, adxv, denzo, dials or custom");
    e.convention = *convention;
    const Reader axes = r.child("customAxes");
    e.customAxes = {axes.vector("beam"), axes.vector("polarization"), axes.vector("spindle"),
                    axes.vector("twothetaAxis"), axes.vector("fdet"), axes.vector("sdet"),
                    axes.vector("odet")};

    const Reader beam = r.child("beam");
    Beam& b = e.beam;
    b.wavelength = beam.number("wavelength");
    b.dispersion = beam.sweep("dispersion");
    b.horizontalDivergence = beam.sweep("horizontalDivergence");
    b.verticalDivergence = beam.sweep("verticalDivergence");
    b.roundDivergence = beam.boolean("roundDivergence");
    const QJsonValue sources = beam.value("sourceFile");
    if (!sources.isArray())
        beam.fail("sourceFile", "an array");
    for (const QJsonValue& line : sources.toArray()) {
        const QJsonArray v = line.toArray();
        if (!line.isArray() || v.size() != 5)
            beam.fail("sourceFile", "arrays of five numbers (null for a missing column)");
        double x[5];
        for (int i = 0; i < 5; ++i)
            x[i] = v[i].isNull() ? std::nan("") : v[i].toDouble();
        b.sourceFile.push_back({x[0], x[1], x[2], x[3], x[4]});
    }
    b.sourceDistance = beam.number("sourceDistance");
    b.kahnFactor = beam.number("kahnFactor");
    b.polarization = beam.boolean("polarization");
    b.fluence = beam.number("fluence");
    b.flux = beam.number("flux");
    b.exposure = beam.number("exposure");
    b.beamSize = beam.number("beamSize");

    const Reader detector = r.child("detector");
    Detector& d = e.detector;
    d.pixelSize = detector.number("pixelSize");
    d.sizeFast = detector.number("sizeFast");
    d.sizeSlow = detector.number("sizeSlow");
    d.distance = detector.number("distance");
    d.closeDistance = detector.optionalNumber("closeDistance");
    d.beamX = detector.optionalNumber("beamX");
    d.beamY = detector.optionalNumber("beamY");
    d.closeX = detector.optionalNumber("closeX");
    d.closeY = detector.optionalNumber("closeY");
    d.orgX = detector.optionalNumber("orgX");
    d.orgY = detector.optionalNumber("orgY");
    d.pivot = choose(detector, "pivot", {std::pair{"beam", Pivot::Beam}, std::pair{"sample", Pivot::Sample}});
    d.rotX = detector.number("rotX");
    d.rotY = detector.number("rotY");
    d.rotZ = detector.number("rotZ");
    d.twotheta = detector.number("twotheta");
    d.curved = detector.boolean("curved");
    d.pointPixel = detector.boolean("pointPixel");
    d.thickness = detector.sweep("thickness");
    d.attenuationDepth = detector.optionalNumber("attenuationDepth");
    if (!(d.pixelSize > 0.0) || d.fastPixels() < 1 || d.slowPixels() < 1 ||
        d.fastPixels() > 32768 || d.slowPixels() > 32768)
        throw Error("experiment.detector: the pixel size and detector size give no usable detector");

    const Reader crystal = r.child("crystal");
    Crystal& c = e.crystal;
    if (!crystal.value("cell").isNull()) {
        const Reader cell = crystal.child("cell");
        c.cell = UnitCell{cell.number("a"),     cell.number("b"),    cell.number("c"),
                          cell.number("alpha"), cell.number("beta"), cell.number("gamma")};
    }
    const QJsonValue matrix = crystal.value("mosflmMatrix");
    if (!matrix.isNull()) {
        const QJsonArray columns = matrix.toArray();
        if (!matrix.isArray() || columns.size() != 3)
            crystal.fail("mosflmMatrix", "three columns of three numbers, or null");
        glm::dmat3 m(0.0);
        for (int i = 0; i < 3; ++i) {
            const QJsonArray column = columns[i].toArray();
            if (column.size() != 3)
                crystal.fail("mosflmMatrix", "three columns of three numbers, or null");
            for (int j = 0; j < 3; ++j)
                m[i][j] = column[j].toDouble();
        }
        c.mosflmMatrix = m;
    }
    c.misset = choose(crystal, "misset",
                      {std::pair{"none", MissetKind::None}, std::pair{"angles", MissetKind::Angles},
                       std::pair{"random", MissetKind::Random}});
    c.missetAngles = crystal.vector("missetAngles");
    if (!crystal.value("missetSeed").isNull())
        c.missetSeed = crystal.whole("missetSeed");
    c.cells = crystal.vector("cells");
    c.sampleSize = crystal.vector("sampleSize");
    c.shape = choose(crystal, "shape",
                     {std::pair{"square", LatticeShape::Square}, std::pair{"round", LatticeShape::Round},
                      std::pair{"gauss", LatticeShape::Gauss}, std::pair{"tophat", LatticeShape::Tophat}});
    c.fudge = crystal.number("fudge");
    c.mosaicSpread = crystal.optionalNumber("mosaicSpread");
    c.mosaicDomains = crystal.optionalInteger("mosaicDomains");
    c.mosaicSeed = crystal.whole("mosaicSeed");
    c.phi0 = crystal.number("phi0");
    c.phi = crystal.sweep("phi");

    const Reader sampling = r.child("sampling");
    Sampling& s = e.sampling;
    s.oversample = sampling.optionalInteger("oversample");
    s.oversampleThick = sampling.boolean("oversampleThick");
    s.oversamplePolar = sampling.boolean("oversamplePolar");
    s.oversampleOmega = sampling.boolean("oversampleOmega");
    const QJsonValue roi = sampling.value("roi");
    if (!roi.isNull()) {
        const QJsonArray v = roi.toArray();
        if (!roi.isArray() || v.size() != 4)
            sampling.fail("roi", "four whole numbers, or null");
        s.roi = Roi{v[0].toInt(), v[1].toInt(), v[2].toInt(), v[3].toInt()};
    }
    s.dmin = sampling.number("dmin");
    s.interpolation = choose(sampling, "interpolation",
                             {std::pair{"auto", Interpolation::Auto}, std::pair{"nearest", Interpolation::Nearest},
                              std::pair{"tricubic", Interpolation::Tricubic}});
    e.structureFactors.defaultF = r.number("defaultF");
    e.waterThickness = r.number("waterThickness");
    e.seed = r.whole("seed");
    return e;
}

QJsonObject viewToJson(const ViewState& v) {
    const render::DisplaySettings& d = v.display;
    QJsonObject view{{"colormap", render::colormapKey(d.colormap)},
                     {"scaling", render::scalingName(d.scaling)},
                     {"black", static_cast<double>(d.black)},
                     {"white", static_cast<double>(d.white)},
                     {"overloadOn", d.overloadOn},
                     {"overload", static_cast<double>(d.overload)},
                     {"autoContrast", v.autoContrast},
                     {"overlays", QJsonObject{{"beamCentre", v.overlays.beamCentre},
                                              {"rings", v.overlays.rings},
                                              {"spots", v.overlays.spots},
                                              {"spotLabels", v.overlays.spotLabels}}}};
    if (v.view) {
        view.insert(QStringLiteral("origin"), QJsonArray{v.view->origin().x(), v.view->origin().y()});
        view.insert(QStringLiteral("scale"), v.view->scale());
    }
    return view;
}

ViewState viewFromJson(const Reader& r) {
    ViewState v;
    render::DisplaySettings& d = v.display;
    if (!render::colormapFromKey(r.text("colormap"), &d.colormap))
        r.fail("colormap", "grey, inverted-grey, viridis or heat");
    if (!render::scalingFromKey(r.text("scaling"), &d.scaling))
        r.fail("scaling", "linear, sqrt or log");
    d.black = static_cast<float>(r.number("black"));
    d.white = static_cast<float>(r.number("white"));
    d.overloadOn = r.boolean("overloadOn");
    d.overload = static_cast<float>(r.number("overload"));
    v.autoContrast = r.boolean("autoContrast");
    const Reader o = r.child("overlays");
    v.overlays = {o.boolean("beamCentre"), o.boolean("rings"), o.boolean("spots"), o.boolean("spotLabels")};
    if (r.has("scale")) {
        const QJsonArray origin = r.value("origin").toArray();
        if (origin.size() != 2)
            r.fail("origin", "two numbers");
        render::ViewTransform t;
        t.set(QPointF(origin[0].toDouble(), origin[1].toDouble()), r.number("scale"));
        v.view = t;
    }
    return v;
}

QString absolute(const std::string& path) {
    return path.empty() ? QString() : QFileInfo(QString::fromStdString(path)).absoluteFilePath();
}

} // namespace

QJsonObject sessionToJson(const Session& session) {
    const cli::CommandLine& cl = session.commandLine;
    QJsonObject files{{"hkl", absolute(cl.hkl)},
                      {"mat", absolute(cl.mat)},
                      {"sourceFile", absolute(cl.sourceFile)},
                      {"mask", absolute(cl.mask)},
                      {"dump", QString::fromStdString(cl.dumpFile)}};
    QJsonObject outputs{{"intScale", cl.outputs.intScale},
                        {"pgmScale", cl.outputs.pgmScale},
                        {"adcOffset", cl.outputs.adcOffset}};
    return {{"format", QLatin1String(kFormat)},
            {"version", kVersion},
            {"experiment", experimentToJson(cl.experiment)},
            {"files", files},
            {"outputs", outputs},
            {"precision", engine::precisionName(session.precision)},
            {"view", viewToJson(session.view)}};
}

Session sessionFromJson(const QJsonObject& json) {
    const Reader root(json, "session");
    if (root.text("format") != QLatin1String(kFormat))
        root.fail("format", "\"braggview session\"");
    if (root.integer("version") != kVersion)
        throw Error("session.version: this braggview reads version " + std::to_string(kVersion));
    Session s;
    s.commandLine.experiment = experimentFromJson(root.child("experiment"));
    const Reader files = root.child("files");
    cli::CommandLine& cl = s.commandLine;
    cl.hkl = files.text("hkl").toStdString();
    cl.mat = files.text("mat").toStdString();
    cl.sourceFile = files.text("sourceFile").toStdString();
    cl.mask = files.text("mask").toStdString();
    cl.dumpFile = files.text("dump").toStdString();
    const Reader outputs = root.child("outputs");
    cl.outputs.intScale = outputs.number("intScale");
    cl.outputs.pgmScale = outputs.number("pgmScale");
    cl.outputs.adcOffset = outputs.number("adcOffset");
    const std::optional<engine::Precision> precision =
        engine::precisionFromName(root.text("precision").toStdString());
    if (!precision)
        root.fail("precision", "fast or precise");
    s.precision = *precision;
    cl.precision = s.precision == engine::Precision::Fast ? cli::Precision::Fast : cli::Precision::Precise;
    s.view = viewFromJson(root.child("view"));

    // the tables the files hold
    Experiment& e = cl.experiment;
    if (!cl.hkl.empty()) {
        std::ostringstream log;
        e.structureFactors = io::readHkl(cl.hkl, e.structureFactors.defaultF, log);
    }
    if (!cl.mask.empty()) {
        io::SmvImage mask = io::readSmv(cl.mask);
        if (mask.width != e.detector.fastPixels() || mask.height != e.detector.slowPixels())
            throw Error(cl.mask + ": the mask does not fit the session's detector");
        e.mask = std::move(mask.data);
    }
    if (!e.crystal.cell && !e.crystal.mosflmMatrix)
        throw Error("session.experiment.crystal: neither a cell nor a matrix");
    return s;
}

void saveSession(const QString& path, const Session& session) {
    const QByteArray text = QJsonDocument(sessionToJson(session)).toJson(QJsonDocument::Indented);
    io::AtomicFile file(path.toStdString());
    file.write(text.constData(), static_cast<std::size_t>(text.size()));
    file.commit();
}

Session loadSession(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw Error(path.toStdString() + ": cannot open: " + file.errorString().toStdString());
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError)
        throw Error(path.toStdString() + ": not JSON at byte " + std::to_string(error.offset) + ": " +
                    error.errorString().toStdString());
    if (!document.isObject())
        throw Error(path.toStdString() + ": not a braggview session (no JSON object)");
    try {
        return sessionFromJson(document.object());
    } catch (const Error& e) {
        throw Error(path.toStdString() + ": " + e.what());
    }
}

} // namespace bv::app
