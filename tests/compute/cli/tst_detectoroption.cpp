// -detector: "list" prints the presets and stops; any other value says that multi-panel
// simulation is not there yet, naming whether the value is a known preset.

#include "compute/cli/CommandLine.h"
#include "compute/core/Error.h"

#include <QtTest>

class TestDetectorOption : public QObject {
    Q_OBJECT
private slots:
    void listAsksForTheList() {
        const bv::cli::CommandLine cl = bv::cli::parseCommandLine({"-detector", "list"});
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
    }

    void anyOtherValueIsNotAvailableYet_data() {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("preset") << "eiger2-16m" << "-detector eiger2-16m (a known preset): multi-panel simulation is not available yet";
        QTest::newRow("unknown") << "eiger9000" << "-detector eiger9000 (not a preset; -detector list shows them): multi-panel";
    }
    void anyOtherValueIsNotAvailableYet() {
        QFETCH(QString, value);
        QFETCH(QString, message);
        try {
            bv::cli::parseCommandLine({"-detector", value.toStdString()});
            QFAIL("accepted");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestDetectorOption)
#include "tst_detectoroption.moc"
