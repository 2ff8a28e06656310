// -detector: "list" prints the presets and stops; a preset or a file becomes the detector's
// panels, which refuse the files of one flat detector (SMV, CBF) and take NeXus.

#include "compute/cli/CommandLine.h"
#include "compute/core/Error.h"
#include "compute/request/Parameters.h"

#include <QTest>

class TestDetectorOption : public QObject {
    Q_OBJECT
private slots:
    void listAsksForTheList() {
        const bv::RunRequest cl = bv::cli::parseCommandLine({"-detector", "list"});
        QVERIFY(cl.listDetectors);
        QVERIFY(!bv::cli::parseCommandLine({"-cell", "100"}).listDetectors);
    }

    void listShowsEveryPresetWithItsSize() {
        const QString text = QString::fromStdString(bv::cli::detectorListText());
        // typed from the sources DetectorPresets.cpp cites; mm = pixels x pixel size by hand
        // (4148 x 0.075 = 311.10, 4362 x 0.075 = 327.15, 2463 x 0.172 = 423.636)
        QVERIFY2(text.contains(QRegularExpression(
                     "eiger2-16m +DECTRIS EIGER2 X 16M +4x8 +4148x4362 +75 um +311\\.10 x 327\\.15")),
                 qPrintable(text));
        QVERIFY(text.contains(QRegularExpression("eiger2-4m .* 2x4 +2068x2162 +75 um +155\\.10 x 162\\.15")));
        QVERIFY(text.contains(QRegularExpression("pilatus3-6m .* 5x12 +2463x2527 +172 um +423\\.64 x 434\\.64")));
        QVERIFY(text.contains(QRegularExpression("jungfrau-4m .* 2x4 +2068x2164 +75 um +155\\.10 x 162\\.30")));
        QVERIFY(text.contains(QRegularExpression("epix10k-2m .* 4x4 .*gaps not published")));
        // where the beam falls by default, worked by hand in tests/compute/model/tst_panelaim
        QVERIFY2(text.contains(QRegularExpression(
                     "pilatus3-6m +pixel \\(1231\\.5, 1263\\.5\\), in a gap between modules")),
                 qPrintable(text));
        QVERIFY(text.contains(QRegularExpression(
            "eiger2-16m +pixel \\(2074\\.0, 2181\\.0\\), in a gap between modules")));
    }

    // A preset's name in any case; the request keeps the list's spelling.
    void presetNamesInAnyCase() {
        const bv::RunRequest cl = bv::cli::parseCommandLine({"-detector", "Pilatus3-6M"});
        QCOMPARE(cl.experiment.detector.panelsSource, std::string("pilatus3-6m"));
        QCOMPARE(int(cl.experiment.detector.panels.size()), 60); // 5 x 12 modules
    }

    // A preset's beam centre is part of the request, and its words state it again (the
    // viewer's "copy headless command", Python's sim.command).
    void aPresetsBeamCentreReadsBack() {
        const bv::RunRequest cl = bv::cli::parseCommandLine(
            {"-cell", "100", "-detector", "pilatus3-6m", "-Xbeam", "210", "-Ybeam", "220"});
        QCOMPARE(*cl.experiment.detector.beamX, 0.210);
        const bv::RunRequest again = bv::cli::parseCommandLine(bv::request::commandWords(cl));
        QCOMPARE(again.experiment.detector.panelsSource, std::string("pilatus3-6m"));
        QCOMPARE(*again.experiment.detector.beamX, 0.210);
        QCOMPARE(*again.experiment.detector.beamY, 0.220);
    }

    // A preset becomes its modules, facing the beam; an unknown word is refused; a panel
    // detector refuses the single-detector files it cannot fill.
    void aPresetIsItsModules() {
        const bv::RunRequest cl = bv::cli::parseCommandLine(
            {"-cell", "100", "100", "100", "90", "90", "90", "-detector", "eiger2-4m"});
        QCOMPARE(int(cl.experiment.detector.panels.size()), 8); // 2 x 4 modules
        QCOMPARE(cl.experiment.detector.panels[0].fastPixels, 1028);
        QCOMPARE(cl.experiment.detector.panelsSource, std::string("eiger2-4m"));
        QVERIFY(!cl.outputs.writeNoise && cl.outputs.intFile.empty()); // SMV: one flat detector
        QVERIFY(cl.outputs.countPhotons); // but a NeXus file would hold photon counts
    }
    // NeXus holds the panels, one module each: counts, or the floats with -nonoise.
    void takesNexus_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("counts");
        QTest::newRow("counts") << QStringList{"-nexusfile", "d.h5"} << true;
        QTest::newRow("-nonoise") << QStringList{"-nonoise", "-nexusfile", "d.h5"} << false;
    }
    void takesNexus() {
        QFETCH(QStringList, args);
        QFETCH(bool, counts);
        std::vector<std::string> words{"-cell", "100", "100",       "100",      "90",
                                       "90",    "90",  "-detector", "eiger2-4m"};
        for (const QString& a : args)
            words.push_back(a.toStdString());
        const bv::RunRequest cl = bv::cli::parseCommandLine(words);
        QVERIFY(cl.outputs.writeNexus);
        QCOMPARE(cl.outputs.nexusFile, std::string("d.h5"));
        QCOMPARE(cl.outputs.countPhotons, counts);
        QVERIFY(!cl.outputs.writeNoise); // never the SMV noise image
    }
    void refusesWhatItCannotTake_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown") << QStringList{"-detector", "eiger9000"}
                                 << "-detector eiger9000: not a preset (-detector list shows them)";
        QTest::newRow("a typo") << QStringList{"-detector", "pilatus6m"}
                                << "-detector pilatus6m: not a preset (did you mean pilatus3-6m? "
                                   "-detector list shows them)";
        QTest::newRow("a beginning") << QStringList{"-detector", "EIGER2"}
                                     << "did you mean eiger2-16m or eiger2-4m?";
        QTest::newRow("an SMV file") << QStringList{"-detector", "eiger2-4m", "-intfile", "i.img"}
                                     << "-intfile: a detector of several panels (-detector eiger2-4m)";
        QTest::newRow("a noise image")
            << QStringList{"-detector", "eiger2-4m", "-noisefile", "n.img"}
            << "SMV and CBF files of one flat detector cannot hold it";
        QTest::newRow("a CBF") << QStringList{"-detector", "eiger2-4m", "-cbffile", "c.cbf"}
                               << "-cbffile: a detector of several panels (-detector eiger2-4m) is "
                                  "written as -nexusfile";
        QTest::newRow("a missing file") << QStringList{"-detector", "nowhere.geom"} << "nowhere.geom";
    }
    void refusesWhatItCannotTake() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        std::vector<std::string> words;
        for (const QString& a : args)
            words.push_back(a.toStdString());
        try {
            bv::cli::parseCommandLine(words);
            QFAIL("accepted");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestDetectorOption)
#include "tst_detectoroption.moc"
