// braggview --headless end to end (on lavapipe here and in CI): the files a nanoBragg command
// line asks for, the summary in the reference's words, usage, and errors that leave no
// output file behind.

#include "compute/cli/CommandLine.h"
#include "compute/headless/Headless.h"
#include "compute/io/FloatImageFile.h"
#include "compute/io/Smv.h"
#include "tests/engine/HeadlessRun.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sstream>

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

} // namespace

class TestHeadless : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir m_dir;
    QString m_previous;

  private slots:
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

    void verboseReportsDispatchTimes() {
        const Run r = run(with(kCubic, {"-nopgm", "-nonoise", "-v"}));
        QVERIFY2(r.status == 0, r.err.c_str());
        QVERIFY(r.out.find("GPU time ") != std::string::npos);
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
};

QTEST_APPLESS_MAIN(TestHeadless)
#include "tst_headless.moc"
