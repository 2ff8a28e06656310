// Raw float images (-floatfile): 4-byte little-endian floats, fast index fastest, no header.

#include "compute/io/FloatImageFile.h"
#include "compute/core/Error.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

class TestFloatImageFile : public QObject {
    Q_OBJECT
  private slots:
    void writesRawLittleEndianFloats() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("float.bin").toStdString();
        bv::io::writeFloatImage(path, {1.0f, -2.0f, 0.5f});
        QFile file(QString::fromStdString(path));
        QVERIFY(file.open(QIODevice::ReadOnly));
        // IEEE 754: 1.0f = 0x3f800000, -2.0f = 0xc0000000, 0.5f = 0x3f000000
        QCOMPARE(file.readAll(), QByteArray::fromHex("0000803f000000c00000003f"));
    }

    void readsTheReferenceFloatImage() {
        // golden/noise_int_pgm: "writing float.bin as 16384 4-byte floats", max_I = 154.652
        const auto image = bv::io::readFloatImage(
            std::string(BV_TEST_DATA) + "/golden/noise_int_pgm/float.bin", 128 * 128);
        QCOMPARE(image.size(), std::size_t(16384));
        const float maxI = *std::max_element(image.begin(), image.end());
        QVERIFY(std::abs(maxI - 154.652f) < 0.001f);
    }

    void roundTrip() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("f.bin").toStdString();
        const std::vector<float> image = {0.0f, 1e-30f, 3.25f, 65535.5f, -7.0f, 1e30f};
        bv::io::writeFloatImage(path, image);
        QCOMPARE(bv::io::readFloatImage(path), image);
        QCOMPARE(bv::io::readFloatImage(path, 6), image);
    }

    void wrongSizeIsAnError() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("f.bin").toStdString();
        bv::io::writeFloatImage(path, {1.0f, 2.0f});
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::io::readFloatImage(path, 3));
        QFile file(QString::fromStdString(path));
        QVERIFY(file.open(QIODevice::Append));
        file.write("x");
        file.close();
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::io::readFloatImage(path));
    }

    void writingToMissingDirectoryLeavesNothing() {
        QTemporaryDir dir;
        QVERIFY_THROWS_EXCEPTION(
            bv::Error, bv::io::writeFloatImage(dir.filePath("no/f.bin").toStdString(), {1.0f}));
        QVERIFY(QDir(dir.path()).isEmpty(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot));
    }
};

QTEST_APPLESS_MAIN(TestFloatImageFile)
#include "tst_floatimagefile.moc"
