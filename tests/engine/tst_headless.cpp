// braggview --headless end to end (on lavapipe here and in CI): the files a nanoBragg command
// line asks for, the summary in the reference's words, usage, errors that leave no output
// file behind, outputs that would overwrite an input (refused), file names with spaces and
// non-ASCII letters, a comma-decimal locale, and the limits (detector size, a million
// reflections, GPU memory).

#include "compute/cli/CommandLine.h"
#include "compute/headless/Headless.h"
#include "compute/io/Fdump.h"
#include "compute/io/FloatImageFile.h"
#include "compute/io/Smv.h"
#include "compute/vk/Device.h"
#include "tests/engine/HeadlessRun.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <clocale>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <locale>
#include <map>
#include <sstream>
#include <unistd.h>

namespace {

const std::vector<std::string> kCubic = {
    "-cell", "100",        "100", "100",       "90",  "90",         "90", "-lambda",    "6.2", "-N",
    "3",     "-default_F", "100", "-distance", "100", "-detpixels", "32", "-noprogress"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

using Run = bv::testing::HeadlessRun;
Run run(const std::vector<std::string>& args) { return bv::testing::runHeadless(args); }

namespace fs = std::filesystem;

std::string readBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

void writeBytes(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

// every file below `dir` with its bytes (links as the bytes they lead to)
std::map<std::string, std::string> snapshot(const fs::path& dir) {
    std::map<std::string, std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(dir))
        if (entry.is_regular_file())
            files[fs::relative(entry.path(), dir).string()] = readBytes(entry.path());
    return files;
}

std::string input(const char* name) {
    return std::string(BV_TEST_DATA) + "/inputs/" + name;
}

// "/tmp/.../x y/Ångström ü": a directory with a space and non-ASCII letters (UTF-8)
const std::string kOddDir = "x y/\u00c5ngstr\u00f6m \u00fc";
const std::string kOddName = "\u00c5ngstr\u00f6m \u00fc";

} // namespace

class TestHeadless : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir m_dir;
    QString m_previous;
    QTemporaryDir m_inputs; // an SMV image of kCubic's detector, for -img and -mask

    // the files every "refused" case starts from, in the working directory
    void writeInputs() {
        fs::copy_file(input("P1.hkl"), "in.hkl");
        fs::copy_file(input("A.mat"), "A.mat");
        fs::copy_file(input("sources.txt"), "sources.txt");
        fs::copy_file(m_inputs.filePath("src.img").toStdString(), "src.img");
        fs::create_directory("sub");
    }

  private slots:
    void initTestCase() {
        QVERIFY(m_inputs.isValid());
        const std::string image = m_inputs.filePath("src.img").toStdString();
        const std::string floats = m_inputs.filePath("src.bin").toStdString();
        const Run r = run(with(
            kCubic, {"-intfile", image, "-floatfile", floats, "-nopgm", "-nonoise", "-seed", "1"}));
        QVERIFY2(r.status == 0, r.err.c_str());
    }

    void init() {
        // every run writes into a fresh, empty working directory
        QVERIFY(m_dir.isValid());
        m_previous = QDir::currentPath();
        QDir(m_dir.path()).removeRecursively();
        QDir().mkpath(m_dir.path());
        QVERIFY(QDir::setCurrent(m_dir.path()));
    }
    void cleanup() { QDir::setCurrent(m_previous); }

    void writesTheReferencesFiles() {
        const Run r = run(with(kCubic, {"-floatfile", "f.bin", "-intfile", "i.img", "-noisefile",
                                        "n.img", "-pgmfile", "p.pgm", "-seed", "5"}));
        QVERIFY2(r.status == 0, r.err.c_str());
        QCOMPARE(bv::io::readFloatImage("f.bin").size(), std::size_t(32 * 32));
        QCOMPARE(bv::io::readSmv("i.img").width, 32);
        QCOMPARE(bv::io::readSmv("n.img").height, 32);
        QVERIFY(QFile::exists("p.pgm"));
        // the reference's wording
        for (const char* line :
             {"mosflm convention selected.",
              "solid angle subtended by detector = ", "writing f.bin as 1024 4-byte floats",
              "max_I = ", "mean= ", "intfile_scale = ", "pgm_scale = ", "photons on noise image (",
              "writing n.img as 2-byte integers"})
            QVERIFY2(r.out.find(line) != std::string::npos, line);
        QVERIFY(r.out.find("precise precision") != std::string::npos); // precise by default
    }

    void nopgmAndNonoiseLeaveThemOut() {
        const Run r = run(with(kCubic, {"-nopgm", "-nonoise", "-precision", "fast"}));
        QVERIFY2(r.status == 0, r.err.c_str());
        QVERIFY(QFile::exists("floatimage.bin"));
        QVERIFY(QFile::exists("intimage.img"));
        QVERIFY(!QFile::exists("image.pgm"));
        QVERIFY(!QFile::exists("noiseimage.img"));
        QVERIFY(r.out.find("fast precision") != std::string::npos);
    }

    // -phi_sampling centre takes each phi step half a step later than nanoBragg does: the same
    // image as starting the oscillation half a step later, and the summary says where
    void phiSamplingCentreIsTheStartHalfAStepLater() {
        const std::vector<std::string> rotating =
            with(kCubic, {"-osc", "2", "-phisteps", "4", "-nopgm", "-nonoise", "-misset", "5",
                          "10", "15"});
        const Run centre = run(with(rotating, {"-phi", "10", "-phi_sampling", "centre",
                                               "-floatfile", "centre.bin"}));
        QVERIFY2(centre.status == 0, centre.err.c_str());
        const Run later = run(with(rotating, {"-phi", "10.25", "-floatfile", "later.bin"}));
        QVERIFY2(later.status == 0, later.err.c_str());
        for (const char* line : {"phi0 = 10.25\n", "phi3 = 11.75\n"}) {
            QVERIFY2(centre.out.find(line) != std::string::npos, line);
            QVERIFY2(later.out.find(line) != std::string::npos, line);
        }
        const std::vector<float> a = bv::io::readFloatImage("centre.bin");
        const std::vector<float> b = bv::io::readFloatImage("later.bin");
        QCOMPARE(a.size(), b.size());
        float peak = 0.0f, worst = 0.0f;
        for (std::size_t i = 0; i < a.size(); ++i) {
            peak = std::max(peak, a[i]);
            worst = std::max(worst, std::abs(a[i] - b[i]));
        }
        QVERIFY(peak > 0.0f);
        QVERIFY2(worst <= 1e-5f * peak, std::to_string(worst / peak).c_str());
        // and nanoBragg's own sampling is another image
        const Run start = run(with(rotating, {"-phi", "10", "-floatfile", "start.bin"}));
        QVERIFY2(start.status == 0, start.err.c_str());
        QVERIFY(bv::io::readFloatImage("start.bin") != a);
        QVERIFY(start.out.find("phi0 = 10\n") != std::string::npos);
    }

    void verboseReportsDispatchTimes() {
        const Run r = run(with(kCubic, {"-nopgm", "-nonoise", "-v"}));
        QVERIFY2(r.status == 0, r.err.c_str());
        QVERIFY(r.out.find("GPU time ") != std::string::npos);
    }

    // Where the reference's loop leaves the HKL grid it prints two warning lines in place of
    // the blank line before "solid angle" (braggview's GPU line comes before them) (golden case interpolate_edge_mid, rendered by the
    // reference with one thread); -interpolate_local keeps interpolating and prints nothing.
    void gridExitWarningAsTheReferencePrintsIt() {
        writeInputs();
        const std::string golden =
            std::string(BV_TEST_DATA) + "/golden/interpolate_edge_mid/stdout.txt";
        const std::string reference = readBytes(golden);
        const std::size_t at = reference.find("WARNING: out of range");
        QVERIFY2(at != std::string::npos, "the golden case must leave the grid");
        const std::string expected =
            reference.substr(at, reference.find("solid angle", at) - at); // both lines
        std::vector<std::string> args = {"-hkl", "in.hkl", "-mat", "A.mat", "-lambda", "1.0",
                                         "-N", "2", "-distance", "60", "-Xbeam", "2", "-Ybeam",
                                         "2", "-detpixels", "160", "-oversample", "2", "-mosaic",
                                         "0.5", "-mosaic_dom", "3", "-interpolate", "-nopgm",
                                         "-nonoise", "-noprogress"};
        const Run r = run(args);
        QVERIFY2(r.status == 0, r.err.c_str());
        QVERIFY(r.out.find(" precision\n" + expected + "solid angle") != std::string::npos);

        const std::vector<float> stopped = bv::io::readFloatImage("floatimage.bin");

        args.push_back("-interpolate_local");
        const Run local = run(args);
        QVERIFY2(local.status == 0, local.err.c_str());
        QVERIFY(local.out.find("WARNING: out of range") == std::string::npos);
        QVERIFY(local.out.find(" precision\n\nsolid angle") != std::string::npos);
        QVERIFY(bv::io::readFloatImage("floatimage.bin") != stopped);
    }

    void helpPrintsUsage() {
        const Run r = run({"-h"});
        QCOMPARE(r.status, 0);
        QCOMPARE(r.out, bv::cli::usageText());
        QVERIFY(QDir().entryList(QDir::Files).isEmpty());
    }

    void missingCellIsAUsageError() {
        const Run r = run({"-default_F", "100"});
        QVERIFY(r.status != 0);
        QVERIFY(r.err.find(bv::cli::usageText()) != std::string::npos);
        QVERIFY(QDir().entryList(QDir::Files).isEmpty());
    }

    void errorsWriteNothing_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("bad number") << QStringList{"-lambda", "six"} << "-lambda";
        QTest::newRow("missing hkl file") << QStringList{"-hkl", "nothere.hkl"} << "nothere.hkl";
        QTest::newRow("no such device") << QStringList{"-device", "99"} << "99";
        QTest::newRow("unwritable output")
            << QStringList{"-floatfile", "no/such/dir/f.bin"} << "no/such/dir";
    }
    void errorsWriteNothing() {
        QFETCH(QStringList, extra);
        QFETCH(QString, mentions);
        std::vector<std::string> args = kCubic;
        for (const QString& a : extra)
            args.push_back(a.toStdString());
        const Run r = run(args);
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.rfind("braggview: error: ", 0) == 0, r.err.c_str());
        QVERIFY2(r.err.find(mentions.toStdString()) != std::string::npos, r.err.c_str());
        QVERIFY2(QDir().entryList(QDir::Files).isEmpty(),
                 qPrintable(QDir().entryList(QDir::Files).join(" ")));
    }

    // ---- an output never overwrites an input ------------------------------------------

    void outputNamingAnInputIsRefused_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("-floatfile is -hkl")
            << QStringList{"-hkl", "in.hkl", "-floatfile", "in.hkl"} << "the -hkl in.hkl";
        QTest::newRow("spelled ./ and ..")
            << QStringList{"-hkl", "in.hkl", "-intfile", "sub/../in.hkl"} << "the -hkl in.hkl";
        QTest::newRow("-pgmfile is -mat")
            << QStringList{"-mat", "A.mat", "-pgmfile", "./A.mat"} << "the -mat A.mat";
        QTest::newRow("-noisefile is -sourcefile")
            << QStringList{"-sourcefile", "sources.txt", "-noisefile", "sources.txt"}
            << "the -sourcefile sources.txt";
        QTest::newRow("-intfile is -img")
            << QStringList{"-img", "src.img", "-intfile", "src.img"} << "the -img src.img";
        QTest::newRow("-cbffile is -mask")
            << QStringList{"-mask", "src.img", "-cbffile", "src.img"} << "the -mask src.img";
        QTest::newRow("the default -intfile is -img")
            << QStringList{"-img", "intimage.img"} << "default -intfile intimage.img";
        QTest::newRow("a link to the input")
            << QStringList{"-hkl", "in.hkl", "-floatfile", "link.bin"} << "the -hkl in.hkl";
        QTest::newRow("a hard link to the input")
            << QStringList{"-hkl", "in.hkl", "-noisefile", "hard.img"} << "the -hkl in.hkl";
        QTest::newRow("two outputs, one file")
            << QStringList{"-floatfile", "out.bin", "-intfile", "sub/../out.bin"}
            << "-intfile sub/../out.bin is the same file as the -floatfile out.bin";
        QTest::newRow("an output is the cache -hkl writes")
            << QStringList{"-hkl", "in.hkl", "-pgmfile", "Fdump.bin"} << "default -dump Fdump.bin";
        QTest::newRow("an output is the cache read without -hkl")
            << QStringList{"-floatfile", "cache.bin", "-dump", "cache.bin"}
            << "structure-factor cache, read as no -hkl is given";
    }
    void outputNamingAnInputIsRefused() {
        QFETCH(QStringList, extra);
        QFETCH(QString, mentions);
        writeInputs();
        fs::copy_file("src.img", "intimage.img");
        fs::create_symlink("in.hkl", "link.bin");
        fs::create_hard_link("in.hkl", "hard.img");
        writeBytes("cache.bin", readBytes(input("P1.hkl"))); // exists: read as the cache
        const auto before = snapshot(".");
        std::vector<std::string> args = kCubic;
        for (const QString& a : extra)
            args.push_back(a.toStdString());
        const Run r = run(args);
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.rfind("braggview: error: ", 0) == 0, r.err.c_str());
        QVERIFY2(r.err.find(mentions.toStdString()) != std::string::npos, r.err.c_str());
        QVERIFY2(r.out.empty(), r.out.c_str()); // refused before the run starts
        QVERIFY(snapshot(".") == before);       // nothing written, nothing changed
        QVERIFY(fs::is_symlink("link.bin"));
    }

    // nanoBragg writes its Fdump.bin whenever -hkl is given; so does braggview, unless that
    // file is an input: then the input is kept and the cache skipped, with a warning
    void hklWritesTheCacheUnlessItIsAnInput() {
        writeInputs();
        Run r = run(with(kCubic, {"-hkl", "in.hkl", "-nopgm", "-nonoise"}));
        QVERIFY2(r.status == 0, r.err.c_str());
        QVERIFY(fs::file_size("Fdump.bin") > 0);
        const std::string hkl = readBytes("in.hkl");
        r = run(with(kCubic, {"-hkl", "in.hkl", "-dump", "./in.hkl", "-nopgm", "-nonoise"}));
        QVERIFY2(r.status == 0, r.err.c_str());
        QVERIFY2(r.out.find("WARNING: not writing the structure-factor cache ./in.hkl: it is the "
                            "same file as an input") != std::string::npos,
                 r.out.c_str());
        QCOMPARE(readBytes("in.hkl"), hkl);
    }

    void seriesFrameNamingAnInputIsRefused() {
        writeInputs();
        fs::copy_file("in.hkl", "f_2.hkl");
        const auto before = snapshot(".");
        const Run r =
            run(with(kCubic, {"-hkl", "f_2.hkl", "-series", "3", "-floatfile", "f_#.hkl"}));
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.find("-floatfile f_2.hkl (frame 2) is the same file as the -hkl f_2.hkl") !=
                     std::string::npos,
                 r.err.c_str());
        QVERIFY(snapshot(".") == before);
    }

    void jobOutputNamingAnInputIsRefused_data() {
        QTest::addColumn<QString>("frames");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("the job file")
            << R"([{"-floatfile": "a_#.bin"}, {"-floatfile": "./job.json"}])"
            << "-floatfile ./job.json (frame 2) is the same file as the job file job.json";
        QTest::newRow("another frame's input")
            << R"([{"-hkl": "in.hkl", "-floatfile": "a_#.bin"}, {"-floatfile": "in.hkl"}])"
            << "-floatfile in.hkl (frame 2) is the same file as the -hkl in.hkl (frame 1)";
        QTest::newRow("two frames, one file by two names")
            << R"([{"-floatfile": "a.bin"}, {"-floatfile": "sub/../a.bin"}])"
            << "-floatfile sub/../a.bin is also the -floatfile of frame 1";
    }
    void jobOutputNamingAnInputIsRefused() {
        QFETCH(QString, frames);
        QFETCH(QString, mentions);
        writeInputs();
        std::string base;
        for (const std::string& token : kCubic)
            base += (base.empty() ? "" : " ") + token;
        writeBytes("job.json",
                   "{\"base\": \"" + base + "\", \"frames\": " + frames.toStdString() + "}\n");
        const auto before = snapshot(".");
        const Run r = run({"--job", "job.json"});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.find(mentions.toStdString()) != std::string::npos, r.err.c_str());
        QVERIFY(snapshot(".") == before);
    }

    // ---- names with spaces and non-ASCII letters ---------------------------------------

    // inputs, outputs, series templates and a job file in "x y/Ångström ü/", end to end; the
    // images are the ones the same run writes under plain names
    void oddFileNamesWorkEndToEnd() {
        const std::vector<std::string> common =
            with(kCubic, {"-mat", "A.mat", "-nonoise", "-nopgm", "-seed", "3"});
        writeInputs();
        Run r = run(
            with(common, {"-hkl", "in.hkl", "-floatfile", "plain.bin", "-intfile", "plain.img"}));
        QVERIFY2(r.status == 0, r.err.c_str());

        const fs::path dir = fs::u8path(kOddDir);
        fs::create_directories(dir);
        const std::string d = kOddDir + "/";
        fs::copy_file("in.hkl", fs::u8path(d + kOddName + ".hkl"));
        fs::copy_file("src.img", fs::u8path(d + kOddName + " mask.img"));
        r = run(
            with(common, {"-hkl", d + kOddName + ".hkl", "-dump", d + "Fdump \u00fc.bin",
                          "-floatfile", d + kOddName + ".bin", "-intfile", d + kOddName + ".img"}));
        QVERIFY2(r.status == 0, r.err.c_str());
        QCOMPARE(readBytes(fs::u8path(d + kOddName + ".bin")), readBytes("plain.bin"));
        QCOMPARE(bv::io::readSmv(d + kOddName + ".img").data, bv::io::readSmv("plain.img").data);
        QVERIFY(fs::file_size(fs::u8path(d + "Fdump \u00fc.bin")) > 0);
        QVERIFY2(r.out.find("writing " + d + kOddName + ".bin") != std::string::npos,
                 r.out.c_str());

        // an -img and a -mask header read from there
        r = run(
            with(kCubic, {"-img", d + kOddName + " mask.img", "-mask", d + kOddName + " mask.img",
                          "-floatfile", d + "from header.bin", "-nopgm", "-nonoise"}));
        QVERIFY2(r.status == 0, r.err.c_str());
        QCOMPARE(readBytes(fs::u8path(d + "from header.bin")).size(), std::size_t(32 * 32 * 4));

        // a series into that directory
        r = run(with(common, {"-hkl", d + kOddName + ".hkl", "-series", "2", "-phi", "0", "-osc",
                              "1", "-floatfile", d + "s\u00e9rie #.bin"}));
        QVERIFY2(r.status == 0, r.err.c_str());
        QCOMPARE(readBytes(fs::u8path(d + "s\u00e9rie 1.bin")).size(), std::size_t(32 * 32 * 4));
        QCOMPARE(readBytes(fs::u8path(d + "s\u00e9rie 2.bin")).size(), std::size_t(32 * 32 * 4));

        // a job file there, naming files there (as JSON strings, UTF-8)
        const std::string job = d + "j\u00f6b 1.json";
        writeBytes(fs::u8path(job), "{\"base\": [\"-hkl\", \"" + d + kOddName + ".hkl\", " +
                                        "\"-mat\", \"A.mat\", \"-seed\", \"3\"], \"frames\": [" +
                                        "{\"-floatfile\": \"" + d + "j\u00f6b #.bin\"}, " +
                                        "{\"-intfile\": \"" + d + "j\u00f6b #.img\"}]}\n");
        std::vector<std::string> args = {"--job", job};
        for (const std::string& token : common)
            if (token != "-mat" && token != "A.mat")
                args.push_back(token);
        r = run(args);
        QVERIFY2(r.status == 0, r.err.c_str());
        QCOMPARE(readBytes(fs::u8path(d + "j\u00f6b 1.bin")), readBytes("plain.bin"));
        QCOMPARE(bv::io::readSmv(d + "j\u00f6b 2.img").width, 32);
        // and refusing to overwrite works there too (the message names the file as typed)
        r = run(with(common, {"-hkl", d + kOddName + ".hkl", "-floatfile", d + kOddName + ".hkl"}));
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.find("'" + d + kOddName + ".hkl'") != std::string::npos, r.err.c_str());
    }

    // numbers on the command line, in the summary and in the files do not follow the locale:
    // under de_DE.UTF-8 (comma decimals) the run is the C locale's, byte for byte
    void commaDecimalLocaleChangesNothing() {
        const std::vector<std::string> args =
            with(kCubic, {"-distance", "100.5", "-lambda", "1.5", "-nonoise", "-seed", "2"});
        Run plain =
            run(with(args, {"-floatfile", "c.bin", "-intfile", "c.img", "-pgmfile", "c.pgm"}));
        QVERIFY2(plain.status == 0, plain.err.c_str());
        const std::string previous = std::setlocale(LC_ALL, nullptr);
        QVERIFY2(std::setlocale(LC_ALL, "de_DE.UTF-8"),
                 "de_DE.UTF-8 missing: run scripts/setup.sh");
        const std::locale previousGlobal = std::locale::global(std::locale("de_DE.UTF-8"));
        Run german =
            run(with(args, {"-floatfile", "d.bin", "-intfile", "d.img", "-pgmfile", "d.pgm"}));
        std::locale::global(previousGlobal);
        std::setlocale(LC_ALL, previous.c_str());
        QVERIFY2(german.status == 0, german.err.c_str());
        QCOMPARE(readBytes("d.bin"), readBytes("c.bin"));
        QCOMPARE(readBytes("d.img"), readBytes("c.img"));
        QCOMPARE(readBytes("d.pgm"), readBytes("c.pgm"));
        QVERIFY(readBytes("d.img").find("WAVELENGTH=1.5;") != std::string::npos);
        QVERIFY(readBytes("d.img").find("DISTANCE=100.5;") != std::string::npos);
        // the summaries differ only in the file names
        for (std::string* text : {&plain.out, &german.out})
            for (const char* name : {"c.", "d."})
                for (std::size_t at; (at = text->find(name)) != std::string::npos;)
                    text->replace(at, 2, "X.");
        std::istringstream germanLines(german.out), plainLines(plain.out);
        for (std::string g, p; std::getline(plainLines, p);) {
            std::getline(germanLines, g);
            QVERIFY2(g == p, ("de_DE: \"" + g + "\"\nC:     \"" + p + "\"").c_str());
        }
        QCOMPARE(german.out.size(), plain.out.size());
    }

    // ---- limits ------------------------------------------------------------------------

    // An 8192x8192 detector works where the device's largest storage buffer holds its 256 MiB
    // of floats, and is refused with the limit in the message where not (lavapipe: 128 MiB).
    // Either way the largest square detector the device holds is rendered whole: its file
    // has every pixel, and the -roi corner is the 32x32 detector's image with the same beam.
    void largestDetectorWorksLargerIsRefused() {
        const bv::vk::Device device{bv::vk::DeviceOptions{}};
        const double limit = static_cast<double>(device.info().limits.maxStorageBufferRange);
        const int side = std::min(8192, static_cast<int>(std::sqrt(limit / sizeof(float))));
        const std::vector<std::string> corner =
            with(kCubic, {"-Xbeam", "1.6", "-Ybeam", "1.6", "-roi", "0", "31", "0", "31", "-nopgm",
                          "-nonoise"});
        if (side < 8192) {
            const Run refused = run(with(corner, {"-detpixels", "8192"}));
            QCOMPARE(refused.status, 1);
            QVERIFY2(refused.err.find("the intensity image is larger than this GPU's largest "
                                      "storage buffer (256 MiB requested), the limit is ") !=
                         std::string::npos,
                     refused.err.c_str());
            QVERIFY(QDir().entryList(QDir::Files).isEmpty());
        }
        Run r = run(with(corner, {"-detpixels", std::to_string(side), "-floatfile", "big.bin",
                                  "-intfile", "big.img"}));
        QVERIFY2(r.status == 0, r.err.c_str());
        const std::size_t pixels = std::size_t(side) * std::size_t(side);
        const std::vector<float> big = bv::io::readFloatImage("big.bin", pixels);
        QCOMPARE(big.size(), pixels);
        const bv::io::SmvImage smv = bv::io::readSmv("big.img");
        QCOMPARE(smv.width, side);
        QCOMPARE(smv.height, side);
        r = run(
            with(corner, {"-detpixels", "32", "-floatfile", "small.bin", "-intfile", "small.img"}));
        QVERIFY2(r.status == 0, r.err.c_str());
        const std::vector<float> small = bv::io::readFloatImage("small.bin", 32 * 32);
        double sum = 0.0;
        for (int y = 0; y < 32; ++y)
            for (int x = 0; x < 32; ++x) {
                const float b = big[std::size_t(y) * std::size_t(side) + std::size_t(x)];
                QCOMPARE(b, small[std::size_t(y * 32 + x)]);
                sum += b;
            }
        QVERIFY(sum > 0.0);
        QCOMPARE(big[pixels - 1], 0.0f); // outside the -roi: not rendered
    }

    // A table of a million reflections (h, k, l each -50..49) is read, cached in Fdump.bin and
    // simulated.
    void millionReflections() {
        auto amplitude = [](int h, int k, int l) {
            return 1 + (h * h + 3 * k * k + 7 * l * l) % 97;
        };
        {
            std::ofstream hkl("million.hkl");
            for (int h = -50; h < 50; ++h)
                for (int k = -50; k < 50; ++k)
                    for (int l = -50; l < 50; ++l)
                        hkl << h << ' ' << k << ' ' << l << ' ' << amplitude(h, k, l) << '\n';
        }
        const Run r = run(with(kCubic, {"-hkl", "million.hkl", "-nopgm", "-nonoise", "-N", "1"}));
        QVERIFY2(r.status == 0, r.err.c_str());
        QVERIFY2(r.out.find("  1000000 initialized hkls") != std::string::npos, r.out.c_str());
        const bv::StructureFactors sf = bv::io::readFdump("Fdump.bin");
        QCOMPARE(sf.hMin, -50);
        QCOMPARE(sf.lMax, 49);
        auto at = [&](int h, int k, int l) {
            return sf.F[std::size_t(((h - sf.hMin) * sf.kCount() + (k - sf.kMin)) * sf.lCount() +
                                    (l - sf.lMin))];
        };
        QCOMPARE(at(49, -50, 7), double(amplitude(49, -50, 7)));
        QCOMPARE(at(-3, 11, -50), double(amplitude(-3, 11, -50)));
        const std::vector<float> image = bv::io::readFloatImage("floatimage.bin", 32 * 32);
        QVERIFY(*std::max_element(image.begin(), image.end()) > 0.0f);
    }

    // -printout_pixel F S prints how that pixel's value comes about (the shader's trace
    // variant), ending in the value the float image holds there; off the detector, a warning.
    void printoutPixelPrintsTheTrace() {
        const Run r = run(with(kCubic, {"-printout_pixel", "20", "11", "-nopgm", "-nonoise"}));
        QVERIFY2(r.status == 0, r.err.c_str());
        for (const char* line : {"pixel trace (precise shader):", "pixel (fast, slow): 20, 11",
                                 "sum I: ", "solid angle omega: ", "h, k, l: "})
            QVERIFY2(r.out.find(line) != std::string::npos, line);
        const std::vector<float> image = bv::io::readFloatImage("floatimage.bin", 32 * 32);
        const std::string stored = "image value: ";
        const std::size_t at = r.out.find(stored);
        QVERIFY(at != std::string::npos);
        QCOMPARE(std::stof(r.out.substr(at + stored.size())), image[11 * 32 + 20]);

        const Run off = run(with(kCubic, {"-printout_pixel", "32", "0", "-nopgm", "-nonoise"}));
        QVERIFY2(off.status == 0, off.err.c_str());
        QVERIFY2(off.err.find("-printout_pixel 32 0 is not on the 32x32 detector") !=
                     std::string::npos,
                 off.err.c_str());
        QVERIFY(off.out.find("pixel trace") == std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestHeadless)
#include "tst_headless.moc"
