// miniCBF images: byte-offset compression both ways (every width of difference), the header
// a PILATUS writes and DIALS reads, the counts drawn like the noise image's, and damaged
// files refused with their name.

#include "compute/io/CbfImage.h"
#include "compute/io/NoiseImage.h"
#include "compute/core/Error.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <limits>

using bv::io::CbfHeader;

namespace {

CbfHeader smallHeader(int fast, int slow) {
    CbfHeader h;
    h.fastPixels = fast;
    h.slowPixels = slow;
    h.pixelSizeM = 100e-6;
    h.wavelengthA = 1.0;
    h.distanceM = 0.1;
    h.beamFastPixels = 1.5;
    h.beamSlowPixels = 2.25;
    h.startAngleDeg = 3.0;
    h.angleIncrementDeg = 0.5;
    h.timestamp = "2026-01-31T12:00:00.000";
    h.dataName = "frame_00004";
    return h;
}

QByteArray fileBytes(const std::string& path) {
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

void writeBytes(const std::string& path, const QByteArray& bytes) {
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", path.c_str());
}

} // namespace

class TestCbf : public QObject {
    Q_OBJECT
  private slots:
    void byteOffsetUsesTheNarrowestWidth() {
        // 0 -> 5 (1 byte), -> 205 (0x80 + 2 bytes), -> 100205 (0x80 0x8000 + 4 bytes)
        const std::string packed = bv::io::byteOffsetCompress({5, 205, 100205, 100205 - 127});
        const std::string expected("\x05"
                                   "\x80\xc8\x00"
                                   "\x80\x00\x80\xa0\x86\x01\x00"
                                   "\x81",
                                   1 + 3 + 7 + 1);
        QCOMPARE(QByteArray::fromStdString(packed), QByteArray::fromStdString(expected));
    }

    void byteOffsetRoundTrips_data() {
        QTest::addColumn<std::vector<std::int32_t>>("values");
        const std::int32_t lo = std::numeric_limits<std::int32_t>::min();
        const std::int32_t hi = std::numeric_limits<std::int32_t>::max();
        QTest::newRow("small") << std::vector<std::int32_t>{0, 1, -1, 127, 0, -127, 0};
        QTest::newRow("byte edges")
            << std::vector<std::int32_t>{128, 0, -128, 0, 32767, 0, -32767, 0};
        QTest::newRow("short edges") << std::vector<std::int32_t>{32768, 0, -32768, 65535, -65535};
        QTest::newRow("int edges") << std::vector<std::int32_t>{hi, lo, hi, 0, lo, -1};
        QTest::newRow("pilatus marks") << std::vector<std::int32_t>{-1, -2, 1048575, -1};
        QTest::newRow("empty") << std::vector<std::int32_t>{};
    }
    void byteOffsetRoundTrips() {
        QFETCH(std::vector<std::int32_t>, values);
        const std::string packed = bv::io::byteOffsetCompress(values);
        QCOMPARE(bv::io::byteOffsetDecompress(packed, values.size()), values);
    }

    void byteOffsetRefusesDamage() {
        const std::string packed = bv::io::byteOffsetCompress({1000, 2, 3});
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::io::byteOffsetDecompress(packed.substr(0, 2), 3));
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::io::byteOffsetDecompress(packed + "x", 3));
        // a run of +127 steps beyond the 32-bit range
        const std::string up("\x80\x00\x80\xff\xff\xff\x7f\x7f", 8);
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::io::byteOffsetDecompress(up, 2));
    }

    void headerHasWhatDialsReads() {
        const std::string text = bv::io::cbfHeaderText(smallHeader(4, 3), 17);
        for (const char* line :
             {"###CBF: VERSION 1.5", "data_frame_00004\r\n",
              "_array_data.header_convention \"GENERIC_MINI\"\r\n", "# 2026-01-31T12:00:00.000\r\n",
              "# Pixel_size 100e-6 m x 100e-6 m\r\n", "# Wavelength 1.000000 A\r\n",
              "# Detector_distance 0.1000000 m\r\n", "# Beam_xy (1.500, 2.250) pixels\r\n",
              "# Start_angle 3.000000 deg.\r\n", "# Angle_increment 0.500000 deg.\r\n",
              "# Exposure_period 1.0000000 s\r\n", "# Count_cutoff 1048575 counts\r\n",
              "conversions=\"x-CBF_BYTE_OFFSET\"\r\n", "X-Binary-Size: 17\r\n",
              "X-Binary-Element-Type: \"signed 32-bit integer\"\r\n",
              "X-Binary-Number-of-Elements: 12\r\n", "X-Binary-Size-Fastest-Dimension: 4\r\n",
              "X-Binary-Size-Second-Dimension: 3\r\n"})
            QVERIFY2(text.find(line) != std::string::npos, line);
        // no sensor line for a sensor without thickness (dxtbx refuses zero-thickness silicon)
        QVERIFY(text.find("Silicon") == std::string::npos);
        CbfHeader thick = smallHeader(4, 3);
        thick.thicknessM = 450e-6;
        QVERIFY(bv::io::cbfHeaderText(thick, 1).find(
                    "# Silicon sensor, thickness 0.000450 m\r\n") != std::string::npos);
        // the MIME header ends with an empty line, then the binary data follow
        QVERIFY(text.size() > 4 && text.compare(text.size() - 4, 4, "\r\n\r\n") == 0);
    }

    void conventionFollowsTheDetector() {
        QCOMPARE(bv::io::cbfHeaderConvention(512, 512, 100e-6), std::string("GENERIC_MINI"));
        QCOMPARE(bv::io::cbfHeaderConvention(2463, 2527, 172e-6), std::string("PILATUS_1.2")); // 6M
        QCOMPARE(bv::io::cbfHeaderConvention(487, 195, 172e-6), std::string("PILATUS_1.2")); // 100K
        QCOMPARE(bv::io::cbfHeaderConvention(488, 195, 172e-6), std::string("GENERIC_MINI"));
        QCOMPARE(bv::io::cbfHeaderConvention(487, 195, 100e-6), std::string("GENERIC_MINI"));
        const std::string pilatus = bv::io::cbfHeaderText(smallHeader(4, 3), 1);
        QVERIFY(pilatus.find("PILATUS (simulated)") == std::string::npos);
    }

    void writesAndReadsBack() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("frame.cbf").toStdString();
        std::vector<std::int32_t> pixels(4 * 3);
        for (std::size_t i = 0; i < pixels.size(); ++i)
            pixels[i] = static_cast<std::int32_t>(i * i * 1000) - 5;
        pixels[7] = -1;
        bv::io::writeCbf(path, smallHeader(4, 3), pixels);
        const bv::io::CbfImage back = bv::io::readCbf(path);
        QCOMPARE(back.width, 4);
        QCOMPARE(back.height, 3);
        QCOMPARE(back.data, pixels);
        QCOMPARE(back.item("Wavelength").value_or(""), std::string("1.000000 A"));
        QCOMPARE(back.item("Beam_xy").value_or(""), std::string("(1.500, 2.250) pixels"));
        QVERIFY(!back.item("Nothing"));
        // the file ends like a PILATUS file: 4095 bytes of padding, the closing boundary
        const QByteArray bytes = fileBytes(path);
        QVERIFY(bytes.endsWith("\r\n--CIF-BINARY-FORMAT-SECTION----\r\n;\r\n\r\n"));
        // a wrong pixel count writes nothing
        const std::string other = dir.filePath("other.cbf").toStdString();
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::io::writeCbf(other, smallHeader(4, 3), {1, 2}));
        QVERIFY(!QFile::exists(QString::fromStdString(other)));
    }

    void damagedFilesAreRefused_data() {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QString>("message");
        QTest::newRow("not CBF") << QByteArray("###CBF") << QByteArray("###XYZ")
                                 << "not a CBF file";
        QTest::newRow("other compression")
            << QByteArray("x-CBF_BYTE_OFFSET") << QByteArray("x-CBF_PACKED") << "only byte-offset";
        QTest::newRow("big endian")
            << QByteArray("LITTLE_ENDIAN") << QByteArray("BIG_ENDIAN") << "LITTLE_ENDIAN";
        QTest::newRow("sizes disagree")
            << QByteArray("Fastest-Dimension: 4") << QByteArray("Fastest-Dimension: 5")
            << "is not X-Binary-Number-of-Elements";
        QTest::newRow("no start marker")
            << QByteArray("\x0c\x1a\x04\xd5") << QByteArray("XXXX") << "no start marker";
        QTest::newRow("size too large") << QByteArray("X-Binary-Size: ")
                                        << QByteArray("X-Binary-Size: 99999") << "X-Binary-Size";
    }
    void damagedFilesAreRefused() {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const std::string path = dir.filePath("frame.cbf").toStdString();
        bv::io::writeCbf(path, smallHeader(4, 3), std::vector<std::int32_t>(12, 300));
        QByteArray bytes = fileBytes(path);
        const qsizetype at = bytes.indexOf(from);
        QVERIFY(at >= 0);
        bytes.replace(at, from.size(), to);
        writeBytes(path, bytes);
        try {
            bv::io::readCbf(path);
            QFAIL("no error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).contains("frame.cbf") && QString(e.what()).contains(message),
                     e.what());
        }
    }

    void truncatedFileIsRefused() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("cut.cbf").toStdString();
        std::vector<std::int32_t> pixels(64 * 64, 70000);
        bv::io::writeCbf(path, smallHeader(64, 64), pixels);
        const QByteArray bytes = fileBytes(path);
        writeBytes(path, bytes.left(bytes.indexOf("\x0c\x1a\x04\xd5") + 100));
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::io::readCbf(path));
    }

    void countsAreTheNoiseImagesDeviates() {
        // a 6x5 image with means from 0 to beyond the direct-method limit (12)
        const int w = 6, h = 5;
        std::vector<float> photons(static_cast<std::size_t>(w * h));
        for (std::size_t i = 0; i < photons.size(); ++i)
            photons[i] = static_cast<float>(i * i) * 0.7f;
        const bv::Roi roi{1, 4, 0, 3}; // fast 1..4, slow 0..3
        bv::random::ReferenceRandom a, b;
        long seedA = -7, seedB = -7;
        const bv::io::NoiseImage noise = bv::io::noiseImage(a, seedA, photons, w, h, 40.0, roi);
        std::vector<std::uint16_t> mask(photons.size(), 1);
        mask[8] = 0; // (2, 1)
        const bv::io::CbfCounts counts = bv::io::cbfCounts(b, seedB, photons, w, h, roi, mask);
        QCOMPARE(counts.photons, noise.photons);
        QCOMPARE(seedA, seedB); // as many draws
        long long excluded = 0;
        for (int slow = 0; slow < h; ++slow)
            for (int fast = 0; fast < w; ++fast) {
                const std::size_t i = static_cast<std::size_t>(slow * w + fast);
                if (!roi.contains(fast, slow) || i == 8) {
                    QCOMPARE(counts.data[i], -1); // no data: outside the ROI, masked
                    ++excluded;
                } else {
                    QCOMPARE(counts.data[i], static_cast<std::int32_t>(noise.data[i]) - 40);
                }
            }
        QCOMPARE(counts.excludedPixels, excluded);
        // a count cutoff clips and counts overloads
        bv::random::ReferenceRandom c;
        long seedC = -7;
        const bv::io::CbfCounts clipped = bv::io::cbfCounts(c, seedC, photons, w, h, roi, {}, 100);
        QVERIFY(clipped.overloads > 0);
        for (const std::int32_t v : clipped.data)
            QVERIFY(v <= 100);
    }
};

QTEST_APPLESS_MAIN(TestCbf)
#include "tst_cbf.moc"
