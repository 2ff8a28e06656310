// readMosflmMatrix: the first nine numbers of a MOSFLM .mat file, columns a*, b*, c*.

#include "compute/io/MatrixFile.h"
#include "compute/core/Error.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace {

const std::string kInputs = std::string(BV_TEST_DATA) + "/inputs/";

std::string writeTemp(const QTemporaryDir& dir, const QByteArray& bytes) {
    const QString path = dir.filePath("test.mat");
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path.toStdString();
}

void compareVector(const glm::dvec3& actual, const glm::dvec3& expected, double tolerance) {
    for (int i = 0; i < 3; ++i)
        QVERIFY2(
            std::abs(actual[i] - expected[i]) <= tolerance,
            qPrintable(QString("component %1: %2 vs %3").arg(i).arg(actual[i]).arg(expected[i])));
}

const char* kMosflmTail =
    "       0.0000000       0.0000000       0.0000000\n"
    "  0.9722596  -0.2295497   0.0450454\n"
    "  0.2295497   0.9733004   0.0000000\n"
    " -0.0450454   0.0000000   0.9989849\n"
    "     40.0000     50.0000     60.0000     85.0000     95.0000    105.0000\n"
    "       0.0000       0.0000       0.0000\n"
    "SYMM P1\n";

} // namespace

class TestMatrixFile : public QObject {
    Q_OBJECT
  private slots:
    void readsA() {
        const bv::io::MosflmMatrix m = bv::io::readMosflmMatrix(kInputs + "A.mat");
        // golden/hkl_mat ran with -mat A.mat -lambda 1.0, so its printed reciprocal vectors
        // ("X: a_star b_star c_star", 8 decimals) are the matrix itself
        compareVector(m.aStar, {0.02152543, 0.01431179, -0.00217574}, 5e-9);
        compareVector(m.bStar, {-0.00656622, 0.01962784, 0.00151404}, 5e-9);
        compareVector(m.cStar, {0.00378775, -0.00117977, 0.01629209}, 5e-9);
        // and exactly the file's numbers: first row is the x components
        QCOMPARE(m.aStar.x, 0.0215254335);
        QCOMPARE(m.bStar.x, -0.0065662224);
        QCOMPARE(m.cStar.z, 0.0162920915);
    }

    void ignoresTheRestOfAMosflmFile() {
        QTemporaryDir dir;
        const std::string path =
            writeTemp(dir, QByteArray("  0.0197948840  -0.0067183067   0.0037052420\n"
                                      "  0.0126006535   0.0227560687   0.0092167463\n"
                                      " -0.0159881512  -0.0155968130   0.0118513929\n") +
                               kMosflmTail);
        const bv::io::MosflmMatrix m = bv::io::readMosflmMatrix(path);
        QCOMPARE(m.aStar, glm::dvec3(0.0197948840, 0.0126006535, -0.0159881512));
        QCOMPARE(m.bStar, glm::dvec3(-0.0067183067, 0.0227560687, -0.0155968130));
        QCOMPARE(m.cStar, glm::dvec3(0.0037052420, 0.0092167463, 0.0118513929));
    }

    void numbersMayWrapAcrossLines() {
        // fscanf does not care where the line breaks are
        QTemporaryDir dir;
        const std::string path = writeTemp(dir, "1 2 3 4\n5 6\n\n7 8 9 10 junk\n");
        const bv::io::MosflmMatrix m = bv::io::readMosflmMatrix(path);
        QCOMPARE(m.aStar, glm::dvec3(1, 4, 7));
        QCOMPARE(m.bStar, glm::dvec3(2, 5, 8));
        QCOMPARE(m.cStar, glm::dvec3(3, 6, 9));
    }

    void badInput_data() {
        QTest::addColumn<QByteArray>("contents");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("because");
        QTest::newRow("eight numbers") << QByteArray("1 2 3\n4 5 6\n7 8\n") << ":3:"
                                       << "found only 8 numbers, a MOSFLM matrix needs 9";
        QTest::newRow("garbage token") << QByteArray("1 2 3\n4 five 6\n7 8 9\n") << ":2:"
                                       << "'five' is not a finite number";
        QTest::newRow("NaN") << QByteArray("1 2 3\n4 5 6\n7 8 nan\n") << ":3:"
                             << "'nan'";
        QTest::newRow("empty") << QByteArray() << ":1:"
                               << "found only 0 numbers";
        QTest::newRow("binary garbage") << QByteArray::fromHex("00ff10e3") << ":1:"
                                        << "is not a finite number";
    }
    void badInput() {
        QFETCH(QByteArray, contents);
        QFETCH(QString, where);
        QFETCH(QString, because);
        QTemporaryDir dir;
        const std::string path = writeTemp(dir, contents);
        try {
            bv::io::readMosflmMatrix(path);
            QFAIL("expected bv::Error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path) + where), e.what());
            QVERIFY2(QString(e.what()).contains(because), e.what());
        }
    }

    void missingFile() {
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::io::readMosflmMatrix(kInputs + "absent.mat"));
    }
};

QTEST_APPLESS_MAIN(TestMatrixFile)
#include "tst_matrixfile.moc"
