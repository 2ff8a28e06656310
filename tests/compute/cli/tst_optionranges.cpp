// Input that nanoBragg accepts and renders into nonsense, which braggview refuses with a
// message naming the option (issue 11): values outside any physical range, NaN and
// infinities; cell angles that close no cell; an -roi off the detector or inside out; a
// MOSFLM matrix of coplanar vectors; and the same limits on -img header values. The sweep at
// the top runs every numeric option of the table through five probes; what each option
// may be comes from the physics table below it, not from the code under test.

#include "compute/cli/CommandLine.h"
#include "compute/request/Inputs.h"
#include "compute/request/Parameters.h"

#include <QTest>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <map>
#include <sstream>
#include <string>

using bv::RunRequest;

namespace {

// What a numeric option's value may be, by the physics of what it sets. NaN, infinities and
// 1e300 are no physical value of anything (the one exception is written out), so only the
// sign and zero need saying.
struct Physics {
    bool negative; // may be negative (a position, a rotation, a seed, an offset, an edge code)
    bool zero;     // may be 0 (none, off, automatic, the origin)
    bool infinite = false;
};

const std::map<std::string, Physics>& physicsTable() {
    static const std::map<std::string, Physics> table = {
        // crystal: sizes and spreads are not negative; 0 cells or 0 mm mean "use the other"
        {"-cell", {false, false}}, // edges and angles are sizes; 6 zeros is no cell
        {"-misset", {true, true}}, // rotations, either way
        {"-misset_seed", {true, true}},
        {"-N", {false, true}}, // 0 counts as one isolated cell
        {"-Na", {false, true}},
        {"-Nb", {false, true}},
        {"-Nc", {false, true}},
        {"-xtalsize", {false, true}}, // 0: the cell counts decide
        {"-xtal_thick", {false, true}},
        {"-xtal_width", {false, true}},
        {"-xtal_height", {false, true}},
        {"-fudge", {false, false}}, // scales a spot width
        {"-mosaic", {false, true}}, // an angular spread; 0 a perfect crystal
        {"-mosaic_domains", {false, true}}, // 0: automatic
        {"-mosaic_seed", {true, true}},
        {"-phi", {true, true}},
        {"-osc", {false, true}},     // a range; 0 a still
        {"-phistep", {false, true}}, // a step size; 0 derived from -osc
        {"-phisteps", {false, true}},
        {"-spindle_axis", {true, false}}, // a direction: no zero vector
        {"-density", {false, false}},
        {"-MW", {false, false}},
        // the -background layer: a thickness, a density and a molecular weight, all positive
        {"-background_thickness", {false, false}},
        {"-background_density", {false, false}},
        {"-background_MW", {false, false}},
        // the detector response: fractions and noise may be 0 (off), a gain and a width not;
        // a radius of 0 is chosen per pixel; a seed is any integer
        {"-response_psf_fwhm", {false, false}},
        {"-response_psf_radius", {false, true}},
        {"-response_flicker", {false, true}},
        {"-response_calibration", {false, true}},
        {"-response_calib_seed", {true, true}},
        {"-response_readout", {false, true}},
        {"-response_gain", {false, false}},
        // beam
        {"-lambda", {false, false}},
        {"-energy", {false, false}},
        {"-dispersion", {false, true}},
        {"-dispsteps", {false, true}},
        {"-divergence", {false, true}},
        {"-hdivrange", {false, true}},
        {"-vdivrange", {false, true}},
        {"-hdivstep", {false, true}},
        {"-vdivstep", {false, true}},
        {"-hdivsteps", {false, true}},
        {"-vdivsteps", {false, true}},
        {"-divsteps", {false, true}},
        {"-polar", {true, true}}, // the Kahn factor runs from -1 to 1
        {"-beam_vector", {true, false}},
        {"-polar_vector", {true, false}},
        {"-fluence", {false, true}}, // 0: a dark image
        {"-flux", {false, true}},    // 0: use -fluence
        {"-exposure", {false, true}},
        {"-beamsize", {false, true}},
        // detector: the sample is never on the detector; positions on it may be negative
        {"-distance", {false, false}},
        {"-close_distance", {false, false}},
        {"-detsize", {false, false}},
        {"-detsize_f", {false, false}},
        {"-detsize_s", {false, false}},
        {"-detpixels", {false, true}}, // 0: from -detsize
        {"-detpixels_f", {false, true}},
        {"-detpixels_s", {false, true}},
        {"-pixel", {false, false}},
        {"-Xbeam", {true, true}},
        {"-Ybeam", {true, true}},
        {"-Xclose", {true, true}},
        {"-Yclose", {true, true}},
        {"-ORGX", {true, true}},
        {"-ORGY", {true, true}},
        {"-fdet_vector", {true, false}},
        {"-sdet_vector", {true, false}},
        {"-odet_vector", {true, true}}, // zero: fast x slow
        {"-twotheta_axis", {true, false}},
        {"-pix0_vector", {true, true}}, // ignored, as by the reference
        {"-detector_rotx", {true, true}},
        {"-detector_roty", {true, true}},
        {"-detector_rotz", {true, true}},
        {"-twotheta", {true, true}},
        {"-detector_abs", {false, true, true}}, // 0 or inf: no absorption
        {"-detector_thick", {false, true}},
        {"-detector_thicksteps", {false, true}},
        // sampling, files, output
        {"-oversample", {false, true}}, // 0: automatic
        {"-roi", {true, true}},         // -1: the detector's edge; 0 the first pixel
        {"-dmin", {false, true}},       // 0: off
        {"-model_dmin", {false, false}}, // a resolution limit, above 0
        {"-water", {false, true}},
        {"-default_F", {false, true}},
        {"-scale", {false, true}}, // 0: automatic
        {"-pgmscale", {false, true}},
        {"-adc", {true, true}}, // an offset added to counts (the images clip at 0)
        {"-seed", {true, true}},
        {"-printout_pixel", {false, true}},
        {"-series", {false, false}}, // a number of frames
        {"-threads", {false, false}}, // a number of CPU threads, at least 1
        {"-device", {false, true}},  // an index into the driver's list
        // a DIALS experiment: an index into its list, and an image number of its scan (DIALS
        // counts images from 1, but a scan may start at 0); a measured file's frame, from 1
        {"-experiment_id", {false, true}},
        {"-frame", {false, true}},
        {"-measured_frame", {false, false}},
    };
    return table;
}

// Options whose values are words or file names: no number to probe.
const char* const kTextOptions[] = {
    "-pivot", "-precision", "--job", "-hkl", "-mat", "-dump", "-sourcefile", "-img", "-mask",
    "-stol", "-4stol", "-Q", "-stolout", "-floatfile", "-intfile", "-pgmfile", "-noisefile",
    "-cbffile", "-nexusfile", "-detector", "-noise_generator", "-background", "-response_psf",
    "-mtz", "-sfcif", "-model", "-sf_column", "-experiment", "-measured", "-refine",
    "-refine_pixels", "-refine_background", "-refined_experiment", "-fit_report", "-spots",
    "-phi_sampling",
    // its value is passed over unread, as nanoBragg passes it
    "-source_distance"};

bool isTextOption(const std::string& name) {
    for (const char* text : kTextOptions)
        if (name == text)
            return true;
    return false;
}

std::vector<std::string> split(const QString& args) {
    std::vector<std::string> out;
    for (const QString& token : args.split(' ', Qt::SkipEmptyParts))
        out.push_back(token.toStdString());
    return out;
}

// The message parseCommandLine throws for `args`, or "" when it accepts them.
QString parseError(const std::vector<std::string>& args) {
    try {
        bv::cli::parseCommandLine(args);
    } catch (const bv::Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}
QString parseError(const QString& args) { return parseError(split(args)); }

// Runs `body` with a fresh temporary directory as the working directory.
void inTemporaryDirectory(const std::function<void()>& body) {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString previous = QDir::currentPath();
    QDir::setCurrent(dir.path());
    body();
    QDir::setCurrent(previous);
}

void writeFile(const QString& path, const QByteArray& contents) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(contents) != contents.size())
        qFatal("cannot write %s", qPrintable(path));
}

// A 2x2 SMV image whose header holds `field` (KEY=VALUE).
void writeSmvWith(const QString& path, const QString& field) {
    QByteArray header = "{\nHEADER_BYTES=512;\nDIM=2;\nBYTE_ORDER=little_endian;\n"
                        "TYPE=unsigned_short;\nSIZE1=2;\nSIZE2=2;\n";
    header += field.toUtf8() + ";\n}\f";
    header += QByteArray(512 - header.size(), ' ');
    header += QByteArray(8, '\0');
    writeFile(path, header);
}

} // namespace

class TestOptionRanges : public QObject {
    Q_OBJECT

private slots:
    void everyNumericOptionHasItsPhysicsWritten();
    void everyNumericOptionRefusesWhatNoPhysicsAllows_data();
    void everyNumericOptionRefusesWhatNoPhysicsAllows();
    void aKindHasOneLimit_data();
    void aKindHasOneLimit();
    void limitsAtTheirEdges_data();
    void limitsAtTheirEdges();
    void cellAnglesMustCloseACell_data();
    void cellAnglesMustCloseACell();
    void aMatrixMustFormACell();
    void roiMustLieOnTheDetector_data();
    void roiMustLieOnTheDetector();
    void headerValuesMeetTheSameLimits();
    void goldenCasesAndPresetsAreAccepted();
};

// A new numeric option fails here until its physics is written into the table above.
void TestOptionRanges::everyNumericOptionHasItsPhysicsWritten() {
    for (const bv::request::Flag& flag : bv::request::flagTable()) {
        const std::string& name = flag.names[0];
        if (flag.values == 0 || isTextOption(name))
            continue;
        QVERIFY2(physicsTable().count(name) == 1,
                 qPrintable(QString::fromStdString(name) +
                            ": a numeric option without a row in physicsTable()"));
    }
    for (const auto& [name, physics] : physicsTable())
        QVERIFY2(bv::request::findFlag(name), qPrintable(QString::fromStdString(name) + ": no such option"));
}

void TestOptionRanges::everyNumericOptionRefusesWhatNoPhysicsAllows_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("option");
    QTest::addColumn<bool>("accepted");
    for (const bv::request::Flag& flag : bv::request::flagTable()) {
        const std::string& name = flag.names[0];
        const auto physics = physicsTable().find(name);
        if (physics == physicsTable().end())
            continue; // everyNumericOptionHasItsPhysicsWritten says so
        const Physics& p = physics->second;
        const std::pair<const char*, bool> probes[] = {
            {"nan", false}, {"inf", p.infinite}, {"1e300", false}, {"-1", p.negative}, {"0", p.zero}};
        for (const auto& [probe, accepted] : probes) {
            // every value of the option is the probe: -cell 0 0 0 0 0 0, -roi -1 -1 -1 -1
            QStringList args{QString::fromStdString(name)};
            for (int i = 0; i < flag.values; ++i)
                args << probe;
            QTest::addRow("%s %s", name.c_str(), probe)
                << args << QString::fromStdString(name) << accepted;
        }
    }
}

void TestOptionRanges::everyNumericOptionRefusesWhatNoPhysicsAllows() {
    QFETCH(QStringList, args);
    QFETCH(QString, option);
    QFETCH(bool, accepted);
    std::vector<std::string> tokens;
    for (const QString& a : args)
        tokens.push_back(a.toStdString());
    const QString error = parseError(tokens);
    if (accepted) {
        QVERIFY2(error.isEmpty(), qPrintable("refused: " + error));
    } else {
        QVERIFY2(!error.isEmpty(), "accepted");
        QVERIFY2(error.startsWith(option + ":") || error.startsWith(option + " "),
                 qPrintable("the message does not start with the option: " + error));
    }
}

// Options of one kind share one limit (compute/model/PhysicalLimits.h): lengths on the
// detector end at 100 m whatever the option.
void TestOptionRanges::aKindHasOneLimit_data() {
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("limit");
    for (const char* length : {"-distance", "-close_distance", "-detsize", "-detsize_f",
                               "-detsize_s", "-Xbeam", "-Ybeam", "-Xclose", "-Yclose"})
        QTest::newRow(length) << length << "100000 mm";
    for (const char* angle : {"-phi", "-osc", "-phistep", "-mosaic", "-detector_rotx",
                              "-detector_roty", "-detector_rotz", "-twotheta"})
        QTest::newRow(angle) << angle << "1e+06 degrees";
    for (const char* divergence : {"-divergence", "-hdivrange", "-vdivrange", "-hdivstep", "-vdivstep"})
        QTest::newRow(divergence) << divergence << "1000 mrad";
    for (const char* thickness : {"-detector_thick", "-detector_abs", "-water"})
        QTest::newRow(thickness) << thickness << "1e+06 um";
    for (const char* size : {"-xtalsize", "-xtal_thick", "-xtal_width", "-xtal_height", "-beamsize"})
        QTest::newRow(size) << size << "1000 mm";
}

void TestOptionRanges::aKindHasOneLimit() {
    QFETCH(QString, option);
    QFETCH(QString, limit);
    const double most = QString(limit).section(' ', 0, 0).toDouble();
    // given pixel counts decide the detector's size, whatever -detsize says
    const QString base = "-detpixels 100 " + option + " ";
    const QString half = parseError(base + QString::number(0.5 * most, 'g', 10));
    QVERIFY2(half.isEmpty(), qPrintable("half the limit refused: " + half));
    const QString error = parseError(base + QString::number(1.1 * most, 'g', 10));
    QVERIFY2(error.startsWith(option + ": expected") && error.contains(limit), qPrintable(error));
}

void TestOptionRanges::limitsAtTheirEdges_data() {
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("message"); // "" when accepted
    QTest::newRow("the issue's beam centre")
        << "-Xbeam 1e300"
        << "-Xbeam: expected a length from -100000 to 100000 mm (-Xbeam <mm>), got '1e300'";
    QTest::newRow("beam centre far below") << "-Ybeam -100000" << "";
    // the golden misset_random turns the crystal by 12345 degrees
    QTest::newRow("golden misset") << "-misset 12345 0 0" << "";
    QTest::newRow("a million degrees") << "-misset 0 0 -1e6" << "";
    QTest::newRow("past a million degrees")
        << "-misset 0 1.0001e6 0" << "-misset: expected an angle from -1e+06 to 1e+06 degrees";
    QTest::newRow("golden misset through -misset_seed")
        << "-misset random -misset_seed 12345 -floatfile f.bin" << "";
    QTest::newRow("a seed too large for an angle")
        << "-misset_seed 2000000 -floatfile f.bin"
        << "as in nanoBragg, \"-misset_seed 2000000\" followed by \"-floatfile f.bin\" would also "
           "set the misset, but '2000000' is not an angle from -1e+06 to 1e+06 degrees";
    QTest::newRow("gamma rays") << "-lambda 1e-5" << "-lambda: expected a wavelength from 0.0001 to 10000 A";
    QTest::newRow("shortest wavelength") << "-lambda 0.0001" << "";
    QTest::newRow("energy past the wavelength limit")
        << "-energy 2e8" << "-energy: expected a photon energy from 1.23984 to 1.23984e+08 eV";
    QTest::newRow("hard X-rays") << "-energy 100000" << "";
    QTest::newRow("pixel of 10 nm") << "-pixel 1e-5" << "-pixel: expected a pixel size from 0.0001 to 1000 mm";
    QTest::newRow("Pilatus pixel") << "-pixel 0.172" << "";
    QTest::newRow("dispersion past 100 percent") << "-dispersion 150" << "-dispersion: expected a dispersion from 0 to 100 percent";
    QTest::newRow("direction component") << "-beam_vector 1e7 0 0" << "-beam_vector: expected a vector component from -1e+06 to 1e+06";
    QTest::newRow("fluence") << "-fluence 1e41" << "-fluence: expected a fluence from 0 to 1e+40 photons/m^2";
    QTest::newRow("ADC offset past 16 bits") << "-adc 70000" << "-adc: expected an offset from -65535 to 65535 counts";
    QTest::newRow("XDS origin") << "-ORGX 2e6" << "-ORGX: expected a pixel position from -1e+06 to 1e+06 pixels";
    QTest::newRow("Kahn factor") << "-polar -1.5" << "-polar: expected a polarization factor from -1 to 1";
    QTest::newRow("cell edge of a micron") << "-cell 10000" << "";
    QTest::newRow("cell edge of a millimetre") << "-cell 1e7" << "-cell: expected a cell edge from 0.01 to 100000 A";
}

void TestOptionRanges::limitsAtTheirEdges() {
    QFETCH(QString, args);
    QFETCH(QString, message);
    const QString error = parseError(args);
    if (message.isEmpty())
        QVERIFY2(error.isEmpty(), qPrintable("refused: " + error));
    else
        QVERIFY2(error.startsWith(message), qPrintable("got: " + error));
}

void TestOptionRanges::cellAnglesMustCloseACell_data() {
    QTest::addColumn<QString>("angles"); // after -cell 100 100 100
    QTest::addColumn<bool>("closes");
    QTest::newRow("the issue's") << "10 10 170" << false; // 10 + 10 < 170
    QTest::newRow("flat: 60 + 60 = 120") << "60 60 120" << false;
    QTest::newRow("flat with defaults: 90 + 20 = 110") << "90 20 110" << false;
    QTest::newRow("sum 360") << "120 120 120" << false;
    QTest::newRow("sum 370") << "100 100 170" << false;
    QTest::newRow("cubic") << "90 90 90" << true;
    QTest::newRow("hexagonal") << "90 90 120" << true;
    QTest::newRow("golden triclinic") << "75 85 95" << true;
    QTest::newRow("rhombohedral") << "109.47 109.47 109.47" << true;
    QTest::newRow("sum 357") << "119 119 119" << true;
    QTest::newRow("one angle, two default") << "30" << true;
}

void TestOptionRanges::cellAnglesMustCloseACell() {
    QFETCH(QString, angles);
    QFETCH(bool, closes);
    const QString error = parseError("-cell 100 100 100 " + angles);
    if (closes) {
        QVERIFY2(error.isEmpty(), qPrintable("refused: " + error));
        return;
    }
    QVERIFY2(error.startsWith("-cell: the angles alpha ") &&
                 error.contains("degrees cannot form a unit cell: its volume would be zero or "
                                "imaginary"),
             qPrintable("got: " + error));
    if (angles == "10 10 170")
        QVERIFY2(error.contains("alpha 10, beta 10, gamma 170 degrees"), qPrintable(error));
}

// The reciprocal vectors of a -mat file span no volume: c* = a* + b*.
void TestOptionRanges::aMatrixMustFormACell() {
    inTemporaryDirectory([] {
        writeFile("flat.mat", " 0.01 0.00 0.01\n 0.00 0.01 0.01\n 0.00 0.00 0.00\n");
        RunRequest cl = bv::cli::parseCommandLine(split("-mat flat.mat -default_F 1"));
        std::ostringstream log;
        try {
            bv::request::loadInputs(cl, log);
            QFAIL("a flat matrix was accepted");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).startsWith("-mat flat.mat: the reciprocal cell vectors") &&
                         QString(e.what()).contains("cannot form a unit cell"),
                     e.what());
        }
        writeFile("cubic.mat", " 0.01 0.00 0.00\n 0.00 0.01 0.00\n 0.00 0.00 0.01\n");
        cl = bv::cli::parseCommandLine(split("-mat cubic.mat -default_F 1"));
        bv::request::loadInputs(cl, log);
        QVERIFY(cl.experiment.crystal.mosflmMatrix.has_value());
    });
}

// On a 64 x 64 detector (fast and slow pixels 0 to 63). Bounds are inclusive indices and a
// negative bound means the edge, which the reference stores as 64; the detector is the one
// after the last option.
void TestOptionRanges::roiMustLieOnTheDetector_data() {
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("message"); // "" when accepted
    QTest::newRow("the issue's: inside out")
        << "-detpixels 64 -roi 40 10 0 63"
        << "-roi 40 10 0 63: xmin 40 is greater than xmax 10, so the region holds no pixel";
    QTest::newRow("inside out in slow") << "-detpixels 64 -roi 0 63 50 20"
                                        << "-roi 0 63 50 20: ymin 50 is greater than ymax 20";
    QTest::newRow("off by more than the reference's edge")
        << "-detpixels 64 -roi 0 65 0 63"
        << "-roi 0 65 0 63: xmax 65 is off the detector, whose last fast pixel is 63 (64x64 pixels";
    // the reference's own edge (what it makes of a negative bound): the viewer writes it back
    QTest::newRow("xmax the pixel count") << "-detpixels 64 -roi 0 64 0 64" << "";
    QTest::newRow("xmin the pixel count") << "-detpixels 64 -roi 64 64 0 10"
                                          << "-roi 64 64 0 10: xmin 64 is off the detector";
    QTest::newRow("wholly off") << "-detpixels 64 -roi 10 20 70 -1"
                                << "-roi 10 20 70 -1: ymin 70 is off the detector";
    QTest::newRow("the detector made smaller after -roi")
        << "-detpixels 128 -roi 0 100 0 100 -detpixels 64" << "-roi 0 100 0 100: xmax 100 is off";
    QTest::newRow("the detector made larger after -roi")
        << "-roi 0 100 0 100 -detpixels 128" << "";
    QTest::newRow("the whole detector") << "-detpixels 64 -roi 0 63 0 63" << "";
    QTest::newRow("one pixel") << "-detpixels 64 -roi 10 10 20 20" << "";
    QTest::newRow("edges") << "-detpixels 64 -roi -1 -1 -1 -1" << "";
    QTest::newRow("to the edge") << "-detpixels 64 -roi 40 -1 63 -1" << "";
}

void TestOptionRanges::roiMustLieOnTheDetector() {
    QFETCH(QString, args);
    QFETCH(QString, message);
    const QString error = parseError(args);
    if (message.isEmpty())
        QVERIFY2(error.isEmpty(), qPrintable("refused: " + error));
    else
        QVERIFY2(error.startsWith(message), qPrintable("got: " + error));
}

// -img and -mask headers set the same fields as options, so they meet the same limits.
void TestOptionRanges::headerValuesMeetTheSameLimits() {
    inTemporaryDirectory([] {
        writeSmvWith("far.img", "DISTANCE=1e300");
        QCOMPARE(parseError("-img far.img"),
                 QString("-img far.img: header DISTANCE='1e300' is not a length greater than 0, "
                         "at most 100000 mm"));
        writeSmvWith("blue.img", "WAVELENGTH=1e-9");
        QVERIFY(parseError("-img blue.img").startsWith("-img blue.img: header WAVELENGTH"));
        writeSmvWith("fine.img", "DISTANCE=250");
        QVERIFY(parseError("-img fine.img").isEmpty());
    });
}

// Every golden case's command line and the built-in demo parse as they did (their values are
// within every limit).
void TestOptionRanges::goldenCasesAndPresetsAreAccepted() {
    QStringList files;
    const QDir golden(QStringLiteral(BV_TEST_DATA "/golden"));
    for (const QString& name : golden.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        files << golden.filePath(name + "/args.txt");
    files << QStringLiteral(BV_TEST_DATA "/../../resources/demo.args");
    QVERIFY(files.size() > 40);
    for (const QString& path : files) {
        QFile file(path);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
        const QString args = QString::fromUtf8(file.readAll()).simplified();
        // the parity runner puts output files after the case's options (which makes
        // -misset_seed set the misset, as in misset_random)
        const QString error = parseError(args + " -floatfile f.bin -intfile i.img");
        QVERIFY2(error.isEmpty(), qPrintable(path + ": " + error));
    }
}

QTEST_APPLESS_MAIN(TestOptionRanges)
#include "tst_optionranges.moc"
