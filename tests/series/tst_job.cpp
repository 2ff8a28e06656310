// Job files read into command lines: the three forms of "base", option values of every JSON
// kind, frame counts, and errors that name the file, line and column; the writer's text reads
// back to the same job. Also the progress bar's text.

#include "compute/cli/CommandLine.h"
#include "compute/request/Job.h"
#include "compute/headless/Progress.h"
#include "compute/request/SessionFile.h"
#include "compute/io/Json.h"
#include "compute/core/Error.h"

#include "tests/TestSupport.h"

#include <QTest>

using bv::request::Job;

namespace {

using bv::testing::words;

Job job(const char* text) {
    return bv::request::parseJob(bv::io::parseJson(text, "job.json"));
}

} // namespace

class TestJob : public QObject {
    Q_OBJECT
  private slots:
    void baseInThreeForms_data() {
        QTest::addColumn<QString>("base");
        QTest::newRow("string") << "\"-cell 50 60 70 90 90 90 -N 10 -nopgm\"";
        QTest::newRow("array") << "[\"-cell\", 50, 60, 70, 90, 90, 90, \"-N\", 10, \"-nopgm\"]";
        QTest::newRow("object")
            << "{\"-cell\": [50, 60, 70, 90, 90, 90], \"-N\": 10, \"-nopgm\": true}";
        QTest::newRow("object, string of values")
            << "{\"-cell\": \"50 60 70 90 90 90\", \"-N\": \"10\", \"-nopgm\": true}";
    }
    void baseInThreeForms() {
        QFETCH(QString, base);
        const QByteArray text = ("{\"base\": " + base + ", \"frames\": [{}]}").toUtf8();
        const Job j = job(text.constData());
        QCOMPARE(j.base, words("-cell 50 60 70 90 90 90 -N 10 -nopgm"));
        QCOMPARE(j.frames.size(), std::size_t(1));
    }

    void framesOverrideInOrder() {
        const Job j =
            job("{\n"
                "  \"comment\": \"a distance scan and two still shots\",\n"
                "  \"base\": \"-cell 50 -default_F 100 -seed 1 -noisefile f_###.img\",\n"
                "  \"frames\": [\n"
                "    {\"-distance\": 120},\n"
                "    {\"-misset\": \"random\", \"-misset_seed\": 7},\n"
                "    {\"-misset\": [10, 20, 30], \"-seed\": 99, \"-floatfile\": \"my file.bin\"}\n"
                "  ]\n"
                "}");
        QCOMPARE(j.frames.size(), std::size_t(3));
        QCOMPARE(j.frames[0].overrides, words("-distance 120"));
        QCOMPARE(j.frames[1].overrides, words("-misset random -misset_seed 7"));
        // a file name keeps its space; -seed makes the frame's seed its own
        QCOMPARE(j.frames[2].overrides,
                 (std::vector<std::string>{"-misset", "10", "20", "30", "-seed", "99", "-floatfile",
                                           "my file.bin"}));
        QVERIFY(!j.frames[0].ownSeed);
        QVERIFY(j.frames[2].ownSeed);
        QCOMPARE(j.frames[1].line, 6);
        // base, then extra options, then the frame's
        QCOMPARE(
            j.arguments(0, {"-device", "cpu"}),
            words(
                "-cell 50 -default_F 100 -seed 1 -noisefile f_###.img -device cpu -distance 120"));
        QCOMPARE(j.where(1), std::string("job.json:6:5: frame 2"));
    }

    void numbersReachTheCommandLineAsWritten() {
        const Job j = job("{\"base\": [\"-lambda\", 1.10], \"frames\": [{\"-fluence\": 1E30, "
                          "\"-misset\": [-0, 2.50, 3]}]}");
        QCOMPARE(j.base, words("-lambda 1.10"));
        QCOMPARE(j.frames[0].overrides, words("-fluence 1E30 -misset -0 2.50 3"));
    }

    void aCountOfFrames() {
        const Job j = job("{\"base\": \"-cell 50\", \"frames\": 3}");
        QCOMPARE(j.frames.size(), std::size_t(3));
        QVERIFY(j.frames[2].overrides.empty());
        QCOMPARE(j.where(2), std::string("job.json: frame 3"));
    }

    void badJobsNameWhere_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not an object") << "[1]"
                                       << "job.json:1:1: a job file is a JSON object";
        QTest::newRow("no frames") << "{\"base\": \"-cell 50\"}"
                                   << "job.json:1:1: the job has no \"frames\"";
        QTest::newRow("empty frames") << "{\"base\": \"\", \"frames\": []}"
                                      << "job.json:1:24: \"frames\" is empty";
        QTest::newRow("zero frames") << "{\"frames\": 0}"
                                     << "job.json:1:12: \"frames\": expected a whole number";
        // found by fuzzing: a count beyond long long's range must be refused, not converted
        QTest::newRow("huge count") << "{\"frames\": 1e300}"
                                    << "job.json:1:12: \"frames\": expected a whole number";
        // found by fuzzing: such a value would be written back by jobText() as an option
        QTest::newRow("value spelled like an option")
            << "{\"base\": \"-cell 50\", \"frames\": [{\"-hkl\": \"-cell\"}]}"
            << "job.json:1:42: frame 1: -hkl: \"-cell\" is an option, not a value";
        // found by fuzzing: [] would be written back as true
        QTest::newRow("empty array")
            << "{\"frames\": [{\"-misset\": []}]}"
            << "job.json:1:25: frame 1: -misset: expected its value (<x> <y> <z> | random), not an "
               "empty array";
        // found by fuzzing: the same in an array of values
        QTest::newRow("array value spelled like an option")
            << "{\"frames\": [{\"-misset\": [10, \"-distance\", 30]}]}"
            << "job.json:1:30: frame 1: -misset[1]: \"-distance\" is an option, not a value";
        QTest::newRow("fractional count") << "{\"frames\": 2.5}"
                                          << "job.json:1:12: \"frames\": expected a whole number";
        QTest::newRow("unknown member") << "{\"frames\": 1, \"bsae\": \"\"}"
                                        << "job.json:1:23: unknown member \"bsae\"";
        QTest::newRow("frame not object") << "{\"frames\": [{}, 7]}"
                                          << "job.json:1:17: frame 2: a frame is an object of options";
        QTest::newRow("unknown option")
            << "{\"frames\": [{\"-distanse\": 1}]}"
            << "job.json:1:27: frame 1: \"-distanse\" is not a nanoBragg option (did you mean "
               "-distance?)";
        QTest::newRow("false") << "{\"frames\": [{\"-nopgm\": false}]}"
                               << "job.json:1:24: frame 1: -nopgm: false is not a value";
        QTest::newRow("null") << "{\"frames\": [{\"-distance\": null}]}"
                              << "job.json:1:27: frame 1: -distance: null is not a value";
        QTest::newRow("true for a value") << "{\"frames\": [{\"-distance\": true}]}"
                                          << "job.json:1:27: frame 1: -distance: expected its value (<mm>)";
        QTest::newRow("object value")
            << "{\"frames\": [{\"-distance\": {}}]}"
            << "job.json:1:27: frame 1: -distance: expected a number, a string or an array";
        QTest::newRow("nested array") << "{\"frames\": [{\"-cell\": [50, [60]]}]}"
                                      << "job.json:1:28: frame 1: -cell[1]: expected a number or a string";
        QTest::newRow("series in a job") << "{\"frames\": [{\"-series\": 5}]}"
                                         << "job.json:1:25: frame 1: -series: a job lists its frames";
        QTest::newRow("job in a job") << "{\"frames\": [{\"--job\": \"x.json\"}]}"
                                      << "job.json:1:23: frame 1: --job: a job file cannot name another job";
        QTest::newRow("base of wrong kind")
            << "{\"base\": 5, \"frames\": 1}"
            << "job.json:1:10: \"base\": expected nanoBragg's arguments";
        QTest::newRow("session of a wrong kind")
            << "{\"session\": 5, \"frames\": 1}"
            << "job.json:1:13: \"session\": expected the name of a session file, or a session "
               "object";
        QTest::newRow("embedded session of another format")
            << "{\"session\": {\"format\": \"nanoBragg\"}, \"frames\": 1}"
            << "job.json:1:24: session.format: expected \"braggview session\", got 'nanoBragg'";
        QTest::newRow("embedded session without its experiment")
            << "{\"session\": {\"format\": \"braggview session\", \"version\": 1},\n"
               " \"frames\": 1}"
            << "job.json:1:13: session: \"experiment\" is missing";
        QTest::newRow("option in the base object")
            << "{\"base\": {\"-N\": 10,\n \"-distance\": null}, \"frames\": 1}"
            << "job.json:2:15: base.-distance: null is not a value";
        QTest::newRow("token in the base array")
            << "{\"base\": [\"-N\", [10]], \"frames\": 1}"
            << "job.json:1:17: base[1]: expected a number or a string";
        // the parser refuses what a command line would silently take the last of
        QTest::newRow("an option twice in a frame")
            << "{\"frames\": [{\"-distance\": 100, \"-distance\": 120}]}"
            << "job.json:1:32: duplicate member \"-distance\" (first at line 1)";
    }
    void badJobsNameWhere() {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const QByteArray bytes = text.toUtf8();
        try {
            job(bytes.constData());
            QFAIL("no error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).startsWith(expected), e.what());
        }
    }

    void writtenJobsReadBack() {
        Job j;
        j.source = "saved.json";
        j.base = words("-cell 50 60 70 90 90 90 -default_F 100 -noisefile f_###.img");
        j.frames.resize(3);
        j.frames[0].overrides = words("-distance 120");
        j.frames[1].overrides = words("-misset 10 20 30 -nopgm -seed 4");
        j.frames[2].overrides = {"-floatfile", "a \"quoted\" name.bin", "-phi", "-5"};
        const std::string text = bv::request::jobText(j);
        const Job back = bv::request::parseJob(bv::io::parseJson(text, "saved.json"));
        QCOMPARE(back.base, j.base);
        QCOMPARE(back.frames.size(), j.frames.size());
        for (std::size_t i = 0; i < j.frames.size(); ++i)
            QCOMPARE(back.frames[i].overrides, j.frames[i].overrides);
        QVERIFY(back.frames[1].ownSeed);
    }

    // found by fuzzing: "-roi": ["-,0 hei-1ght"] is one token of a four-value option; written
    // back as a string it was split at the space when read ("jobText round trip: a frame's
    // options differ"). Written as an array it reads back as the same token.
    void oneValueWithSpacesOfAnOptionOfSeveralReadsBack() {
        const Job j = job("{\"frames\": [{\"-roi\": [\"-,0 hei-1ght\"]}, "
                          "{\"-misset\": \"random\"}, {\"-cell\": [\"70 8\"]}]}");
        QCOMPARE(j.frames[0].overrides, (std::vector<std::string>{"-roi", "-,0 hei-1ght"}));
        const std::string text = bv::request::jobText(j);
        const Job back = bv::request::parseJob(bv::io::parseJson(text, "again.json"));
        QCOMPARE(back.frames.size(), j.frames.size());
        for (std::size_t i = 0; i < j.frames.size(); ++i)
            QCOMPARE(back.frames[i].overrides, j.frames[i].overrides);
    }

    // Frames are counted from 1 in every message of a job: the reader's, and where() that the
    // frame loop's messages start with.
    void framesAreCountedFromOneInMessages() {
        const Job j = job("{\"frames\": [{}, {}, {\"-distance\": 80}]}");
        QVERIFY2(QString::fromStdString(j.where(2)).endsWith(": frame 3"), j.where(2).c_str());
        try {
            job("{\"frames\": [{}, {}, {\"-distance\": null}]}");
            QFAIL("no error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).contains(": frame 3: -distance: null"), e.what());
        }
    }

    void aSessionFileIsNamedRelativeToTheJob_data() {
        QTest::addColumn<QString>("jobFile");
        QTest::addColumn<QString>("session");
        QTest::addColumn<QString>("path");
        QTest::newRow("beside") << "job.json" << "view.json" << "view.json";
        QTest::newRow("job elsewhere") << "runs/a/job.json" << "view.json" << "runs/a/view.json";
        QTest::newRow("in a folder") << "runs/job.json" << "../views/v.json"
                                     << "runs/../views/v.json";
        QTest::newRow("absolute") << "runs/job.json" << "/data/view.json" << "/data/view.json";
    }
    void aSessionFileIsNamedRelativeToTheJob() {
        QFETCH(QString, jobFile);
        QFETCH(QString, session);
        QFETCH(QString, path);
        const QByteArray text = "{\"session\": \"" + session.toUtf8() + "\", \"frames\": 1}";
        const Job j =
            bv::request::parseJob(bv::io::parseJson(text.constData(), jobFile.toStdString()));
        QVERIFY(j.hasSession());
        QCOMPARE(j.session, session.toStdString());
        QCOMPARE(QString::fromStdString(j.sessionPath()), path);
    }

    void aBaseWithASessionIsOptionsOnTopOfIt() {
        const Job j = job("{\"session\": \"view.json\", \"base\": \"-floatfile v_#.bin\",\n"
                          " \"frames\": [{\"-distance\": 80}]}");
        QCOMPARE(j.arguments(0, {"-noprogress"}),
                 words("-floatfile v_#.bin -noprogress -distance 80"));
    }

    void anEmbeddedSessionIsWrittenBackAsItWas() {
        bv::RunRequest cl = bv::cli::parseCommandLine(
            words("-cell 50 60 70 90 90 90 -default_F 100 -distance 60 -lambda 1.2 -seed 3"));
        Job j;
        j.source = "saved.json";
        j.sessionObject = bv::io::parseJson(bv::request::sessionText(cl), "saved.json").root();
        j.base = words("-floatfile v_####.bin");
        j.frames.resize(2);
        j.frames[1].overrides = words("-phi 1");
        const std::string text = bv::request::jobText(j);
        const Job back = bv::request::parseJob(bv::io::parseJson(text, "saved.json"));
        QVERIFY(back.sessionObject);
        QCOMPARE(back.base, j.base);
        QCOMPARE(back.frames.size(), std::size_t(2));
        QCOMPARE(back.frames[1].overrides, words("-phi 1"));
        const bv::RunRequest session = bv::request::parseSession(
            bv::io::JsonDocument(back.source, *back.sessionObject), "");
        QCOMPARE(session.experiment.detector.distance, 0.06);
        QCOMPARE(session.experiment.beam.wavelength, 1.2e-10);
        QCOMPARE(session.experiment.seed, -3L);
    }

    void progressLineShowsRateAndTimeLeft() {
        using bv::headless::progressLine;
        QCOMPARE(progressLine(0, 20, 0, 0.0), std::string("[--------------------]  0/20 frames"));
        QCOMPARE(progressLine(5, 20, 5, 2.0),
                 std::string("[#####---------------]  5/20 frames  2.50 frames/s  0:06 left"));
        // frames skipped (complete on disk) count as done but not in the rate
        QCOMPARE(progressLine(12, 20, 2, 4.0),
                 std::string("[############--------] 12/20 frames  0.50 frames/s  0:16 left"));
        QCOMPARE(progressLine(20, 20, 20, 0.5),
                 std::string("[####################] 20/20 frames  40.0 frames/s  0:00 left"));
        QCOMPARE(bv::headless::formatDuration(3725.0), std::string("1:02:05"));
        QCOMPARE(bv::headless::formatDuration(59.6), std::string("1:00"));
        QCOMPARE(bv::headless::formatDuration(-1.0), std::string("--:--"));
    }
};

QTEST_APPLESS_MAIN(TestJob)
#include "tst_job.moc"
