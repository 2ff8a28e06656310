// Job files and sessions with a detector of panels, end to end on the Vulkan driver (lavapipe
// here and in CI): -detector in a job's base and a frame that changes it (another image size
// in the same run), a job on a session that carries the detector rendering the command line's
// image byte for byte, also when the detector's file has gone, and bad detector entries that
// stop the job before it writes anything.

#include "compute/cli/CommandLine.h"
#include "compute/request/Inputs.h"
#include "compute/headless/Batch.h"
#include "compute/request/SessionFile.h"
#include "tests/engine/HeadlessRun.h"

#include "tests/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sstream>

namespace {

using bv::testing::words;

using bv::testing::bytes;
using bv::testing::writeText;

const QString kDetectors = QStringLiteral(BV_TEST_DATA "/detectors/");

// a small crystal; the detectors are the test data's (two 100 x 50 panels; four 200 x 200
// modules), each frame a few milliseconds on lavapipe
const QString kCrystal = QStringLiteral("-cell 50 60 70 90 90 90 -misset 10 20 30 -lambda 1.0 "
                                        "-N 3 -default_F 100 -noprogress");

using Run = bv::testing::HeadlessRun;
Run headless(const QString& args) {
    return bv::testing::runHeadless(words(args));
}

QStringList filesHere() {
    return QDir().entryList(QDir::Files);
}

} // namespace

class TestJobDetector : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir m_dir;
    QString m_previous;

  private slots:
    void init() {
        QVERIFY(m_dir.isValid());
        m_previous = QDir::currentPath();
        QDir(m_dir.path()).removeRecursively();
        QDir().mkpath(m_dir.path());
        QVERIFY(QDir::setCurrent(m_dir.path()));
        // the detectors beside the job's working directory, named relative to it
        QVERIFY(QDir().mkpath("detectors"));
        for (const char* name : {"two-panel.geom", "four-module-tilted.expt"})
            QVERIFY(QFile::copy(kDetectors + name, QString("detectors/") + name));
    }
    void cleanup() { QDir::setCurrent(m_previous); }

    // The base names a detector, frame 2 another (a larger image: the Simulator takes the
    // new size), frame 3 the base's again, moved. A detector file in a job is relative to
    // the working directory, as on the command line, not to the job file's directory.
    void aFrameMayChangeTheDetector() {
        QVERIFY(QDir().mkpath("jobs"));
        writeText("jobs/job.json",
                  "{\"base\": \"" + kCrystal.toUtf8() +
                      " -seed 3 -detector detectors/two-panel.geom -floatfile f_#.bin\",\n"
                      " \"frames\": [{}, {\"-detector\": \"detectors/four-module-tilted.expt\"},\n"
                      "            {\"-distance\": 120}]}");
        const Run job = headless("--job jobs/job.json");
        QVERIFY2(job.status == 0, job.err.c_str());
        // the stacked images: 2 panels of 100 x 50, then 4 modules of 200 x 200, as floats
        QCOMPARE(bytes("f_1.bin").size(), 100 * 100 * 4);
        QCOMPARE(bytes("f_2.bin").size(), 200 * 800 * 4);
        QCOMPARE(bytes("f_3.bin").size(), 100 * 100 * 4);

        // each frame is the single run of its command line (seed: the base's + i)
        const QString one = kCrystal + " -nopgm -detector detectors/";
        const Run r1 = headless(one + "two-panel.geom -seed 3 -floatfile one.bin");
        const Run r2 = headless(one + "four-module-tilted.expt -seed 4 -floatfile two.bin");
        const Run r3 = headless(one + "two-panel.geom -distance 120 -seed 5 -floatfile three.bin");
        QVERIFY2(r1.status == 0 && r2.status == 0 && r3.status == 0,
                 (r1.err + r2.err + r3.err).c_str());
        QCOMPARE(bytes("f_1.bin"), bytes("one.bin"));
        QCOMPARE(bytes("f_2.bin"), bytes("two.bin"));
        QCOMPARE(bytes("f_3.bin"), bytes("three.bin"));
        QVERIFY(bytes("f_1.bin") != bytes("f_3.bin")); // -distance moved the panels
    }

    // A session saved from a command line with -detector and the options that move it is
    // that command line: a job on it renders its image byte for byte, and a frame's -detector
    // overrides the session's as it would the command line's.
    void aJobOnASessionWithPanelsIsTheHeadlessRun_data() {
        QTest::addColumn<QString>("precision");
        QTest::newRow("precise") << "precise";
        QTest::newRow("fast") << "fast";
    }
    void aJobOnASessionWithPanelsIsTheHeadlessRun() {
        QFETCH(QString, precision);
        const QString args = kCrystal +
                             " -seed 5 -detector detectors/four-module-tilted.expt "
                             "-distance 150 -detector_rotx 3 -twotheta 5 -precision " +
                             precision;
        bv::RunRequest cl = bv::cli::parseCommandLine(words(args));
        std::ostringstream log;
        bv::request::loadInputs(cl, log);
        QVERIFY(QDir().mkpath("views"));
        writeText("views/view.json", QByteArray::fromStdString(bv::request::sessionText(cl)));
        writeText("job.json",
                  "{\"session\": \"views/view.json\", \"base\": \"-floatfile s_#.bin\",\n"
                  " \"frames\": [{}, {\"-detector\": \"detectors/two-panel.geom\"}]}");

        const Run one = headless(args + " -floatfile one.bin -nopgm");
        const Run two = headless(args + " -detector detectors/two-panel.geom -seed 6 "
                                        "-floatfile two.bin -nopgm");
        QVERIFY2(one.status == 0 && two.status == 0, (one.err + two.err).c_str());
        // the session holds the panels themselves: the job needs the .expt no more
        QVERIFY(QFile::remove("detectors/four-module-tilted.expt"));
        const Run job = headless("--job job.json");
        QVERIFY2(job.status == 0, job.err.c_str());
        QCOMPARE(bytes("s_1.bin").size(), 200 * 800 * 4);
        QCOMPARE(bytes("s_1.bin"), bytes("one.bin"));
        QCOMPARE(bytes("s_2.bin"), bytes("two.bin"));
    }

    void aBadDetectorWritesNothing_data() {
        QTest::addColumn<QByteArray>("job");
        QTest::addColumn<QByteArray>("session"); // views/view.json's edit: from, to
        QTest::addColumn<QString>("message");
        const QByteArray base = "{\"base\": \"" + kCrystal.toUtf8() + " -floatfile f_#.bin";
        QTest::newRow("a missing file in a frame")
            << QByteArray(base + "\", \"frames\": [{}, {\"-detector\": \"nowhere.geom\"}]}")
            << QByteArray()
            << "frame 2: -detector nowhere.geom: cannot read CrystFEL geometry file 'nowhere.geom'";
        QTest::newRow("an unknown preset in the base")
            << QByteArray(base + " -detector eiger9\", \"frames\": 1}") << QByteArray()
            << "job.json: base: -detector eiger9: not a preset";
        QTest::newRow("an SMV file of panels")
            << QByteArray(base + " -detector detectors/two-panel.geom\", \"frames\": "
                                 "[{\"-noisefile\": \"n_#.img\"}]}")
            << QByteArray() << "frame 1: -noisefile: a detector of several panels";
        // checked with the command lines, before frame 1 is written
        QTest::newRow("a frame that cannot place the panels")
            << QByteArray(base + " -detector detectors/two-panel.geom\", \"frames\": "
                                 "[{}, {\"-Xbeam\": 20}]}")
            << QByteArray() << "frame 2: -Xbeam/-Ybeam: a detector of several panels";
        QTest::newRow("an output over the detector file")
            << QByteArray(base + " -detector detectors/two-panel.geom\", \"frames\": "
                                 "[{\"-floatfile\": \"detectors/two-panel.geom\"}]}")
            << QByteArray()
            << "-floatfile detectors/two-panel.geom (frame 1) is the same file as the -detector";
        QTest::newRow("an unknown preset in the session")
            << QByteArray("{\"session\": \"views/view.json\", \"base\": \"-floatfile f_#.bin\", "
                          "\"frames\": 1}")
            << QByteArray("\"panelsSource\": \"\"|\"panelsSource\": \"eiger9\"")
            << "job.json: \"session\": views/view.json:";
        QTest::newRow("the key of the session's bad entry")
            << QByteArray("{\"session\": \"views/view.json\", \"base\": \"-floatfile f_#.bin\", "
                          "\"frames\": 1}")
            << QByteArray("\"panelsSource\": \"\"|\"panelsSource\": \"eiger9\"")
            << ": experiment.detector.panelsSource: expected a detector preset";
        // a file the session names without its panels: relative to the session, read when
        // the job starts
        QTest::newRow("a missing file in the session")
            << QByteArray("{\"session\": \"views/view.json\", \"base\": \"-floatfile f_#.bin\", "
                          "\"frames\": 1}")
            << QByteArray("\"panelsSource\": \"\"|\"panelsSource\": \"det.geom\"")
            << "job.json: \"session\": views/view.json: experiment.detector.panelsSource: cannot "
               "read CrystFEL geometry file 'views/det.geom'";
    }
    void aBadDetectorWritesNothing() {
        QFETCH(QByteArray, job);
        QFETCH(QByteArray, session);
        QFETCH(QString, message);
        QVERIFY(QDir().mkpath("views"));
        QString text = QString::fromStdString(
            bv::request::sessionText(bv::cli::parseCommandLine(words(kCrystal))));
        if (!session.isEmpty()) {
            const QList<QByteArray> edit = session.split('|');
            QVERIFY2(text.contains(edit[0]), edit[0].constData());
            text.replace(edit[0], edit[1]);
        }
        writeText("views/view.json", text.toUtf8());
        writeText("job.json", job);
        const Run r = headless("--job job.json");
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.find(message.toStdString()) != std::string::npos, r.err.c_str());
        QCOMPARE(filesHere(), QStringList{"job.json"});
        QCOMPARE(QDir("detectors").entryList(QDir::Files),
                 (QStringList{"four-module-tilted.expt", "two-panel.geom"}));
    }
};

QTEST_APPLESS_MAIN(TestJobDetector)
#include "tst_jobdetector.moc"
