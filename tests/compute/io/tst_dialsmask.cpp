// DIALS mask files (compute/io/DialsMask.h): tests/data/dials/two-panels.p2.mask and .p4.mask
// were written by cctbx itself (pickle.dumps of a tuple of two scitbx flex.bool arrays, with
// protocols 2 and 4: a 3 x 2 panel without pixels (1, 0) and (2, 1), a 4 x 1 panel without
// pixel (0, 0)). Both read to the same masks; a frame read for those two panels loses exactly
// those pixels; damaged files and pickles of other things are refused with the file's name.

#include "compute/core/Error.h"
#include "compute/io/DialsMask.h"
#include "compute/io/InputFile.h"
#include "compute/io/MeasuredImage.h"
#include "compute/io/Smv.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <sstream>

namespace {

const std::string kData = BV_TEST_DATA "/dials/";

std::string bytesOf(const std::string& path) {
    return bv::io::readWholeFile(path, "DIALS mask");
}

QString refusal(const std::string& bytes) {
    try {
        bv::io::parseDialsMask(bytes, "bad.mask");
    } catch (const bv::Error& e) {
        return QString::fromStdString(e.what());
    }
    return QStringLiteral("no error");
}

} // namespace

class TestDialsMask : public QObject {
    Q_OBJECT
  private slots:
    void cctbxPicklesOfTwoPanels() {
        for (const char* name : {"two-panels.p2.mask", "two-panels.p4.mask"}) {
            const std::vector<bv::io::PanelMask> m = bv::io::readDialsMask(kData + name);
            QCOMPARE(m.size(), std::size_t(2));
            QCOMPARE(m[0].fastPixels, 3);
            QCOMPARE(m[0].slowPixels, 2);
            QCOMPARE(m[0].valid, (std::vector<std::uint8_t>{1, 0, 1, 1, 1, 0}));
            QCOMPARE(m[1].fastPixels, 4);
            QCOMPARE(m[1].slowPixels, 1);
            QCOMPARE(m[1].valid, (std::vector<std::uint8_t>{0, 1, 1, 1}));
        }
    }

    void aFrameLosesTheMaskedPixels() {
        // a frame of one 3 x 2 panel, and a mask of that panel alone: the first array of the
        // cctbx file, its tuple closed after it
        QTemporaryDir dir;
        const std::string frame = dir.filePath("frame.img").toStdString();
        bv::io::SmvHeader h;
        h.fpixels = 3;
        h.spixels = 2;
        h.pixelSizeMm = 0.1;
        bv::io::writeSmv(frame, h, {10, 11, 12, 13, 14, 15});
        bv::Panel p;
        p.fastPixels = 3;
        p.slowPixels = 2;
        // the p4 file's first array alone: cut the tuple after it (TUPLE1 and STOP)
        const std::string both = bytesOf(kData + "two-panels.p4.mask");
        const std::size_t second = both.find("h\x02)R", 0); // the second bool() call
        QVERIFY(second != std::string::npos);
        const std::string one = both.substr(0, second) + "\x85.";
        const std::string maskPath = dir.filePath("one.mask").toStdString();
        std::ofstream(maskPath, std::ios::binary) << one;
        std::ostringstream log;
        const bv::io::MeasuredImage m =
            bv::io::readMeasuredImageFor(frame, 0, {p}, maskPath, {}, log);
        QCOMPARE(m.hasData, (std::vector<std::uint8_t>{1, 0, 1, 1, 1, 0}));
        QVERIFY2(QString::fromStdString(log.str()).contains("2 pixels masked by"), qPrintable(QString::fromStdString(log.str())));
        // the two-panel mask against the one panel: refused, naming both
        try {
            bv::io::readMeasuredImageFor(frame, 0, {p}, kData + "two-panels.p4.mask", {}, log);
            QFAIL("a mask of other panels was taken");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).contains("are not the detector's panels"), e.what());
        }
    }

    void refusals() {
        const std::string good = bytesOf(kData + "two-panels.p4.mask");
        QVERIFY(refusal("").contains("bad.mask: not a DIALS mask (the file ends early"));
        QVERIFY(refusal(good.substr(0, good.size() / 2)).contains("not a DIALS mask"));
        QVERIFY(refusal("\x80\x04}\x94.").contains("opcode 0x7d"));  // a dict
        QVERIFY(refusal("\x80\x04K\x05.").contains("not a flex.bool"));  // the number 5
        // a value that is not 0 or 1, and a count that is not the grid's
        std::string other = good;
        other[other.find("101110")] = '7';
        QVERIFY(refusal(other).contains("other than 0 or 1"));
        other = good;
        other[other.find("C\x08\x02\x06") + 3] = '\x05';
        QVERIFY(refusal(other).contains("values for a grid of 2 x 3"));
    }
};

QTEST_GUILESS_MAIN(TestDialsMask)
#include "tst_dialsmask.moc"
