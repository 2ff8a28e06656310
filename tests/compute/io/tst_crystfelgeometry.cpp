// readCrystfelGeometry: a hand-written two-panel .geom (tests/data/detectors/two-panel.geom)
// read into the simulator's frame, with its pixel positions worked out by hand, and every
// kind of bad file refused with its file and line.

#include "compute/io/CrystfelGeometry.h"
#include "DetectorFileTest.h"

#include <QTest>

namespace {

using bv::testing::near;
using bv::testing::refusalOf;
using bv::testing::writeTemp;

const std::string kGeom = std::string(BV_TEST_DATA) + "/detectors/two-panel.geom";

// one 10 x 10 panel "a" of 100 um pixels at 100 mm, then `extra` lines
QByteArray onePanel(const QByteArray& extra) {
    return "clen = 0.1\nres = 10000\n"
           "a/min_fs = 0\na/max_fs = 9\na/min_ss = 0\na/max_ss = 9\n"
           "a/fs = +1.0x\na/ss = -1.0y\na/corner_x = 0\na/corner_y = 0\n" + extra;
}

} // namespace

class TestCrystfelGeometry : public QObject {
    Q_OBJECT
private slots:
    void readsTwoPanels() {
        const bv::io::CrystfelGeometry g = bv::io::readCrystfelGeometry(kGeom);
        QCOMPARE(g.detector.panels.size(), std::size_t(2));
        const bv::Panel& top = g.detector.panels[0];
        const bv::Panel& side = g.detector.panels[1];
        QCOMPARE(top.name, std::string("top"));
        QCOMPARE(top.fastPixels, 100); // max_fs - min_fs + 1: inclusive
        QCOMPARE(top.slowPixels, 50);
        QCOMPARE(top.pixelSizeFast, 1e-4); // 1 / res
        // CrystFEL (x, y, z) is (z, y, -x) here: the beam +z becomes +x, x becomes -z
        QVERIFY(near(top.fast, {0, 0, -1}));  // +1.0x
        QVERIFY(near(top.slow, {0, -1, 0}));  // -1.0y
        QVERIFY(near(side.fast, {0, -1, 0})); // -1.0y
        QVERIFY(near(side.slow, {0, 0, 1}));  // -1.0x
        // top's corner: (-50, 60) pixels = (-5, 6) mm at clen 100 mm; its first pixel's
        // centre half a pixel in: CrystFEL (-4.95, 5.95, 100) mm
        QVERIFY(near(top.origin, {0.1, 0.006, 0.005}));
        QVERIFY(near(top.pixelCentre(0, 0), {0.1, 0.00595, 0.00495}));
        // side: corner (25, -5) pixels, 2 mm further (coffset); pixel (99, 49) is 99.5
        // pixels down and 49.5 to the left: CrystFEL (-2.45, -10.45, 102) mm
        QVERIFY(near(side.pixelCentre(0, 0), {0.102, -0.00055, -0.00245}));
        QVERIFY(near(side.pixelCentre(99, 49), {0.102, -0.01045, 0.00245}));
        // the bad region is reported as ignored, with its line
        QCOMPARE(g.notes.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(g.notes[0]).contains("two-panel.geom:39: bad regions"));
    }

    void globalsApplyToPanelsNamedAfterThem() {
        QTemporaryDir dir;
        // res changes between the panels: a keeps 10000 pixels/m, b gets 5000
        const auto g = bv::io::readCrystfelGeometry(writeTemp(dir, "test.geom", onePanel(
            "res = 5000\nb/min_fs = 0\nb/max_fs = 9\nb/min_ss = 0\nb/max_ss = 9\n"
            "b/fs = +1.0x\nb/ss = -1.0y\nb/corner_x = 100\nb/corner_y = 0\n")));
        QCOMPARE(g.detector.panels[0].pixelSizeFast, 1e-4);
        QCOMPARE(g.detector.panels[1].pixelSizeFast, 2e-4);
        QVERIFY(near(g.detector.panels[1].origin, {0.1, 0.0, -0.02})); // 100 px at 5000/m
    }

    void axisLengthScalesThePixel() {
        QTemporaryDir dir;
        // a slightly tilted panel: fs has a z part; |fs| = 1.0001 pixels per index
        const auto g = bv::io::readCrystfelGeometry(
            writeTemp(dir, "test.geom", onePanel("a/fs = +1.0x +0.0141774z\n")));
        const bv::Panel& a = g.detector.panels[0];
        QVERIFY(std::fabs(a.pixelSizeFast - 1e-4 * std::hypot(1.0, 0.0141774)) < 1e-15);
        QVERIFY(std::fabs(glm::length(a.fast) - 1.0) < 1e-12);
        QVERIFY(a.fast.x > 0.0); // +z in CrystFEL is +x, down the beam
    }

    void refusals_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("no equals") << onePanel("a/clen 0.1\n") << "test.geom:11: 'a/clen 0.1' is not";
        QTest::newRow("bad number") << onePanel("a/res = 13k\n")
                                    << "test.geom:11: panel 'a': res '13k' is not a finite number";
        QTest::newRow("bad vector") << onePanel("a/ss = -1.0q\n")
                                    << "test.geom:11: panel 'a': ss '-1.0q' has a term without x";
        QTest::newRow("zero axis") << onePanel("a/fs = +0.0x +0.0y\n")
                                   << "test.geom:11: panel 'a': the fast axis is zero";
        QTest::newRow("not orthogonal") << onePanel("a/ss = +0.7071x -0.7071y\n")
                                        << "test.geom:11: panel 'a': the fast and slow axes are not orthogonal";
        QTest::newRow("missing corner") << QByteArray("clen = 0.1\nres = 10000\na/min_fs = 0\n"
                                                      "a/max_fs = 9\na/min_ss = 0\na/max_ss = 9\n"
                                                      "a/fs = x\na/ss = -y\na/corner_y = 0\n")
                                        << "test.geom:3: panel 'a' has no corner_x";
        QTest::newRow("clen from the data") << onePanel("a/clen = /LCLS/detector_1/EncoderValue\n")
                                            << "test.geom:11: panel 'a': clen '/LCLS/detector_1/EncoderValue' is read from each image";
        QTest::newRow("max below min") << onePanel("a/max_ss = -1\n")
                                       << "test.geom:11: panel 'a': max_ss '-1' is not a pixel index";
        QTest::newRow("inverted range") << onePanel("a/min_fs = 20\n")
                                        << "test.geom:4: panel 'a': max_fs 9 is less than min_fs 20";
        QTest::newRow("overlap") << onePanel("b/min_fs = 10\nb/max_fs = 19\nb/min_ss = 0\n"
                                             "b/max_ss = 9\nb/fs = +1.0x\nb/ss = -1.0y\n"
                                             "b/corner_x = 5\nb/corner_y = 0\n")
                                 << "test.geom:11: panels 'a' and 'b' overlap";
        QTest::newRow("far away") << onePanel("a/corner_x = 1e12\n")
                                  << "test.geom:3: panel 'a': the origin is not a position";
        QTest::newRow("more pixels than -detpixels takes")
            << onePanel("a/max_fs = 999999\na/max_ss = 999999\n")
            << "panel 'a': the pixel count along fast is 1000000; expected 1 to 32768";
        QTest::newRow("no panels") << QByteArray("clen = 0.1\n; nothing else\n")
                                   << "test.geom: the detector has no panels";
    }
    void refusals() {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        const QString got = refusalOf(bv::io::readCrystfelGeometry, "test.geom", text);
        QVERIFY2(got.contains(message), qPrintable(got.isEmpty() ? "no error" : got));
    }

    void missingFile() {
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::io::readCrystfelGeometry("/nonexistent.geom"));
    }
};

QTEST_APPLESS_MAIN(TestCrystfelGeometry)
#include "tst_crystfelgeometry.moc"
