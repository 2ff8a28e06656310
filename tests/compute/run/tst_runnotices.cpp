// What a front end says before a run (compute/run/RunNotices.h, the plausible ranges of
// compute/model/PhysicalLimits.h): a value in the wrong unit is named with the value it
// probably meant, and a long run's cost with the loops and the values that made it, worked
// out by hand below. No device: the rate is given.

#include "compute/cli/CommandLine.h"
#include "compute/model/PhysicalLimits.h"
#include "compute/run/RunNotices.h"

#include "tests/TestSupport.h"

#include <QTest>

#include <cmath>

using bv::Quantity;

namespace {

QString slip(Quantity q, double value) {
    const auto s = bv::unitSlip(q, value);
    return s ? QString::fromStdString(*s) : QString("plausible");
}

bv::run::PreparedRun prepared(const QString& args) {
    return bv::run::prepareQuietly(
        bv::cli::parseCommandLine(bv::testing::words("-cell 100 100 100 90 90 90 -default_F 1 " + args))
            .experiment);
}

} // namespace

class TestRunNotices : public QObject {
    Q_OBJECT
  private slots:
    void unitSlips_data() {
        QTest::addColumn<int>("quantity");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("said");
        const int length = int(Quantity::DetectorLength), pixel = int(Quantity::PixelSize),
                  energy = int(Quantity::PhotonEnergy), wavelength = int(Quantity::Wavelength);
        QTest::newRow("0.1 mm") << length << 0.1
                                << "under 1 mm: metres typed as mm? (0.1 m is 100 mm)";
        QTest::newRow("1 mm") << length << 1.0 << "plausible";
        QTest::newRow("0: no distance") << length << 0.0 << "plausible";
        QTest::newRow("172 mm pixel")
            << pixel << 172.0 << "over 10 mm: micrometres typed as mm? (172 um is 0.172 mm)";
        QTest::newRow("0.172 mm pixel") << pixel << 0.172 << "plausible";
        QTest::newRow("12.4 eV") << energy << 12.4
                                 << "under 100 eV: keV typed as eV? (12.4 keV is 12400 eV)";
        QTest::newRow("12400 eV") << energy << 12400.0 << "plausible";
        // -energy 12.4 is lambda = 12398.42 / 12.4 = 999.87 A; 12.4 keV is 0.999873 A
        QTest::newRow("1000 A") << wavelength << 999.873
                                << "over 123.984 A (a photon energy under 100 eV: 12.4 eV): an "
                                   "energy in keV given as eV? (12.4 keV is 0.999873 A)";
        QTest::newRow("1 A") << wavelength << 1.0 << "plausible";
    }
    void unitSlips() {
        QFETCH(int, quantity);
        QFETCH(double, value);
        QFETCH(QString, said);
        QCOMPARE(slip(Quantity(quantity), value), said);
    }

    // The issue's -distance 0.1 on nanoBragg's default 1024 x 1024 detector: the oversampling
    // 3 x 100 A / (1 A x 0.1 mm / 0.1 mm) = 300, so 300^2 = 90000 steps a pixel, 9.44e10
    // steps, at 4e4 steps/ms 2.36e6 ms = 39.3 min.
    void aLongRunSaysItsCostAndWhy() {
        const bv::run::PreparedRun run = prepared("-distance 0.1");
        const std::vector<std::string> slips = bv::run::unitSlips(run.resolved);
        QCOMPARE(slips.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(slips[0]),
                 QString("the detector distance 0.1 mm is under 1 mm: metres typed as mm? (0.1 m "
                         "is 100 mm)"));
        const auto notice = bv::run::costNotice(run.resolved, run.plan, 4e4, "a CPU");
        QVERIFY(notice);
        const QString n = QString::fromStdString(*notice);
        QVERIFY2(n.startsWith("this run will take at least about 39.3 min on a CPU: 1048576 "
                              "pixels x 90000 steps each, at 4e+04 steps/ms"),
                 qPrintable(n));
        QVERIFY2(n.contains("300 x 300 sub-pixels (the oversampling the crystal asks for: 3 x "
                            "its size 100 A / (wavelength 1 A x distance 0.1 mm / pixel 0.1 mm)"),
                 qPrintable(n));
        // at an H100's rate the same run takes 9.44e10 / 1.5e8 = 629 ms: nothing to say
        QVERIFY(!bv::run::costNotice(run.resolved, run.plan, 1.5e8, "a GPU"));
    }

    // -distance 100: one sub-pixel, 1048576 steps, 26 ms at 4e4 steps/ms: nothing to say
    void aShortRunSaysNothing() {
        const bv::run::PreparedRun run = prepared("-distance 100");
        QVERIFY(bv::run::unitSlips(run.resolved).empty());
        QVERIFY(!bv::run::costNotice(run.resolved, run.plan, 4e4, "a CPU"));
    }

    // the loops a pixel's steps come from, each named when it is more than one
    void stepsNameTheirLoops() {
        const bv::run::PreparedRun run =
            prepared("-distance 100 -detpixels 16 -oversample 2 -phisteps 3 -osc 1 -mosaic 0.5 "
                     "-mosaic_dom 4");
        QCOMPARE(QString::fromStdString(bv::run::stepsReason(run.resolved, run.plan)),
                 QString("2 x 2 sub-pixels x 12 orientations (3 phi steps x 4 mosaic domains)"));
    }

    // a CPU's figure is per core; any GPU's is above it, and fast precision is not slower
    void assumedRates() {
        bv::vk::DeviceInfo cpu, gpu;
        cpu.type = VK_PHYSICAL_DEVICE_TYPE_CPU;
        gpu.type = VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
        using bv::run::assumedStepsPerMillisecond;
        QVERIFY(assumedStepsPerMillisecond(gpu, bv::Precision::Precise) >
                assumedStepsPerMillisecond(cpu, bv::Precision::Fast));
        for (const auto& device : {cpu, gpu})
            QVERIFY(assumedStepsPerMillisecond(device, bv::Precision::Fast) >=
                    assumedStepsPerMillisecond(device, bv::Precision::Precise));
    }

    // N x h_max by hand: a 200 mm detector of 1 mm pixels 100 mm from the sample, the beam
    // at its centre, so its corners are sqrt(2) x 100 mm off the beam: 2 theta =
    // atan(141.4 / 100) = 54.74 deg, |S| = 2 sin(27.37 deg) / 1 A = 0.9194 / A; with a 100 A
    // cell the detector reaches h = 91.9, and 5 cells make 459.7 (the half pixel of MOSFLM's
    // beam centre moves it by 0.2 %).
    void latticeReachByHand() {
        const auto p = prepared("-lambda 1 -N 5 -detpixels 200 -pixel 1 -distance 100");
        const bv::run::LatticeReach reach = bv::run::latticeReach(p.resolved);
        QCOMPARE(reach.cells, 5.0);
        QVERIFY(std::abs(reach.sharpness() / 459.7 - 1.0) < 0.01);
    }

    // The fast notice: 100 cells of 100 A on a 12.8 mm detector 100 mm away at 1 A (corners
    // 9.05 mm off the beam) are N h = 100 x 100 x 2 sin(atan(9.05 / 100) / 2) = 902, over the
    // limit of 700 (docs/numerics/precision-modes.md, "Sharp spots in fast precision"); 5
    // cells on a 1024-pixel detector are 5 x 100 x 0.616 = 308, inside; precise never warns.
    void fastLatticeNotice() {
        const QString sharp = "-lambda 1 -N 100 -detpixels 128 -pixel 0.1 -distance 100";
        const auto notice = bv::run::fastLatticeNotice(prepared(sharp).resolved, bv::Precision::Fast);
        QVERIFY(notice);
        QVERIFY2(notice->find("fast precision: spots of 100 cells") == 0, notice->c_str());
        QVERIFY(notice->find("-precision precise") != std::string::npos);
        QVERIFY(!bv::run::fastLatticeNotice(prepared(sharp).resolved, bv::Precision::Precise));
        QVERIFY(!bv::run::fastLatticeNotice(
            prepared("-lambda 1 -N 5 -detpixels 1024 -pixel 0.1 -distance 100").resolved,
            bv::Precision::Fast));
    }
};

QTEST_GUILESS_MAIN(TestRunNotices)
#include "tst_runnotices.moc"
