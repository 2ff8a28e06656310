// parseCommandLine() and loadInputs() by example: what each option sets (in SI units), which
// of two options wins, how -img and -mask headers feed in, the detector-size rules, and the
// errors a user sees. Expected values are worked out by hand in the tables (unit conversions
// written as arithmetic), or were printed by nanoBragg itself for the same options (said so
// where it is the case).

#include "compute/cli/CommandLine.h"
#include "compute/request/Inputs.h"
#include "compute/request/Parameters.h"

#include <QTest>
#include <algorithm>

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <cmath>
#include <cstdint>
#include <ctime>
#include <functional>
#include <sstream>

using bv::RunRequest;
using bv::cli::parseCommandLine;

namespace {

constexpr double kDegree = M_PI / 180.0; // radians per degree
const QString kInputs = QStringLiteral(BV_TEST_DATA "/inputs");

std::vector<std::string> split(const QString& args) {
    std::vector<std::string> out;
    for (const QString& token : args.split(' ', Qt::SkipEmptyParts))
        out.push_back(token.toStdString());
    return out;
}

RunRequest parse(const QString& args) { return parseCommandLine(split(args)); }

// The message parseCommandLine throws for `args`, or "" when it accepts them.
QString parseError(const QString& args) {
    try {
        parse(args);
    } catch (const bv::Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

double orNan(const std::optional<double>& v) { return v ? *v : std::nan(""); }

// The quantities the tables below name, read from a parsed command line.
double quantity(const RunRequest& cl, const QString& name) {
    const bv::Experiment& e = cl.experiment;
    const bv::Detector& d = e.detector;
    const bv::Crystal& x = e.crystal;
    const bv::Beam& b = e.beam;
    const std::map<QString, std::function<double()>> table = {
        {"wavelength", [&] { return b.wavelength; }},
        {"distance", [&] { return d.distance; }},
        {"closeDistance", [&] { return orNan(d.closeDistance); }},
        {"pixelSize", [&] { return d.pixelSize; }},
        {"sizeFast", [&] { return d.sizeFast; }},
        {"sizeSlow", [&] { return d.sizeSlow; }},
        {"fastPixels", [&] { return d.fastPixels(); }},
        {"slowPixels", [&] { return d.slowPixels(); }},
        {"beamX", [&] { return orNan(d.beamX); }},
        {"beamY", [&] { return orNan(d.beamY); }},
        {"closeX", [&] { return orNan(d.closeX); }},
        {"closeY", [&] { return orNan(d.closeY); }},
        {"orgX", [&] { return orNan(d.orgX); }},
        {"orgY", [&] { return orNan(d.orgY); }},
        {"rotX", [&] { return d.rotX; }},
        {"rotY", [&] { return d.rotY; }},
        {"rotZ", [&] { return d.rotZ; }},
        {"twotheta", [&] { return d.twotheta; }},
        {"curved", [&] { return d.curved; }},
        {"pointPixel", [&] { return d.pointPixel; }},
        {"thickness", [&] { return orNan(d.thickness.range); }},
        {"thicknessSteps", [&] { return d.thickness.steps.value_or(-1); }},
        {"attenuationDepth", [&] { return orNan(d.attenuationDepth); }},
        {"cellA", [&] { return x.cell ? x.cell->a : std::nan(""); }},
        {"cellB", [&] { return x.cell ? x.cell->b : std::nan(""); }},
        {"cellGamma", [&] { return x.cell ? x.cell->gamma : std::nan(""); }},
        {"Na", [&] { return x.cells.x; }},
        {"Nb", [&] { return x.cells.y; }},
        {"Nc", [&] { return x.cells.z; }},
        {"sampleX", [&] { return x.sampleSize.x; }},
        {"sampleY", [&] { return x.sampleSize.y; }},
        {"sampleZ", [&] { return x.sampleSize.z; }},
        {"mosaicSpread", [&] { return orNan(x.mosaicSpread); }},
        {"mosaicDomains", [&] { return x.mosaicDomains.value_or(-1); }},
        {"phi0", [&] { return x.phi0; }},
        {"osc", [&] { return orNan(x.phi.range); }},
        {"phiStep", [&] { return orNan(x.phi.step); }},
        {"phiSteps", [&] { return x.phi.steps.value_or(-1); }},
        {"missetX", [&] { return x.missetAngles.x; }},
        {"missetZ", [&] { return x.missetAngles.z; }},
        {"fudge", [&] { return x.fudge; }},
        {"dispersion", [&] { return orNan(b.dispersion.range); }},
        {"dispersionSteps", [&] { return b.dispersion.steps.value_or(-1); }},
        {"hdivRange", [&] { return orNan(b.horizontalDivergence.range); }},
        {"vdivRange", [&] { return orNan(b.verticalDivergence.range); }},
        {"hdivStep", [&] { return orNan(b.horizontalDivergence.step); }},
        {"hdivSteps", [&] { return b.horizontalDivergence.steps.value_or(-1); }},
        {"vdivSteps", [&] { return b.verticalDivergence.steps.value_or(-1); }},
        {"roundDivergence", [&] { return b.roundDivergence; }},
        {"kahn", [&] { return b.kahnFactor; }},
        {"polarization", [&] { return b.polarization; }},
        {"fluence", [&] { return b.fluence; }},
        {"flux", [&] { return b.flux; }},
        {"exposure", [&] { return b.exposure; }},
        {"beamSize", [&] { return b.beamSize; }},
        {"water", [&] { return e.waterThickness; }},
        {"dmin", [&] { return e.sampling.dmin; }},
        {"oversample", [&] { return e.sampling.oversample.value_or(0); }},
        {"defaultF", [&] { return e.structureFactors.defaultF; }},
        {"seed", [&] { return double(e.seed); }},
        {"mosaicSeed", [&] { return double(x.mosaicSeed); }},
        {"missetSeed", [&] { return x.missetSeed ? double(*x.missetSeed) : std::nan(""); }},
        {"adc", [&] { return cl.outputs.adcOffset; }},
        {"intScale", [&] { return cl.outputs.intScale; }},
        {"pgmScale", [&] { return cl.outputs.pgmScale; }},
        {"writePgm", [&] { return cl.outputs.writePgm; }},
        {"writeNoise", [&] { return cl.outputs.writeNoise; }},
        {"counterNoise",
         [&] { return cl.outputs.noiseGenerator == bv::NoiseGenerator::Counter; }},
        {"progress", [&] { return cl.progress; }},
        {"verbose", [&] { return cl.verbose; }},
        {"fastPrecision", [&] { return cl.precision == bv::Precision::Fast; }},
    };
    const auto it = table.find(name);
    if (it == table.end())
        qFatal("unknown quantity %s", qPrintable(name));
    return it->second();
}

bool sameNumber(double actual, double expected) {
    if (std::isnan(expected))
        return std::isnan(actual);
    return std::fabs(actual - expected) <= 1e-13 * std::fabs(expected);
}

// An SMV file written byte by byte: "{", KEY=VALUE; lines, "}", form feed, spaces to 512
// bytes, then little-endian 16-bit pixels.
void writeSmvFile(const QString& path, const QStringList& fields, int width, int height,
                  const std::vector<std::uint16_t>& pixels) {
    QByteArray header = "{\nHEADER_BYTES=512;\nDIM=2;\nBYTE_ORDER=little_endian;\nTYPE=unsigned_short;\n";
    header += QString("SIZE1=%1;\nSIZE2=%2;\n").arg(width).arg(height).toUtf8();
    for (const QString& field : fields)
        header += field.toUtf8() + ";\n";
    header += "}\f";
    header += QByteArray(512 - header.size(), ' ');
    for (const std::uint16_t p : pixels) {
        header += char(p & 0xff);
        header += char(p >> 8);
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(header) != header.size())
        qFatal("cannot write %s", qPrintable(path));
}

// What nanoBragg writes for -detpixels 8 -pixel 0.2 -distance 150 -lambda 1.2 -Xbeam 0.5
// -Ybeam 0.7 -phi 5 -osc 1 (its own int image header, abridged to the keys it reads back).
const QStringList kHeader = {"PIXEL_SIZE=0.2",   "DISTANCE=150",     "WAVELENGTH=1.2",
                             "BEAM_CENTER_X=0.5", "BEAM_CENTER_Y=0.7", "XDS_ORGX=4.5",
                             "XDS_ORGY=3.5",      "CLOSE_DISTANCE=150", "PHI=5",
                             "OSC_START=5",       "OSC_RANGE=1",      "TWOTHETA=0"};

// Runs `body` with a fresh temporary directory as the working directory.
void inTemporaryDirectory(const std::function<void(const QString&)>& body) {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString previous = QDir::currentPath();
    QDir::setCurrent(dir.path());
    try {
        body(dir.path());
    } catch (...) {
        QDir::setCurrent(previous);
        throw;
    }
    QDir::setCurrent(previous);
}

void copyInput(const QString& name) { QVERIFY(QFile::copy(kInputs + "/" + name, name)); }

} // namespace

class TestCommandLine : public QObject {
    Q_OBJECT

private slots:
    void everyReferenceOptionIsAccepted_data();
    void everyReferenceOptionIsAccepted();
    void synonyms_data();
    void synonyms();
    void values_data();
    void values();
    void lastOneWins_data();
    void lastOneWins();
    void pivot_data();
    void pivot();
    void conventions_data();
    void conventions();
    void customVectorsStartFromReferenceDefaults();
    void cellAndMisset();
    void detectorSize_data();
    void detectorSize();
    void roiAndPrintout();
    void outputDefaults();
    void seeds();
    void imgHeader_data();
    void imgHeader();
    void maskHeaderAndPixels();
    void maskReadInTheDetectorsOrder();
    void help();
    void errors_data();
    void errors();
    void loadInputsReadsFiles();
    void loadInputsUsesAndWritesDump();
    void loadInputsErrors_data();
    void loadInputsErrors();
    void usageStops_data();
    void usageStops();
    void usageListsEveryOption();
};

// ---- the option table --------------------------------------------------------------------

void TestCommandLine::everyReferenceOptionIsAccepted_data() {
    QTest::addColumn<QString>("name");
    // nanoBragg.c's option loop, option by option, in its order
    const char* names[] = {
        "-Na", "-Nb", "-Nc", "-N", "-cell", "-misset", "-samplesize", "-sample_size",
        "-sample_thick", "-sample_x", "-sample_width", "-sample_y", "-width", "-sample_heigh",
        "-sample_z", "-heigh", "-xtalsize", "-xtal_size", "-xtal_thick", "-xtal_x",
        "-xtal_width", "-xtal_y", "-xtal_heigh", "-xtal_z", "-density", "-sample_den", "-MW",
        "-molec", "-Xbeam", "-Ybeam", "-Xclose", "-Yclose", "-ORGX", "-ORGY", "-pivot",
        "-mosflm", "-xds", "-adxv", "-denzo", "-dials", "-fdet_vector", "-sdet_vector",
        "-odet_vector", "-beam_vector", "-polar_vector", "-spindle_axis", "-twotheta_axis",
        "-pix0_vector", "-distance", "-close_distance", "-detector_abs", "-detector_thick",
        "-detector_thicksteps", "-thicksteps", "-twotheta", "-detector_rotx", "-detector_roty",
        "-detector_rotz", "-detsize", "-detsize_f", "-detsize_s", "-detpixels", "-detpixels_f",
        "-detpixels_x", "-detpixels_s", "-detpixels_y", "-curved_det", "-pixel", "-point_pixel",
        "-polar", "-nopolar", "-oversample_thick", "-oversample_polar", "-oversample_omega",
        "-oversample", "-roi", "-lambda", "-wave", "-energy", "-fluence", "-flux", "-exposure",
        "-beamsize", "-mosaic", "-mosaici", "-mosaic_spr", "-mosaic_dom", "-dispersion",
        "-dispsteps", "-divergence", "-hdivrange", "-vdivrange", "-hdivstep", "-hdivsteps",
        "-vdivstep", "-vdivsteps", "-divsteps", "-round_div", "-square_div", "-adc", "-phi",
        "-osc", "-phistep", "-phisteps", "-dmin", "-mat", "-hkl", "-default_F", "-dump",
        "-img", "-stolout", "-stol", "-4stol", "-Q", "-sourcefile", "-floatfile",
        "-floatimage", "-intfile", "-intimage", "-pgmfile", "-pgmimage", "-noisefile",
        "-noiseimage", "-nonoise", "-nopgm", "-scale", "-pgmscale", "-coherent", "-printout",
        "-noprogress", "-progress", "-interpolate", "-nointerpolate", "-round_xtal",
        "-square_xtal", "-gauss_xtal", "-binary_spots", "-tophat_spots", "-fudge",
        "-printout_pixel", "-seed", "-mosaic_seed", "-misset_seed", "-water", "-mask"};
    for (const char* name : names)
        QTest::newRow(name) << name; // the reference's own patterns, as written
    // the reference matches these two as substrings, so they stand for longer names too
    QTest::newRow("-mosaicity (as -mosaici)") << "-mosaicity";
    QTest::newRow("-mosaic_spread (as -mosaic_spr)") << "-mosaic_spread";
}

void TestCommandLine::everyReferenceOptionIsAccepted() {
    QFETCH(QString, name);
    QVERIFY2(bv::request::findFlag(name.toStdString()) != nullptr, qPrintable(name));
}

void TestCommandLine::synonyms_data() {
    QTest::addColumn<QString>("spelling");
    QTest::addColumn<QString>("sameAs");
    QTest::newRow("-wave") << "-wave" << "-lambda";
    QTest::newRow("-wavelength") << "-wavelength" << "-lambda";
    QTest::newRow("-detpixels_x") << "-detpixels_x" << "-detpixels_f";
    QTest::newRow("-detpixels_y") << "-detpixels_y" << "-detpixels_s";
    QTest::newRow("-mosaicity") << "-mosaicity" << "-mosaic";
    QTest::newRow("-mosaic_spread") << "-mosaic_spread" << "-mosaic";
    QTest::newRow("-mosaic_dom") << "-mosaic_dom" << "-mosaic_domains";
    QTest::newRow("-detector_absorb") << "-detector_absorb" << "-detector_abs";
    QTest::newRow("-detector_absorption") << "-detector_absorption" << "-detector_abs";
    QTest::newRow("-thicksteps") << "-thicksteps" << "-detector_thicksteps";
    QTest::newRow("-floatimage") << "-floatimage" << "-floatfile";
    QTest::newRow("-intimage") << "-intimage" << "-intfile";
    QTest::newRow("-pgmimage") << "-pgmimage" << "-pgmfile";
    QTest::newRow("-noiseimage") << "-noiseimage" << "-noisefile";
    QTest::newRow("-binary_spots") << "-binary_spots" << "-tophat_spots";
    QTest::newRow("-sample_height") << "-sample_height" << "-xtal_height";
    QTest::newRow("-sample_heigh") << "-sample_heigh" << "-xtal_height";
    QTest::newRow("-sample_z") << "-sample_z" << "-xtal_height";
    QTest::newRow("-height") << "-height" << "-xtal_height";
    QTest::newRow("-sample_thickness") << "-sample_thickness" << "-xtal_thick";
    QTest::newRow("-width") << "-width" << "-xtal_width";
    QTest::newRow("-samplesize") << "-samplesize" << "-xtalsize";
    QTest::newRow("-molecular_weight") << "-molecular_weight" << "-MW";
    QTest::newRow("-curved_detector") << "-curved_detector" << "-curved_det";
    QTest::newRow("--help") << "--help" << "-h";
}

void TestCommandLine::synonyms() {
    QFETCH(QString, spelling);
    QFETCH(QString, sameAs);
    const bv::request::Flag* flag = bv::request::findFlag(spelling.toStdString());
    QVERIFY2(flag, qPrintable(spelling));
    QCOMPARE(flag, bv::request::findFlag(sameAs.toStdString()));
}

// ---- what options set --------------------------------------------------------------------

void TestCommandLine::values_data() {
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("quantity");
    QTest::addColumn<double>("expected");
    // lengths: mm -> m, um -> m, Angstrom -> m
    QTest::newRow("-distance mm") << "-distance 250" << "distance" << 0.250;
    QTest::newRow("-close_distance mm") << "-close_distance 90" << "closeDistance" << 0.090;
    QTest::newRow("-pixel mm") << "-pixel 0.172" << "pixelSize" << 0.172e-3;
    QTest::newRow("-Xbeam mm") << "-Xbeam 51.25" << "beamX" << 51.25e-3;
    QTest::newRow("-Ybeam negative") << "-Ybeam -3" << "beamY" << -3e-3;
    QTest::newRow("-Xclose mm") << "-Xclose 10" << "closeX" << 10e-3;
    QTest::newRow("-Yclose mm") << "-Yclose 11" << "closeY" << 11e-3;
    QTest::newRow("-ORGX pixels") << "-ORGX 100.5" << "orgX" << 100.5;
    QTest::newRow("-ORGY pixels") << "-ORGY 120" << "orgY" << 120.0;
    QTest::newRow("-lambda A") << "-lambda 1.5" << "wavelength" << 1.5e-10;
    QTest::newRow("-wave A") << "-wave 6.2" << "wavelength" << 6.2e-10;
    QTest::newRow("-energy 12398.42 eV is 1 A") << "-energy 12398.42" << "wavelength" << 1e-10;
    QTest::newRow("-energy 6199.21 eV is 2 A") << "-energy 6199.21" << "wavelength" << 2e-10;
    QTest::newRow("-detector_thick um") << "-detector_thick 450" << "thickness" << 450e-6;
    QTest::newRow("-detector_abs um") << "-detector_abs 500" << "attenuationDepth" << 500e-6;
    QTest::newRow("-detector_abs inf: no absorption")
        << "-detector_thick 450 -detector_abs inf" << "attenuationDepth" << 0.0;
    QTest::newRow("-detector_abs inf: no thickness")
        << "-detector_thick 450 -detector_abs inf" << "thickness" << 0.0;
    QTest::newRow("-detector_abs 0: no thickness")
        << "-detector_thick 450 -detector_abs 0" << "thickness" << 0.0;
    QTest::newRow("-thicksteps") << "-thicksteps 5" << "thicknessSteps" << 5.0;
    QTest::newRow("-beamsize mm") << "-beamsize 0.1" << "beamSize" << 1e-4;
    QTest::newRow("-water um") << "-water 100" << "water" << 100e-6;
    QTest::newRow("-dmin A") << "-dmin 4" << "dmin" << 4e-10;
    QTest::newRow("-xtalsize mm, all three") << "-xtalsize 0.002" << "sampleY" << 2e-6;
    QTest::newRow("-xtal_thick is a") << "-xtal_thick 0.003" << "sampleX" << 3e-6;
    QTest::newRow("-sample_width is b") << "-sample_width 0.004" << "sampleY" << 4e-6;
    QTest::newRow("-height is c") << "-height 0.005" << "sampleZ" << 5e-6;
    // angles: degrees and mrad -> rad, percent -> fraction
    QTest::newRow("-mosaic deg") << "-mosaic 0.5" << "mosaicSpread" << 0.5 * kDegree;
    QTest::newRow("-phi deg") << "-phi 10" << "phi0" << 10 * kDegree;
    QTest::newRow("-osc deg") << "-osc 90" << "osc" << M_PI / 2;
    QTest::newRow("-phistep deg") << "-phistep 0.25" << "phiStep" << 0.25 * kDegree;
    QTest::newRow("-phisteps") << "-phisteps 9" << "phiSteps" << 9.0;
    QTest::newRow("-detector_rotx deg") << "-detector_rotx 5" << "rotX" << 5 * kDegree;
    QTest::newRow("-detector_roty deg") << "-detector_roty -3" << "rotY" << -3 * kDegree;
    QTest::newRow("-detector_rotz deg") << "-detector_rotz 2" << "rotZ" << 2 * kDegree;
    QTest::newRow("-twotheta deg") << "-twotheta 20" << "twotheta" << 20 * kDegree;
    QTest::newRow("-divergence mrad, h") << "-divergence 0.4" << "hdivRange" << 0.4e-3;
    QTest::newRow("-divergence mrad, v") << "-divergence 0.4" << "vdivRange" << 0.4e-3;
    QTest::newRow("-hdivstep mrad") << "-hdivstep 0.02" << "hdivStep" << 0.02e-3;
    QTest::newRow("-divsteps both") << "-divsteps 3" << "vdivSteps" << 3.0;
    QTest::newRow("-hdivsteps") << "-hdivsteps 4" << "hdivSteps" << 4.0;
    QTest::newRow("-dispersion percent") << "-dispersion 0.5" << "dispersion" << 0.005;
    QTest::newRow("-dispsteps") << "-dispsteps 3" << "dispersionSteps" << 3.0;
    QTest::newRow("-square_div") << "-square_div" << "roundDivergence" << 0.0;
    // counts and plain numbers
    QTest::newRow("-N all three") << "-N 5" << "Nb" << 5.0;
    QTest::newRow("-N 0 allowed") << "-N 0" << "Na" << 0.0;
    QTest::newRow("-Nc") << "-Nc 7" << "Nc" << 7.0;
    QTest::newRow("-mosaic_domains") << "-mosaic_dom 20" << "mosaicDomains" << 20.0;
    QTest::newRow("-oversample") << "-oversample 4" << "oversample" << 4.0;
    QTest::newRow("-oversample 0 is automatic") << "-oversample 4 -oversample 0" << "oversample" << 0.0;
    QTest::newRow("-polar") << "-polar 0.95" << "kahn" << 0.95;
    QTest::newRow("-fluence") << "-fluence 1e24" << "fluence" << 1e24;
    QTest::newRow("-flux") << "-flux 1e12" << "flux" << 1e12;
    QTest::newRow("-exposure") << "-exposure 2" << "exposure" << 2.0;
    QTest::newRow("-default_F") << "-default_F 100" << "defaultF" << 100.0;
    QTest::newRow("-fudge") << "-fudge 1.5" << "fudge" << 1.5;
    QTest::newRow("-adc") << "-adc 10" << "adc" << 10.0;
    QTest::newRow("-scale") << "-scale 2.5" << "intScale" << 2.5;
    QTest::newRow("-curved_det") << "-curved_det" << "curved" << 1.0;
    QTest::newRow("-curved_det last") << "-N 1 -curved_det" << "curved" << 1.0;
    QTest::newRow("-point_pixel") << "-point_pixel" << "pointPixel" << 1.0;
    QTest::newRow("-noprogress") << "-noprogress" << "progress" << 0.0;
    QTest::newRow("-v") << "-v" << "verbose" << 1.0;
    QTest::newRow("-precision fast") << "-precision fast" << "fastPrecision" << 1.0;
    QTest::newRow("-precision single") << "-precision single" << "fastPrecision" << 1.0;
    QTest::newRow("-precision double") << "-precision fast -precision double" << "fastPrecision" << 0.0;
    QTest::newRow("-precision default") << "" << "fastPrecision" << 0.0;
    // accepted, no effect
    QTest::newRow("-density") << "-density 1.2 -MW 18 -coherent -printout" << "wavelength" << 1e-10;
}

void TestCommandLine::values() {
    QFETCH(QString, args);
    QFETCH(QString, quantity);
    QFETCH(double, expected);
    const double actual = ::quantity(parse(args), quantity);
    QVERIFY2(sameNumber(actual, expected),
             qPrintable(QString("%1 = %2, expected %3").arg(quantity).arg(actual, 0, 'g', 17).arg(expected, 0, 'g', 17)));
}

void TestCommandLine::lastOneWins_data() {
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("quantity");
    QTest::addColumn<double>("expected");
    QTest::newRow("-lambda twice") << "-lambda 1 -lambda 2" << "wavelength" << 2e-10;
    QTest::newRow("-lambda then -energy") << "-lambda 2 -energy 12398.42" << "wavelength" << 1e-10;
    QTest::newRow("-energy then -lambda") << "-energy 12398.42 -lambda 2" << "wavelength" << 2e-10;
    QTest::newRow("-N then -Na") << "-N 5 -Na 2" << "Na" << 2.0;
    QTest::newRow("-Na then -N") << "-Na 2 -N 5" << "Na" << 5.0;
    QTest::newRow("-polar then -nopolar") << "-polar 0.5 -nopolar" << "polarization" << 0.0;
    QTest::newRow("-nopolar then -polar") << "-nopolar -polar 0.5" << "polarization" << 1.0;
    QTest::newRow("-detsize then -detsize_f") << "-detsize 50 -detsize_f 20" << "sizeFast" << 0.020;
    QTest::newRow("-nopgm then -pgmfile") << "-nopgm -pgmfile x.pgm" << "writePgm" << 1.0;
    QTest::newRow("-nopgm then -pgmscale") << "-nopgm -pgmscale 2" << "writePgm" << 1.0;
    QTest::newRow("-pgmscale then -nopgm") << "-pgmscale 2 -nopgm" << "writePgm" << 0.0;
    QTest::newRow("-nonoise then -noisefile") << "-nonoise -noisefile n.img" << "writeNoise" << 1.0;
    QTest::newRow("-noisefile then -nonoise") << "-noisefile n.img -nonoise" << "writeNoise" << 0.0;
    QTest::newRow("-noise_generator reference by default") << "" << "counterNoise" << 0.0;
    QTest::newRow("-noise_generator counter") << "-noise_generator counter" << "counterNoise" << 1.0;
    QTest::newRow("-noise_generator counter then reference") << "-noise_generator counter -noise_generator reference" << "counterNoise" << 0.0;
    QTest::newRow("-noise_generator counter, CBF only") << "-nonoise -cbffile c.cbf -noise_generator counter" << "counterNoise" << 1.0;
    QTest::newRow("-round_div wins back") << "-square_div -round_div" << "roundDivergence" << 1.0;
    QTest::newRow("-progress after -noprogress") << "-noprogress -progress" << "progress" << 1.0;
    QTest::newRow("-detector_thick after inf")
        << "-detector_abs inf -detector_thick 450" << "thickness" << 450e-6;
    // a close distance decides whatever the order, as in nanoBragg (docs/reference-quirks.md)
    QTest::newRow("-close_distance then -distance")
        << "-close_distance 90 -distance 200" << "closeDistance" << 0.090;
    QTest::newRow("-distance then -close_distance")
        << "-distance 200 -close_distance 90" << "closeDistance" << 0.090;
}

void TestCommandLine::lastOneWins() { values(); }

void TestCommandLine::pivot_data() {
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("requested");
    QTest::addColumn<QString>("used");
    const QString custom = "-fdet_vector 0 0 1 ";
    QTest::newRow("default") << "" << "beam" << "beam";
    QTest::newRow("custom -pivot sample -distance") << custom + "-pivot sample -distance 100" << "beam" << "beam";
    QTest::newRow("custom -distance -pivot sample") << custom + "-distance 100 -pivot sample" << "sample" << "sample";
    QTest::newRow("custom -Xbeam -Xclose") << custom + "-Xbeam 10 -Xclose 10" << "sample" << "sample";
    QTest::newRow("custom -Xclose -Ybeam") << custom + "-Xclose 10 -Ybeam 10" << "beam" << "beam";
    QTest::newRow("custom -ORGY") << custom + "-ORGY 10" << "sample" << "sample";
    QTest::newRow("custom -close_distance") << custom + "-close_distance 90" << "sample" << "sample";
    QTest::newRow("custom -twotheta") << custom + "-twotheta 10" << "sample" << "sample";
    QTest::newRow("custom -twotheta -pivot beam") << custom + "-twotheta 10 -pivot beam" << "beam" << "beam";
    // nanoBragg reads -twotheta_axis as -twotheta too, which pivots about the sample
    QTest::newRow("custom -twotheta_axis pivots about the sample")
        << custom + "-pivot beam -twotheta_axis 0 0 1" << "sample" << "sample";
    QTest::newRow("mosflm imposes beam") << "-twotheta 10" << "sample" << "beam";
    QTest::newRow("xds imposes sample") << "-xds -pivot beam" << "beam" << "sample";
    QTest::newRow("dials imposes sample") << "-dials -distance 80" << "beam" << "sample";
    QTest::newRow("-xds sets the pivot like -pivot") << "-xds " + custom << "sample" << "sample";
    QTest::newRow("-adxv sets beam") << "-Xclose 5 -adxv " + custom << "beam" << "beam";
}

void TestCommandLine::pivot() {
    QFETCH(QString, args);
    QFETCH(QString, requested);
    QFETCH(QString, used);
    const RunRequest cl = parse(args);
    QCOMPARE(QString(bv::pivotName(cl.experiment.detector.pivot)), requested);
    QCOMPARE(QString(bv::pivotName(cl.experiment.effectivePivot())), used);
}

void TestCommandLine::conventions_data() {
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("convention");
    QTest::newRow("default") << "" << "mosflm";
    QTest::newRow("-xds") << "-xds" << "xds";
    QTest::newRow("-adxv") << "-adxv" << "adxv";
    QTest::newRow("-denzo") << "-denzo" << "denzo";
    QTest::newRow("-dials") << "-dials" << "dials";
    QTest::newRow("-xds -mosflm") << "-xds -mosflm" << "mosflm";
    QTest::newRow("-fdet_vector") << "-fdet_vector 1 0 0" << "custom";
    QTest::newRow("-sdet_vector") << "-sdet_vector 0 1 0" << "custom";
    QTest::newRow("-odet_vector") << "-odet_vector 0 0 1" << "custom";
    QTest::newRow("-beam_vector") << "-beam_vector 0 0 1" << "custom";
    QTest::newRow("-polar_vector") << "-polar_vector 0 1 0" << "custom";
    QTest::newRow("-spindle_axis") << "-spindle_axis 1 0 0" << "custom";
    QTest::newRow("-twotheta_axis") << "-twotheta_axis 1 0 0" << "custom";
    QTest::newRow("-pix0_vector") << "-pix0_vector 0.1 0 0" << "custom";
    QTest::newRow("-xds then vector") << "-xds -fdet_vector 1 0 0" << "custom";
    QTest::newRow("vector then -xds") << "-fdet_vector 1 0 0 -xds" << "xds";
}

void TestCommandLine::conventions() {
    QFETCH(QString, args);
    QFETCH(QString, convention);
    QCOMPARE(QString(bv::conventionName(parse(args).experiment.convention)), convention);
}

void TestCommandLine::customVectorsStartFromReferenceDefaults() {
    // vectors not given keep the reference's starting values (nanoBragg.c declares
    // beam 1 0 0, fdet 0 0 1, sdet 0 -1 0, odet 1 0 0, polar 0 0 1, spindle 0 0 1), and the
    // given ones accumulate across a named convention in between
    const RunRequest cl = parse("-fdet_vector 1 0 0 -mosflm -sdet_vector 0 1 0");
    const bv::LabAxes& axes = cl.experiment.customAxes;
    QCOMPARE(cl.experiment.convention, bv::Convention::Custom);
    QCOMPARE(axes.fdet, glm::dvec3(1, 0, 0));
    QCOMPARE(axes.sdet, glm::dvec3(0, 1, 0));
    QCOMPARE(axes.odet, glm::dvec3(1, 0, 0));
    QCOMPARE(axes.beam, glm::dvec3(1, 0, 0));
    QCOMPARE(axes.polarization, glm::dvec3(0, 0, 1));
    QCOMPARE(axes.spindle, glm::dvec3(0, 0, 1));
    // the vectors are taken as given; resolve() makes them unit vectors
    QCOMPARE(parse("-beam_vector 2 0 0").experiment.customAxes.beam, glm::dvec3(2, 0, 0));
}

void TestCommandLine::cellAndMisset() {
    // -cell takes up to six numbers, ending at the next option
    RunRequest cl = parse("-cell 70 80 90 75 85 95 -N 5");
    QVERIFY(cl.experiment.crystal.cell.has_value());
    QCOMPARE(cl.experiment.crystal.cell->c, 90.0);
    QVERIFY(sameNumber(cl.experiment.crystal.cell->gamma, 95 * kDegree));
    QCOMPARE(cl.experiment.crystal.cells, glm::dvec3(5.0));
    // fewer numbers leave the rest to resolve() (b = c = a, angles 90)
    cl = parse("-cell 100 -lambda 1");
    QCOMPARE(cl.experiment.crystal.cell->a, 100.0);
    QCOMPARE(cl.experiment.crystal.cell->b, 0.0);
    QCOMPARE(cl.experiment.crystal.cell->gamma, 0.0);
    // misset: three angles, or random
    cl = parse("-misset 15 20.5 30.25");
    QCOMPARE(cl.experiment.crystal.misset, bv::MissetKind::Angles);
    QVERIFY(sameNumber(cl.experiment.crystal.missetAngles.y, 20.5 * kDegree));
    cl = parse("-misset random");
    QCOMPARE(cl.experiment.crystal.misset, bv::MissetKind::Random);
    // -misset_seed with three arguments after it is also a misset (nanoBragg's substring
    // match; see the quirks): angles 12345, atof("-N") = 0, atof("1") = 1
    cl = parse("-misset_seed 12345 -N 1 -lambda 1");
    QCOMPARE(cl.experiment.crystal.misset, bv::MissetKind::Angles);
    QVERIFY(sameNumber(cl.experiment.crystal.missetAngles.x, 12345 * kDegree));
    QVERIFY(sameNumber(cl.experiment.crystal.missetAngles.z, 1 * kDegree));
    QCOMPARE(cl.experiment.crystal.missetSeed.value_or(0), -12345L);
    QCOMPARE(cl.notices.size(), std::size_t(1));
    // last on the line it is a seed only
    cl = parse("-N 1 -misset_seed 12345");
    QCOMPARE(cl.experiment.crystal.misset, bv::MissetKind::None);
    // -twotheta_axis sets -twotheta to its first component too (nanoBragg's substring match)
    cl = parse("-twotheta_axis 5 0 0");
    QVERIFY(sameNumber(cl.experiment.detector.twotheta, 5 * kDegree));
    QCOMPARE(cl.notices.size(), std::size_t(1));
}

void TestCommandLine::detectorSize_data() {
    QTest::addColumn<QString>("args");
    QTest::addColumn<int>("fast");
    QTest::addColumn<int>("slow");
    QTest::addColumn<double>("sizeFast"); // m
    QTest::addColumn<double>("sizeSlow");
    QTest::newRow("defaults: 102.4 mm of 0.1 mm") << "" << 1024 << 1024 << 0.1024 << 0.1024;
    QTest::newRow("-detpixels with default pixel") << "-detpixels 256" << 256 << 256 << 0.0256 << 0.0256;
    QTest::newRow("-detpixels then -pixel") << "-detpixels 512 -pixel 0.05" << 512 << 512 << 0.0256 << 0.0256;
    QTest::newRow("-pixel then -detpixels") << "-pixel 0.05 -detpixels 512" << 512 << 512 << 0.0256 << 0.0256;
    QTest::newRow("-detsize alone") << "-detsize 50" << 500 << 500 << 0.050 << 0.050;
    QTest::newRow("-detsize and -pixel") << "-detsize 50 -pixel 0.2" << 250 << 250 << 0.050 << 0.050;
    QTest::newRow("given counts beat -detsize") << "-detsize 50 -detpixels 100" << 100 << 100 << 0.010 << 0.010;
    QTest::newRow("-detpixels_f and _s") << "-detpixels_f 100 -detpixels_y 200" << 100 << 200 << 0.010 << 0.020;
    QTest::newRow("-detsize_f and _s") << "-detsize_f 20 -detsize_s 30 -pixel 0.2" << 100 << 150 << 0.020 << 0.030;
    QTest::newRow("count on one axis") << "-detsize 30 -detpixels_f 100" << 100 << 300 << 0.010 << 0.030;
    QTest::newRow("-detpixels 0 means not given") << "-detpixels 0 -detsize 20" << 200 << 200 << 0.020 << 0.020;
    QTest::newRow("size rounds to pixels") << "-detsize 10.04" << 100 << 100 << 0.01004 << 0.01004;
}

void TestCommandLine::detectorSize() {
    QFETCH(QString, args);
    QFETCH(int, fast);
    QFETCH(int, slow);
    QFETCH(double, sizeFast);
    QFETCH(double, sizeSlow);
    const bv::Detector& d = parse(args).experiment.detector;
    QCOMPARE(d.fastPixels(), fast);
    QCOMPARE(d.slowPixels(), slow);
    QVERIFY2(sameNumber(d.sizeFast, sizeFast), qPrintable(QString::number(d.sizeFast, 'g', 17)));
    QVERIFY2(sameNumber(d.sizeSlow, sizeSlow), qPrintable(QString::number(d.sizeSlow, 'g', 17)));
}

void TestCommandLine::roiAndPrintout() {
    RunRequest cl = parse("-roi 50 150 60 200");
    QVERIFY(cl.experiment.sampling.roi.has_value());
    QCOMPARE(cl.experiment.sampling.roi->xmin, 50);
    QCOMPARE(cl.experiment.sampling.roi->xmax, 150);
    QCOMPARE(cl.experiment.sampling.roi->ymin, 60);
    QCOMPARE(cl.experiment.sampling.roi->ymax, 200);
    // a negative bound is the detector's edge: 0, or the pixel count (as the reference)
    cl = parse("-roi -1 50 -1 -5 -detpixels_f 64 -detpixels_s 32");
    QCOMPARE(cl.experiment.sampling.roi->xmin, 0);
    QCOMPARE(cl.experiment.sampling.roi->xmax, 50);
    QCOMPARE(cl.experiment.sampling.roi->ymin, 0);
    QCOMPARE(cl.experiment.sampling.roi->ymax, 32);
    QVERIFY(!parse("").experiment.sampling.roi.has_value());

    cl = parse("-printout_pixel 12 34");
    QVERIFY(cl.printoutPixel.has_value());
    QCOMPARE(cl.printoutPixel->first, 12);
    QCOMPARE(cl.printoutPixel->second, 34);
}

void TestCommandLine::outputDefaults() {
    RunRequest cl = parse("");
    QCOMPARE(cl.outputs.floatFile, std::string("floatimage.bin"));
    QCOMPARE(cl.outputs.intFile, std::string("intimage.img"));
    QCOMPARE(cl.outputs.pgmFile, std::string("image.pgm"));
    QCOMPARE(cl.outputs.noiseFile, std::string("noiseimage.img"));
    QVERIFY(cl.outputs.writePgm);
    QVERIFY(cl.outputs.writeNoise);
    QCOMPARE(cl.outputs.adcOffset, 40.0);
    QCOMPARE(cl.dumpFile, std::string("Fdump.bin"));
    QCOMPARE(cl.precision, bv::Precision::Precise);
    QVERIFY(cl.device.empty());

    cl = parse("-floatfile f.bin -intimage i.img -pgmfile p.pgm -noiseimage n.img -dump F.bin "
               "-device CPU -hkl P1.hkl -mat A.mat -sourcefile s.txt -stol w.stol");
    QCOMPARE(cl.outputs.floatFile, std::string("f.bin"));
    QCOMPARE(cl.outputs.intFile, std::string("i.img"));
    QCOMPARE(cl.outputs.pgmFile, std::string("p.pgm"));
    QCOMPARE(cl.outputs.noiseFile, std::string("n.img"));
    QCOMPARE(cl.dumpFile, std::string("F.bin"));
    QCOMPARE(cl.device, std::string("cpu"));
    QCOMPARE(cl.hkl, std::string("P1.hkl"));
    QCOMPARE(cl.mat, std::string("A.mat"));
    QCOMPARE(cl.sourceFile, std::string("s.txt"));
    QCOMPARE(cl.stol, std::string("w.stol"));
    QCOMPARE(parse("-device 1").device, std::string("1"));
}

void TestCommandLine::seeds() {
    // the reference's seeds are the negatives of the numbers given
    const long before = static_cast<long>(std::time(nullptr));
    RunRequest cl = parse("");
    const long after = static_cast<long>(std::time(nullptr));
    QVERIFY(cl.experiment.seed <= -before && cl.experiment.seed >= -after);
    QCOMPARE(cl.experiment.crystal.mosaicSeed, -12345678L);
    QVERIFY(!cl.experiment.crystal.missetSeed.has_value());

    cl = parse("-seed 123 -mosaic_seed 42 -misset_seed 7");
    QCOMPARE(cl.experiment.seed, -123L);
    QCOMPARE(cl.experiment.crystal.mosaicSeed, -42L);
    QCOMPARE(cl.experiment.crystal.missetSeed.value_or(0), -7L);
    QCOMPARE(parse("-seed -5").experiment.seed, 5L);
}

// ---- -img and -mask ----------------------------------------------------------------------

void TestCommandLine::imgHeader_data() {
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("quantity");
    QTest::addColumn<double>("expected");
    // header alone: nanoBragg -img h.img printed distance=0.15 pixel=0.0002 (8x8 pixels),
    // Xbeam=0.0005 Ybeam=0.0007, wave=1.2e-10, 2 phi steps from 5 to 6 degrees
    QTest::newRow("pixel") << "-img h.img" << "pixelSize" << 0.2e-3;
    QTest::newRow("pixels") << "-img h.img" << "fastPixels" << 8.0;
    QTest::newRow("size") << "-img h.img" << "sizeSlow" << 1.6e-3;
    QTest::newRow("distance") << "-img h.img" << "distance" << 0.150;
    QTest::newRow("close distance") << "-img h.img" << "closeDistance" << 0.150;
    QTest::newRow("wavelength") << "-img h.img" << "wavelength" << 1.2e-10;
    QTest::newRow("beam X") << "-img h.img" << "beamX" << 0.5e-3;
    QTest::newRow("beam Y") << "-img h.img" << "beamY" << 0.7e-3;
    QTest::newRow("ORGX") << "-img h.img" << "orgX" << 4.5;
    QTest::newRow("ORGY") << "-img h.img" << "orgY" << 3.5;
    QTest::newRow("phi") << "-img h.img" << "phi0" << 5 * kDegree;
    QTest::newRow("osc") << "-img h.img" << "osc" << 1 * kDegree;
    // options override the header wherever they are
    QTest::newRow("-distance after") << "-img h.img -distance 100" << "distance" << 0.100;
    // the header's close distance still decides the distance (nanoBragg's rule)
    QTest::newRow("-distance keeps the close distance") << "-img h.img -distance 100" << "closeDistance" << 0.150;
    QTest::newRow("-distance before") << "-distance 100 -img h.img" << "distance" << 0.100;
    QTest::newRow("-lambda") << "-lambda 1 -img h.img" << "wavelength" << 1e-10;
    QTest::newRow("-Ybeam") << "-img h.img -Ybeam 3" << "beamY" << 3e-3;
    // the header's pixel counts are given counts: a new pixel size keeps them (nanoBragg:
    // detsize=0.0008 with -pixel 0.1), -detsize does not change them (detsize=0.0016)
    QTest::newRow("-pixel keeps counts") << "-img h.img -pixel 0.1" << "sizeFast" << 0.8e-3;
    QTest::newRow("-detsize ignored") << "-img h.img -detsize 5" << "sizeFast" << 1.6e-3;
    QTest::newRow("-detpixels wins") << "-img h.img -detpixels 10" << "sizeFast" << 2.0e-3;
}

void TestCommandLine::imgHeader() {
    QFETCH(QString, args);
    QFETCH(QString, quantity);
    QFETCH(double, expected);
    inTemporaryDirectory([&](const QString&) {
        writeSmvFile("h.img", kHeader, 8, 8, std::vector<std::uint16_t>(64, 1));
        const RunRequest cl = parse(args);
        QCOMPARE(cl.img, std::string("h.img"));
        QVERIFY(cl.experiment.mask.empty()); // -img pixels are not a mask
        // header values are not options: they choose no pivot
        QCOMPARE(cl.experiment.detector.pivot, bv::Pivot::Beam);
        const double actual = ::quantity(cl, quantity);
        QVERIFY2(sameNumber(actual, expected),
                 qPrintable(QString("%1 = %2, expected %3").arg(quantity).arg(actual, 0, 'g', 17).arg(expected, 0, 'g', 17)));
    });
}

void TestCommandLine::maskHeaderAndPixels() {
    inTemporaryDirectory([&](const QString&) {
        std::vector<std::uint16_t> pixels(64, 1);
        pixels[0] = 0;      // fast 0, slow 0
        pixels[8 + 3] = 0;  // fast 3, slow 1
        writeSmvFile("m.img", kHeader, 8, 8, pixels);
        RunRequest cl = parse("-mask m.img");
        QCOMPARE(cl.mask, std::string("m.img"));
        QCOMPARE(cl.experiment.mask, pixels);
        // the mask's BEAM_CENTER_Y counts from the far edge: 8 x 0.2 mm - 0.7 mm = 0.9 mm
        // (nanoBragg -mask h.img printed Ybeam=0.0009)
        QVERIFY(sameNumber(*cl.experiment.detector.beamY, 0.9e-3));
        QVERIFY(sameNumber(*cl.experiment.detector.beamX, 0.5e-3));

        // the mask is read first, -img after it: the image's header wins, the mask stays
        writeSmvFile("h.img", QStringList(kHeader) << "BEAM_CENTER_Y=0.4" << "WAVELENGTH=2", 8, 8,
                     std::vector<std::uint16_t>(64, 7));
        cl = parse("-img h.img -mask m.img");
        QVERIFY(sameNumber(*cl.experiment.detector.beamY, 0.4e-3));
        QVERIFY(sameNumber(cl.experiment.beam.wavelength, 2e-10));
        QCOMPARE(cl.experiment.mask, pixels);

        // the last -img names the file
        cl = parse("-img missing.img -img h.img");
        QCOMPARE(cl.img, std::string("h.img"));
    });
}

void TestCommandLine::maskReadInTheDetectorsOrder() {
    inTemporaryDirectory([&](const QString&) {
        // an 8x8 mask whose value is its own pixel number (0 masks the first pixel only)
        std::vector<std::uint16_t> numbered(64);
        for (std::size_t i = 0; i < numbered.size(); ++i)
            numbered[i] = std::uint16_t(i);
        writeSmvFile("m.img", kHeader, 8, 8, numbered);
        QCOMPARE(parse("-mask m.img -pixel 0.1").experiment.mask, numbered); // counts stay 8x8

        // a smaller detector takes the mask's first values in the file's order, as nanoBragg's
        // index (row * its own width + column) does: a 4x4 detector's row 1 is the mask's
        // pixels 4-7 (its first row's second half), not the mask's row 1
        const RunRequest smaller = parse("-mask m.img -detpixels 4");
        QCOMPARE(smaller.experiment.mask,
                 std::vector<std::uint16_t>(numbered.begin(), numbered.begin() + 16));
        QVERIFY(
            std::any_of(smaller.notices.begin(), smaller.notices.end(), [](const std::string& n) {
                return n.find("8x8") != std::string::npos && n.find("4x4") != std::string::npos;
            }));

        // a larger one would read past the mask's end: an error naming both sizes
        const QString message = parseError("-mask m.img -detpixels 9");
        QVERIFY2(message.contains("-mask m.img") && message.contains("8x8") &&
                     message.contains("9x9"),
                 qPrintable(message));
    });
}

void TestCommandLine::help() {
    QVERIFY(parse("-h").help);
    QVERIFY(parse("-lambda 1 --help").help);
    QVERIFY(parse("-help -foo").help); // help wins over errors elsewhere
    QVERIFY(!parse("-lambda 1").help);
}

// ---- errors ------------------------------------------------------------------------------

void TestCommandLine::errors_data() {
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("message"); // what the message must contain
    QTest::newRow("unknown option") << "-foo 1" << "unknown option -foo;";
    QTest::newRow("unknown noise generator") << "-noise_generator philox" << "-noise_generator: expected reference or counter (-noise_generator reference|counter), got 'philox'";
    QTest::newRow("counter noise, no noise written") << "-nonoise -noise_generator counter" << "-noise_generator counter: no file of this run holds noise (-nonoise, no -cbffile, no -nexusfile of photon counts)";
    QTest::newRow("typo suggests") << "-lamda 1" << "unknown option -lamda (did you mean -lambda?)";
    QTest::newRow("odd bytes quoted") << QString("-a\u00e9") << "unknown option '-a\\xc3\\xa9'";
    QTest::newRow("abbreviation suggests") << "-detpixel 100" << "(did you mean -detpixels, -detpixels_f or -detpixels_x?)";
    QTest::newRow("reference substring spelling") << "-hdiv 0.28" << "unknown option -hdiv (did you mean -hdivrange, -hdivstep or -hdivsteps?)";
    QTest::newRow("missing value") << "-distance" << "-distance: missing value (-distance <mm>)";
    QTest::newRow("value is an option") << "-hkl -mat A.mat" << "-hkl: missing value (-hkl <file>) before -mat";
    QTest::newRow("not a number") << "-distance abc" << "-distance: expected a length greater than 0, at most 100000 mm (-distance <mm>), got 'abc'";
    QTest::newRow("trailing junk") << "-lambda 1.5A" << "-lambda: expected a wavelength from 0.0001 to 10000 A";
    QTest::newRow("not an integer") << "-N 5.5" << "-N: expected a whole number, 0 or more";
    QTest::newRow("negative count") << "-detpixels -5" << "-detpixels: expected a whole number, 0 or more";
    QTest::newRow("negative pixel") << "-pixel -1" << "-pixel: expected a pixel size from 0.0001 to 1000 mm";
    QTest::newRow("zero distance") << "-distance 0" << "-distance: expected a length greater than 0";
    QTest::newRow("nan") << "-lambda nan" << "-lambda: expected a wavelength from 0.0001 to 10000 A (-lambda <A>), got 'nan'";
    QTest::newRow("inf") << "-Xbeam inf" << "-Xbeam: expected a length from -100000 to 100000 mm";
    QTest::newRow("overflow") << "-fluence 1e999" << "-fluence: expected a fluence from 0 to 1e+40 photons/m^2";
    QTest::newRow("zero energy") << "-energy 0" << "-energy: expected a photon energy from 1.23984 to 1.23984e+08 eV";
    QTest::newRow("cell angle 180") << "-cell 100 100 100 90 180 90" << "-cell: the angles alpha 90, beta 180, gamma 90 degrees cannot form a unit cell";
    QTest::newRow("cell angle past 180") << "-cell 100 100 100 90 181 90" << "-cell: expected a cell angle greater than 0, at most 180 degrees";
    QTest::newRow("cell length") << "-cell 100 0 100" << "-cell: expected a cell edge from 0.01 to 100000 A";
    QTest::newRow("cell negative angle") << "-cell 100 100 100 -90" << "-cell: expected a cell angle";
    QTest::newRow("cell without numbers") << "-cell -N 5" << "-cell: missing value";
    QTest::newRow("misset two angles") << "-misset 10 20" << "-misset: missing value (-misset <x> <y> <z> | random)";
    QTest::newRow("misset word") << "-misset randomly 0 0" << "-misset: expected an angle from -1e+06 to 1e+06 degrees";
    QTest::newRow("pivot word") << "-pivot middle" << "-pivot: expected beam or sample";
    QTest::newRow("zero vector") << "-beam_vector 0 0 0" << "-beam_vector: expected a vector that is not zero";
    QTest::newRow("short vector") << "-fdet_vector 1 0" << "-fdet_vector: missing value";
    QTest::newRow("Kahn factor") << "-polar 2" << "-polar: expected a polarization factor from -1 to 1";
    QTest::newRow("roi count") << "-roi 1 2 3" << "-roi: missing value";
    QTest::newRow("roi fraction") << "-roi 1 2 3 4.5" << "-roi: expected a whole number";
    QTest::newRow("seed fraction") << "-seed 1.5" << "-seed: expected a whole number";
    QTest::newRow("huge count") << "-N 99999999999" << "-N: expected a whole number, 0 or more up to";
    QTest::newRow("negative mosaic") << "-mosaic -1" << "-mosaic: expected an angle from 0 to 1e+06 degrees";
    QTest::newRow("detector_abs word") << "-detector_abs lots" << "-detector_abs: expected a thickness from 0 to 1e+06 um";
    QTest::newRow("precision word") << "-precision medium" << "-precision: expected fast, single, precise or double";
    QTest::newRow("device word") << "-device gpu" << "-device: expected a device index (0, 1, ...), cpu, all";
    QTest::newRow("device list with a word") << "-device 0,gpu" << "-device: expected a device index";
    QTest::newRow("device list with a hole") << "-device 0,,1" << "-device: expected a device index";
    QTest::newRow("stray value") << "-N 5 6" << "unexpected argument 6 after 5:";
    QTest::newRow("detector below a pixel") << "-detsize 0.01" << "not even one pixel";
    QTest::newRow("detector too large") << "-detpixels 100000" << "more than 32768 pixels";
    QTest::newRow("missing -img") << "-img nowhere.img" << "-img: ";
    QTest::newRow("missing -mask") << "-mask nowhere.img" << "nowhere.img";
}

void TestCommandLine::errors() {
    QFETCH(QString, args);
    QFETCH(QString, message);
    const QString actual = parseError(args);
    QVERIFY2(actual.contains(message), qPrintable("got: " + actual));
}

// ---- loadInputs --------------------------------------------------------------------------

void TestCommandLine::loadInputsReadsFiles() {
    inTemporaryDirectory([&](const QString&) {
        copyInput("A.mat");
        copyInput("sources.txt");
        QFile stol("water.stol");
        QVERIFY(stol.open(QIODevice::WriteOnly));
        stol.write("0 2.57\n0.5 1\n");
        stol.close();
        RunRequest cl = parse("-mat A.mat -default_F 1 -sourcefile sources.txt -stol water.stol");
        std::ostringstream log;
        bv::request::loadInputs(cl, log);
        // A.mat's first row is a*x b*x c*x: the matrix's columns are a*, b*, c*
        QVERIFY(cl.experiment.crystal.mosflmMatrix.has_value());
        const glm::dmat3& m = *cl.experiment.crystal.mosflmMatrix;
        QCOMPARE(m[0], glm::dvec3(0.0215254335, 0.0143117943, -0.0021757442));
        QCOMPARE(m[2], glm::dvec3(0.0037877467, -0.0011797730, 0.0162920915));
        // sources.txt: three lines of X Y Z weight lambda
        const auto& sources = cl.experiment.beam.sourceFile;
        QCOMPARE(sources.size(), std::size_t(3));
        QCOMPARE(sources[1].Y, 0.002);
        QCOMPARE(sources[2].weight, 2.0);
        QCOMPARE(sources[2].lambda, 1.0e-10);
        // no -hkl and no dump: only the default
        QVERIFY(!cl.experiment.structureFactors.hasTable());
        QCOMPARE(cl.experiment.structureFactors.defaultF, 1.0);
    });
}

void TestCommandLine::loadInputsUsesAndWritesDump() {
    inTemporaryDirectory([&](const QString& dir) {
        copyInput("test_pattern.hkl");
        // -hkl: read, then cached in Fdump.bin
        RunRequest cl = parse("-hkl test_pattern.hkl -cell 100");
        std::ostringstream log;
        bv::request::loadInputs(cl, log);
        const bv::StructureFactors first = cl.experiment.structureFactors;
        QCOMPARE(first.reflectionCount, std::size_t(6)); // the file's six lines
        QVERIFY(QFile::exists("Fdump.bin"));

        // no -hkl: the cache is read back, with this run's -default_F outside the grid
        cl = parse("-cell 100 -default_F 3");
        bv::request::loadInputs(cl, log);
        const bv::StructureFactors& again = cl.experiment.structureFactors;
        QCOMPARE(again.F, first.F);
        QCOMPARE(again.hMin, first.hMin);
        QCOMPARE(again.lMax, first.lMax);
        QCOMPARE(again.defaultF, 3.0);
        QCOMPARE(again.reflectionCount,
                 std::size_t(first.hCount() * first.kCount() * first.lCount()));

        // -dump names the cache; one that cannot be written is a warning
        log.str("");
        cl = parse("-hkl test_pattern.hkl -cell 100 -dump " + dir + "/no/such/dir/F.bin");
        bv::request::loadInputs(cl, log);
        QVERIFY2(QString::fromStdString(log.str()).contains("WARNING"), log.str().c_str());
        QCOMPARE(cl.experiment.structureFactors.reflectionCount, std::size_t(6));
    });
}

void TestCommandLine::loadInputsErrors_data() {
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing -hkl") << "-hkl nothere.hkl -cell 100" << "-hkl: cannot read HKL file 'nothere.hkl'";
    QTest::newRow("directory -hkl") << "-hkl subdir -cell 100" << "-hkl: cannot read HKL file 'subdir': it is a directory";
    QTest::newRow("missing -mat") << "-mat nothere.mat -default_F 1" << "-mat: cannot read matrix file 'nothere.mat'";
    QTest::newRow("missing -sourcefile") << "-sourcefile s.txt -cell 100 -default_F 1" << "-sourcefile: ";
    QTest::newRow("missing -stol") << "-stol w.stol -cell 100 -default_F 1" << "-stol: ";
    QTest::newRow("broken dump") << "-cell 100 -dump subdir" << "subdir";
}

void TestCommandLine::loadInputsErrors() {
    QFETCH(QString, args);
    QFETCH(QString, message);
    inTemporaryDirectory([&](const QString&) {
        QVERIFY(QDir().mkdir("subdir"));
        RunRequest cl = parse(args);
        std::ostringstream log;
        QString actual;
        try {
            bv::request::loadInputs(cl, log);
        } catch (const bv::request::UsageError& e) {
            actual = "UsageError: " + QString::fromStdString(e.reason());
        } catch (const bv::Error& e) {
            actual = QString::fromStdString(e.what());
        }
        QVERIFY2(actual.contains(message), qPrintable("got: " + actual));
    });
}

void TestCommandLine::usageStops_data() {
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("reason");
    QTest::newRow("nothing at all") << "" << "no structure factors";
    QTest::newRow("no hkl, no dump, default_F 0") << "-cell 100 -default_F 0" << "no structure factors";
    QTest::newRow("no cell, no matrix") << "-default_F 1" << "no unit cell";
}

void TestCommandLine::usageStops() {
    QFETCH(QString, args);
    QFETCH(QString, reason);
    inTemporaryDirectory([&](const QString&) {
        RunRequest cl = parse(args);
        std::ostringstream log;
        try {
            bv::request::loadInputs(cl, log);
            QFAIL("no UsageError");
        } catch (const bv::request::UsageError& e) {
            QVERIFY2(QString::fromStdString(e.reason()).contains(reason), e.reason().c_str());
            QCOMPARE(std::string(e.what()), bv::cli::usageText());
        }
    });
}

void TestCommandLine::usageListsEveryOption() {
    const QString usage = QString::fromStdString(bv::cli::usageText());
    for (const bv::request::Flag& flag : bv::request::flagTable()) {
        for (const std::string& name : flag.names) {
            // each name as a word of its own
            const QRegularExpression word("(^|[ (,])" + QRegularExpression::escape(QString::fromStdString(name)) + "([ ,)]|$)",
                                          QRegularExpression::MultilineOption);
            QVERIFY2(usage.contains(word), name.c_str());
        }
        // the option's entry (its line and help, up to the next option) says "[no effect]"
        const qsizetype start = usage.indexOf("\n  " + QString::fromStdString(flag.names[0]) + " ") >= 0
                                    ? usage.indexOf("\n  " + QString::fromStdString(flag.names[0]) + " ")
                                    : usage.indexOf("\n  " + QString::fromStdString(flag.names[0]) + "\n");
        QVERIFY2(start >= 0, flag.names[0].c_str());
        const QString entry = usage.mid(start, usage.indexOf("\n  -", start + 1) - start);
        QCOMPARE(entry.contains("[no effect]"), flag.noEffect);
    }
    // units and defaults are shown
    QVERIFY(usage.contains("-lambda <A>   (also -wave, -wavelength)"));
    QVERIFY(usage.contains("default: 100")); // -distance
    QVERIFY(usage.contains("[no effect]"));
}

QTEST_APPLESS_MAIN(TestCommandLine)
#include "tst_commandline.moc"
