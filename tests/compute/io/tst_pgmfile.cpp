// writePgm: the 8-bit greymap preview (-pgmfile) and its scale rule.

#include "compute/io/PgmFile.h"
#include "compute/core/Error.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

class TestPgmFile : public QObject {
    Q_OBJECT
  private slots:
    void scaleRule_data() {
        QTest::addColumn<double>("requested");
        QTest::addColumn<double>("intScale");
        QTest::addColumn<double>("rmsd");
        QTest::addColumn<double>("expected");
        QTest::newRow("requested wins") << 3.0 << 355.0 << 20.0 << 3.0;
        QTest::newRow("5 rmsd is 250") << 0.0 << 355.0 << 20.0 << 2.5;
        QTest::newRow("flat image: int scale") << 0.0 << 355.0 << 0.0 << 355.0;
    }
    void scaleRule() {
        QFETCH(double, requested);
        QFETCH(double, intScale);
        QFETCH(double, rmsd);
        QFETCH(double, expected);
        QCOMPARE(bv::io::pgmScale(requested, intScale, rmsd), expected);
    }

    void writesHeaderAndTruncatedPixels() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("image.pgm").toStdString();
        // 3x2, ROI excludes the last column; scale 2.5
        const std::vector<float> image = {0.0f, 0.79f, 9.0f, 101.9f, 102.0f, 5.0f};
        bv::io::writePgm(path, 3, 2, image, 2.5, bv::io::Roi{0, 1, 0, 1});
        QFile file(QString::fromStdString(path));
        QVERIFY(file.open(QIODevice::ReadOnly));
        // 0.79*2.5 = 1.975 -> 1, 101.9*2.5 = 254.75 -> 254, 102*2.5 = 255, column 3 -> 0
        QCOMPARE(file.readAll(), QByteArray("P5\n3 2\n# pixels scaled by 2.5\n255\n") +
                                     QByteArray::fromHex("000100"
                                                         "feff00"));
    }

    void clipsAtWhiteAndBlack() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("image.pgm").toStdString();
        bv::io::writePgm(path, 2, 1, {1e9f, -3.0f}, 1.0, bv::io::Roi::whole(2, 1));
        QFile file(QString::fromStdString(path));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().endsWith(QByteArray::fromHex("ff00")));
    }

    void errorsLeaveNoFile() {
        QTemporaryDir dir;
        QVERIFY_THROWS_EXCEPTION(bv::Error,
                                 bv::io::writePgm(dir.filePath("a.pgm").toStdString(), 2, 2, {1.0f},
                                                  1.0, bv::io::Roi::whole(2, 2)));
        QVERIFY_THROWS_EXCEPTION(bv::Error,
                                 bv::io::writePgm(dir.filePath("no/a.pgm").toStdString(), 1, 1,
                                                  {1.0f}, 1.0, bv::io::Roi::whole(1, 1)));
        QVERIFY(QDir(dir.path()).isEmpty(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot));
    }
};

QTEST_APPLESS_MAIN(TestPgmFile)
#include "tst_pgmfile.moc"
