// Frames in flight (compute/headless/BatchFrames.h): while the GPU renders a frame, CPU
// threads make the files of the frames before it. Each frame's noise comes from its own seed
// and generator, so the files must be the bytes the one-thread run writes, whatever the
// number of threads and however the threads finish; the lines stay in frame order; a frame
// whose file fails stops the run after the frames before it. On the Vulkan driver (lavapipe
// here and in CI).

#include "compute/core/Error.h"
#include "compute/headless/Batch.h"
#include "compute/headless/BatchFrames.h"

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

using bv::testing::bytes;
using bv::testing::writeText;

// a small crystal and detector: each frame renders in milliseconds on lavapipe
const char* kSmall = "-cell 50 60 70 90 90 90 -misset 10 20 30 -lambda 1.0 -N 3 -default_F 100 "
                     "-distance 60 -detpixels 48 -noprogress";

struct Batch {
    bv::headless::BatchReport report;
    QString log; // stdout, the lines a user reads
};

Batch runIn(const QString& dir, const QString& args) {
    const QString previous = QDir::currentPath();
    QDir().mkpath(dir);
    QDir::setCurrent(dir);
    std::ostringstream out, err;
    Batch b;
    b.report = bv::headless::runBatch(words(args), out, err);
    b.log = QString::fromStdString(out.str());
    QDir::setCurrent(previous);
    return b;
}

// the log less what differs from run to run: the rate and the run's time
QString withoutTimes(QString log) {
    log.replace(QRegularExpression(", in [0-9.]+ s \\([0-9.]+ frames/s\\)"), "");
    return log;
}

} // namespace

class TestFramesInFlight : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir m_dir;

  private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        qputenv("SOURCE_DATE_EPOCH", "1700000000"); // reproducible CBF and NeXus time stamps
    }

    void threadsAreAtLeastOne() {
        QCOMPARE(bv::headless::productThreads(3), 3);
        QVERIFY(bv::headless::productThreads(0) >= 1);
    }

    // A series of every kind of file, made by 1 thread and by 5 (more threads than this
    // machine has cores, so that frames finish out of order): the same bytes, the same lines.
    void aSeriesIsTheSameWithAnyNumberOfThreads_data() {
        QTest::addColumn<QString>("outputs");
        QTest::newRow("SMV noise, int, float, PGM, CBF")
            << "-noisefile n_##.img -intfile i_##.img -floatfile f_##.bin -pgmfile g_##.pgm "
               "-cbffile c_##.cbf";
        QTest::newRow("noise only, bright, ADC offset")
            << "-noisefile n_##.img -fluence 1e26 -adc 10";
        QTest::newRow("one NeXus file of counts") << "-nexusfile all.h5";
    }
    void aSeriesIsTheSameWithAnyNumberOfThreads() {
        QFETCH(QString, outputs);
        const QString series =
            QString(kSmall) + " -phi 0 -osc 1 -phisteps 2 -series 12 -seed 3 " + outputs;
        const QString tag = QTest::currentDataTag();
        const QString one = m_dir.path() + "/one-" + QString::number(qHash(tag));
        const QString five = m_dir.path() + "/five-" + QString::number(qHash(tag));
        const Batch serial = runIn(one, series + " -threads 1");
        const Batch parallel = runIn(five, series + " -threads 5");
        QCOMPARE(serial.report.rendered, 12);
        QCOMPARE(parallel.report.rendered, 12);
        const auto a = filesIn(one), b = filesIn(five);
        QVERIFY(!a.isEmpty());
        QCOMPARE(a.keys(), b.keys());
        for (const QString& name : a.keys())
            QVERIFY2(a[name] == b[name], qPrintable(name + " differs"));
        QCOMPARE(withoutTimes(parallel.log), withoutTimes(serial.log));
        // frames 1..12 in order, each once
        int last = 0;
        for (const QString& line : parallel.log.split('\n')) {
            const auto m = QRegularExpression("^frame ([0-9]+)/12").match(line);
            if (m.hasMatch()) {
                QCOMPARE(m.captured(1).toInt(), last + 1);
                last = m.captured(1).toInt();
            }
        }
        QCOMPARE(last, 12);
    }

    // A job of unrelated images (cells, orientations, distances, detector sizes), frames
    // finishing out of order on 4 threads: the one-thread files.
    void aJobOfUnrelatedImagesIsTheSameWithAnyNumberOfThreads() {
        const QString job = m_dir.path() + "/unrelated.json";
        writeText(job, R"({
          "base": "-default_F 100 -N 3 -lambda 1.0 -distance 60 -detpixels 48 -seed 1 -noprogress -noisefile u_##.img -floatfile u_##.bin",
          "frames": [
            {"-cell": "50 60 70 90 90 90", "-misset": "random", "-misset_seed": 4},
            {"-cell": "40 40 40 90 90 90", "-distance": 80},
            {"-cell": "70 70 90 90 90 120", "-misset": "5 10 15", "-detpixels": 64},
            {"-cell": "50 60 70 90 90 90", "-lambda": 1.3, "-seed": 99},
            {"-cell": "30 40 50 80 85 95", "-detpixels": 32},
            {"-cell": "50 60 70 90 90 90", "-misset": "random", "-misset_seed": 8}
          ]
        })");
        const Batch serial = runIn(m_dir.path() + "/job-one", "--job " + job + " -threads 1");
        const Batch parallel = runIn(m_dir.path() + "/job-four", "--job " + job + " -threads 4");
        QCOMPARE(serial.report.rendered, 6);
        const auto a = filesIn(m_dir.path() + "/job-one"), b = filesIn(m_dir.path() + "/job-four");
        QCOMPARE(a.size(), 13); // 12 images and the manifest
        QCOMPARE(a.keys(), b.keys());
        for (const QString& name : a.keys())
            QVERIFY2(a[name] == b[name], qPrintable(name + " differs"));
        QCOMPARE(withoutTimes(parallel.log), withoutTimes(serial.log));
    }

    // Frame 3 cannot be rendered (more pixels than an image holds, found when the frame is
    // resolved; a file that cannot be written is refused before any frame): the run stops
    // with that frame's error, after frames 1 and 2 were written and reported, as with one
    // thread.
    void aFailingFrameStopsAfterTheFramesBeforeIt() {
        const QString dir = m_dir.path() + "/failing";
        QDir().mkpath(dir);
        writeText(dir + "/job.json", QString(R"({
          "base": "%1 -seed 3 -noisefile n_##.img -threads 4",
          "frames": [{"-phi": 0}, {"-phi": 1}, {"-detpixels": 32768}, {"-phi": 3}, {"-phi": 4},
                     {"-phi": 5}]
        })").arg(kSmall).toUtf8());
        const QString previous = QDir::currentPath();
        QDir::setCurrent(dir);
        std::ostringstream out, err;
        QString message;
        try {
            bv::headless::runBatch(words("--job job.json"), out, err);
        } catch (const bv::Error& e) {
            message = e.what();
        }
        QDir::setCurrent(previous);
        QVERIFY2(message.contains("frame 3/6: the detector has too many pixels"),
                 qPrintable(message));
        const QString log = QString::fromStdString(out.str());
        QVERIFY2(log.contains("frame 1/6") && log.contains("frame 2/6"), qPrintable(log));
        QVERIFY2(!log.contains("frame 3/6:"), qPrintable(log));
        QVERIFY(QFile::exists(dir + "/n_01.img") && QFile::exists(dir + "/n_02.img"));
        // no temporary left by any thread
        for (const QString& name : QDir(dir).entryList(QDir::Files | QDir::Hidden))
            QVERIFY2(!name.contains(".tmp-"), qPrintable(name));
    }
};

QTEST_GUILESS_MAIN(TestFramesInFlight)
#include "tst_framesinflight.moc"
