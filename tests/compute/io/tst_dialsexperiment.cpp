// readDialsExperiment: a hand-designed four-module detector whose group is tilted
// (tests/data/detectors/four-module-tilted.expt), its positions worked out by hand, and
// every kind of bad experiment list refused with its file and key path.

#include "compute/io/DialsExperiment.h"
#include "DetectorFileTest.h"

#include <QTest>

namespace {

using bv::testing::near;
using bv::testing::refusalOf;
using bv::testing::writeTemp;

// what -detector reads of a file
bv::io::DialsExperiment readDetector(const std::string& path) {
    return bv::io::readDialsExperiment(path);
}

const std::string kExpt = std::string(BV_TEST_DATA) + "/detectors/four-module-tilted.expt";

// a detector of panels "a" (at x = 0) and "b" (at x = `bx` mm), 10 x 10 pixels of 1 mm,
// 100 mm from the sample; `aExtra` is spliced into a's object
QByteArray twoPanels(const QByteArray& aExtra = "", double bx = 20.0) {
    const QByteArray common = R"("fast_axis": [1, 0, 0], "slow_axis": [0, -1, 0],
        "pixel_size": [1.0, 1.0], "image_size": [10, 10])";
    return R"({"__id__": "ExperimentList", "experiment": [{"detector": 0}],
  "detector": [{"panels": [
    {"name": "a", "type": "SENSOR_PAD", )" + common + R"(, "origin": [0, 0, -100])" + aExtra + R"(},
    {"name": "b", "type": "SENSOR_PAD", )" + common + R"(, "origin": [)" +
           QByteArray::number(bx) + R"(, 0, -100]}]}]})";
}

} // namespace

class TestDialsExperiment : public QObject {
    Q_OBJECT
private slots:
    void readsATiltedFourModuleDetector() {
        // The group "tilted" has fast F = (1, 0, 0), slow S = (0, -0.8, 0.6) (a turn about x
        // with cos 0.8, sin 0.6), normal N = F x S = (0, -0.6, -0.8), origin G =
        // (-21, 17, -200) mm. A panel's local origin (a, b, c) lands at G + aF + bS + cN.
        // dxtbx (x, y, z) is (-z, y, x) here, in metres.
        const bv::io::DialsExperiment x = bv::io::readDialsExperiment(kExpt);
        const auto& panels = x.detector.panels;
        QCOMPARE(panels.size(), std::size_t(4));
        QCOMPARE(panels[3].name, std::string("m3"));
        QCOMPARE(x.detector.pixelCount(), 4LL * 200 * 200);
        // m0 at G: (0.2, 0.017, -0.021) m; fast F -> (0, 0, 1); slow S -> (-0.6, -0.8, 0)
        QVERIFY(near(panels[0].origin, {0.2, 0.017, -0.021}));
        QVERIFY(near(panels[0].fast, {0, 0, 1}));
        QVERIFY(near(panels[0].slow, {-0.6, -0.8, 0}));
        // its first pixel's centre: G + 0.05 F + 0.05 S = (-20.95, 16.96, -199.97) mm
        QVERIFY(near(panels[0].pixelCentre(0, 0), {0.19997, 0.01696, -0.02095}));
        // m1, 21 mm along F: (0, 17, -200) mm
        QVERIFY(near(panels[1].origin, {0.2, 0.017, 0.0}));
        // m3, local (21, 21, 0.5): G + (21, -16.8, 12.6) + (0, -0.3, -0.4) = (0, -0.1, -187.8)
        QVERIFY(near(panels[3].origin, {0.1878, -0.0001, 0.0}));
        // and its last pixel, 19.95 mm along F and S further: (19.95, -16.06, -175.83) mm
        QVERIFY(near(panels[3].pixelCentre(199, 199), {0.17583, -0.01606, 0.01995}));
        // the sensor: 0.45 mm of Si, mu 3.9 /mm
        QCOMPARE(panels[2].thickness.value_or(0), 0.45e-3);
        QCOMPARE(panels[2].mu.value_or(0), 3900.0);
        QCOMPARE(panels[2].material, std::string("Si"));
        // the counts of data: dxtbx's trusted_range, -1 to 65535 on every module
        QVERIFY(panels[1].trustedRange);
        QCOMPARE(panels[1].trustedRange->first, -1.0);
        QCOMPARE(panels[1].trustedRange->second, 65535.0);
        // the beam: dxtbx's direction (0, 0, 1) points at the source; X-rays travel along +x
        QVERIFY(x.beamDirection && near(*x.beamDirection, {1, 0, 0}));
        QCOMPARE(x.wavelength.value_or(0), 0.9795e-10);
        QVERIFY(x.notes.empty());
    }

    void flatDetectorWithoutHierarchy() {
        QTemporaryDir dir;
        const auto x = bv::io::readDialsExperiment(writeTemp(dir, "test.expt", twoPanels()));
        // no hierarchy: the panels' vectors are the lab frame's; (0, 0, -100) mm is 0.1 m
        // down the beam
        QVERIFY(near(x.detector.panels[0].origin, {0.1, 0, 0}));
        QVERIFY(near(x.detector.panels[1].origin, {0.1, 0, 0.02}));
        QVERIFY(near(x.detector.panels[0].slow, {0, -1, 0}));
        QVERIFY(!x.beamDirection && !x.wavelength); // no beam in the file
        QVERIFY(!x.detector.panels[0].thickness);   // nor a sensor
    }

    void refusals_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown type") << twoPanels(R"(, "type": "SENSOR_FOO")")
                                      << "test.expt: detector[0].panels[0].type: unknown panel type 'SENSOR_FOO'";
        QTest::newRow("missing key") << QByteArray(R"({"detector": [{"panels": [{"name": "a"}]}]})")
                                     << "test.expt: detector[0].panels[0]: missing key \"type\"";
        QTest::newRow("bad number") << twoPanels(R"(, "pixel_size": ["0.1", 0.1])")
                                    << "test.expt: detector[0].panels[0].pixel_size[0]: expected a number";
        QTest::newRow("zero axis") << twoPanels(R"(, "fast_axis": [0, 0, 0])")
                                   << "test.expt: detector[0].panels[0].fast_axis: the axis is zero";
        QTest::newRow("not orthogonal") << twoPanels(R"(, "slow_axis": [1, 1, 0])")
                                        << "test.expt: detector[0].panels[0]: the fast and slow axes are not orthogonal";
        QTest::newRow("short vector") << twoPanels(R"(, "origin": [0, 0])")
                                      << "test.expt: detector[0].panels[0].origin: expected 3 numbers";
        QTest::newRow("more pixels than -detpixels takes")
            << twoPanels(R"(, "image_size": [1000000, 1000000])")
            << "test.expt: detector[0].panels[0].image_size[0]: expected a whole number from 1 to 32768";
        QTest::newRow("no pixels") << twoPanels(R"(, "image_size": [0, 10])")
                                   << "test.expt: detector[0].panels[0].image_size[0]: expected a whole number from 1";
        QTest::newRow("overlap") << twoPanels("", 5.0)
                                 << "test.expt: detector[0].panels[1]: panels 'a' and 'b' overlap";
        QTest::newRow("no detector") << QByteArray(R"({"__id__": "ExperimentList"})")
                                     << "test.expt: the top level: missing key \"detector\"";
        QTest::newRow("not json") << QByteArray("{\n  \"detector\": [\n    oops\n")
                                  << "test.expt:3: not a DIALS experiment list (not JSON";
        QTest::newRow("number too large") << twoPanels(R"(, "origin": [0, 0, 1e400])")
                                          << "test.expt: not a DIALS experiment list";
        QTest::newRow("hierarchy names a missing panel")
            << QByteArray(R"({"detector": [{"panels": [], "hierarchy": {"children": [{"panel": 3}]}}]})")
            << "test.expt: detector[0].panels: the detector has no panels";
        QTest::newRow("bad beam") << QByteArray(twoPanels()).replace(
                                         R"("detector": [{)", R"("beam": [{"direction": [0, 0, 1], "wavelength": -1}], "detector": [{)")
                                  << "test.expt: beam[0].wavelength: expected a wavelength greater than 0";
    }
    void refusals() {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        const QString got = refusalOf(readDetector, "test.expt", text);
        QVERIFY2(got.contains(message), qPrintable(got.isEmpty() ? "no error" : got));
    }

    void hierarchyIndexOutOfRange() {
        QByteArray text = twoPanels();
        text.replace(R"(, 0, -100]}]}]})", R"(, 0, -100]}], "hierarchy": {"children": [{"panel": 2}]}}]})");
        const QString got = refusalOf(readDetector, "test.expt", text);
        QVERIFY2(got.contains("hierarchy.children[0].panel: expected a whole number from 0 to 1"),
                 qPrintable(got));
    }
};

QTEST_APPLESS_MAIN(TestDialsExperiment)
#include "tst_dialsexperiment.moc"
