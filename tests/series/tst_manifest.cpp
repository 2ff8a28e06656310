// A batch's manifest (compute/headless/Manifest.h, docs/series.md "The manifest"): its lines
// read back as written and name the line that is wrong; a resumed job renders again exactly
// the frames whose parameters or files changed, and says why; a line's command, read back as
// a command line, renders the same image; the manifest stays whole when a frame fails; and a
// job's output that cannot be written is refused before any frame renders.

#include "compute/core/Error.h"
#include "compute/core/Sha256.h"
#include "compute/headless/Batch.h"
#include "compute/headless/Manifest.h"
#include "tests/engine/HeadlessRun.h"

#include "tests/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <sstream>

using bv::headless::ManifestEntry;

namespace {

using bv::testing::bytes;
using bv::testing::words;
using bv::testing::writeText;

// each frame renders in milliseconds on lavapipe
const char* kBase = "-cell 50 60 70 90 90 90 -misset 10 20 30 -lambda 1.0 -N 3 -default_F 100 "
                    "-distance 60 -detpixels 48 -noprogress -seed 3 -noisefile j_##.img "
                    "-floatfile j_##.bin";

struct Batch {
    bv::headless::BatchReport report;
    std::string log;
};

Batch job(const char* path = "job.json") {
    std::ostringstream out, err;
    Batch b;
    b.report = bv::headless::runBatch({"--job", path}, out, err);
    b.log = out.str() + err.str();
    return b;
}

void writeJob(const QString& frames) {
    writeText("job.json", QString("{\"base\": \"%1\", \"frames\": [%2]}").arg(kBase, frames).toUtf8());
}

std::map<int, ManifestEntry> manifest(const char* path = "j.manifest.jsonl") {
    const auto read = bv::headless::readManifest(path);
    if (!read)
        throw bv::Error(std::string(path) + ": no manifest");
    return *read;
}

bool says(const std::string& log, const std::string& text) {
    return log.find(text) != std::string::npos;
}

} // namespace

class TestManifest : public QObject {
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
    }
    void cleanup() { QDir::setCurrent(m_previous); }

    void manifestBesideTheFirstFile_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("manifest");
        QTest::newRow("a run of #") << "out/sim_#####.img" << "out/sim.manifest.jsonl";
        QTest::newRow("a dash before it") << "a/b-#.bin" << "a/b.manifest.jsonl";
        QTest::newRow("# in the middle") << "run#_x.cbf" << "run.manifest.jsonl";
        QTest::newRow("nothing before #") << "####.cbf" << "frames.manifest.jsonl";
        QTest::newRow("a series' NeXus file") << "data/scan.nxs" << "data/scan.manifest.jsonl";
    }
    void manifestBesideTheFirstFile() {
        QFETCH(QString, name);
        QFETCH(QString, manifest);
        QCOMPARE(QString::fromStdString(bv::headless::manifestPath(name.toStdString())), manifest);
    }

    void aLineReadsBackAsWritten() {
        ManifestEntry e;
        e.frame = 12;
        e.command = {"-floatfile", "my \"odd\"\tname é.bin", "-cell", "50", "-misset", "-10",
                     "2.5", "3"};
        e.files = {{"-floatfile", "my \"odd\"\tname é.bin", std::string(64, 'a')}};
        const std::string line = bv::headless::manifestLine(e);
        QVERIFY(line.find('\n') == std::string::npos);
        QCOMPARE(bv::headless::parseManifestLine(line, "m"), e);
        // and as a file of lines, a blank line and a final newline allowed
        ManifestEntry f = e;
        f.frame = 3;
        const auto all =
            bv::headless::parseManifest(line + "\n\n" + bv::headless::manifestLine(f) + "\n", "m");
        QCOMPARE(all.size(), std::size_t(2));
        QCOMPARE(all.at(3), f);
        QCOMPARE(all.at(12), e);
    }

    void badLinesNameTheLine_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        const QByteArray digest(64, 'b');
        QTest::newRow("not JSON") << QByteArray("\n{frame") << "m:2:3: syntax error";
        QTest::newRow("no frame") << QByteArray("{\"command\": [], \"files\": []}") << "m:1:1: no \"frame\"";
        QTest::newRow("frame 0") << QByteArray("{\"frame\": 0, \"command\": [], \"files\": []}")
                                 << "m:1:11: frame: expected a frame number from 1";
        QTest::newRow("a word not a string")
            << QByteArray("{\"frame\": 1, \"command\": [\"-N\", 3], \"files\": []}")
            << "m:1:32: command: expected a string, got a number";
        QTest::newRow("short digest")
            << QByteArray("{\"frame\": 1, \"command\": [], \"files\": [{\"option\": \"-floatfile\", "
                          "\"path\": \"a.bin\", \"sha256\": \"abc\"}]}")
            << "sha256: expected 64 lowercase hexadecimal digits";
        QTest::newRow("a frame twice")
            << QByteArray("{\"frame\": 2, \"command\": [], \"files\": []}\n"
                          "{\"frame\": 2, \"command\": [], \"files\": []}")
            << "m:2: frame 2 has a line already";
    }
    void badLinesNameTheLine() {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        QString error;
        try {
            bv::headless::parseManifest(text.toStdString(), "m");
        } catch (const bv::Error& e) {
            error = e.what();
        }
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    void changedOptionsAreNamed() {
        using bv::headless::changedOptions;
        QCOMPARE(changedOptions(words("-distance 90 -misset 1 2 3"), words("-distance 90 -misset 1 2 4")),
                 words("-misset"));
        QCOMPARE(changedOptions(words("-N 3 -seed 4"), words("-N 3 -seed 4 -phi 2")), words("-phi"));
        QCOMPARE(changedOptions(words("-N 3 -phi -2"), words("-N 4")), words("-N -phi"));
        QVERIFY(changedOptions(words("-N 3"), words("-N 3")).empty());
    }

    // The issue's case: change frame 1's -misset (and frame 3's distance) and run again:
    // exactly those frames render, each saying why; then a file edited or removed on disk
    // renders its frame again, and nothing else.
    void anEditedJobRendersExactlyTheChangedFrames() {
        writeJob(R"({"-misset": [1, 2, 3]}, {"-misset": "random", "-misset_seed": 7}, {"-distance": 90})");
        Batch b = job();
        QCOMPARE(b.report.rendered, 3);
        const QByteArray frame1 = bytes("j_01.img"), frame2 = bytes("j_02.img"),
                         frame3 = bytes("j_03.bin");

        writeJob(R"({"-misset": [1, 2, 4]}, {"-misset": "random", "-misset_seed": 7}, {"-distance": 95})");
        b = job();
        QCOMPARE(b.report.rendered, 2);
        QCOMPARE(b.report.skipped, 1);
        QCOMPARE(b.report.writtenFiles,
                 (std::vector<std::string>{"j_01.bin", "j_01.img", "j_03.bin", "j_03.img"}));
        QVERIFY2(says(b.log, "frame 1/3 (-misset 1 2 4): parameters changed (-misset), rendered again"),
                 b.log.c_str());
        QVERIFY2(says(b.log, "frame 2/3: complete on disk, skipped"), b.log.c_str());
        QVERIFY2(says(b.log, "frame 3/3 (-distance 95): parameters changed (-distance), rendered again"),
                 b.log.c_str());
        QVERIFY(bytes("j_01.img") != frame1);
        QCOMPARE(bytes("j_02.img"), frame2);
        QVERIFY(bytes("j_03.bin") != frame3);
        // frame 1 is now the image its new line describes: a single run of the same options
        const bv::testing::HeadlessRun single = bv::testing::runHeadless(words(
            QString(kBase).replace("j_##", "one") + " -misset 1 2 4 -nopgm"));
        QVERIFY2(single.status == 0, single.err.c_str());
        QCOMPARE(bytes("j_01.img"), bytes("one.img"));

        // a file changed on disk, another removed: their frames render again, and say why
        writeText("j_02.img", "not the frame");
        QVERIFY(QFile::remove("j_03.bin"));
        b = job();
        QCOMPARE(b.report.rendered, 2);
        QVERIFY2(says(b.log, "frame 1/3: complete on disk, skipped"), b.log.c_str());
        QVERIFY2(says(b.log, "file hash differs (j_02.img), rendered again"), b.log.c_str());
        QVERIFY2(says(b.log, "missing (j_03.bin), rendered again"), b.log.c_str());
        QCOMPARE(bytes("j_02.img"), frame2); // the same frame again, noise and all

        // nothing changed: nothing renders; the manifest's digests are the files' own
        b = job();
        QCOMPARE(b.report.rendered, 0);
        QCOMPARE(b.report.skipped, 3);
        for (const auto& [number, entry] : manifest())
            for (const ManifestEntry::File& f : entry.files)
                QCOMPARE(QString::fromStdString(bv::sha256OfFile(f.path)),
                         QString::fromStdString(f.sha256));
    }

    // A line's command is a command line: braggview --headless with it renders the frame's
    // files again, byte for byte (a job's frames, and a series' with its one random misset
    // and its frames' seeds).
    void aLineReadBackRendersTheSameImage_data() {
        QTest::addColumn<QString>("batch");
        QTest::addColumn<QString>("manifest");
        QTest::newRow("job") << "--job job.json" << "j.manifest.jsonl";
        QTest::newRow("series")
            << "-cell 50 60 70 90 90 90 -misset random -lambda 1.0 -N 3 -default_F 100 "
               "-distance 60 -detpixels 48 -noprogress -seed 3 -phi 10 -osc 1 -series 3 "
               "-floatfile s_#.bin -noisefile s_#.img"
            << "s.manifest.jsonl";
    }
    void aLineReadBackRendersTheSameImage() {
        QFETCH(QString, batch);
        QFETCH(QString, manifest);
        writeJob(R"({"-misset": "random"}, {"-distance": 90, "-lambda": 1.2}, {"-seed": 42, "-N": 4})");
        std::ostringstream out, err;
        const auto report = bv::headless::runBatch(words(batch), out, err);
        QCOMPARE(report.rendered, 3);
        const auto lines = ::manifest(manifest.toUtf8().constData());
        QCOMPARE(lines.size(), std::size_t(3));
        for (const auto& [number, entry] : lines) {
            std::vector<std::string> command = entry.command;
            for (std::size_t i = 1; i < command.size(); ++i)
                for (const ManifestEntry::File& f : entry.files)
                    if (command[i - 1] == f.option && command[i] == f.path)
                        command[i] = "again_" + f.path;
            command.push_back("-nopgm");
            const bv::testing::HeadlessRun again = bv::testing::runHeadless(command);
            QVERIFY2(again.status == 0, again.err.c_str());
            QCOMPARE(entry.files.size(), std::size_t(2));
            for (const ManifestEntry::File& f : entry.files)
                QVERIFY2(bytes(QString::fromStdString("again_" + f.path)) ==
                             bytes(QString::fromStdString(f.path)),
                         (f.path + " differs").c_str());
        }
    }

    // Frame 3 fails (more pixels than an image holds): the manifest holds frames 1 and 2,
    // whole, and a run after the fix renders only frame 3.
    void theManifestStaysWholeWhenAFrameFails() {
        writeJob(R"({"-phi": 0}, {"-phi": 1}, {"-detpixels": 32768}, {"-phi": 3})");
        const bv::testing::HeadlessRun failed = bv::testing::runHeadless(words("--job job.json"));
        QCOMPARE(failed.status, 1);
        QVERIFY2(says(failed.err, "frame 3/4: the detector has too many pixels"), failed.err.c_str());
        const auto lines = manifest();
        QCOMPARE(lines.size(), std::size_t(2));
        QVERIFY(lines.count(1) && lines.count(2));
        for (const QString& name : QDir().entryList(QDir::Files | QDir::Hidden))
            QVERIFY2(!name.contains(".tmp-"), qPrintable(name));
        writeJob(R"({"-phi": 0}, {"-phi": 1}, {"-phi": 2}, {"-phi": 3})");
        const Batch b = job();
        QCOMPARE(b.report.skipped, 2);
        QCOMPARE(b.report.rendered, 2);
        QCOMPARE(manifest().size(), std::size_t(4));
    }

    // A frame's unit slip is said before it renders, naming the frame; the job goes on.
    void aFramesUnitSlipIsSaid() {
        writeJob(R"({}, {"-distance": 0.5, "-oversample": 1})");
        const Batch b = job();
        QCOMPARE(b.report.rendered, 2);
        QVERIFY2(says(b.log, "braggview: warning: frame 2/2: the detector distance 0.5 mm is "
                             "under 1 mm: metres typed as mm? (0.5 m is 500 mm)"),
                 b.log.c_str());
        QVERIFY2(!says(b.log, "frame 1/2: the detector distance"), b.log.c_str());
    }

    // An output a frame cannot write is refused before any frame renders: nothing written.
    void aJobsUnwritableOutputIsToldFirst_data() {
        QTest::addColumn<QString>("frames");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing folder")
            << R"({}, {"-floatfile": "missing/f.bin"})"
            << "-floatfile (frame 2): cannot write 'missing/f.bin': the folder 'missing' does not exist";
        QTest::newRow("a directory in a file's place")
            << R"({}, {"-intfile": "."})"
            << "-intfile (frame 2): cannot write '.': it is a directory";
    }
    void aJobsUnwritableOutputIsToldFirst() {
        QFETCH(QString, frames);
        QFETCH(QString, message);
        writeJob(frames);
        const bv::testing::HeadlessRun r = bv::testing::runHeadless(words("--job job.json"));
        QCOMPARE(r.status, 1);
        QVERIFY2(says(r.err, message.toStdString()), r.err.c_str());
        QVERIFY2(!says(r.out, "frame 1/2"), r.out.c_str()); // nothing rendered
        QCOMPARE(QDir().entryList(QDir::Files | QDir::Hidden), QStringList{"job.json"});
    }
};

QTEST_GUILESS_MAIN(TestManifest)
#include "tst_manifest.moc"
