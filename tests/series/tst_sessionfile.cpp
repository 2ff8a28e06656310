// Viewer sessions read and written without Qt (compute/request/SessionFile.h): every field of
// the experiment comes back bit for bit, in SI units; sessions that Qt's JSON writer wrote
// (before the reader moved out of the viewer) still read; relative file names are the
// session's directory's; the HKL file is read again; and a session that is not one is refused
// with the file, line, column and key.

#include "compute/cli/CommandLine.h"
#include "compute/request/Inputs.h"
#include "compute/request/SessionFile.h"
#include "compute/io/Json.h"
#include "compute/core/Error.h"
#include "tests/app/ExperimentCompare.h"

#include "tests/TestSupport.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>
#include <sstream>

using bv::RunRequest;

namespace {

using bv::testing::words;

const QString kInputs = QStringLiteral(BV_TEST_DATA "/inputs/");

RunRequest loaded(const QString& args) {
    RunRequest cl = bv::cli::parseCommandLine(words(args));
    std::ostringstream log;
    bv::request::loadInputs(cl, log);
    return cl;
}

RunRequest roundTrip(const RunRequest& cl) {
    const std::string text = bv::request::sessionText(cl);
    RunRequest back = bv::request::parseSession(bv::io::parseJson(text, "view.json"), "");
    std::ostringstream log;
    bv::request::loadSessionInputs(back, log); // the HKL file, read again
    return back;
}

bool sameBits(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
}

const QString kSmall = QStringLiteral(
    "-cell 50 60 70 90 90 90 -default_F 100 -distance 60 -lambda 1.2 -detpixels 48 -seed 3");

std::string error(const std::string& text, const std::string& directory = "") {
    try {
        RunRequest cl =
            bv::request::parseSession(bv::io::parseJson(text, "view.json"), directory);
        std::ostringstream log;
        bv::request::loadSessionInputs(cl, log);
    } catch (const bv::Error& e) {
        return e.what();
    }
    return "no error";
}

// the session of kSmall with `from` replaced by `to` (once; the text must contain it)
std::string edited(const QString& from, const QString& to) {
    QString text = QString::fromStdString(bv::request::sessionText(loaded(kSmall)));
    if (!text.contains(from))
        qFatal("the session has no %s", qPrintable(from));
    return text.replace(text.indexOf(from), from.size(), to).toStdString();
}

} // namespace

class TestSessionFile : public QObject {
    Q_OBJECT
  private slots:
    void everyFieldComesBackBitForBit_data() {
        QTest::addColumn<QString>("args");
        QTest::newRow("small") << kSmall;
        QTest::newRow("everything") << QStringLiteral(
            "-cell 51.2 62.3 73.4 88 92 101 -misset 1 2 3 -Na 3 -Nb 4 -Nc 5 -gauss_xtal -fudge 1.5 "
            "-mosaic 0.7 -mosaic_dom 12 -mosaic_seed 99 -phi 12.5 -osc 0.5 -phisteps 4 "
            "-lambda 1.3 -dispersion 0.2 -dispsteps 3 -hdivrange 0.5 -vdivrange 0.25 -divsteps 3 "
            "-square_div -polar 0.9 -fluence 1e30 -pixel 0.172 -detpixels_f 300 -detpixels_s 200 "
            "-distance 150 -Xbeam 25 -Ybeam 18 -detector_rotx 1 -detector_roty 2 -detector_rotz 3 "
            "-twotheta 5 -point_pixel -detector_thick 450 -detector_abs 320 -thicksteps 3 "
            "-oversample 2 -oversample_omega -roi 10 200 20 150 -dmin 2.5 -nointerpolate -water 50 "
            "-default_F 10 -seed 42 -adc 10 -scale 2 -pgmscale 3 -precision fast");
        QTest::newRow("interpolation kept on at the grid's edge") << QStringLiteral(
            "-cell 30 30 30 -default_F 1 -N 2 -interpolate -interpolate_local -detpixels 32 "
            "-seed 4");
        QTest::newRow("xds close distance") << QStringLiteral(
            "-cell 30 30 30 -default_F 1 -xds -close_distance 120 -ORGX 90 -ORGY 110 -detpixels 180 "
            "-nopolar -curved_det -seed 3");
        QTest::newRow("custom vectors, random misset") << QStringLiteral(
            "-cell 30 40 50 -default_F 1 -beam_vector 0 0 1 -polar_vector 0 1 0 -spindle_axis 1 0 0 "
            "-twotheta_axis 0 1 0 -fdet_vector 1 0 0 -sdet_vector 0 -1 0 -odet_vector 0 0 1 "
            "-pivot sample -twotheta 7 -misset random -misset_seed 77 -detpixels 64 -seed 5");
        QTest::newRow("background and response") << QStringLiteral(
            "-cell 30 30 30 -default_F 1 -detpixels 64 -seed 4 -background water "
            "-background_thickness 0.02 -background_density 0.92 -background_MW 18.02 "
            "-response_psf fiber -response_psf_fwhm 120 -response_psf_radius 4 "
            "-response_flicker 0.01 -response_calibration 0.02 -response_calib_seed 7 "
            "-response_readout 3 -response_gain 2.5");
        QTest::newRow("matrix, sources, HKL") << QStringLiteral(
            "-mat %1A.mat -sourcefile %1sources.txt -hkl %1test_pattern.hkl -detpixels 32 "
            "-flux 1e12 -exposure 2 -beamsize 0.05 -xtal_size 0.001 -seed 9").arg(kInputs);
    }
    void everyFieldComesBackBitForBit() {
        QFETCH(QString, args);
        QTemporaryDir dir; // -hkl writes its Fdump.bin cache into the working directory
        const QString previous = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.path()));
        const RunRequest original = loaded(args);
        QDir::setCurrent(previous);
        const RunRequest back = roundTrip(original);

        bv::test::ExperimentCompare exact;
        const QString difference = exact.difference(original.experiment, back.experiment);
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
        // what the comparison leaves to the files: the matrix and the sources, value by value
        QCOMPARE(back.experiment.crystal.mosflmMatrix.has_value(),
                 original.experiment.crystal.mosflmMatrix.has_value());
        if (original.experiment.crystal.mosflmMatrix)
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j)
                    QVERIFY(sameBits((*back.experiment.crystal.mosflmMatrix)[i][j],
                                     (*original.experiment.crystal.mosflmMatrix)[i][j]));
        const auto& s = original.experiment.beam.sourceFile;
        const auto& t = back.experiment.beam.sourceFile;
        QCOMPARE(t.size(), s.size());
        for (std::size_t i = 0; i < s.size(); ++i)
            for (auto field : {&bv::SourceRecord::X, &bv::SourceRecord::Y, &bv::SourceRecord::Z,
                               &bv::SourceRecord::weight, &bv::SourceRecord::lambda})
                QVERIFY(sameBits(t[i].*field, s[i].*field));
        QCOMPARE(back.outputs.intScale, original.outputs.intScale);
        QCOMPARE(back.outputs.pgmScale, original.outputs.pgmScale);
        QCOMPARE(back.outputs.adcOffset, original.outputs.adcOffset);
        QCOMPARE(int(back.precision), int(original.precision));
        // file names come back absolute, so that the session can move
        QCOMPARE(QString::fromStdString(back.hkl),
                 original.hkl.empty() ? QString() : QFileInfo(QString::fromStdString(original.hkl)).absoluteFilePath());
        QCOMPARE(back.mat.empty(), original.mat.empty());
        QVERIFY(back.dumpFile.empty() || QFileInfo(QString::fromStdString(back.dumpFile)).isAbsolute());
    }

    void numbersNoTextStatesComeBackToo() {
        // values a slider or arithmetic makes, which have no short decimal of their own
        RunRequest cl = loaded(kSmall);
        bv::Experiment& e = cl.experiment;
        e.detector.distance = 0.1 + 0.2; // 0.30000000000000004
        e.beam.wavelength = std::nextafter(1e-10, 1.0);
        e.crystal.phi0 = 1.0 / 3.0;
        e.crystal.missetAngles = {std::ldexp(1.0, -1074), -0.0, 1e-300}; // denormal, -0
        e.crystal.mosaicSpread = 5e-324;
        const RunRequest back = roundTrip(cl);
        QVERIFY(sameBits(back.experiment.detector.distance, 0.30000000000000004));
        QVERIFY(sameBits(back.experiment.beam.wavelength, e.beam.wavelength));
        QVERIFY(sameBits(back.experiment.crystal.phi0, 1.0 / 3.0));
        QVERIFY(sameBits(back.experiment.crystal.missetAngles.x, std::ldexp(1.0, -1074)));
        QVERIFY(std::signbit(back.experiment.crystal.missetAngles.y));
        QVERIFY(sameBits(back.experiment.crystal.missetAngles.z, 1e-300));
        QVERIFY(sameBits(*back.experiment.crystal.mosaicSpread, 5e-324));
    }

    void unitsAreSi() {
        const std::string text = bv::request::sessionText(loaded(kSmall));
        const bv::io::JsonDocument doc = bv::io::parseJson(text, "view.json");
        const bv::io::Json& e = doc.root()["experiment"];
        // -distance 60 (mm), -lambda 1.2 (Angstrom), 48 pixels of 0.1 mm
        QCOMPARE(doc.numberText(e["detector"]["distance"]), std::string("0.06"));
        QCOMPARE(doc.numberText(e["beam"]["wavelength"]), std::string("1.2e-10"));
        QCOMPARE(e["detector"]["sizeFast"].get<double>(), 48 * 0.0001);
        QCOMPARE(e["crystal"]["cell"]["a"].get<double>(), 50.0);
        QVERIFY(e["detector"]["beamX"].is_null()); // automatic
        QCOMPARE(doc.numberText(e["seed"]), std::string("-3")); // nanoBragg's seed variable
        QCOMPARE(doc.root()["precision"].get<std::string>(), std::string("precise"));
    }

    void aSessionQtWroteStillReads() {
        // sessions of earlier versions were written by QJsonDocument: keys sorted, 4 spaces,
        // its own number texts
        const RunRequest original =
            loaded(QStringLiteral("-mat %1A.mat -sourcefile %1sources.txt -default_F 3 "
                                  "-misset random -misset_seed 4 -mosaic 0.3 -mosaic_dom 3 -seed 8")
                       .arg(kInputs));
        const QByteArray ours = QByteArray::fromStdString(bv::request::sessionText(original));
        const QByteArray qts = QJsonDocument::fromJson(ours).toJson(QJsonDocument::Indented);
        QVERIFY(qts.startsWith("{\n    \"experiment\""));
        const RunRequest back =
            bv::request::parseSession(bv::io::parseJson(qts.toStdString(), "old.json"), "");
        bv::test::ExperimentCompare exact;
        const QString difference = exact.difference(original.experiment, back.experiment);
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
        QVERIFY(sameBits((*back.experiment.crystal.mosflmMatrix)[2][1],
                         (*original.experiment.crystal.mosflmMatrix)[2][1]));
    }

    void relativeNamesAreTheSessionsDirectorys_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("directory");
        QTest::addColumn<QString>("path");
        QTest::newRow("relative") << "P1.hkl" << "/data/views" << "/data/views/P1.hkl";
        QTest::newRow("up") << "../hkl/P1.hkl" << "views" << "views/../hkl/P1.hkl";
        QTest::newRow("absolute") << "/data/P1.hkl" << "/data/views" << "/data/P1.hkl";
        QTest::newRow("bare session name") << "P1.hkl" << "" << "P1.hkl";
        QTest::newRow("none") << "" << "/data/views" << "";
    }
    void relativeNamesAreTheSessionsDirectorys() {
        QFETCH(QString, name);
        QFETCH(QString, directory);
        QFETCH(QString, path);
        const std::string text = edited(QStringLiteral("\"mat\": \"\""),
                                        QStringLiteral("\"mat\": \"%1\"").arg(name));
        const RunRequest cl = bv::request::parseSession(bv::io::parseJson(text, "view.json"),
                                                          directory.toStdString());
        QCOMPARE(QString::fromStdString(cl.mat), path);
    }

    // a -model run's session reads the model again, as a model, to its -model_dmin
    void aModelIsReadAgainAsAModel() {
        QTemporaryDir dir;
        const QString pdb = dir.filePath("c.pdb");
        QFile file(pdb);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("CRYST1   10.000   10.000   10.000  90.00  90.00  90.00 P 1           1\n"
                   "ATOM      1  C   GLY A   1       1.000   2.000   3.000  1.00 20.00           C\n");
        file.close();
        const RunRequest cl = loaded(kSmall + " -model " + pdb + " -model_dmin 3 -dump " +
                                     dir.filePath("Fdump.bin"));
        const RunRequest back = roundTrip(cl);
        QCOMPARE(int(back.hklFormat), int(RunRequest::HklFormat::Model));
        QCOMPARE(back.modelDminAngstrom, 3.0);
        const bv::StructureFactors& f = back.experiment.structureFactors;
        QCOMPARE(f.hMax, 3); // 10 A / 3 A
        QCOMPARE(f.amplitude(1, 0, 0), cl.experiment.structureFactors.amplitude(1, 0, 0));
        QVERIFY(f.amplitude(1, 0, 0) > 5.0 && f.amplitude(1, 0, 0) < 6.0); // near carbon's 6
    }

    void theHklFileIsReadAgain() {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(kInputs + "test_pattern.hkl", dir.path() + "/pattern.hkl"));
        // a session beside its HKL file, naming it relative to itself
        const std::string text = edited(QStringLiteral("\"hkl\": \"\""),
                                        QStringLiteral("\"hkl\": \"pattern.hkl\""));
        QFile file(dir.path() + "/view.json");
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text.data(), static_cast<qint64>(text.size()));
        file.close();
        std::ostringstream log;
        const RunRequest cl =
            bv::request::readSession((dir.path() + "/view.json").toStdString(), log);
        const bv::StructureFactors& f = cl.experiment.structureFactors;
        // test_pattern.hkl: "2 0 0 200.0", "1 1 0 12.5"; (3 0 0) is outside: -default_F 100
        QCOMPARE(f.amplitude(2, 0, 0), 200.0);
        QCOMPARE(f.amplitude(1, 1, 0), 12.5);
        QCOMPARE(f.amplitude(3, 0, 0), 100.0);
    }

    void aBadSessionNamesFileLineAndKey_data() {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("message"); // a regular expression
        const QString at = QStringLiteral("^view\\.json:\\d+:\\d+: ");
        QTest::newRow("a string for a number")
            << "\"distance\": 0.06" << "\"distance\": \"far\""
            << at + "experiment\\.detector\\.distance: expected a length greater than 0, at most 100 m, got 'far'$";
        QTest::newRow("no wavelength")
            << "\"wavelength\": 1.2e-10" << "\"wavelength\": 0"
            << at + "experiment\\.beam\\.wavelength: expected a wavelength from 1e-14 to 1e-06 m, got 0$";
        // the command line's limits (compute/model/PhysicalLimits.h), in the session's SI units
        QTest::newRow("beam centre far outside")
            << "\"beamX\": null" << "\"beamX\": 1e300"
            << at + "experiment\\.detector\\.beamX: expected a length from -100 to 100 m, got 1e300$";
        QTest::newRow("misset past a million degrees")
            << "\"missetAngles\": [0, 0, 0]" << "\"missetAngles\": [0, 1e5, 0]"
            << at + "experiment\\.crystal\\.missetAngles: expected three of an angle from -17453.3 to 17453.3 rad";
        QTest::newRow("cell angles that close no cell")
            << "\"alpha\": 1.5707963267948966" << "\"alpha\": 3.141592653589793"
            << at + "experiment\\.crystal\\.cell: expected angles that can form a unit cell";
        QTest::newRow("roi inside out")
            << "\"roi\": null" << "\"roi\": [40, 10, 0, 63]"
            << at + "experiment\\.sampling\\.roi: expected \\[xmin, xmax, ymin, ymax\\] with 0 <= min <= max on the";
        QTest::newRow("missing member")
            << "\"fudge\": 1," << ""
            << at + "experiment\\.crystal: \"fudge\" is missing$";
        QTest::newRow("another format")
            << "\"braggview session\"" << "\"nanoBragg session\""
            << at + "format: expected \"braggview session\", got 'nanoBragg session'$";
        QTest::newRow("a later version")
            << "\"version\": 1" << "\"version\": 3"
            << at + "version: expected 1 to 2 \\(the versions this braggview reads\\), got 3$";
        QTest::newRow("unknown pivot")
            << "\"pivot\": \"beam\"" << "\"pivot\": \"middle\""
            << at + "experiment\\.detector\\.pivot: expected one of beam, sample, got 'middle'$";
        QTest::newRow("fractional count")
            << "\"oversample\": null" << "\"oversample\": 2.5"
            << at + "experiment\\.sampling\\.oversample: expected a whole number from 0 to "
                    "1000000000, got 2.5$";
        QTest::newRow("seed beyond the generator")
            << "\"seed\": -3" << "\"seed\": 1e10"
            << at + "experiment\\.seed: expected a whole number from -2147483647 to 2147483647";
        QTest::newRow("roi of three")
            << "\"roi\": null" << "\"roi\": [1, 2, 3]"
            << at + "experiment\\.sampling\\.roi: expected \\[xmin, xmax, ymin, ymax\\]";
        QTest::newRow("short source")
            << "\"sourceFile\": []" << "\"sourceFile\": [[1, 2, 3]]"
            << at + "experiment\\.beam\\.sourceFile\\[0\\]: expected a source as five numbers";
        QTest::newRow("a source's coordinate")
            << "\"sourceFile\": []" << "\"sourceFile\": [[1, 2, 3, 1, null], [0, 0, true, 1, null]]"
            << at + "experiment\\.beam\\.sourceFile\\[1\\]\\[2\\]: expected a number, got true$";
        QTest::newRow("a vector's element")
            << "\"missetAngles\": [0, 0, 0]" << "\"missetAngles\": [0, 0, \"x\"]"
            << at + "experiment\\.crystal\\.missetAngles\\[2\\]: expected a number, got 'x'$";
        QTest::newRow("vector of two")
            << "\"missetAngles\": [0, 0, 0]" << "\"missetAngles\": [0, 0]"
            << at + "experiment\\.crystal\\.missetAngles: expected an array of three numbers";
        QTest::newRow("no detector")
            << "\"pixelSize\": 1e-04" << "\"pixelSize\": 1"
            << at + "experiment\\.detector\\.sizeFast: expected sizeFast and sizeSlow of 1 to 32768 pixels";
        QTest::newRow("no cell, no matrix")
            << "\"cell\": {" << "\"cell\": null, \"unused\": {"
            << at + "experiment\\.crystal\\.cell: expected a unit cell";
        QTest::newRow("unknown precision")
            << "\"precision\": \"precise\"" << "\"precision\": \"medium\""
            << at + "precision: expected fast or precise, got 'medium'$";
        QTest::newRow("missing HKL file")
            << "\"hkl\": \"\"" << "\"hkl\": \"/nonexistent/P1.hkl\""
            << "^files\\.hkl: cannot read HKL file '/nonexistent/P1.hkl'";
    }
    void aBadSessionNamesFileLineAndKey() {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, message);
        const QString what = QString::fromStdString(error(edited(from, to)));
        QVERIFY2(QRegularExpression(message).match(what).hasMatch(), qPrintable(what));
    }

    void notASessionAtAll_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("an array") << "[1]" << "view.json:1:1: not a braggview session";
        QTest::newRow("malformed") << "{\"format\": }"
                                   << "view.json:1:12: syntax error while parsing value - unexpected '}'";
        QTest::newRow("empty object") << "{}" << "view.json:1:1: \"format\" is missing";
        QTest::newRow("experiment of a wrong kind")
            << "{\"format\": \"braggview session\", \"version\": 1, \"experiment\": 5}"
            << "view.json:1:61: experiment: expected an object, got 5";
    }
    void notASessionAtAll() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const QString what = QString::fromStdString(error(text.toStdString()));
        QVERIFY2(what.startsWith(message), qPrintable(what));
    }
};

QTEST_APPLESS_MAIN(TestSessionFile)
#include "tst_sessionfile.moc"
