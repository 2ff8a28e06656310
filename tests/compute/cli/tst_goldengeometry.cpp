// The command line and the model's derivations against the reference itself: for every case
// in tests/data/golden/<case>/, the arguments nanoBragg ran with (args.txt) go through
// parseCommandLine(), loadInputs() and resolve(), and everything nanoBragg printed before its
// pixel loop (stdout.txt) must come out the same: convention, pivot, cell, crystal size,
// sampling, sources, mosaic domains, detector placement, beam centres, axes, region of
// interest, divergence. The expected numbers are read from stdout.txt, with a tolerance that
// matches how they were printed (%g: 6 significant digits; %11.8f: 8 decimals; %f: 6).
//
// The input files the arguments name (P1.hkl, A.mat, ...) are copied from tests/data/inputs
// into a fresh working directory per case, as nanoBragg ran in one.

#include "compute/cli/CommandLine.h"
#include "compute/request/Inputs.h"
#include "compute/model/Resolve.h"
#include "compute/model/Units.h"
#include "compute/random/ReferenceRandom.h"

#include <QTest>

#include <QDir>
#include <QFile>
#include <QMap>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using bv::RunRequest;

namespace {

const QString kGolden = QStringLiteral(BV_TEST_DATA "/golden");
const QString kInputs = QStringLiteral(BV_TEST_DATA "/inputs");

// The reference rendered every golden case with these options appended to args.txt
// (tests/data/golden/README.md); they are part of the command line it read, and one case
// depends on them (misset_random: see goldenRunArguments below).
QString goldenRunArguments(QString args) {
    args += " -floatfile float.bin -noprogress";
    if (!args.contains("-pgmfile") && !args.contains("-noisefile"))
        args += " -nopgm -nonoise";
    return args;
}

// ---- stdout.txt --------------------------------------------------------------------------

// One printed line's numbers, by what it reports. Lines printed once per item (phi steps,
// sources, ...) append.
struct Summary {
    QMap<QString, QVector<std::vector<double>>> numbers;
    QMap<QString, QString> words;

    bool has(const QString& key) const { return numbers.contains(key); }
    // the numbers of the i-th line reporting `key`; NaNs (failing any comparison) when the
    // reference printed no such line
    std::vector<double> at(const QString& key, int i = 0) const {
        const auto lines = numbers.value(key);
        if (i < lines.size())
            return lines[i];
        return std::vector<double>(8, std::nan(""));
    }
    int count(const QString& key) const { return static_cast<int>(numbers.value(key).size()); }
};

const QString kNumber = QStringLiteral("([-+]?(?:nan|inf|[0-9.]+(?:e[-+]?[0-9]+)?))");

// key, then the line as a pattern; "#" stands for a number
const std::pair<const char*, const char*> kLinePatterns[] = {
    {"incident", "^XDS incident beam: # # #$"},
    {"unitCell", "^Unit Cell: # # # # # #$"},
    {"recpCell", "^Recp Cell: # # # # # #$"},
    {"volume", "^volume = # A\\^3$"},
    {"crystalSize", "^crystal is # x # x # microns$"},
    {"autoOversample", "^auto-selected #-fold oversampling$"},
    {"mw", "^approximate MW = #$"},
    {"thick", "^thick# = # um$"},
    {"phi", "^phi# = #$"},
    {"deviation", "^divergence deviation: # #$"},
    {"lambda", "^lambda# = #$"},
    {"sourceCount", "^  created a total of # sources:$"},
    {"source", "^# # #   # #$"},
    {"domainCount", "^  created a total of # mosaic domains$"},
    {"hkls", "^  # initialized hkls \\(all others =#\\)$"},
    {"cells", "^  \\S+ xtal: #x#x# cells$"},
    {"wave", "^  wave=# meters \\+/- #% in # steps$"},
    {"kahn", "^  Kahn polarization factor: #$"},
    {"fluence", "^  incident fluence: # photons/m\\^2$"},
    {"detector", "^  distance=# detsize=#x#  pixel=# meters \\(#x# pixels\\)$"},
    {"sensor", "^  sensor is # m thick in # layers with mu= #$"},
    {"beam", "^  Xbeam=# Ybeam=#$"},
    {"fsBeam", "^  Fbeam=# Sbeam=#$"},
    {"close", "^  Xclose=# Yclose=#$"},
    {"fsClose", "^  Fclose=# Sclose=#$"},
    {"fdet", "^  DIRECTION_OF_DETECTOR_X-AXIS= # # #$"},
    {"sdet", "^  DIRECTION_OF_DETECTOR_Y-AXIS= # # #$"},
    {"odet", "^  DIRECTION_OF_DETECTOR_Z-AXIS= # # #$"},
    {"beamVector", "^  INCIDENT_BEAM_DIRECTION= # # #$"},
    {"spindle", "^  spindle ROTATION_AXIS= # # #$"},
    {"polarNormal", "^  POLARIZATION_PLANE_NORMAL= # # #$"},
    {"dials", "^  dials origin= # # #$"},
    {"roi", "^  roi: # < x < # && # < y < #$"},
    {"hdiv", "^  hdivrange=# hdivstep=#  radians$"},
    {"vdiv", "^  vdivrange=# vdivstep=#  radians$"},
    {"divSteps", "^  # divergence steps$"},
    {"sources", "^  # sources$"},
    {"mosaic", "^  # mosaic domains over mosaic spread of # degrees$"},
    {"phiSteps", "^  # phi steps from # to # degrees$"},
    {"oversample", "^  #x# pixel oversample steps"},
    {"seed", "^  seed: #$"},
    {"misset", "^random orientation misset angles: # # # deg$"},
    {"water", "^  water droplet size: # m$"},
};

// rows of the cell-vector tables: "X: a b c" under "real-space ..." or "reciprocal-space ..."
const QRegularExpression kVectorRow(QStringLiteral("^([XYZ]): +") + kNumber + " +" + kNumber +
                                    " +" + kNumber + "$");

Summary parseSummary(const QString& text) {
    static const auto compiled = [] {
        std::vector<std::pair<QString, QRegularExpression>> list;
        for (const auto& [key, pattern] : kLinePatterns)
            list.emplace_back(key, QRegularExpression(QString(pattern).replace("#", kNumber)));
        return list;
    }();
    static const QRegularExpression convention(QStringLiteral("^(\\w+) convention selected\\.$"));
    static const QRegularExpression pivot(QStringLiteral("^pivoting detector around (.*)$"));
    static const QRegularExpression interpolation(
        QStringLiteral("^auto-selected (tricubic|no) interpolation"));
    static const QRegularExpression shape(QStringLiteral("^  (\\S+) xtal: "));

    Summary s;
    QString table;
    const QStringList lines = text.split('\n');
    for (const QString& line : lines) {
        if (auto m = convention.match(line); m.hasMatch())
            s.words["convention"] = m.captured(1);
        if (auto m = pivot.match(line); m.hasMatch())
            s.words["pivot"] = m.captured(1);
        if (auto m = interpolation.match(line); m.hasMatch())
            s.words["interpolation"] = m.captured(1);
        if (auto m = shape.match(line); m.hasMatch())
            s.words["shape"] = m.captured(1);
        if (line == "  polarization effect disabled")
            s.words["nopolar"] = "yes";
        if (line.startsWith("  curved detector"))
            s.words["curved"] = "yes";
        if (line == "  pixel obliquity effect disabled")
            s.words["pointPixel"] = "yes";
        if (line.startsWith("  ") && line.contains(" pixel oversample steps"))
            s.words["oversampleFlags"] = line.section("steps", 1).trimmed();
        if (line.startsWith("real-space cell vectors"))
            table = "real";
        if (line.startsWith("reciprocal-space cell vectors"))
            table = "recip";
        if (auto m = kVectorRow.match(line); m.hasMatch() && !table.isEmpty()) {
            s.numbers[table + m.captured(1)].append(
                {m.captured(2).toDouble(), m.captured(3).toDouble(), m.captured(4).toDouble()});
            continue;
        }
        for (const auto& [key, re] : compiled) {
            const auto m = re.match(line);
            if (!m.hasMatch())
                continue;
            std::vector<double> values;
            for (int i = 1; i <= m.lastCapturedIndex(); ++i)
                values.push_back(m.captured(i).toDouble());
            s.numbers[key].append(values);
            break;
        }
    }
    return s;
}

Summary readSummary(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        qFatal("cannot read %s", qPrintable(path));
    return parseSummary(QString::fromUtf8(file.readAll()));
}

// ---- comparison --------------------------------------------------------------------------

// Collects every disagreement so that one failing case shows all of them.
class Checker {
public:
    // %g printout: 6 significant digits, plus `absolute` for values that are zero up to
    // rounding in either program
    void g(const QString& what, double actual, double printed, double absolute) {
        check(what, actual, printed, 6e-6 * std::fabs(printed) + absolute);
    }
    // fixed-point printout with `decimals` decimals
    void fixed(const QString& what, double actual, double printed, int decimals) {
        check(what, actual, printed, 0.51 * std::pow(10.0, -decimals) + 1e-12 * std::fabs(printed));
    }
    // %.15g printout
    void g15(const QString& what, double actual, double printed) {
        check(what, actual, printed, 1e-14 * std::fabs(printed));
    }
    void exact(const QString& what, double actual, double printed) { check(what, actual, printed, 0.0); }
    void g3(const QString& what, const glm::dvec3& actual, const std::vector<double>& printed,
            double absolute) {
        for (int i = 0; i < 3; ++i)
            g(what + "[" + QString::number(i) + "]", actual[i], printed.at(std::size_t(i)), absolute);
    }
    void same(const QString& what, const QString& actual, const QString& printed) {
        if (actual != printed)
            m_failures << QString("%1: braggview '%2', reference '%3'").arg(what, actual, printed);
    }
    void missing(const QString& what) { m_failures << what + ": not found in stdout.txt"; }
    const QStringList& failures() const { return m_failures; }

private:
    void check(const QString& what, double actual, double printed, double tolerance) {
        if (std::fabs(actual - printed) <= tolerance)
            return;
        m_failures << QString("%1: braggview %2, reference printed %3")
                          .arg(what)
                          .arg(actual, 0, 'g', 12)
                          .arg(printed, 0, 'g', 12);
    }
    QStringList m_failures;
};

// The laboratory frame and the detector's placement, as the summary prints them.
void checkDetector(Checker& c, const Summary& s, const bv::ResolvedExperiment& r) {
    const bv::DetectorGeometry& d = r.detector;
    c.same("convention", bv::conventionName(r.convention), s.words.value("convention"));
    c.same("pivot", d.pivot == bv::Pivot::Sample ? "sample" : "direct beam spot", s.words.value("pivot"));
    c.g3("XDS incident beam", d.beamInDetector, s.at("incident"), 1e-12);
    c.g3("INCIDENT_BEAM_DIRECTION", r.axes.beam, s.at("beamVector"), 1e-12);
    c.g3("spindle ROTATION_AXIS", r.axes.spindle, s.at("spindle"), 1e-12);
    c.g3("POLARIZATION_PLANE_NORMAL", glm::cross(r.axes.beam, r.axes.polarization), s.at("polarNormal"), 1e-12);
    const auto det = s.at("detector");
    c.g("distance", d.distance, det[0], 0.0);
    c.g("detsize_f", d.sizeFast, det[1], 0.0);
    c.g("detsize_s", d.sizeSlow, det[2], 0.0);
    c.g("pixel", d.pixelSize, det[3], 0.0);
    c.exact("fpixels", d.fastPixels, det[4]);
    c.exact("spixels", d.slowPixels, det[5]);
    c.g("Xbeam", d.Xbeam, s.at("beam")[0], 1e-12);
    c.g("Ybeam", d.Ybeam, s.at("beam")[1], 1e-12);
    c.g("Fbeam", d.Fbeam, s.at("fsBeam")[0], 1e-12);
    c.g("Sbeam", d.Sbeam, s.at("fsBeam")[1], 1e-12);
    c.g("Xclose", d.Xclose, s.at("close")[0], 1e-12);
    c.g("Yclose", d.Yclose, s.at("close")[1], 1e-12);
    c.g("Fclose", d.Fclose, s.at("fsClose")[0], 1e-12);
    c.g("Sclose", d.Sclose, s.at("fsClose")[1], 1e-12);
    c.g3("DIRECTION_OF_DETECTOR_X-AXIS", d.fdet, s.at("fdet"), 1e-12);
    c.g3("DIRECTION_OF_DETECTOR_Y-AXIS", d.sdet, s.at("sdet"), 1e-12);
    c.g3("DIRECTION_OF_DETECTOR_Z-AXIS", d.odet, s.at("odet"), 1e-12);
    c.g3("dials origin (mm)", d.dialsOrigin, s.at("dials"), 1e-9);
}

double degrees(double radians) { return bv::units::degreesFromRadians(radians); }

QStringList caseNames() {
    return QDir(kGolden).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
}

QString readArgs(const QString& caseName) {
    QFile file(kGolden + "/" + caseName + "/args.txt");
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        qFatal("cannot read args of %s", qPrintable(caseName));
    return QString::fromUtf8(file.readAll()).simplified();
}

std::vector<std::string> split(const QString& args) {
    std::vector<std::string> out;
    for (const QString& token : args.split(' ', Qt::SkipEmptyParts))
        out.push_back(token.toStdString());
    return out;
}

// Runs parse + load + resolve with the case's inputs in a fresh working directory.
struct Run {
    RunRequest cl;
    bv::ResolvedExperiment r;
};

Run runCase(const QString& args) {
    QTemporaryDir work;
    if (!work.isValid())
        qFatal("no temporary directory");
    for (const QString& name : QDir(kInputs).entryList(QDir::Files))
        QFile::copy(kInputs + "/" + name, work.filePath(name));
    const QString previous = QDir::currentPath();
    QDir::setCurrent(work.path());
    Run run;
    try {
        run.cl = bv::cli::parseCommandLine(split(args));
        std::ostringstream log;
        bv::request::loadInputs(run.cl, log);
        bv::random::ReferenceRandom rng;
        run.r = bv::resolve(run.cl.experiment, rng, log);
    } catch (...) {
        QDir::setCurrent(previous);
        throw;
    }
    QDir::setCurrent(previous);
    run.r.structureFactors = nullptr; // the experiment it pointed into was copied
    return run;
}

// Everything the reference printed about the run, compared with braggview's resolved
// experiment. `complete`: the printout is a whole stdout.txt, so a line that is missing is a
// failure; otherwise only the lines present are compared.
void checkSummary(Checker& c, const Summary& s, const Run& run, const QString& args, bool complete) {
    auto printed = [&](const char* key) { return complete || s.has(key); };
    const bv::ResolvedExperiment& r = run.r;
    const bv::StructureFactors& sf = run.cl.experiment.structureFactors;

    // -- cell
    if (printed("unitCell")) {
        const auto uc = s.at("unitCell");
        const bv::UnitCell& cell = r.cell.cell;
        const double cellValues[] = {cell.a, cell.b, cell.c, degrees(cell.alpha), degrees(cell.beta), degrees(cell.gamma)};
        for (int i = 0; i < 6; ++i)
            c.g("Unit Cell[" + QString::number(i) + "]", cellValues[i], uc.at(std::size_t(i)), 1e-9);
        const auto rc = s.at("recpCell");
        const bv::UnitCell& recp = r.cell.reciprocal;
        const double recpValues[] = {recp.a, recp.b, recp.c, degrees(recp.alpha), degrees(recp.beta), degrees(recp.gamma)};
        for (int i = 0; i < 6; ++i)
            c.g("Recp Cell[" + QString::number(i) + "]", recpValues[i], rc.at(std::size_t(i)), 1e-9);
        c.g("volume", r.cell.volume, s.at("volume")[0], 0.0);
        const char axisName[] = {'X', 'Y', 'Z'};
        for (int row = 0; row < 3; ++row) {
            const QString x = QString(axisName[row]);
            const auto real = s.at("real" + x);
            const auto recip = s.at("recip" + x);
            c.fixed("a." + x, r.cell.a[row], real[0], 8);
            c.fixed("b." + x, r.cell.b[row], real[1], 8);
            c.fixed("c." + x, r.cell.c[row], real[2], 8);
            c.fixed("a_star." + x, r.cell.aStar[row], recip[0], 8);
            c.fixed("b_star." + x, r.cell.bStar[row], recip[1], 8);
            c.fixed("c_star." + x, r.cell.cStar[row], recip[2], 8);
        }
    }

    // -- crystal, sampling
    if (printed("crystalSize")) {
        c.g3("crystal size (um)", r.crystalSize * 1e6, s.at("crystalSize"), 1e-12);
        if (s.has("autoOversample"))
            c.exact("auto-selected oversample", r.oversample, s.at("autoOversample")[0]);
        c.exact("oversample", r.oversample, s.at("oversample")[0]);
        QString flags;
        if (r.oversampleThick) flags += "+thick ";
        if (r.oversamplePolar) flags += "+polar ";
        if (r.oversampleOmega) flags += "+omega ";
        c.same("oversample flags", flags.trimmed(), s.words.value("oversampleFlags"));
        c.g("approximate MW", r.approximateMolecularWeight, s.at("mw")[0], 0.0);
        const auto cells = s.at("cells");
        c.g3("cells", r.cells, cells, 0.0);
        const QMap<bv::LatticeShape, QString> shapeWords = {{bv::LatticeShape::Square, "parallelpiped"},
                                                            {bv::LatticeShape::Round, "ellipsoidal"},
                                                            {bv::LatticeShape::Gauss, "gaussian"},
                                                            {bv::LatticeShape::Tophat, "tophat-spot"}};
        c.same("crystal shape", shapeWords.value(r.shape), s.words.value("shape"));
        const bool interpolationAsked = args.contains("-interpolate") && !args.contains("-nointerpolate");
        const bool interpolationChosen = s.words.contains("interpolation")
                                             ? s.words.value("interpolation") == "tricubic"
                                             : interpolationAsked;
        c.exact("interpolate", r.interpolate, interpolationChosen && sf.reflectionCount > 0);
        c.exact("hkls", double(sf.reflectionCount), s.at("hkls")[0]);
        c.g("default_F", sf.defaultF, s.at("hkls")[1], 0.0);
    }

    // -- spindle
    if (printed("phiSteps")) {
        c.exact("phi steps", r.phi.steps, s.at("phiSteps")[0]);
        c.g("phi start (deg)", degrees(r.phi0), s.at("phiSteps")[1], 1e-12);
        c.g("phi end (deg)", degrees(r.phi0 + r.phi.range), s.at("phiSteps")[2], 1e-12);
        c.exact("phi lines", s.count("phi"), r.phi.steps);
        for (int i = 0; i < s.count("phi"); ++i)
            c.g("phi" + QString::number(i), degrees(r.phi0 + r.phi.step * i), s.at("phi", i)[1], 1e-9);
    }

    // -- sensor
    if (printed("sensor")) {
        const auto sensor = s.at("sensor");
        c.g("sensor thickness", r.thickness.range, sensor[0], 0.0);
        c.exact("sensor layers", r.thickness.steps, sensor[1]);
        // the reference prints its "unset" -1 when there is no absorption; the model keeps 0
        c.g("sensor mu", r.mu, sensor[2] < 0.0 ? 0.0 : sensor[2], 0.0);
        c.exact("thick lines", s.count("thick"), r.thickness.steps);
        for (int i = 0; i < s.count("thick"); ++i)
            c.g("thick" + QString::number(i), r.thickness.step * i * 1e6, s.at("thick", i)[1], 1e-9);
    }

    // -- beam and sources
    if (printed("wave")) {
        const auto wave = s.at("wave");
        c.g("wavelength", r.wavelength, wave[0], 0.0);
        c.g("dispersion (%)", r.dispersion.range * 100.0, wave[1], 1e-12);
        c.exact("dispersion steps", r.dispersion.steps, wave[2]);
        if (s.words.contains("nopolar"))
            c.exact("polarization", r.polarization, false);
        else
            c.fixed("Kahn factor", r.kahnFactor, s.at("kahn")[0], 6);
        c.g("fluence", r.fluence, s.at("fluence")[0], 0.0);
        c.exact("sources", double(r.sources.size()), s.at("sources")[0]);
        c.exact("sources created", double(r.sources.size()), s.at("sourceCount")[0]);
        c.exact("source lines", s.count("source"), double(r.sources.size()));
        for (int i = 0; i < s.count("source") && i < int(r.sources.size()); ++i) {
            const auto line = s.at("source", i);
            const bv::Source& src = r.sources[std::size_t(i)];
            const QString n = "source" + QString::number(i);
            c.g3(n + " position", src.position, line, 1e-9);
            c.g(n + " weight", src.weight, line[3], 0.0);
            c.g(n + " lambda", src.wavelength, line[4], 0.0);
        }
        for (int i = 0; i < s.count("lambda"); ++i) // %.15g: the first position's wavelengths
            c.g15("lambda" + QString::number(i), r.sources.at(std::size_t(i)).wavelength, s.at("lambda", i)[1]);
        c.exact("divergence steps", r.divergenceSteps, s.at("divSteps")[0]);
        c.exact("divergence deviation lines", s.count("deviation"), r.sources.empty() || !run.cl.experiment.beam.sourceFile.empty() ? 0 : r.divergenceSteps);
        c.g("hdivrange", r.horizontalDivergence.range, s.at("hdiv")[0], 0.0);
        c.g("hdivstep", r.horizontalDivergence.step, s.at("hdiv")[1], 0.0);
        c.g("vdivrange", r.verticalDivergence.range, s.at("vdiv")[0], 0.0);
        c.g("vdivstep", r.verticalDivergence.step, s.at("vdiv")[1], 0.0);
    }

    // -- mosaicity
    if (printed("mosaic")) {
        c.exact("mosaic domains", double(r.mosaicDomains.size()), s.at("mosaic")[0]);
        c.exact("mosaic domains created", double(r.mosaicDomains.size()), s.at("domainCount")[0]);
        c.g("mosaic spread (deg)", degrees(r.mosaicSpread), s.at("mosaic")[1], 1e-12);
    }

    if (printed("detector"))
        checkDetector(c, s, r);
    if (printed("detector")) {
        c.exact("curved", r.curved, s.words.contains("curved"));
        c.exact("point pixel", r.pointPixel, s.words.contains("pointPixel"));
    }
    if (printed("roi")) {
        const auto roi = s.at("roi");
        c.exact("roi xmin", r.roi.xmin, roi[0]);
        c.exact("roi xmax", r.roi.xmax, roi[1]);
        c.exact("roi ymin", r.roi.ymin, roi[2]);
        c.exact("roi ymax", r.roi.ymax, roi[3]);
    }

    // -- orientation drawn for -misset random (%f)
    if (s.has("misset")) {
        c.exact("random misset", r.randomMisset, true);
        for (int i = 0; i < 3; ++i)
            c.fixed("misset angle " + QString::number(i), degrees(r.missetAngles[i]), s.at("misset")[std::size_t(i)], 6);
    }

    // -- noise image
    if (s.has("seed"))
        c.exact("seed", double(run.cl.experiment.seed), s.at("seed")[0]);
    if (s.has("water"))
        c.g("water", r.waterThickness, s.at("water")[0], 0.0);

}

} // namespace

class TestGoldenGeometry : public QObject {
    Q_OBJECT

private slots:
    void everyCaseIsCovered();
    void summaryMatchesReference_data();
    void summaryMatchesReference();
    void missetSeedFollowedByThreeArgumentsIsAMisset();
    void referenceRunsMatch_data();
    void referenceRunsMatch();
};

void TestGoldenGeometry::everyCaseIsCovered() {
    // the data table below is built from the directory: make sure it is not empty
    QVERIFY2(caseNames().size() >= 40, qPrintable(caseNames().join(' ')));
}

void TestGoldenGeometry::summaryMatchesReference_data() {
    QTest::addColumn<QString>("args");
    for (const QString& name : caseNames()) {
        QTest::newRow(qPrintable(name)) << goldenRunArguments(readArgs(name));
    }
}

void TestGoldenGeometry::summaryMatchesReference() {
    QFETCH(QString, args);
    const QString caseName = QTest::currentDataTag();
    const Summary s = readSummary(kGolden + "/" + caseName + "/stdout.txt");
    Run run;
    try {
        run = runCase(args);
    } catch (const std::exception& e) {
        QFAIL(qPrintable(QString("braggview rejected '%1': %2").arg(args, e.what())));
    }
    Checker c;
    checkSummary(c, s, run, args, true);
    QVERIFY2(c.failures().isEmpty(), qPrintable("\n  " + c.failures().join("\n  ")));
}

void TestGoldenGeometry::missetSeedFollowedByThreeArgumentsIsAMisset() {
    // misset_random as the reference ran it: "-misset random -misset_seed 12345 -floatfile
    // float.bin ..." - nanoBragg finds "-misset" inside "-misset_seed" and, with three
    // arguments after it, takes 12345, atof("-floatfile") = 0 and atof("float.bin") = 0 as
    // misset angles, replacing the random orientation. braggview does the same, and says so.
    Run run = runCase(goldenRunArguments(readArgs("misset_random")));
    QCOMPARE(run.cl.experiment.crystal.misset, bv::MissetKind::Angles);
    QCOMPARE(run.cl.experiment.crystal.missetAngles.x, bv::units::radiansFromDegrees(12345));
    QCOMPARE(run.cl.experiment.crystal.missetAngles.y, 0.0);
    QCOMPARE(run.cl.notices.size(), std::size_t(1));
    // as the last option, -misset_seed is only a seed: the orientation is random
    run = runCase(readArgs("misset_random"));
    QCOMPARE(run.cl.experiment.crystal.misset, bv::MissetKind::Random);
    QCOMPARE(run.cl.experiment.crystal.missetSeed.value_or(0), -12345L);
    QVERIFY(run.r.randomMisset);
    QVERIFY(run.cl.notices.empty());
}

// What the golden cases do not cover: the custom convention and a random misset. These rows
// hold excerpts of what nanoBragg (built from /tmp/ref/nanoBragg.c) printed for the arguments
// shown, plus "-floatfile /dev/null -intfile /dev/null -nopgm -nonoise -noprogress"; the
// lines present are compared.
void TestGoldenGeometry::referenceRunsMatch_data() {
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("printed");
    // two-theta about the custom convention's own default axis, 0 1 0 (nanoBragg.c:251)
    QTest::newRow("custom two-theta axis")
        << "-cell 100 -default_F 1 -detpixels 64 -fdet_vector 0 0 1 -twotheta 10"
        << R"(custom convention selected.
pivoting detector around sample
XDS incident beam: 0.173648 0 0.984808
  distance=0.1 detsize=0.0064x0.0064  pixel=0.0001 meters (64x64 pixels)
  Xbeam=0.0032 Ybeam=0.0032
  Fbeam=0.0205648 Sbeam=0.0032
  Xclose=0.0032 Yclose=0.0032
  Fclose=0.0032 Sclose=0.0032
  DIRECTION_OF_DETECTOR_X-AXIS= 0.173648 0 0.984808
  DIRECTION_OF_DETECTOR_Y-AXIS= 0 -1 0
  DIRECTION_OF_DETECTOR_Z-AXIS= 0.984808 0 -0.173648
  INCIDENT_BEAM_DIRECTION= 1 0 0
  spindle ROTATION_AXIS= 0 0 1
  POLARIZATION_PLANE_NORMAL= 0 -1 0
  dials origin= -20.5162 3.2 -97.9251)";
    QTest::newRow("custom beam, beam pivot")
        << "-cell 100 -default_F 1 -fdet_vector 0 0 1 -pivot beam -Xbeam 3 -Ybeam 2 "
           "-beam_vector 1 0.1 0 -detpixels 64 -distance 80"
        << R"(custom convention selected.
pivoting detector around direct beam spot
XDS incident beam: 0 -0.0995037 0.995037
  distance=0.08 detsize=0.0064x0.0064  pixel=0.0001 meters (64x64 pixels)
  Xbeam=0.003 Ybeam=0.002
  Fbeam=0.003 Sbeam=0.002
  Xclose=0.0032 Yclose=0.0032
  Fclose=0.003 Sclose=0.0099603
  DIRECTION_OF_DETECTOR_X-AXIS= 0 0 1
  DIRECTION_OF_DETECTOR_Y-AXIS= 0 -1 0
  DIRECTION_OF_DETECTOR_Z-AXIS= 1 0 0
  INCIDENT_BEAM_DIRECTION= 0.995037 0.0995037 0
  spindle ROTATION_AXIS= 0 0 1
  POLARIZATION_PLANE_NORMAL= 0.0995037 -0.995037 0
  dials origin= -3 9.9603 -79.603)";
    // a zero odet is rebuilt as fast x slow (here pointing back at the source)
    QTest::newRow("custom generated normal, sample pivot")
        << "-cell 100 -default_F 1 -detpixels 64 -sdet_vector 0 1 0 -odet_vector 0 0 0 "
           "-Xclose 2 -Yclose 3 -close_distance 70 -detector_rotz 5 -polar_vector 0 1 1 "
           "-spindle_axis 0 1 0"
        << R"(custom convention selected.
pivoting detector around sample
XDS incident beam: 0 -0.0871557 -0.996195
  distance=-0.0702674 detsize=0.0064x0.0064  pixel=0.0001 meters (64x64 pixels)
  Xbeam=0.002 Ybeam=0.003
  Fbeam=0.002 Sbeam=0.00912421
  Xclose=0.002 Yclose=0.003
  Fclose=0.002 Sclose=0.003
  DIRECTION_OF_DETECTOR_X-AXIS= 0 0 1
  DIRECTION_OF_DETECTOR_Y-AXIS= -0.0871557 0.996195 0
  DIRECTION_OF_DETECTOR_Z-AXIS= -0.996195 -0.0871557 0
  INCIDENT_BEAM_DIRECTION= 1 0 0
  spindle ROTATION_AXIS= 0 1 0
  POLARIZATION_PLANE_NORMAL= 0 -0.707107 0.707107
  dials origin= -2 -9.08949 69.4722)";
    // "-misset_seed 5 -misset random": in nanoBragg the first option is also read as a
    // misset (5 0 0 degrees), which the second then replaces, so both programs agree here
    QTest::newRow("random misset, user cell")
        << "-misset_seed 5 -misset random -cell 70 80 90 75 85 95 -default_F 100 -lambda 1 "
           "-detpixels 32"
        << R"(random orientation misset angles: 142.144470 55.074207 35.266329 deg
Unit Cell: 70 80 90 75.0391 85.0136 95.0081
Recp Cell: 0.014437 0.0130262 0.0115784 105.535 96.5318 83.4517
volume = 481811 A^3
real-space cell vectors (Angstrom):
     a           b           c         
X: 24.43366809 63.38594425 -15.68074433
Y: 20.39425639 -45.43927958 -78.73368558
Z: -62.34637255 17.81835971 -40.68317850
reciprocal-space cell vectors (Angstrom^-1):
     a_star      b_star      c_star    
X:  0.00674853  0.01191018 -0.00512562
Y:  0.00477227 -0.00409222 -0.00910574
Z: -0.01183685  0.00332901 -0.00498734)";
    QTest::newRow("random misset, matrix")
        << "-misset_seed 3 -misset random -mat B.mat -default_F 100 -lambda 1 -detpixels 32 -N 2"
        << R"(random orientation misset angles: -59.080957 44.294830 -35.125620 deg
Unit Cell: 40.6667 40.6667 64.6667 90 90 120
Recp Cell: 0.0283943 0.0283943 0.0154639 90 90 60
volume = 92616.5 A^3
real-space cell vectors (Angstrom):
     a           b           c         
X: 11.36295639 -31.27222345 40.58749286
Y: -20.92979612 25.90801054 47.64485455
Z: -32.96368663 -2.14494833 -16.26041367
reciprocal-space cell vectors (Angstrom^-1):
     a_star      b_star      c_star    
X: -0.00344517 -0.02063215  0.00970580
Y: -0.00643036  0.01245078  0.01139344
Z: -0.02744114 -0.01501757 -0.00388840)";
}

void TestGoldenGeometry::referenceRunsMatch() {
    QFETCH(QString, args);
    QFETCH(QString, printed);
    const Run run = runCase(args);
    Checker c;
    checkSummary(c, parseSummary(printed), run, args, false);
    QVERIFY2(c.failures().isEmpty(), qPrintable("\n  " + c.failures().join("\n  ")));
}

QTEST_APPLESS_MAIN(TestGoldenGeometry)
#include "tst_goldengeometry.moc"
