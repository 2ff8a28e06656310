// "Save as job file" (app/Session.h, sessionJobText) for nanoBragg's flat detector and for a
// detector of panels: the job names the files the detector can be written to (SMV holds one
// flat detector, so panels get the float image only) and runs headless, without a window, to
// the image of the session's command line.

#include "app/Session.h"
#include "compute/cli/CommandLine.h"
#include "compute/headless/Headless.h"
#include "compute/request/Job.h"
#include "compute/request/Inputs.h"

#include "tests/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sstream>

using namespace bv;

namespace {

using bv::testing::words;

using bv::testing::bytes;
using bv::testing::writeText;

int runHeadless(const std::vector<std::string>& args, std::string& err) {
    std::ostringstream out, errors;
    const int status = headless::runHeadless(args, out, errors);
    err = errors.str();
    return status;
}

} // namespace

class TestSessionJob : public QObject {
    Q_OBJECT
  private slots:
    void theSavedJobWritesWhatTheDetectorHolds_data() {
        QTest::addColumn<QString>("detector");
        QTest::addColumn<QStringList>("files"); // what the job writes
        QTest::newRow("flat") << "-detpixels 48"
                              << QStringList{"still_0001.bin", "still_0001.img",
                                             "still_noise_0001.img"};
        QTest::newRow("panels") << "-detector " BV_TEST_DATA "/detectors/two-panel.geom"
                                << QStringList{"still_0001.bin"};
    }
    void theSavedJobWritesWhatTheDetectorHolds() {
        QFETCH(QString, detector);
        QFETCH(QStringList, files);
        QTemporaryDir dir;
        const QString previous = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.path()));
        const QString args = "-cell 50 60 70 90 90 90 -misset 10 20 30 -N 3 -default_F 100 "
                             "-distance 80 -seed 4 -noprogress -precision fast " +
                             detector;
        app::Session session;
        session.commandLine = cli::parseCommandLine(words(args));
        std::ostringstream log;
        request::loadInputs(session.commandLine, log);
        session.precision = session.commandLine.precision;
        app::saveJob(dir.path() + "/still.json", session);

        std::string err;
        const int job = runHeadless({"--job", "still.json"}, err);
        QDir::setCurrent(previous);
        QVERIFY2(job == 0, err.c_str());
        QStringList written = QDir(dir.path()).entryList(QDir::Files);
        written.removeOne("still.json");
        QVERIFY(written.removeOne("still.manifest.jsonl")); // the job's (docs/series.md)
        QCOMPARE(written, files);

        QVERIFY(QDir::setCurrent(dir.path()));
        const int single = runHeadless(words(args + " -floatfile one.bin -nopgm -nonoise"), err);
        QDir::setCurrent(previous);
        QVERIFY2(single == 0, err.c_str());
        QVERIFY(!bytes(dir.path() + "/one.bin").isEmpty());
        QCOMPARE(bytes(dir.path() + "/still_0001.bin"), bytes(dir.path() + "/one.bin"));
    }
};

QTEST_APPLESS_MAIN(TestSessionJob)
#include "tst_sessionjob.moc"
