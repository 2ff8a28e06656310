// Fdump.bin: nanoBragg's binary cache of the structure-factor grid, padding included.

#include "compute/io/Fdump.h"
#include "compute/io/HklFile.h"
#include "compute/core/Error.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <sstream>

namespace {

const std::string kInputs = std::string(BV_TEST_DATA) + "/inputs/";

QByteArray contents(const std::string& path) {
    QFile file(QString::fromStdString(path));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

std::string writeTemp(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path.toStdString();
}

QByteArray doubles(const std::vector<double>& values) {
    return QByteArray(reinterpret_cast<const char*>(values.data()),
                      static_cast<qsizetype>(values.size() * sizeof(double)));
}

// h 0..1, k 0..0, l 0..2 with F = 100h + l + 1 (six values, hand-made)
bv::StructureFactors smallGrid() {
    bv::StructureFactors sf;
    sf.hMin = 0, sf.hMax = 1, sf.kMin = 0, sf.kMax = 0, sf.lMin = 0, sf.lMax = 2;
    sf.F = {1, 2, 3, 101, 102, 103};
    sf.reflectionCount = 6;
    return sf;
}

// The same grid as the reference lays it out: (2+1) h planes x (1+1) k rows x (3+1) values.
QByteArray smallGridFile() {
    std::vector<double> data = {
        1,   2,   3,   0, // h=0 k=0, then the row's padding value
        0,   0,   0,   0, // h=0, padding row
        101, 102, 103, 0, // h=1 k=0
        0,   0,   0,   0, // h=1, padding row
        0,   0,   0,   0, // padding plane
        0,   0,   0,   0,
    };
    return QByteArray("0 1 0 0 0 2\n\f") + doubles(data);
}

} // namespace

class TestFdump : public QObject {
    Q_OBJECT
  private slots:
    void writesTheReferenceLayout() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("Fdump.bin").toStdString();
        bv::io::writeFdump(path, smallGrid());
        const QByteArray bytes = contents(path);
        QCOMPARE(bytes.size(), 13 + 24 * 8);
        QCOMPARE(bytes, smallGridFile());
    }

    void readsTheReferenceLayoutWithoutPadding() {
        QTemporaryDir dir;
        const std::string path = writeTemp(dir, "Fdump.bin", smallGridFile());
        const bv::StructureFactors sf = bv::io::readFdump(path);
        QCOMPARE(sf.hMin, 0);
        QCOMPARE(sf.hMax, 1);
        QCOMPARE(sf.kMin, 0);
        QCOMPARE(sf.kMax, 0);
        QCOMPARE(sf.lMin, 0);
        QCOMPARE(sf.lMax, 2);
        QCOMPARE(sf.F, (std::vector<double>{1, 2, 3, 101, 102, 103}));
        QCOMPARE(sf.reflectionCount, std::size_t(6)); // h_range*k_range*l_range
        QCOMPARE(sf.defaultF, 0.0);
        QCOMPARE(sf.amplitude(1, 0, 2), 103.0);
    }

    void hklRoundTrip_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("defaultF");
        QTest::addColumn<int>("gridPoints");
        QTest::newRow("P1, every point listed") << "P1.hkl" << 0.0 << 21 * 21 * 21;
        QTest::newRow("sparse, gaps hold defaultF") << "sparse.hkl" << 10.0 << 13 * 13 * 13;
        QTest::newRow("test pattern") << "test_pattern.hkl" << 0.0 << 3 * 3 * 1;
    }
    void hklRoundTrip() {
        QFETCH(QString, file);
        QFETCH(double, defaultF);
        QFETCH(int, gridPoints);
        std::ostringstream log;
        const bv::StructureFactors fromHkl =
            bv::io::readHkl(kInputs + file.toStdString(), defaultF, log);
        QTemporaryDir dir;
        const std::string path = dir.filePath("Fdump.bin").toStdString();
        bv::io::writeFdump(path, fromHkl);
        const bv::StructureFactors back = bv::io::readFdump(path);
        QCOMPARE(back.hMin, fromHkl.hMin);
        QCOMPARE(back.hMax, fromHkl.hMax);
        QCOMPARE(back.kMin, fromHkl.kMin);
        QCOMPARE(back.kMax, fromHkl.kMax);
        QCOMPARE(back.lMin, fromHkl.lMin);
        QCOMPARE(back.lMax, fromHkl.lMax);
        QVERIFY(back.F == fromHkl.F); // bit for bit, defaultF-filled points included
        // the reference counts the grid, not the file's lines, after reading Fdump.bin
        QCOMPARE(back.reflectionCount, std::size_t(gridPoints));
    }

    void badInput_data() {
        QTest::addColumn<QByteArray>("contents");
        QTest::addColumn<QString>("because");
        const QByteArray good = smallGridFile();
        QTest::newRow("truncated data") << good.left(good.size() - 3) << "truncated";
        QTest::newRow("header only") << QByteArray("0 1 0 0 0 2\n\f") << "truncated";
        QTest::newRow("trailing bytes") << good + "xyz"
                                        << "too long";
        QTest::newRow("no form feed") << QByteArray("0 1 0 0 0 2\n") << "not an Fdump file";
        QTest::newRow("five integers") << QByteArray("0 1 0 0 0\n\f") << "not six integers";
        QTest::newRow("words") << QByteArray("a b c d e f\n\f") << "not six integers";
        QTest::newRow("inverted range") << QByteArray("1 0 0 0 0 2\n\f") << "empty index range";
        QTest::newRow("absurd range")
            << QByteArray("-100000 100000 -100000 100000 0 0\n\f") << "more than 268435456";
        QTest::newRow("binary garbage")
            << QByteArray::fromHex("89504e470d0a1a0a0000000d49484452") << "not an Fdump file";
        QTest::newRow("empty") << QByteArray() << "not an Fdump file";
        std::vector<double> nan(24, 0.0);
        nan[1] = std::nan("");
        QTest::newRow("NaN value") << QByteArray("0 1 0 0 0 2\n\f") + doubles(nan)
                                   << "h k l = 0 0 1 is not a finite number";
    }
    void badInput() {
        QFETCH(QByteArray, contents);
        QFETCH(QString, because);
        QTemporaryDir dir;
        const std::string path = writeTemp(dir, "Fdump.bin", contents);
        try {
            bv::io::readFdump(path);
            QFAIL("expected bv::Error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path) + ":"), e.what());
            QVERIFY2(QString(e.what()).contains(because), e.what());
        }
    }

    void missingFile() {
        QTemporaryDir dir;
        QVERIFY_THROWS_EXCEPTION(bv::Error,
                                 bv::io::readFdump(dir.filePath("Fdump.bin").toStdString()));
    }

    void writingToMissingDirectoryLeavesNothing() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("gone/Fdump.bin").toStdString();
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::io::writeFdump(path, smallGrid()));
        QVERIFY(QDir(dir.path()).isEmpty(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot));
    }
};

QTEST_APPLESS_MAIN(TestFdump)
#include "tst_fdump.moc"
