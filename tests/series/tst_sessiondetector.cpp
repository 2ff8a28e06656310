// A detector of panels in a viewer session (compute/request/SessionFile.h): a preset, a DIALS
// experiment list and a CrystFEL geometry come back panel for panel, bit for bit, with the
// options that move them; the session keeps the panels by value, so it draws the same
// detector when the file has moved; a session that only names its detector reads it as
// -detector does; and a bad entry is refused naming the session file, the line and the key.

#include "compute/cli/CommandLine.h"
#include "compute/core/Error.h"
#include "compute/headless/Summary.h"
#include "compute/request/SessionFile.h"
#include "compute/io/Json.h"
#include "compute/model/Resolve.h"
#include "compute/random/ReferenceRandom.h"

#include "tests/TestSupport.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <sstream>

using bv::RunRequest;

namespace {

using bv::testing::words;

const QString kDetectors = QStringLiteral(BV_TEST_DATA "/detectors/");
const QString kSmall = QStringLiteral(
    "-cell 50 60 70 90 90 90 -default_F 100 -distance 60 -lambda 1.2 -detpixels 48 -seed 3");

// parseSession, then loadSessionInputs (which reads a detector file named without its panels)
RunRequest read(const std::string& text, const std::string& directory = "") {
    RunRequest cl = bv::request::parseSession(bv::io::parseJson(text, "view.json"), directory);
    std::ostringstream log;
    bv::request::loadSessionInputs(cl, log);
    return cl;
}

std::string error(const std::string& text, const std::string& directory = "") {
    try {
        read(text, directory);
    } catch (const bv::Error& e) {
        return e.what();
    }
    return "no error";
}

bool sameBits(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}
bool sameBits(const glm::dvec3& a, const glm::dvec3& b) {
    return sameBits(a.x, b.x) && sameBits(a.y, b.y) && sameBits(a.z, b.z);
}
bool sameBits(const std::optional<double>& a, const std::optional<double>& b) {
    return a.has_value() == b.has_value() && (!a || sameBits(*a, *b));
}

// the first difference between two panel lists, field by field, or ""
QString panelDifference(const std::vector<bv::Panel>& a, const std::vector<bv::Panel>& b) {
    if (a.size() != b.size())
        return QStringLiteral("%1 panels, not %2").arg(b.size()).arg(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        const bv::Panel &p = a[i], &q = b[i];
        const QString at = QStringLiteral("panel %1: ").arg(i);
        if (p.name != q.name)
            return at + "name";
        if (!sameBits(p.origin, q.origin) || !sameBits(p.fast, q.fast) || !sameBits(p.slow, q.slow))
            return at + "origin or axes";
        if (!sameBits(p.pixelSizeFast, q.pixelSizeFast) ||
            !sameBits(p.pixelSizeSlow, q.pixelSizeSlow) || p.fastPixels != q.fastPixels ||
            p.slowPixels != q.slowPixels)
            return at + "pixels";
        if (!sameBits(p.thickness, q.thickness) || !sameBits(p.mu, q.mu) ||
            p.material != q.material)
            return at + "sensor";
    }
    return {};
}

// Two modules by hand, 10 x 20 pixels of 1 mm, 100 mm down the beam with a 4 mm gap (as
// tests/compute/model/TwoModules.h), the first with a silicon sensor: numbers whose text is
// known, for the refusals below.
RunRequest twoModules() {
    RunRequest cl = bv::cli::parseCommandLine(words(kSmall));
    bv::Panel a;
    a.name = "a";
    a.origin = {0.1, 0.01, -0.012};
    a.fast = {0, 0, 1};
    a.slow = {0, -1, 0};
    a.pixelSizeFast = a.pixelSizeSlow = 1e-3;
    a.fastPixels = 10;
    a.slowPixels = 20;
    a.thickness = 450e-6;
    a.mu = 3000.0;
    a.material = "Si";
    bv::Panel b = a;
    b.name = "b";
    b.origin = {0.1, 0.01, 0.002};
    b.thickness.reset();
    b.mu.reset();
    b.material.clear();
    cl.experiment.detector.panels = {a, b};
    cl.experiment.detector.panelsSource = "by hand";
    return cl;
}

// `text` with `from` replaced by `to` (once; the text must contain it)
std::string edited(std::string text, const QString& from, const QString& to) {
    const std::size_t at = text.find(from.toStdString());
    if (at == std::string::npos)
        qFatal("the session has no %s", qPrintable(from));
    return text.replace(at, from.toUtf8().size(), to.toStdString());
}

} // namespace

class TestSessionDetector : public QObject {
    Q_OBJECT
  private slots:
    // The printed summary describes a preset, not nanoBragg's default flat detector: the
    // PILATUS3 6M is 2463 x 2527 pixels of 172 um with its gaps (DECTRIS' data sheet), 60
    // modules, and with the beam through the image's centre (pixel 1231.5, 1263.5) the beam
    // falls between modules (the column of gaps of 7 pixels after 487 + 7 + 487 pixels: the
    // centre is at 1231.5, in the third module of 487 starting at 988, so it is on a module
    // along fast; along slow, 6 modules of 195 and 6 gaps of 17 end at 1272, so 1263.5 is in
    // the gap from 1255 to 1272). A flat run keeps the reference's lines (as
    // nanoBragg prints them for -detpixels 64).
    void theSummaryDescribesAPreset() {
        std::ostringstream quiet, text;
        bv::RunRequest cl = bv::cli::parseCommandLine(
            words("-detector pilatus3-6m -distance 200 -cell 100 100 100 90 90 90 -default_F 1"));
        bv::random::ReferenceRandom rng;
        const bv::ResolvedExperiment r = bv::resolve(cl.experiment, rng, quiet);
        bv::headless::printSummary(text, cl, r);
        const QString summary = QString::fromStdString(text.str());
        QVERIFY2(summary.contains("  distance=0.2 detector pilatus3-6m: 60 panels, 2463x2527 "
                                  "pixels with the gaps, pixel=0.000172 meters (stacked image "
                                  "487x11700 pixels)\n"),
                 qPrintable(summary));
        QVERIFY2(summary.contains("  direct beam at pixel 1231.50 1263.50 of the whole detector "
                                  "(fast slow), on no panel"),
                 qPrintable(summary));
        QVERIFY(!summary.contains("detsize=") && !summary.contains("Xbeam="));

        std::ostringstream flat;
        cl = bv::cli::parseCommandLine(words("-detpixels 64 -cell 100 100 100 90 90 90 -default_F 1"));
        bv::random::ReferenceRandom rng2;
        bv::headless::printSummary(flat, cl, bv::resolve(cl.experiment, rng2, quiet));
        QVERIFY2(flat.str().find("  distance=0.1 detsize=0.0064x0.0064  pixel=0.0001 meters "
                                 "(64x64 pixels)\n") != std::string::npos &&
                     flat.str().find("  Xbeam=0.00325 Ybeam=0.00325\n") != std::string::npos,
                 flat.str().c_str());
    }

    void panelsComeBackBitForBit_data() {
        QTest::addColumn<QString>("directory"); // the working directory of the command line
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("source"); // panelsSource as the session keeps it
        QTest::addColumn<int>("panels");
        const QString moved = QStringLiteral(" -detector_rotx 2 -detector_roty -1 -twotheta 12");
        QTest::newRow("preset") << "" << kSmall + " -detector eiger2-4m" + moved << "eiger2-4m"
                                << 8; // 2 x 4 modules
        QTest::newRow("DIALS, placed by the file")
            << ""
            << "-cell 50 60 70 -default_F 1 -detector " + kDetectors + "four-module-tilted.expt"
            << kDetectors + "four-module-tilted.expt" << 4;
        // a relative name comes back absolute, as the session's other files
        QTest::newRow("CrystFEL, named relative")
            << kDetectors << kSmall + " -detector two-panel.geom" + moved
            << kDetectors + "two-panel.geom" << 2;
    }
    void panelsComeBackBitForBit() {
        QFETCH(QString, directory);
        QFETCH(QString, args);
        QFETCH(QString, source);
        QFETCH(int, panels);
        const QString previous = QDir::currentPath();
        if (!directory.isEmpty())
            QVERIFY(QDir::setCurrent(directory));
        // a relative name is the working directory's, there when the session is written
        const RunRequest original = bv::cli::parseCommandLine(words(args));
        const std::string text = bv::request::sessionText(original);
        QDir::setCurrent(previous);
        const bv::Detector& d = original.experiment.detector;
        QCOMPARE(int(d.panels.size()), panels);

        // version 2: a braggview before the panels refuses it rather than draw a flat detector
        QCOMPARE(bv::io::parseJson(text, "view.json").root()["version"].get<int>(), 2);
        const RunRequest back = read(text, "/elsewhere");
        const bv::Detector& e = back.experiment.detector;
        const QString difference = panelDifference(d.panels, e.panels);
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
        QCOMPARE(QString::fromStdString(e.panelsSource), QDir::cleanPath(source));
        QCOMPARE(e.distanceStated, d.distanceStated);
        QVERIFY(sameBits(e.distance, d.distance) && sameBits(e.rotX, d.rotX) &&
                sameBits(e.rotY, d.rotY) && sameBits(e.twotheta, d.twotheta));

        // and so the detector is placed where the command line places it, bit for bit
        bv::random::ReferenceRandom rng1, rng2;
        std::ostringstream quiet;
        const bv::ResolvedExperiment r1 = bv::resolve(original.experiment, rng1, quiet);
        const bv::ResolvedExperiment r2 = bv::resolve(back.experiment, rng2, quiet);
        QCOMPARE(r2.panels.size(), r1.panels.size());
        for (std::size_t i = 0; i < r1.panels.size(); ++i)
            QVERIFY(sameBits(r2.panels[i].pix0, r1.panels[i].pix0) &&
                    sameBits(r2.panels[i].fdet, r1.panels[i].fdet) &&
                    sameBits(r2.panels[i].sdet, r1.panels[i].sdet));
    }

    void aFlatDetectorIsStillVersionOne() {
        // which every braggview reads; it has no panels, and its -distance is as stated
        const RunRequest flat = bv::cli::parseCommandLine(words(kSmall));
        const std::string text = bv::request::sessionText(flat);
        const bv::io::JsonDocument doc = bv::io::parseJson(text, "view.json");
        QCOMPARE(doc.root()["version"].get<int>(), 1);
        QVERIFY(doc.root()["experiment"]["detector"]["panels"].is_null());
        const RunRequest back = read(text);
        QVERIFY(back.experiment.detector.panels.empty());
        QVERIFY(back.experiment.detector.panelsSource.empty());
        QVERIFY(back.experiment.detector.distanceStated);
        // a name left without panels is not written: it would bring them back
        RunRequest stale = flat;
        stale.experiment.detector.panelsSource = "eiger2-4m";
        QVERIFY(read(bv::request::sessionText(stale)).experiment.detector.panels.empty());
    }

    void theSessionKeepsThePanelsWhenTheFileIsGone() {
        QTemporaryDir dir;
        const QString file = dir.path() + "/tilted.expt";
        QVERIFY(QFile::copy(kDetectors + "four-module-tilted.expt", file));
        const RunRequest original =
            bv::cli::parseCommandLine(words("-cell 50 60 70 -default_F 1 -detector " + file));
        const std::string text = bv::request::sessionText(original);
        QVERIFY(QFile::remove(file));
        const RunRequest back = read(text);
        const QString difference =
            panelDifference(original.experiment.detector.panels, back.experiment.detector.panels);
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
        QCOMPARE(QString::fromStdString(back.experiment.detector.panelsSource), file);
    }

    // A session written by hand may name its detector and leave the list out (null): the
    // preset or the file (relative to the session's directory) is read as -detector reads it.
    void aNameWithoutTheListIsRead_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("option"); // -detector's value for the same detector
        QTest::addColumn<QString>("source");
        QTest::newRow("preset") << "eiger2-4m"
                                << "eiger2-4m"
                                << "eiger2-4m";
        QTest::newRow("file beside the session")
            << "two-panel.geom" << kDetectors + "two-panel.geom" << kDetectors + "two-panel.geom";
        QTest::newRow("absolute file")
            << kDetectors + "four-module-tilted.expt" << kDetectors + "four-module-tilted.expt"
            << kDetectors + "four-module-tilted.expt";
    }
    void aNameWithoutTheListIsRead() {
        QFETCH(QString, name);
        QFETCH(QString, option);
        QFETCH(QString, source);
        const std::string text =
            edited(bv::request::sessionText(bv::cli::parseCommandLine(words(kSmall))),
                   "\"panelsSource\": \"\"", "\"panelsSource\": \"" + name + "\"");
        // the session in tests/data/detectors
        const RunRequest back = read(text, QDir::cleanPath(kDetectors).toStdString());
        const RunRequest given = bv::cli::parseCommandLine(words(kSmall + " -detector " + option));
        const QString difference =
            panelDifference(given.experiment.detector.panels, back.experiment.detector.panels);
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
        QCOMPARE(QDir::cleanPath(QString::fromStdString(back.experiment.detector.panelsSource)),
                 QDir::cleanPath(source));
    }

    void aBadDetectorNamesFileLineAndKey_data() {
        QTest::addColumn<bool>("panels"); // edit the two modules' session, else a flat one
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("message"); // a regular expression
        const QString at = QStringLiteral("^view\\.json:\\d+:\\d+: experiment\\.detector\\.");
        const QString preset = QStringLiteral(
            "panelsSource: expected a detector preset \\(-detector list shows them\\) or a "
            "\\.expt, \\.json or \\.geom file, got ");
        QTest::newRow("unknown preset")
            << false << "\"panelsSource\": \"\""
            << "\"panelsSource\": \"eiger9\"" << at + preset + "'eiger9'$";
        QTest::newRow("a file of no known kind")
            << false << "\"panelsSource\": \"\""
            << "\"panelsSource\": \"det.txt\"" << at + preset + "'det\\.txt'$";
        // read with the session's other files (loadSessionInputs, whose messages readSession
        // begins with the session's name), relative to its directory (/views here)
        QTest::newRow("missing file")
            << false << "\"panelsSource\": \"\""
            << "\"panelsSource\": \"det.geom\""
            << "^experiment\\.detector\\.panelsSource: cannot read CrystFEL geometry file "
               "'/views/det\\.geom'";
        QTest::newRow("panels not a list")
            << true << "\"panels\": ["
            << "\"panels\": 5, \"was\": ["
            << at + "panels: expected an array of panels, or null for none, got 5$";
        QTest::newRow("no panels")
            << true << "\"panels\": ["
            << "\"panels\": [], \"was\": ["
            << at + "panels: expected an array of panels, or null for none, got an array$";
        QTest::newRow("a panel not an object")
            << true << "\"panels\": ["
            << "\"panels\": [7, " << at + "panels\\[0\\]: expected an object, got 7$";
        QTest::newRow("a zero axis")
            << true << "\"fast\": [0, 0, 1]"
            << "\"fast\": [0, 0, 0]" << at + "panels\\[0\\]: the fast axis is zero$";
        QTest::newRow("an axis not of unit length")
            << true << "\"slow\": [0, -1, 0]"
            << "\"slow\": [0, -2, 0]"
            << at + "panels\\[0\\]: the slow axis is not a unit vector \\(length 2\\.0+\\)$";
        QTest::newRow("no pixels")
            << true << "\"fastPixels\": 10"
            << "\"fastPixels\": 0"
            << at + "panels\\[0\\]\\.fastPixels: expected a whole number from 1 to 32768, got 0$";
        QTest::newRow("a member missing") << true << "\"mu\": 3000,"
                                          << "" << at + "panels\\[0\\]: \"mu\" is missing$";
        QTest::newRow("two of one name")
            << true << "\"name\": \"b\""
            << "\"name\": \"a\"" << at + "panels: two panels are named 'a'$";
        QTest::newRow("overlapping panels")
            << true << "[0.1, 0.01, 0.002]"
            << "[0.1, 0.01, -0.008]" << at + "panels: panels 'a' and 'b' overlap";
    }
    void aBadDetectorNamesFileLineAndKey() {
        QFETCH(bool, panels);
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, message);
        const std::string text = bv::request::sessionText(
            panels ? twoModules() : bv::cli::parseCommandLine(words(kSmall)));
        QVERIFY2(read(text).experiment.detector.panels.size() == (panels ? 2u : 0u),
                 "the session as written reads");
        const QString what = QString::fromStdString(error(edited(text, from, to), "/views"));
        QVERIFY2(QRegularExpression(message).match(what).hasMatch(), qPrintable(what));
    }
};

QTEST_APPLESS_MAIN(TestSessionDetector)
#include "tst_sessiondetector.moc"
