// A batch on several devices in one process (-device all, or a list such as 0,1): one
// renderer per entry, the frames shared among them. A frame's image depends on its own plan
// alone, so the files must be the bytes of the one-device run, and the lines the same in the
// same order. Here there is one device, lavapipe: "cpu,cpu" makes two logical devices with a
// Simulator each on it, which is what two GPUs are to the code. On the Vulkan driver
// (lavapipe here and in CI).

#include "compute/core/Error.h"
#include "compute/headless/Batch.h"
#include "compute/headless/Headless.h"

#include "tests/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sstream>
#include <string>
#include <vector>

namespace {

using bv::testing::words;

using bv::testing::filesIn;

// a small crystal and detector: each frame renders in milliseconds on lavapipe
const char* kSmall = "-cell 50 60 70 90 90 90 -misset 10 20 30 -lambda 1.0 -N 3 -default_F 100 "
                     "-distance 60 -detpixels 48 -noprogress";

struct Run {
    int status = 0;
    QString log, err;
};

Run headlessIn(const QString& dir, const QString& args) {
    const QString previous = QDir::currentPath();
    QDir().mkpath(dir);
    QDir::setCurrent(dir);
    std::ostringstream out, err;
    Run r;
    r.status = bv::headless::runHeadless(words(args), out, err);
    r.log = QString::fromStdString(out.str());
    r.err = QString::fromStdString(err.str());
    QDir::setCurrent(previous);
    return r;
}

// the frames' lines: what a user reads of each frame, in order
QStringList frameLines(const QString& log) {
    QStringList lines;
    for (const QString& line : log.split('\n'))
        if (line.startsWith("frame ") || line.startsWith("wrote "))
            lines << line;
    return lines;
}

void writeText(const QString& path, const QByteArray& text) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
        qFatal("cannot write %s", qPrintable(path));
}

} // namespace

class TestDevices : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir m_dir;

    // the batch on one device and on `devices`: the same files, the same frame lines
    void compare(const QString& tag, const QString& batch, const QString& devices) {
        const QString one = m_dir.path() + "/" + tag + "-one";
        const QString many = m_dir.path() + "/" + tag + "-many";
        const Run a = headlessIn(one, batch);
        const Run b = headlessIn(many, batch + " -device " + devices);
        QVERIFY2(a.status == 0, qPrintable(a.err));
        QVERIFY2(b.status == 0, qPrintable(b.err));
        const auto fa = filesIn(one), fb = filesIn(many);
        QVERIFY(!fa.isEmpty());
        QCOMPARE(fa.keys(), fb.keys());
        for (const QString& name : fa.keys())
            QVERIFY2(fa[name] == fb[name], qPrintable(name + " differs"));
        QVERIFY(!frameLines(a.log).isEmpty());
        QCOMPARE(frameLines(b.log), frameLines(a.log));
        // one "GPU:" line per renderer
        QCOMPARE(b.log.count("  GPU: "), devices.split(',').size());
    }

  private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        qputenv("SOURCE_DATE_EPOCH", "1700000000"); // reproducible CBF and NeXus time stamps
    }

    void aSeriesOnTwoRenderersIsTheOneDeviceSeries_data() {
        QTest::addColumn<QString>("outputs");
        QTest::addColumn<QString>("devices");
        QTest::newRow("SMV noise, float, CBF on cpu,cpu")
            << "-noisefile n_##.img -floatfile f_##.bin -cbffile c_##.cbf"
            << "cpu,cpu";
        QTest::newRow("three renderers, one thread for the files")
            << "-noisefile n_##.img -threads 1"
            << "0,cpu,0";
        QTest::newRow("one NeXus file of counts") << "-nexusfile all.h5"
                                                  << "cpu,cpu";
        QTest::newRow("all: every GPU, here lavapipe alone") << "-intfile i_##.img"
                                                             << "all";
    }
    void aSeriesOnTwoRenderersIsTheOneDeviceSeries() {
        QFETCH(QString, outputs);
        QFETCH(QString, devices);
        const QString series =
            QString(kSmall) + " -phi 0 -osc 1 -phisteps 2 -series 9 -seed 3 " + outputs;
        compare("series" + QString::number(qHash(QString(QTest::currentDataTag()))), series,
                devices == "all" ? "all" : devices);
    }

    // Frames whose structure factors differ (every other one changes -default_F, which the
    // HKL table's missing points hold), on two renderers at once: each frame renders with its
    // own table, as on one device.
    void aJobOfDifferentTablesOnTwoRenderers() {
        const QString dir = m_dir.path() + "/tables";
        QDir().mkpath(dir);
        QVERIFY(QFile::copy(QStringLiteral(BV_TEST_DATA "/inputs/test_pattern.hkl"),
                            dir + "/pattern.hkl"));
        const QString hkl = dir + "/pattern.hkl";
        writeText(dir + "/job.json", QString(R"({
          "base": "%1 -hkl %2 -seed 2 -floatfile t_##.bin -noisefile t_##.img",
          "frames": [{}, {"-default_F": 7}, {}, {"-default_F": 7}, {"-distance": 80}, {}]
        })")
                                         .arg(kSmall, hkl)
                                         .toUtf8());
        compare("tables", "--job " + dir + "/job.json", "cpu,cpu");
    }

    // A job resumed on two renderers skips what is on disk and writes the rest, in order.
    void aResumedJobOnTwoRenderers() {
        const QString dir = m_dir.path() + "/resume";
        QDir().mkpath(dir);
        writeText(dir + "/job.json", QString(R"({
          "base": "%1 -seed 4 -noisefile r_##.img",
          "frames": [{"-phi": 0}, {"-phi": 1}, {"-phi": 2}, {"-phi": 3}, {"-phi": 4}]
        })")
                                         .arg(kSmall)
                                         .toUtf8());
        const Run whole = headlessIn(dir + "/whole", "--job " + dir + "/job.json");
        QVERIFY2(whole.status == 0, qPrintable(whole.err));
        // frames 2 and 4 complete on disk already, with the manifest that says so
        QDir().mkpath(dir + "/part");
        for (const char* name : {"r_02.img", "r_04.img", "r.manifest.jsonl"})
            QVERIFY(QFile::copy(dir + "/whole/" + name, dir + "/part/" + name));
        const Run part = headlessIn(dir + "/part", "--job " + dir + "/job.json -device cpu,cpu");
        QVERIFY2(part.status == 0, qPrintable(part.err));
        const QStringList lines = frameLines(part.log);
        QCOMPARE(lines.size(), 5);
        QVERIFY2(lines[1].startsWith("frame 2/5: complete on disk, skipped"), qPrintable(lines[1]));
        QVERIFY2(lines[3].startsWith("frame 4/5: complete on disk, skipped"), qPrintable(lines[3]));
        QVERIFY2(part.log.contains("5 frames: 3 rendered, 2 complete on disk already"),
                 qPrintable(part.log));
        const auto a = filesIn(dir + "/whole"), b = filesIn(dir + "/part");
        QCOMPARE(a.keys(), b.keys());
        for (const QString& name : a.keys())
            QVERIFY2(a[name] == b[name], qPrintable(name + " differs"));
    }

    // Frame 3 cannot be rendered (more pixels than an image holds, found when it is
    // resolved): on two renderers, as on one, the run stops with that frame's error after
    // frames 1 and 2 were written and reported, and no thread leaves a temporary.
    void aFailingFrameStopsAfterTheFramesBeforeIt() {
        const QString dir = m_dir.path() + "/failing";
        QDir().mkpath(dir);
        writeText(dir + "/job.json", QString(R"({
          "base": "%1 -seed 3 -noisefile n_##.img",
          "frames": [{"-phi": 0}, {"-phi": 1}, {"-detpixels": 32768}, {"-phi": 3}, {"-phi": 4},
                     {"-phi": 5}]
        })").arg(kSmall).toUtf8());
        const Run r = headlessIn(dir, "--job " + dir + "/job.json -device cpu,cpu");
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("frame 3/6: the detector has too many pixels"), qPrintable(r.err));
        const QStringList lines = frameLines(r.log);
        QVERIFY2(lines.size() >= 2 && lines[0].startsWith("frame 1/6") &&
                     lines[1].startsWith("frame 2/6"),
                 qPrintable(r.log));
        QVERIFY2(!r.log.contains("frame 3/6:"), qPrintable(r.log));
        for (const QString& name : QDir(dir).entryList(QDir::Files | QDir::Hidden))
            QVERIFY2(!name.contains(".tmp-"), qPrintable(name));
    }

    // A list is for a batch; a bad entry names the option.
    void wrongUsesAreRefused_data() {
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("a list for one image")
            << QString(kSmall) + " -device cpu,cpu -floatfile x.bin"
            << "-device cpu,cpu: all and lists are for a batch";
        QTest::newRow("all for one image") << QString(kSmall) + " -device all -floatfile x.bin"
                                           << "-device all: all and lists are for a batch";
        QTest::newRow("a device that is not there")
            << QString(kSmall) + " -series 2 -noisefile q_#.img -device cpu,99"
            << "there is no Vulkan device 99";
    }
    void wrongUsesAreRefused() {
        QFETCH(QString, args);
        QFETCH(QString, message);
        const QString dir = m_dir.path() + "/wrong" + QString::number(qHash(args));
        const Run r = headlessIn(dir, args);
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY2(QDir(dir).entryList(QDir::Files | QDir::Hidden).isEmpty(),
                 qPrintable(QDir(dir).entryList(QDir::Files | QDir::Hidden).join(' ')));
    }
};

QTEST_GUILESS_MAIN(TestDevices)
#include "tst_devices.moc"
