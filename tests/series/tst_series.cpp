// Rotation series and job files end to end on the Vulkan driver (lavapipe here and in CI):
// one recording for a whole series, frame i equal to the reference's single run at
// phi0 + i*osc with seed + i, per-frame headers, jobs that resume, and errors that name the
// option or the job file's line and leave no file behind.

#include "compute/cli/CommandLine.h"
#include "compute/request/Inputs.h"
#include "compute/headless/Batch.h"
#include "compute/headless/Headless.h"
#include "compute/headless/Series.h"
#include "compute/request/SessionFile.h"
#include "compute/io/CbfImage.h"
#include "compute/io/FloatImageFile.h"
#include "compute/io/Smv.h"
#include "compute/core/Error.h"
#include "compute/plan/Plan.h"
#include "tests/engine/HeadlessRun.h"

#include "tests/TestSupport.h"
#include "tests/series/SeriesRuns.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sstream>

namespace {

using bv::testing::bytes;
using bv::testing::writeText;

const std::vector<std::string>& kSmall = bv::testing::kSmallSeries;
using bv::testing::batch;
using bv::testing::with;

using Run = bv::testing::HeadlessRun;
Run headless(const std::vector<std::string>& args) { return bv::testing::runHeadless(args); }

std::string seriesError(const QString& more) {
    try {
        const std::vector<std::string> args = with(kSmall, more);
        bv::headless::seriesFrames(bv::cli::parseCommandLine(args));
    } catch (const bv::Error& e) {
        return e.what();
    }
    return "no error";
}

QStringList filesHere() {
    return QDir().entryList(QDir::Files);
}

} // namespace

class TestSeries : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir m_dir;
    QString m_previous;

  private slots:
    void initTestCase() {
        // reproducible CBF time stamps
        qputenv("SOURCE_DATE_EPOCH", "1700000000");
    }
    void init() {
        QVERIFY(m_dir.isValid());
        m_previous = QDir::currentPath();
        QDir(m_dir.path()).removeRecursively();
        QDir().mkpath(m_dir.path());
        QVERIFY(QDir::setCurrent(m_dir.path()));
    }
    void cleanup() { QDir::setCurrent(m_previous); }

    void framesOfASeries() {
        const std::vector<std::string> args =
            with(kSmall,
                 "-phi 10 -osc 0.5 -series 3 -seed 5 -noisefile n_##.img -cbffile c_##.cbf -nopgm");
        const auto frames = bv::headless::seriesFrames(bv::cli::parseCommandLine(args));
        QCOMPARE(frames.size(), std::size_t(3));
        QCOMPARE(frames[2].number, 3);
        QCOMPARE(frames[1].phiDeg, 10.5);
        QCOMPARE(frames[2].phiDeg, 11.0);
        // seed + i, kept by the reference as its negative
        QCOMPARE(frames[0].noiseSeed, -5L);
        QCOMPARE(frames[2].noiseSeed, -7L);
        QCOMPARE(frames[1].files.noiseFile, std::string("n_02.img"));
        QCOMPARE(frames[1].files.cbfFile, std::string("c_02.cbf"));
        // only the files named are written: no float, int or greymap file
        QVERIFY(frames[0].files.floatFile.empty() && frames[0].files.intFile.empty() &&
                frames[0].files.pgmFile.empty());
        // -nonoise after -noisefile turns it off again
        const std::vector<std::string> off = with(args, "-nonoise");
        QVERIFY(bv::headless::seriesFrames(bv::cli::parseCommandLine(off))[0]
                    .files.noiseFile.empty());
    }

    void seriesNamesNeedTheirFrameNumber_data() {
        QTest::addColumn<QString>("more");
        QTest::addColumn<QString>("message");
        QTest::newRow("no #") << "-series 3 -noisefile sim.img"
                              << "-noisefile sim.img: a -series writes one file per frame";
        QTest::newRow("too few #")
            << "-series 120 -cbffile s_##.cbf"
            << "-cbffile s_##.cbf: 120 frames need 3 digits but the name has 2 #";
        QTest::newRow("two runs")
            << "-series 3 -floatfile a_#_#.bin"
            << "-floatfile \"a_#_#.bin\": the file name has more than one run of #";
        QTest::newRow("nothing named") << "-series 3"
                                       << "-series 3: name the files to write";
        QTest::newRow("same files twice") << "-series 3 -intfile a_#.img -noisefile a_#.img"
                                          << "-intfile and -noisefile name the same files";
        QTest::newRow("seed out of range")
            << "-series 3 -seed 2147483646 -noisefile a_#.img"
            << "-seed 2147483646: the series' last frame would use seed 2147483648";
    }
    void seriesNamesNeedTheirFrameNumber() {
        QFETCH(QString, more);
        QFETCH(QString, message);
        const std::string error = seriesError(more);
        QVERIFY2(QString::fromStdString(error).startsWith(message), error.c_str());
        // through the headless entry point: exit status 1, the message, no file
        const Run r = headless(with(kSmall, more));
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.find(message.toStdString()) != std::string::npos, r.err.c_str());
        QVERIFY2(filesHere().isEmpty(), qPrintable(filesHere().join(" ")));
    }

    void oneRecordingForTheWholeSeries() {
        std::string log;
        const auto report = batch(with(kSmall, "-phi 0 -osc 1 -phisteps 4 -series 4 -seed 11 "
                                               "-noisefile s_#.img -v"),
                                  &log);
        QCOMPARE(report.frames, 4);
        QCOMPARE(report.rendered, 4);
        QCOMPARE(report.recordCount, 1);
        QCOMPARE(report.pipelineCount, 1);
        QCOMPARE(report.uploadedParts.size(), std::size_t(4));
        // after the first frame, only the orientation table (and the small uniform block,
        // which every setPlan rewrites) is uploaded
        const unsigned unchanged = bv::plan::SourcesChanged | bv::plan::StructureFactorsChanged |
                                   bv::plan::MaskChanged | bv::plan::ImageSizeChanged;
        for (std::size_t i = 1; i < report.uploadedParts.size(); ++i) {
            QVERIFY(report.uploadedParts[i] & bv::plan::OrientationsChanged);
            QCOMPARE(report.uploadedParts[i] & unchanged, 0u);
        }
        QVERIFY2(log.find("1 command buffer recording and 1 pipeline for 4 frames") !=
                     std::string::npos,
                 log.c_str());
        QCOMPARE(filesHere(), (QStringList{"s.manifest.jsonl", "s_1.img", "s_2.img", "s_3.img",
                                           "s_4.img"}));
    }

    void aLaterFrameAtPhiZeroKeepsTheRecording() {
        // frame 3 starts at phi exactly 0: the reference's carry-over adds orientation rows
        // (compute/engine/SerialOrder.h), which the series sizes for before frame 1
        const auto report =
            batch(with(kSmall, "-phi -2 -osc 1 -phisteps 2 -series 4 -seed 1 -noisefile p_#.img"));
        QCOMPARE(report.rendered, 4);
        QCOMPARE(report.recordCount, 1);
    }

    void frameIIsTheSingleRunAtItsAngleAndSeed() {
        const auto report =
            batch(with(kSmall, "-phi 0 -osc 1 -phisteps 4 -series 3 -seed 11 "
                               "-noisefile s_#.img -intfile i_#.img -floatfile f_#.bin "
                               "-pgmfile g_#.pgm -cbffile c_#.cbf"));
        QCOMPARE(report.rendered, 3);
        for (int i = 0; i < 3; ++i) {
            const QString n = QString::number(i + 1);
            const Run single = headless(
                with(kSmall, QString("-phi %1 -osc 1 -phisteps 4 -seed %2 "
                                     "-noisefile one.img -intfile one_int.img "
                                     "-floatfile one.bin -pgmfile one.pgm -cbffile one.cbf")
                                 .arg(i)
                                 .arg(11 + i)));
            QVERIFY2(single.status == 0, single.err.c_str());
            QCOMPARE(bytes("s_" + n + ".img"), bytes("one.img"));
            QCOMPARE(bytes("i_" + n + ".img"), bytes("one_int.img"));
            QCOMPARE(bytes("f_" + n + ".bin"), bytes("one.bin"));
            QCOMPARE(bytes("g_" + n + ".pgm"), bytes("one.pgm"));
            const bv::io::CbfImage fromSeries = bv::io::readCbf(("c_" + n + ".cbf").toStdString());
            const bv::io::CbfImage fromSingle = bv::io::readCbf("one.cbf");
            QCOMPARE(fromSeries.data, fromSingle.data);
            QCOMPARE(fromSeries.item("Start_angle"), fromSingle.item("Start_angle"));
            // the series' frames are stamped an exposure apart
            QCOMPARE(fromSeries.header.find(i == 0 ? "# 2023-11-14T22:13:20.000"
                                            : i == 1
                                                ? "# 2023-11-14T22:13:21.000"
                                                : "# 2023-11-14T22:13:22.000") != std::string::npos,
                     true);
            // the header says where the frame is
            const bv::io::SmvImage smv = bv::io::readSmv(("s_" + n + ".img").toStdString());
            QCOMPARE(smv.field("PHI").value_or(""), std::to_string(i));
            QCOMPARE(smv.field("OSC_START").value_or(""), std::to_string(i));
            QCOMPARE(smv.field("OSC_RANGE").value_or(""), std::string("1"));
            QCOMPARE(fromSeries.item("Start_angle").value_or(""),
                     std::to_string(i) + ".000000 deg.");
            QCOMPARE(fromSeries.item("Angle_increment").value_or(""), std::string("1.000000 deg."));
        }
        // frames differ: a series is not one image written three times
        QVERIFY(bytes("s_1.img") != bytes("s_2.img"));
    }

    void cbfCountsAreTheNoiseImageWithoutPedestal() {
        const Run withCbf =
            headless(with(kSmall, "-seed 9 -adc 25 -noisefile n.img -cbffile c.cbf -nopgm"));
        QVERIFY2(withCbf.status == 0, withCbf.err.c_str());
        QVERIFY2(withCbf.out.find("writing c.cbf as 4-byte integers") != std::string::npos,
                 withCbf.out.c_str());
        const bv::io::SmvImage noise = bv::io::readSmv("n.img");
        const bv::io::CbfImage cbf = bv::io::readCbf("c.cbf");
        QCOMPARE(cbf.width, noise.width);
        QCOMPARE(cbf.data.size(), noise.data.size());
        for (std::size_t i = 0; i < cbf.data.size(); ++i)
            QCOMPARE(cbf.data[i], static_cast<std::int32_t>(noise.data[i]) - 25);
        // the CBF does not disturb the reference's draws for the noise image
        const QByteArray before = bytes("n.img");
        const Run without = headless(with(kSmall, "-seed 9 -adc 25 -noisefile n.img -nopgm"));
        QVERIFY2(without.status == 0, without.err.c_str());
        QCOMPARE(bytes("n.img"), before);
        // geometry: the beam centre where the beam meets the detector, in pixels
        QCOMPARE(cbf.item("Beam_xy").value_or(""), std::string("(25.000, 25.000) pixels"));
        QCOMPARE(cbf.item("Detector_distance").value_or(""), std::string("0.0600000 m"));
        QCOMPARE(cbf.item("Pixel_size").value_or(""), std::string("100e-6 m x 100e-6 m"));
    }

    void jobsRenderResumeAndRestart() {
        writeText("job.json", "{\n"
                              "  \"base\": \"-cell 50 60 70 90 90 90 -misset 10 20 30 -lambda 1.0 "
                              "-N 3 -default_F 100 -distance 60 -detpixels 48 -noprogress -seed 3 "
                              "-noisefile j_##.img -floatfile j_##.bin\",\n"
                              "  \"frames\": [\n"
                              "    {\"-distance\": 90},\n"
                              "    {\"-misset\": \"random\", \"-misset_seed\": 7},\n"
                              "    {\"-lambda\": 1.2, \"-seed\": 42, \"-cbffile\": \"j_##.cbf\"}\n"
                              "  ]\n"
                              "}");
        std::string log;
        auto report = batch({"--job", "job.json"}, &log);
        QCOMPARE(report.frames, 3);
        QCOMPARE(report.rendered, 3);
        QCOMPARE(report.skipped, 0);
        QCOMPARE(filesHere(), (QStringList{"j.manifest.jsonl", "j_01.bin", "j_01.img", "j_02.bin",
                                           "j_02.img", "j_03.bin", "j_03.cbf", "j_03.img",
                                           "job.json"}));
        // frame 2 is the base with its overrides and the base's seed + 1
        const Run single = headless(
            with(kSmall, "-seed 4 -noisefile one.img -nopgm -misset random -misset_seed 7"));
        QVERIFY2(single.status == 0, single.err.c_str());
        QCOMPARE(bytes("j_02.img"), bytes("one.img"));
        // frame 3 has its own seed
        const Run own = headless(with(kSmall, "-seed 42 -lambda 1.2 -noisefile own.img -nopgm"));
        QCOMPARE(bytes("j_03.img"), bytes("own.img"));
        // each frame's distance: frame 1 at 90 mm
        QCOMPARE(bv::io::readSmv("j_01.img").field("DISTANCE").value_or(""), std::string("90"));

        // interrupted: frame 2 lost its noise image; a second run renders only frame 2
        const QByteArray frame2 = bytes("j_02.img");
        QVERIFY(QFile::remove("j_02.img"));
        // the temporary a killed writer left behind (AtomicFile's name; no such process)
        writeText(".j_02.img.tmp-2147483647-0-12345", "half a frame");
        report = batch({"--job", "job.json"}, &log);
        QCOMPARE(report.rendered, 1);
        QCOMPARE(report.skipped, 2);
        QCOMPARE(report.writtenFiles, (std::vector<std::string>{"j_02.bin", "j_02.img"}));
        QCOMPARE(bytes("j_02.img"), frame2); // the same frame again, noise and all
        QVERIFY2(log.find("frame 1/3: complete on disk, skipped") != std::string::npos,
                 log.c_str());
        QVERIFY2(log.find("removed 1 temporary file of an interrupted run") != std::string::npos,
                 log.c_str());
        QVERIFY(!QFile::exists(".j_02.img.tmp-2147483647-0-12345"));

        // -restart renders every frame again
        report = batch({"--job", "job.json", "-restart"});
        QCOMPARE(report.rendered, 3);
        QCOMPARE(report.skipped, 0);
        // the whole job through "braggview --headless --job"
        const Run r = headless({"--job", "job.json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        QVERIFY2(r.err.empty(), r.err.c_str()); // no progress bar where stderr is no terminal
        QVERIFY2(r.out.find("3 frames: 0 rendered, 3 complete on disk already") !=
                     std::string::npos,
                 r.out.c_str());
    }

    void aCountOfStillShots() {
        writeText("stills.json",
                  "{\"base\": [\"-cell\", 50, 60, 70, 90, 90, 90, \"-misset\", \"random\",\n"
                  "  \"-N\", 3, \"-default_F\", 100, \"-distance\", 60, \"-detpixels\", 48, "
                  "\"-seed\", 20,\n"
                  "  \"-noprogress\", \"-floatfile\", \"still_#.bin\"], \"frames\": 2}");
        const auto report = batch({"--job", "stills.json"});
        QCOMPARE(report.rendered, 2);
        // a random orientation per frame: the misset follows each frame's seed (20, 21)
        QVERIFY(bytes("still_1.bin") != bytes("still_2.bin"));
        const Run single =
            headless(with(kSmall, "-misset random -seed 21 -floatfile one.bin -nonoise -nopgm"));
        QVERIFY2(single.status == 0, single.err.c_str());
        QCOMPARE(bytes("still_2.bin"), bytes("one.bin"));
    }

    void badJobsWriteNothing_data() {
        QTest::addColumn<QByteArray>("job");
        QTest::addColumn<QString>("message");
        const QByteArray base =
            "\"base\": \"-cell 50 -default_F 100 -detpixels 16 -noprogress -noisefile";
        QTest::newRow("malformed JSON")
            << QByteArray("{\n  \"base\": \"-cell 50\",\n  \"frames\": [{\"-distance\": 1,}]\n}")
            << "job.json:3:30: syntax error while parsing object key - unexpected '}'";
        QTest::newRow("one file for two frames")
            << QByteArray("{" + base + " same.img\", \"frames\": 2}")
            << "job.json: frame 2: -noisefile same.img is also the -noisefile of frame 1";
        QTest::newRow("a bad value")
            << QByteArray("{" + base + " f_#.img\",\n \"frames\": [{}, {\"-distance\": -5}]}")
            << "job.json:2:17: frame 2: -distance: expected a length greater than 0";
        QTest::newRow("no file named")
            << QByteArray("{\"base\": \"-cell 50 -default_F 100\", \"frames\": 1}")
            << "job.json: frame 1: it writes no file";
        QTest::newRow("frame changes the precision")
            << QByteArray("{" + base + " f_#.img\", \"frames\": [{}, {\"-precision\": \"fast\"}]}")
            << "frame 2: -device and -precision are the job's";
        QTest::newRow("no such session")
            << QByteArray("{\"session\": \"view.json\", \"base\": \"-floatfile f_#.bin\", "
                          "\"frames\": 1}")
            << "job.json: \"session\": cannot read JSON file 'view.json'";
    }
    void badJobsWriteNothing() {
        QFETCH(QByteArray, job);
        QFETCH(QString, message);
        writeText("job.json", job);
        const Run r = headless({"--job", "job.json"});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.find(message.toStdString()) != std::string::npos, r.err.c_str());
        QCOMPARE(filesHere(), QStringList{"job.json"});
    }

    // A session saved from a command line's experiment is that experiment exactly: a job on
    // it renders the headless run's images bit for bit, and a frame's options override it as
    // they would override the command line.
    void aJobOnASessionIsTheHeadlessRun_data() {
        QTest::addColumn<QString>("precision");
        QTest::newRow("precise") << "precise";
        QTest::newRow("fast") << "fast";
    }
    void aJobOnASessionIsTheHeadlessRun() {
        QFETCH(QString, precision);
        const QString experiment =
            "-seed 5 -phi 3 -osc 0.5 -mosaic 0.2 -mosaic_dom 2 -precision " + precision;
        const std::vector<std::string> args = with(kSmall, experiment);
        bv::RunRequest cl = bv::cli::parseCommandLine(args);
        std::ostringstream log;
        bv::request::loadInputs(cl, log);
        QVERIFY(QDir().mkpath("views"));
        writeText("views/view.json", QByteArray::fromStdString(bv::request::sessionText(cl)));
        writeText("job.json", "{\"session\": \"views/view.json\",\n"
                              " \"base\": \"-floatfile s_#.bin -noisefile s_#.img\",\n"
                              " \"frames\": [{}, {\"-distance\": 80, \"-phi\": 4}]}");
        const Run job = headless({"--job", "job.json", "-noprogress"});
        QVERIFY2(job.status == 0, job.err.c_str());

        const Run one = headless(with(args, "-floatfile one.bin -noisefile one.img -nopgm"));
        QVERIFY2(one.status == 0, one.err.c_str());
        // frame 2: its options, and the session's seed + 1
        const Run two = headless(
            with(args, "-distance 80 -phi 4 -seed 6 -floatfile two.bin -noisefile two.img -nopgm"));
        QVERIFY2(two.status == 0, two.err.c_str());
        QVERIFY(!bytes("s_1.bin").isEmpty());
        QCOMPARE(bytes("s_1.bin"), bytes("one.bin"));
        QCOMPARE(bytes("s_1.img"), bytes("one.img"));
        QCOMPARE(bytes("s_2.bin"), bytes("two.bin"));
        QCOMPARE(bytes("s_2.img"), bytes("two.img"));
        QVERIFY(bytes("s_1.bin") != bytes("s_2.bin"));
    }

    void aSessionReadsItsHklFileBesideIt() {
        QVERIFY(QDir().mkpath("views"));
        QVERIFY(QFile::copy(QStringLiteral(BV_TEST_DATA "/inputs/test_pattern.hkl"),
                            "views/pattern.hkl"));
        const std::vector<std::string> args = with(kSmall, "-hkl views/pattern.hkl -seed 2");
        bv::RunRequest cl = bv::cli::parseCommandLine(args);
        std::ostringstream log;
        bv::request::loadInputs(cl, log);
        // the session names its HKL file relative to itself
        QString text = QString::fromStdString(bv::request::sessionText(cl));
        const QString absolute = QFileInfo("views/pattern.hkl").absoluteFilePath();
        QVERIFY(text.contains("\"hkl\": \"" + absolute + "\""));
        text.replace("\"hkl\": \"" + absolute + "\"", "\"hkl\": \"pattern.hkl\"");
        writeText("views/view.json", text.toUtf8());
        // frames 2 and 4 change -default_F, which the HKL table's missing points hold: the
        // file is read again (and frame 4 does not take frame 3's table, the session's)
        writeText("job.json", "{\"session\": \"views/view.json\", \"base\": \"-floatfile s_#.bin\",\n"
                              " \"frames\": [{}, {\"-default_F\": 7}, {}, {\"-default_F\": 7}]}");
        const Run job = headless({"--job", "job.json"});
        QVERIFY2(job.status == 0, job.err.c_str());
        const Run one = headless(with(args, "-floatfile one.bin -nonoise -nopgm"));
        const Run two = headless(with(args, "-default_F 7 -floatfile two.bin -nonoise -nopgm"));
        QVERIFY2(one.status == 0 && two.status == 0, (one.err + two.err).c_str());
        QCOMPARE(bytes("s_1.bin"), bytes("one.bin"));
        QCOMPARE(bytes("s_2.bin"), bytes("two.bin"));
        QCOMPARE(bytes("s_3.bin"), bytes("one.bin"));
        QCOMPARE(bytes("s_4.bin"), bytes("two.bin"));
        QVERIFY(bytes("s_1.bin") != bytes("s_2.bin"));
    }

    void aBadSessionJobWritesNothing_data() {
        QTest::addColumn<QByteArray>("job");
        QTest::addColumn<QString>("from"); // in the session's text
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("message");
        const QByteArray job = "{\"session\": \"view.json\", \"base\": \"-floatfile f_#.bin\", ";
        QTest::newRow("a bad value")
            << job + "\"frames\": 2}" << "\"distance\": 0.06" << "\"distance\": -1"
            << "job.json: \"session\": view.json:";
        QTest::newRow("the key of the bad value")
            << job + "\"frames\": 2}" << "\"distance\": 0.06" << "\"distance\": -1"
            << ": experiment.detector.distance: expected a length greater than 0, at most 100 m, got -1";
        QTest::newRow("a missing HKL file")
            << job + "\"frames\": 1}" << "\"hkl\": \"\"" << "\"hkl\": \"gone.hkl\""
            << "job.json: \"session\": view.json: files.hkl: cannot read HKL file";
        QTest::newRow("a mask on top")
            << job + "\"frames\": [{\"-mask\": \"m.img\"}]}" << "" << ""
            << "job.json:1:67: frame 1: -mask: a job based on a session cannot read an image header";
        QTest::newRow("a bad frame")
            << job + "\"frames\": [{}, {\"-distance\": -5}]}" << "" << ""
            << "frame 2: -distance: expected a length greater than 0";
    }
    void aBadSessionJobWritesNothing() {
        QFETCH(QByteArray, job);
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, message);
        bv::RunRequest cl = bv::cli::parseCommandLine(kSmall);
        std::ostringstream log;
        bv::request::loadInputs(cl, log);
        QString session = QString::fromStdString(bv::request::sessionText(cl));
        if (!from.isEmpty()) {
            QVERIFY2(session.contains(from), qPrintable(from));
            session.replace(from, to);
        }
        writeText("view.json", session.toUtf8());
        writeText("job.json", job);
        const Run r = headless({"--job", "job.json"});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.find(message.toStdString()) != std::string::npos, r.err.c_str());
        QCOMPARE(filesHere(), (QStringList{"job.json", "view.json"}));
    }

    void jobMustComeFirst() {
        const Run r = headless(with(kSmall, "--job job.json"));
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.find("--job: must be the first argument") != std::string::npos,
                 r.err.c_str());
        const Run missing = headless({"--job"});
        QCOMPARE(missing.status, 1);
        QVERIFY2(missing.err.find("--job: missing value") != std::string::npos,
                 missing.err.c_str());
    }
};

QTEST_APPLESS_MAIN(TestSeries)
#include "tst_series.moc"
