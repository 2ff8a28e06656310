// readSourceFile: "X Y Z weight lambda" per line, missing trailing columns NaN; a written
// nan or inf is an error naming the file and line.

#include "compute/io/SourceFile.h"
#include "compute/core/Error.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {

const std::string kInputs = std::string(BV_TEST_DATA) + "/inputs/";

std::string writeTemp(const QTemporaryDir& dir, const QByteArray& bytes) {
    const QString path = dir.filePath("sources.txt");
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path.toStdString();
}

} // namespace

class TestSourceFile : public QObject {
    Q_OBJECT
  private slots:
    void readsThreeSources() {
        const auto sources = bv::io::readSourceFile(kInputs + "sources.txt");
        // golden/sourcefile/stdout.txt: "created a total of 3 sources:"
        //   -10 0 0   1 1e-10 / -10 0.002 0   0.5 1e-10 / -10 0 0.003   2 1e-10
        QCOMPARE(sources.size(), std::size_t(3));
        QCOMPARE(sources[0].X, -10.0);
        QCOMPARE(sources[0].Y, 0.0);
        QCOMPARE(sources[0].Z, 0.0);
        QCOMPARE(sources[0].weight, 1.0);
        QCOMPARE(sources[0].lambda, 1e-10);
        QCOMPARE(sources[1].Y, 0.002);
        QCOMPARE(sources[1].weight, 0.5);
        QCOMPARE(sources[2].Z, 0.003);
        QCOMPARE(sources[2].weight, 2.0);
        QCOMPARE(sources[2].lambda, 1e-10);
    }

    void delimitersBlankLinesAndMissingColumns() {
        QTemporaryDir dir;
        const std::string path = writeTemp(dir, "\n"
                                                "-10,0;0:2!1.5e-10\n"
                                                "   \t\n"
                                                "-10\t0.1\r\n"
                                                "-10 0 0\n"
                                                "1 2 3 4 5 6 7\n"
                                                "7"); // last line without newline
        const auto s = bv::io::readSourceFile(path);
        QCOMPARE(s.size(), std::size_t(5));
        QCOMPARE(s[0].X, -10.0);
        QCOMPARE(s[0].weight, 2.0);
        QCOMPARE(s[0].lambda, 1.5e-10);
        QCOMPARE(s[1].Y, 0.1);
        QVERIFY(std::isnan(s[1].Z)); // missing: the simulator's default applies
        QVERIFY(std::isnan(s[1].weight));
        QVERIFY(std::isnan(s[1].lambda));
        QVERIFY(std::isnan(s[2].weight)); // left out: the defaults apply
        QVERIFY(std::isnan(s[2].lambda));
        QCOMPARE(s[3].lambda, 5.0); // columns 6 and 7 are ignored
        QCOMPARE(s[4].X, 7.0);
        QVERIFY(std::isnan(s[4].Y));
    }

    void badInput_data() {
        QTest::addColumn<QByteArray>("contents");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("because");
        QTest::newRow("word") << QByteArray("-10 0 0 1 1e-10\n-10 zero 0\n") << ":2:"
                              << "Y 'zero' is not a number";
        QTest::newRow("comment") << QByteArray("# X Y Z\n") << ":1:"
                                 << "X '#' is not a number";
        QTest::newRow("infinite") << QByteArray("inf 0 0\n") << ":1:"
                                  << "X 'inf' is not a finite number";
        // nanoBragg takes a written nan as "not given"; here only a left-out column is
        QTest::newRow("the issue's nan weight")
            << QByteArray("-10 0 0 1 1e-10\n-10 0 0 nan 1e-10\n") << ":2:"
            << "weight 'nan' is not a finite number (expected \"X Y Z weight lambda\", meters; "
               "leave trailing columns out for their defaults)";
        QTest::newRow("NaN lambda") << QByteArray("-10 0 0 1 NaN\n") << ":1:" << "lambda 'NaN'";
        QTest::newRow("negative infinity") << QByteArray("-10 -inf 0\n") << ":1:"
                                           << "Y '-inf' is not a finite number";
        QTest::newRow("infinity spelled out") << QByteArray("-10 0 0 1 Infinity\n") << ":1:"
                                              << "lambda 'Infinity' is not a finite number";
        QTest::newRow("garbage") << QByteArray::fromHex("1f8b0800000000000003") << ":1:"
                                 << "is not a number";
        QTest::newRow("empty") << QByteArray() << ":"
                               << "no sources found";
        QTest::newRow("blank") << QByteArray(" \n\t,\n") << ":"
                               << "no sources found";
    }
    void badInput() {
        QFETCH(QByteArray, contents);
        QFETCH(QString, where);
        QFETCH(QString, because);
        QTemporaryDir dir;
        const std::string path = writeTemp(dir, contents);
        try {
            bv::io::readSourceFile(path);
            QFAIL("expected bv::Error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path) + where), e.what());
            QVERIFY2(QString(e.what()).contains(because), e.what());
        }
    }

    void missingFile() {
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::io::readSourceFile(kInputs + "absent.txt"));
    }
};

QTEST_APPLESS_MAIN(TestSourceFile)
#include "tst_sourcefile.moc"
