// SMV images: the reference's header text, byte for byte; reading back with its lookup rules.

#include "compute/io/Smv.h"
#include "compute/core/Error.h"

#include "GoldenNoiseIntPgm.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {

std::string writeTemp(const QTemporaryDir& dir, const QByteArray& bytes) {
    const QString path = dir.filePath("image.img");
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path.toStdString();
}

// A hand-written little SMV file: header padded to `headerBytes`, then `data` as is.
QByteArray smvFile(const QByteArray& headerText, const QByteArray& data, int headerBytes = 512) {
    QByteArray bytes = headerText;
    bytes.append(headerBytes - bytes.size(), ' ');
    return bytes + data;
}

bv::io::SmvHeader smallHeader() {
    bv::io::SmvHeader h;
    h.fpixels = 3;
    h.spixels = 2;
    h.pixelSizeMm = 0.172;
    h.distanceMm = 250;
    h.wavelengthA = 1;
    h.closeDistanceMm = 237.5;
    h.dialsOriginMm = {-1.25, 2.5e-7, -250};
    h.orgX = 1.5;
    h.orgY = 2.5;
    h.phiDeg = h.oscStartDeg = 12.5;
    h.oscRangeDeg = 0.1;
    h.twoThetaDeg = -20;
    return h;
}

} // namespace

class TestSmv : public QObject {
    Q_OBJECT
  private slots:
    void headerTextEqualsTheReference() {
        // geometry from the reference's stdout, formatted here: its int.img and noise.img
        // headers are both exactly this (their DENZO lines differ only in "-0.0" vs "+0.0")
        const std::string text = bv::io::smvHeaderText(golden::header());
        QCOMPARE(text.size(), std::size_t(512));
        const QByteArray expected = golden::contents(golden::kDir + "int.img").left(512);
        QCOMPARE(QByteArray::fromStdString(text), expected);
        QCOMPARE(QByteArray::fromStdString(text),
                 golden::contents(golden::kDir + "noise.img").left(512));
    }

    void headerLayout() {
        const std::string text = bv::io::smvHeaderText(smallHeader());
        const QString header = QString::fromStdString(text);
        QVERIFY(header.startsWith("{\nHEADER_BYTES=512;\nDIM=2;\nBYTE_ORDER=little_endian;\n"
                                  "TYPE=unsigned_short;\nSIZE1=3;\nSIZE2=2;\nPIXEL_SIZE=0.172;\n"
                                  "DISTANCE=250;\nWAVELENGTH=1;\n"));
        QVERIFY(header.contains("\nDIALS_ORIGIN=-1.25,2.5e-07,-250\nXDS_ORGX=1.5;\n")); // no ";"
        QVERIFY(header.contains("\nCLOSE_DISTANCE=237.5;\nPHI=12.5;\nOSC_START=12.5;\n"
                                "OSC_RANGE=0.1;\nTWOTHETA=-20;\nDETECTOR_SN=000;\n"
                                "BEAMLINE=fake;\n}\f   "));
        QVERIFY(header.endsWith("    "));
    }

    void writeThenReadRoundTrip() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("small.img").toStdString();
        const std::vector<std::uint16_t> data = {0, 1, 258, 40000, 65535, 7};
        bv::io::writeSmv(path, smallHeader(), data);
        QCOMPARE(QFileInfo(QString::fromStdString(path)).size(), qint64(512 + 6 * 2));

        const bv::io::SmvImage image = bv::io::readSmv(path);
        QCOMPARE(image.headerBytes, 512);
        QCOMPARE(image.width, 3);
        QCOMPARE(image.height, 2);
        QCOMPARE(image.data, data);
        QVERIFY(!image.swappedBytes);
        QCOMPARE(image.header, bv::io::smvHeaderText(smallHeader()));
        QCOMPARE(image.field("PIXEL_SIZE").value_or("?"), std::string("0.172"));
        QCOMPARE(image.field("DIALS_ORIGIN").value_or("?"), std::string("-1.25,2.5e-07,-250"));
        QCOMPARE(image.field("BEAMLINE").value_or("?"), std::string("fake"));
        QVERIFY(!image.field("NOPE"));
        QCOMPARE(image.fields.size(), std::size_t(27));
        QCOMPARE(image.fields.front().first, std::string("HEADER_BYTES"));
    }

    void valueOfFindsTheLastOccurrenceOfTheKeyword_data() {
        QTest::addColumn<QString>("keyword");
        QTest::addColumn<double>("expected");
        QTest::newRow("plain") << "PIXEL_SIZE" << 0.172;
        QTest::newRow("DISTANCE finds CLOSE_DISTANCE") << "DISTANCE" << 237.5;
        QTest::newRow("ORGX finds XDS_ORGX") << "ORGX" << 1.5;
        QTest::newRow("PHI") << "PHI" << 12.5;
        QTest::newRow("list takes its first number") << "DIALS_ORIGIN" << -1.25;
        QTest::newRow("text value is 0") << "BEAMLINE" << 0.0;
        QTest::newRow("absent is NaN") << "OMEGA" << std::nan("");
    }
    void valueOfFindsTheLastOccurrenceOfTheKeyword() {
        QFETCH(QString, keyword);
        QFETCH(double, expected);
        QTemporaryDir dir;
        const std::string path = dir.filePath("small.img").toStdString();
        bv::io::writeSmv(path, smallHeader(), std::vector<std::uint16_t>(6, 0));
        const bv::io::SmvImage image = bv::io::readSmv(path);
        const double value = image.valueOf(keyword.toStdString());
        if (std::isnan(expected))
            QVERIFY(std::isnan(value));
        else
            QCOMPARE(value, expected);
    }

    void repeatedKeysTakeTheLast() {
        QTemporaryDir dir;
        const std::string path = writeTemp(
            dir, smvFile("{\nHEADER_BYTES=512;\nSIZE1=9;\nSIZE2=1;\nSIZE1=2;\nNOTE=a;\nNOTE=b;\n}",
                         QByteArray::fromHex("01000200")));
        const bv::io::SmvImage image = bv::io::readSmv(path);
        QCOMPARE(image.width, 2);
        QCOMPARE(image.height, 1);
        QCOMPARE(image.field("NOTE").value_or("?"), std::string("b"));
        QCOMPARE(image.field("SIZE1").value_or("?"), std::string("2"));
        QCOMPARE(image.data, (std::vector<std::uint16_t>{1, 2}));
    }

    void readsTheReferenceImage() {
        const bv::io::SmvImage image = bv::io::readSmv((golden::kDir + "int.img").toStdString());
        QCOMPARE(image.width, 128);
        QCOMPARE(image.height, 128);
        QCOMPARE(image.data.size(), std::size_t(128 * 128));
        QCOMPARE(image.field("BEAM_CENTER_X").value_or("?"), std::string("6.45"));
        QCOMPARE(image.field("DIALS_ORIGIN").value_or("?"), std::string("-6.5,6.5,-100"));
        QCOMPARE(image.valueOf("WAVELENGTH"), 6.2);
        // the first pixel: 2 bytes after the 512-byte header, little-endian
        const QByteArray bytes = golden::contents(golden::kDir + "int.img");
        const auto first = static_cast<std::uint16_t>(static_cast<unsigned char>(bytes[512]) |
                                                      static_cast<unsigned char>(bytes[513]) << 8);
        QCOMPARE(image.data[0], first);
    }

    void swapsBytesOfTheOtherOrder() {
        QTemporaryDir dir;
        const std::string path =
            writeTemp(dir, smvFile("{\nHEADER_BYTES=512;\nDIM=2;\nBYTE_ORDER=big_endian;\n"
                                   "TYPE=unsigned_short;\nSIZE1=2;\nSIZE2=1;\n}\f",
                                   QByteArray::fromHex("0102fffe")));
        const bv::io::SmvImage image = bv::io::readSmv(path);
        QVERIFY(image.swappedBytes); // on the little-endian hosts this runs on
        QCOMPARE(image.data, (std::vector<std::uint16_t>{0x0102, 0xfffe}));
    }

    void largerHeader() {
        QTemporaryDir dir;
        const std::string path =
            writeTemp(dir, smvFile("{\nHEADER_BYTES=1024;\nSIZE1=1;\nSIZE2=1;\n}",
                                   QByteArray::fromHex("2a00"), 1024));
        const bv::io::SmvImage image = bv::io::readSmv(path);
        QCOMPARE(image.headerBytes, 1024);
        QCOMPARE(image.data, std::vector<std::uint16_t>{42});
    }

    void badInput_data() {
        QTest::addColumn<QByteArray>("contents");
        QTest::addColumn<QString>("because");
        const QByteArray header = "{\nHEADER_BYTES=512;\nBYTE_ORDER=little_endian;\n";
        QTest::newRow("no brace") << smvFile("HEADER_BYTES=512;\nSIZE1=1;\nSIZE2=1;\n}", "ab")
                                  << "does not start with";
        QTest::newRow("empty") << QByteArray() << "does not start with";
        QTest::newRow("binary garbage")
            << QByteArray::fromHex("4d4d002a00000008") << "does not start with";
        QTest::newRow("no HEADER_BYTES")
            << smvFile("{\nSIZE1=1;\nSIZE2=1;\n}", "ab") << "no HEADER_BYTES";
        QTest::newRow("no SIZE1") << smvFile(header + "SIZE2=1;\n}", "ab") << "no SIZE1";
        QTest::newRow("no SIZE2") << smvFile(header + "SIZE1=1;\n}", "ab") << "no SIZE2";
        QTest::newRow("zero size") << smvFile(header + "SIZE1=0;\nSIZE2=1;\n}", "")
                                   << "SIZE1=0, expected a positive integer";
        QTest::newRow("negative size") << smvFile(header + "SIZE1=2;\nSIZE2=-4;\n}", "")
                                       << "SIZE2=-4, expected a positive integer";
        QTest::newRow("fractional size")
            << smvFile(header + "SIZE1=1.5;\nSIZE2=1;\n}", "abc") << "SIZE1=1.5";
        QTest::newRow("absurd size") << smvFile(header + "SIZE1=100000;\nSIZE2=100000;\n}", "")
                                     << "more pixels than any detector";
        QTest::newRow("truncated data") << smvFile(header + "SIZE1=2;\nSIZE2=2;\n}", "abcdef")
                                        << "truncated: 2x2 pixels need 8 bytes after the "
                                           "512-byte header, found 6";
        QTest::newRow("truncated header")
            << QByteArray("{\nHEADER_BYTES=512;\nSIZE1=1;\nSIZE2=1;\n}") << "truncated";
        QTest::newRow("float pixels")
            << smvFile(header + "TYPE=float;\nSIZE1=1;\nSIZE2=1;\n}", "abcd") << "TYPE=float";
        QTest::newRow("odd byte order")
            << smvFile("{\nHEADER_BYTES=512;\nBYTE_ORDER=middle;\nSIZE1=1;\nSIZE2=1;\n}", "ab")
            << "expected little_endian or big_endian";
    }
    void badInput() {
        QFETCH(QByteArray, contents);
        QFETCH(QString, because);
        QTemporaryDir dir;
        const std::string path = writeTemp(dir, contents);
        try {
            bv::io::readSmv(path);
            QFAIL("expected bv::Error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path) + ":"), e.what());
            QVERIFY2(QString(e.what()).contains(because), e.what());
        }
    }

    void missingFileAndDirectory() {
        QTemporaryDir dir;
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::io::readSmv(dir.filePath("x.img").toStdString()));
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::io::readSmv(dir.path().toStdString()));
    }

    void wrongDataSizeIsNotWritten() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("bad.img").toStdString();
        QVERIFY_THROWS_EXCEPTION(
            bv::Error, bv::io::writeSmv(path, smallHeader(), std::vector<std::uint16_t>(5)));
        QVERIFY(QDir(dir.path()).isEmpty(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot));
    }

    void writingToMissingDirectoryLeavesNothing() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("missing/int.img").toStdString();
        try {
            bv::io::writeSmv(path, smallHeader(), std::vector<std::uint16_t>(6));
            QFAIL("expected bv::Error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).contains(QString::fromStdString(path)), e.what());
        }
        QVERIFY(QDir(dir.path()).isEmpty(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot));
    }
};

QTEST_APPLESS_MAIN(TestSmv)
#include "tst_smv.moc"
