// readDialsExperiment(path, id, DialsModels::All), what -experiment reads: the crystal, the
// goniometer, the scan and the beam's polarization of a hand-made experiment list, every
// vector worked out by hand in dxtbx's frame and then turned into the simulator's
// ((x, y, z) -> (-z, y, x)); and the refusals, each with its file and key path.

#include "compute/io/DialsExperiment.h"
#include "DetectorFileTest.h"

#include <QTest>

#include <cmath>

namespace {

using bv::testing::near;
using bv::testing::refusalOf;
using bv::testing::writeTemp;

constexpr double kDegree = 3.14159265358979323846 / 180.0;

// tests/data/dials/two-experiments.expt (tst_experimentfile reads it too), with `replace`
// replaced by `with`. Experiment 0: a 10 x 10 pixel detector, a beam of 1.5 A polarized
// with normal (0, 1, 0) and fraction 0.9, a goniometer about dxtbx's x whose setting
// rotation is a quarter turn about z (x -> y, y -> -x), a 10 x 20 x 30 A orthorhombic crystal
// along x, y, z, a scan of images 3 to 12 from 10 degrees in steps of 0.5.
QByteArray wholeExperiment(const QByteArray& replace = "", const QByteArray& with = "") {
    QFile file(QString::fromStdString(std::string(BV_TEST_DATA) + "/dials/two-experiments.expt"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(file.fileName()));
    QByteArray text = file.readAll();
    if (!replace.isEmpty())
        text.replace(replace, with);
    return text;
}

bv::io::DialsExperiment readAll(const std::string& path) {
    return bv::io::readDialsExperiment(path, 0, bv::io::DialsModels::All);
}

} // namespace

class TestDialsModels : public QObject {
    Q_OBJECT
private slots:
    void readsEveryModel() {
        QTemporaryDir dir;
        const auto x = readAll(writeTemp(dir, "test.expt", wholeExperiment()));
        QCOMPARE(x.experimentCount, std::size_t(2));
        QCOMPARE(x.wavelength.value_or(0), 1.5e-10);
        // polarization normal dxtbx (0, 1, 0) is (0, 1, 0) here too
        QVERIFY(x.polarizationNormal && near(*x.polarizationNormal, {0, 1, 0}));
        QCOMPARE(x.polarizationFraction.value_or(0), 0.9);
        // the axis (1, 0, 0) turned by the setting rotation: (0, 1, 0), here (0, 1, 0)
        QVERIFY(x.goniometer && near(x.goniometer->axis, {0, 1, 0}));
        // S F A: a (10, 0, 0) -> (0, 10, 0) -> here (0, 10, 0); b (0, 20, 0) -> (-20, 0, 0)
        // -> here (0, 0, -20); c (0, 0, 30) stays, -> here (-30, 0, 0)
        QVERIFY(x.crystal);
        QVERIFY(near(x.crystal->a, {0, 10, 0}));
        QVERIFY(near(x.crystal->b, {0, 0, -20}));
        QVERIFY(near(x.crystal->c, {-30, 0, 0}));
        QCOMPARE(x.crystal->hallSymbol, std::string(" P 2 2"));
        QVERIFY(std::fabs(x.crystal->halfMosaicity.value_or(0) - 0.05 * kDegree) < 1e-15);
        QCOMPARE(x.crystal->domainSize.value_or(0), 1000.0);
        QVERIFY(!x.crystal->mosaicity);
        // images 3 to 12; image 5 starts at 10 + 2 x 0.5 = 11 degrees
        QVERIFY(x.scan);
        QCOMPARE(x.scan->firstImage, 3LL);
        QCOMPARE(x.scan->lastImage, 12LL);
        QVERIFY(std::fabs(x.scan->startOf(5) - 11.0 * kDegree) < 1e-15);
        QVERIFY(std::fabs(x.scan->width - 0.5 * kDegree) < 1e-15);
    }

    void theSecondExperiment() {
        // experiment 1 names beam 1 and crystal 1, and no goniometer or scan (a still)
        QTemporaryDir dir;
        const auto x = bv::io::readDialsExperiment(writeTemp(dir, "test.expt", wholeExperiment()),
                                                   1, bv::io::DialsModels::All);
        QCOMPARE(x.wavelength.value_or(0), 0.8e-10);
        QVERIFY(!x.polarizationFraction);
        QVERIFY(!x.goniometer && !x.scan);
        // no goniometer: the vectors as written, a (0, 40, 0) -> here (0, 40, 0)
        QVERIFY(x.crystal && near(x.crystal->a, {0, 40, 0}));
        QVERIFY(near(x.crystal->c, {40, 0, 0}));
        QVERIFY(std::fabs(x.crystal->mosaicity.value_or(0) - 0.2 * kDegree) < 1e-15);
    }

    void detectorReadingLeavesTheRest() {
        // -detector reads the detector and the beam: a broken crystal does not stop it
        QTemporaryDir dir;
        const auto x = bv::io::readDialsExperiment(
            writeTemp(dir, "test.expt",
                      wholeExperiment(R"("real_space_c": [0, 0, 30])", R"("real_space_c": [0, 0, 0])")));
        QCOMPARE(x.detector.panels.size(), std::size_t(1));
        QVERIFY(!x.crystal && !x.scan && !x.goniometer && !x.polarizationFraction);
    }

    void refusals_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("coplanar cell") << wholeExperiment(R"("real_space_c": [0, 0, 30])",
                                                          R"("real_space_c": [10, 20, 0])")
                                       << "test.expt: crystal[0]: real_space_a, _b and _c do not form a cell";
        QTest::newRow("not a rotation")
            << wholeExperiment(R"("setting_rotation": [0, -1, 0,)", R"("setting_rotation": [0, -2, 0,)")
            << "test.expt: goniometer[0].setting_rotation: not a rotation matrix (its columns are not orthonormal)";
        QTest::newRow("a reflection")
            << wholeExperiment(R"("fixed_rotation": [1, 0, 0,)", R"("fixed_rotation": [-1, 0, 0,)")
            << "test.expt: goniometer[0].fixed_rotation: not a rotation matrix (a reflection";
        QTest::newRow("eight numbers")
            << wholeExperiment(R"([1, 0, 0, 0, 1, 0, 0, 0, 1])", R"([1, 0, 0, 0, 1, 0, 0, 0])")
            << "test.expt: goniometer[0].fixed_rotation: expected 9 numbers";
        QTest::newRow("backwards scan") << wholeExperiment(R"([3, 12])", R"([12, 3])")
                                        << "test.expt: scan[0].image_range: the last image comes before the first";
        QTest::newRow("fraction over 1") << wholeExperiment(R"("polarization_fraction": 0.9)",
                                                            R"("polarization_fraction": 1.5)")
                                         << "test.expt: beam[0].polarization_fraction: expected a fraction from 0 to 1";
        QTest::newRow("multi-axis goniometer")
            << wholeExperiment(R"("rotation_axis": [1, 0, 0])", R"("axes": [[1, 0, 0]])")
            << "test.expt: goniometer[0]: a multi-axis goniometer";
        QTest::newRow("negative mosaicity")
            << wholeExperiment(R"("ML_half_mosaicity_deg": 0.05)", R"("ML_half_mosaicity_deg": -1)")
            << "test.expt: crystal[0].ML_half_mosaicity_deg: expected degrees from 0 to 90";
        QTest::newRow("names a missing crystal")
            << wholeExperiment(R"("scan": 0, "crystal": 0})", R"("scan": 0, "crystal": 5})")
            << "test.expt: crystal: experiment 0 names crystal 5, but the list has 2";
    }
    void refusals() {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        const QString got = refusalOf(readAll, "test.expt", text);
        QVERIFY2(got.contains(message), qPrintable(got.isEmpty() ? "no error" : got));
    }

    void noSuchExperiment() {
        QTemporaryDir dir;
        const std::string path = writeTemp(dir, "test.expt", wholeExperiment());
        const QString got = refusalOf(
            [](const std::string& p) {
                return bv::io::readDialsExperiment(p, 2, bv::io::DialsModels::All);
            },
            path);
        QVERIFY2(got.contains("no experiment 2: the list has 2 (counted from 0)"), qPrintable(got));
    }
};

QTEST_APPLESS_MAIN(TestDialsModels)
#include "tst_dialsmodels.moc"
