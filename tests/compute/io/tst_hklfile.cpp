// readHkl: "h k l F" text files become a dense grid, as nanoBragg's -hkl reads them.

#include "compute/io/HklFile.h"
#include "compute/core/Error.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sstream>

namespace {

const std::string kInputs = std::string(BV_TEST_DATA) + "/inputs/";

std::string writeTemp(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path.toStdString();
}

} // namespace

class TestHklFile : public QObject {
    Q_OBJECT
  private slots:
    void readsP1() {
        std::ostringstream log;
        const bv::StructureFactors sf = bv::io::readHkl(kInputs + "P1.hkl", 0.0, log);
        // the reference printed "9261 initialized hkls" for this file (golden/hkl_mat)
        QCOMPARE(sf.reflectionCount, std::size_t(9261));
        QCOMPARE(sf.hMin, -10);
        QCOMPARE(sf.hMax, 10);
        QCOMPARE(sf.kMin, -10);
        QCOMPARE(sf.kMax, 10);
        QCOMPARE(sf.lMin, -10);
        QCOMPARE(sf.lMax, 10);
        QCOMPARE(sf.F.size(), std::size_t(21 * 21 * 21));
        // lines 1, 2, 4631, 5117 and 9261 of the file
        QCOMPARE(sf.amplitude(-10, -10, -10), 49.9065);
        QCOMPARE(sf.amplitude(-10, -10, -9), 12.0586);
        QCOMPARE(sf.amplitude(0, 0, 0), 116.0);
        QCOMPARE(sf.amplitude(1, 2, 3), 49.6044);
        QCOMPARE(sf.amplitude(10, 10, 10), 49.9065);
        QCOMPARE(sf.amplitude(11, 0, 0), 0.0); // off the grid: defaultF
        QVERIFY(log.str().empty());
    }

    void sparseFileFillsMissingPointsWithDefaultF() {
        std::ostringstream log;
        const bv::StructureFactors sf = bv::io::readHkl(kInputs + "sparse.hkl", 10.0, log);
        // "1452 initialized hkls (all others =10)" in golden/hkl_sparse/stdout.txt
        QCOMPARE(sf.reflectionCount, std::size_t(1452));
        QCOMPARE(sf.hMin, -6);
        QCOMPARE(sf.hMax, 6);
        QCOMPARE(sf.lMin, -6);
        QCOMPARE(sf.lMax, 6);
        QCOMPARE(sf.F.size(), std::size_t(13 * 13 * 13));
        QCOMPARE(sf.amplitude(-6, -6, -5), 28.3995); // line 2
        QCOMPARE(sf.amplitude(-6, -6, -4), 24.9834); // line 3
        QCOMPARE(sf.amplitude(-6, -6, -3), 10.0);    // not in the file (line 4 is -6 -6 0)
        QCOMPARE(sf.amplitude(-6, -6, -1), 10.0);
        QCOMPARE(sf.amplitude(-6, -6, 0), 39.0981);
        QCOMPARE(sf.amplitude(0, 0, 0), 116.0);
        QCOMPARE(sf.amplitude(7, 0, 0), 10.0); // off the grid
        const auto defaults = std::count(sf.F.begin(), sf.F.end(), 10.0);
        QCOMPARE(defaults, 13 * 13 * 13 - 1452); // no F in the file is exactly 10
    }

    void smallFileByHand() {
        QTemporaryDir dir;
        const std::string path = writeTemp(dir, "small.hkl",
                                           "\n"
                                           "  1 -1  2   5.5\r\n"
                                           "\t0 0 0 1e2\n"
                                           "   \n"
                                           "+1 -1 3 -0.5\n"
                                           "1 -1 2 7"); // repeated, no final newline: last wins
        std::ostringstream log;
        const bv::StructureFactors sf = bv::io::readHkl(path, 3.0, log);
        QCOMPARE(sf.reflectionCount, std::size_t(4));
        QCOMPARE(sf.hMin, 0);
        QCOMPARE(sf.hMax, 1);
        QCOMPARE(sf.kMin, -1);
        QCOMPARE(sf.kMax, 0);
        QCOMPARE(sf.lMin, 0);
        QCOMPARE(sf.lMax, 3);
        QCOMPARE(sf.defaultF, 3.0);
        QCOMPARE(sf.amplitude(1, -1, 2), 7.0);
        QCOMPARE(sf.amplitude(0, 0, 0), 100.0);
        QCOMPARE(sf.amplitude(1, -1, 3), -0.5);
        QCOMPARE(sf.amplitude(1, 0, 0), 3.0); // inside the grid but not listed
    }

    void nonIntegerIndexWarnsAndRounds() {
        QTemporaryDir dir;
        const std::string path = writeTemp(dir, "half.hkl", "0 0 0 1\n1.5 0 -2.5 10\n");
        std::ostringstream log;
        const bv::StructureFactors sf = bv::io::readHkl(path, 0.0, log);
        const QString warnings = QString::fromStdString(log.str());
        QVERIFY2(warnings.contains("WARNING: non-integer value for h (1.5) at line 2"),
                 log.str().c_str());
        QVERIFY2(warnings.contains("WARNING: non-integer value for l (-2.5) at line 2"),
                 log.str().c_str());
        QVERIFY(!warnings.contains("value for k"));
        // nearest integer, halves away from zero
        QCOMPARE(sf.hMax, 2);
        QCOMPARE(sf.lMin, -3);
        QCOMPARE(sf.amplitude(2, 0, -3), 10.0);
        QCOMPARE(sf.reflectionCount, std::size_t(2));
    }

    void badInput_data() {
        QTest::addColumn<QByteArray>("contents");
        QTest::addColumn<QString>("where");   // "path" + this
        QTest::addColumn<QString>("because"); // part of the message
        QTest::newRow("malformed token") << QByteArray("0 0 0 1\n\n1 2 x 4\n") << ":3:"
                                         << "'x' is not a number";
        QTest::newRow("three numbers") << QByteArray("0 0 0 1\n1 2 3\n") << ":2:"
                                       << "expected 4 numbers \"h k l F\", found 3 fields";
        QTest::newRow("five numbers") << QByteArray("0 0 0 1 9\n") << ":1:"
                                      << "expected 4 numbers";
        QTest::newRow("comment") << QByteArray("# h k l F\n0 0 0 1\n") << ":1:"
                                 << "h '#' is not a number";
        QTest::newRow("NaN value") << QByteArray("0 0 0 1\n1 0 0 nan\n") << ":2:"
                                   << "F is 'nan', expected a finite number";
        QTest::newRow("infinite index") << QByteArray("inf 0 0 1\n") << ":1:"
                                        << "h is 'inf', expected a finite number";
        QTest::newRow("binary garbage")
            << QByteArray::fromHex("7f454c46020101000000000000000000030003000100000040") << ":1:"
            << "is not a number";
        QTest::newRow("empty file") << QByteArray() << ":"
                                    << "no reflections found";
        QTest::newRow("only blank lines") << QByteArray("\n  \n\t\n") << ":"
                                          << "no reflections";
        QTest::newRow("absurd range")
            << QByteArray("-100000 -1000 0 1\n100000 1000 0 1\n") << ":"
            << "would need a structure-factor grid of more than 268435456 points";
        // found by fuzzing: two lines, 24 bytes, would have allocated 2 GiB (and written an 8 GiB
        // Fdump.bin)
        QTest::newRow("two reflections far apart") << QByteArray("0 0 0 1\n0 0 268435455 1\n") << ":"
                                                   << "2 reflections spread over a grid of";
        QTest::newRow("absurd index") << QByteArray("1e12 0 0 1\n") << ":1:"
                                      << "is not a plausible Miller index";
    }
    void badInput() {
        QFETCH(QByteArray, contents);
        QFETCH(QString, where);
        QFETCH(QString, because);
        QTemporaryDir dir;
        const std::string path = writeTemp(dir, "bad.hkl", contents);
        std::ostringstream log;
        try {
            bv::io::readHkl(path, 0.0, log);
            QFAIL("expected bv::Error");
        } catch (const bv::Error& e) {
            const QString message = e.what();
            QVERIFY2(message.startsWith(QString::fromStdString(path) + where), e.what());
            QVERIFY2(message.contains(because), e.what());
        }
    }

    void missingFile() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("absent.hkl").toStdString();
        std::ostringstream log;
        try {
            bv::io::readHkl(path, 0.0, log);
            QFAIL("expected bv::Error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).contains(QString::fromStdString(path)), e.what());
            QVERIFY2(QString(e.what()).contains("No such file or directory"), e.what());
        }
    }

    void endlessFileIsRefused() {
        // a device that never ends (or a pipe) must not take all memory: found by review of
        // what the fuzzers cannot reach
        std::ostringstream log;
        try {
            bv::io::readHkl("/dev/zero", 0.0, log);
            QFAIL("expected bv::Error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).contains("/dev/zero"), e.what());
            QVERIFY2(QString(e.what()).contains("longer than"), e.what());
        }
    }

    void directoryInsteadOfFile() {
        QTemporaryDir dir;
        std::ostringstream log;
        try {
            bv::io::readHkl(dir.path().toStdString(), 0.0, log);
            QFAIL("expected bv::Error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).contains("is a directory"), e.what());
            QVERIFY2(QString(e.what()).contains(dir.path()), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestHklFile)
#include "tst_hklfile.moc"
